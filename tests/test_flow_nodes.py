"""Every behaviour-graph node kind, one rule per test, asserting the order of events."""

from __future__ import annotations

from typing import Any

import pytest
from flow_support import (
    ALL,
    HAND,
    PLAYER,
    SELF,
    TARGET,
    THIS,
    M,
    add,
    card,
    enemy,
    seq,
    start,
    trace,
)
from flow_support import status as mkstatus

from gcs import events as ev
from gcs.content.defs import DeckEntry
from gcs.enums import BattlePhase, CardType, DrawPilePosition, Keyword, Pile, PileScope, TargetMode
from gcs.errors import FlowError
from gcs.flow import nodes as N
from gcs.flow.exprs import (
    BinOp,
    CardFilter,
    CardSel,
    Compare,
    CountOf,
    UnitSel,
    UnitStat,
    Var,
)
from gcs.game import Game


def play(g: Game, card_id: str, target: Any = None) -> list[str]:
    """Create ``card_id`` in hand, play it, return the trace of the play."""
    inst = add(g, card_id)
    assert g.try_play_card(inst, target), g.play_refusal(inst, target)
    return trace(g)


def var(name: str) -> CardSel:
    return CardSel("var", var=name)


# ---------------------------------------------------------------- control flow
def test_sequence_runs_steps_in_order() -> None:
    g = start(card("c", 0, on_play=seq(M(1), M(2), M(3))))
    assert play(g, "c") == ["play c", "m1", "m2", "m3"]


def test_branch_takes_then_or_otherwise_by_the_live_condition() -> None:
    energy_gt_1 = Compare("gt", UnitStat("energy"), 1)
    g = start(card("c", 0, on_play=seq(
        N.Branch(energy_gt_1, M(1), M(2)),
        N.GainEnergy(-3),
        N.Branch(energy_gt_1, M(3), M(4)),
        N.Branch(False, M(5)),  # no otherwise: nothing
        M(6))))
    assert trace(play(g, "c"), "m") == ["m1", "m4", "m6"]


def test_loop_runs_count_times_with_its_index_slot() -> None:
    g = start(card("c", 0, on_play=seq(
        N.Loop(3, N.GainGold(BinOp("add", Var("i"), 10)), var="i"),
        N.Loop(0, M(99)),
        N.Loop(-2, M(98)),
        M(1))))
    assert trace(play(g, "c"), "m") == ["m10", "m11", "m12", "m1"]


def test_loop_count_is_read_once_when_the_loop_starts() -> None:
    # the body grows the hand; the count (hand size at the start) does not change
    g = start(card("c", 0, on_play=N.Loop(CountOf(HAND), seq(
        N.AddCards("defend"), M(1)))))
    assert len(g.hand()) == 5
    assert trace(play(g, "c"), "m") == ["m1"] * 5  # the played card left the hand first
    assert len(g.hand()) == 10


def test_foreach_runs_the_body_per_selected_card_lifecycles_in_between() -> None:
    g = start(card("a", 1, tags=("t",), on_exhaust=M(100)),
              card("b", 1, tags=("t",), on_exhaust=M(100)),
              card("c", 0, on_play=N.Foreach(CardSel("hand", CardFilter(tags=("t",))), "x",
                                              seq(N.ExhaustCard(var("x")), M(1)))))
    add(g, "a")
    add(g, "b")
    assert trace(play(g, "c"), "exhaust", "m") == [
        "exhaust a", "m100", "m1", "exhaust b", "m100", "m1"]


def test_foreach_over_units_binds_each_unit() -> None:
    g = start(card("c", 0, on_play=N.Foreach(ALL, "u", N.DealDamage(
        3, UnitSel("var", var="u")))), encounter="two_posts")
    assert trace(play(g, "c"), "dmg") == ["dmg 1 3", "dmg 2 3"]


def test_foreach_skips_a_card_that_left_the_battle_but_visits_a_moved_one() -> None:
    """Decision (docs/rules/flow.md): the selection is fixed when the Foreach starts; a card
    that has left the battle (moved to MASTER/ALL) is skipped, one moved to another pile is
    still visited."""
    gone = CardSel("hand", CardFilter(card="gone"))
    moved = CardSel("hand", CardFilter(card="moved"))
    body = seq(N.MoveCard(gone, PileScope.MASTER), N.DiscardCard(moved),
               N.Foreach(var("x"), "y", N.GainGold(1)))  # counts the live slot: 1 per visit
    g = start(card("first", 1, tags=("t",)), card("gone", 1, tags=("t",)),
              card("moved", 1, tags=("t",)),
              card("c", 0, on_play=N.Foreach(CardSel("hand", CardFilter(tags=("t",))), "x",
                                              body)))
    for cid in ("first", "gone", "moved"):
        add(g, cid)
    assert trace(play(g, "c"), "moved", "discard", "m") == [
        "moved gone None", "discard moved", "m1",  # iteration of "first"
        "m1",                                     # "gone" skipped; "moved" (in Discard)
    ]


def test_while_repeats_until_its_condition_fails() -> None:
    g = start(card("c", 0, on_play=N.While(Compare("lt", UnitStat("energy"), 6),
                                            N.GainEnergy(1))))
    assert trace(play(g, "c"), "energy") == ["energy 1"] * 3
    assert g.energy == 6


def test_while_iteration_cap_raises_a_clear_flow_error() -> None:
    g = start(card("spin", 0, on_play=N.While(True, M(1), max_iterations=5)))
    inst = add(g, "spin")
    before = g.to_json()
    with pytest.raises(FlowError, match=r"While loop in card 'spin' on_play exceeded "
                                        r"max_iterations=5"):
        g.try_play_card(inst)
    # the engine error restored the state from before the call (docs/rules/boundary.md)
    assert trace(g, "m") == [] and g.to_json() == before


def test_call_runs_a_named_graph_in_the_callers_scope() -> None:
    """Decision: Call shares the caller's scope (slots set by the graph are the caller's)."""
    g = start(card("c", 0, on_play=seq(N.SetVar("x", 5), N.Call("g"), N.GainGold(Var("y")))),
              graphs={"g": seq(N.GainGold(Var("x")), N.SetVar("y", 7))})
    assert trace(play(g, "c"), "m") == ["m5", "m7"]


def test_call_recursion_through_a_sequence_with_a_base_case() -> None:
    countdown = seq(N.GainGold(Var("n")), N.SetVar("n", BinOp("sub", Var("n"), 1)),
                    N.Branch(Compare("gt", Var("n"), 0), N.Call("down")))
    g = start(card("c", 0, on_play=seq(N.SetVar("n", 3), N.Call("down"))),
              graphs={"down": countdown})
    assert trace(play(g, "c"), "m") == ["m3", "m2", "m1"]


def test_call_of_an_unknown_graph_or_endless_recursion_raises_flow_error() -> None:
    g = start(card("c", 0, on_play=N.Call("nope")))
    with pytest.raises(FlowError, match="unknown graph 'nope'"):
        g.try_play_card(add(g, "c"))
    g = start(card("c", 0, on_play=N.Call("r")), graphs={"r": N.Branch(True, N.Call("r"))})
    with pytest.raises(FlowError, match="recursed without end"):
        g.try_play_card(add(g, "c"))


def test_setvar_and_setobj_fill_value_and_object_slots() -> None:
    g = start(card("c", 0, on_play=seq(
        N.SetVar("x", BinOp("mul", 4, 5)),
        N.GainGold(Var("x")),
        N.SetObj("two", CardSel("hand", top=2)),
        N.GainGold(CountOf(var("two"))),
        N.ExhaustCard(var("two")),
        N.SetObj("me", PLAYER),
        N.GainBlock(Var("x"), UnitSel("var", var="me")))))
    first_two = [c.uid for c in g.hand()[:2]]
    assert trace(play(g, "c"), "m", "exhaust", "block") == [
        "m20", "m2", "exhaust defend", "exhaust defend", "block 0 20"]
    assert [c.uid for c in g.exhaust_pile()] == first_two


def test_reading_an_unset_value_slot_raises_flow_error() -> None:
    g = start(card("c", 0, on_play=N.GainGold(Var("nothing"))))
    with pytest.raises(FlowError, match="'nothing' is not set"):
        g.try_play_card(add(g, "c"))


@pytest.mark.parametrize(("node", "message"), [
    (N.WaitUntil("next_tuesday"), "unknown phase point 'next_tuesday'"),
    (N.ModifyCost(HAND, amount=-1, duration="forever"), "unknown duration 'forever'"),
    (N.Branch(Compare("approx", 1, 2), M(1)), "unknown comparison 'approx'"),
    (N.GainGold(BinOp("pow", 2, 3)), "unknown value operator 'pow'"),
])
def test_malformed_nodes_raise_flow_error_instead_of_guessing(node: N.Node,
                                                              message: str) -> None:
    g = start(card("c", 0, on_play=node))
    with pytest.raises(FlowError, match=message):
        g.try_play_card(add(g, "c"))


# ---------------------------------------------------------------- pausing nodes (basics)
def test_choice_binds_the_chosen_cards_then_runs_its_then_branch() -> None:
    pick = N.Choice(CardSel("hand", CardFilter(tags=("t",))), "pick",
                    then=N.ExhaustCard(var("pick")), skipped=M(9), prompt="exhaust one")
    g = start(card("a", 1, tags=("t",)), card("b", 1, tags=("t",)),
              card("c", 0, on_play=seq(pick, M(1))))
    add(g, "a")
    b = add(g, "b")
    assert play(g, "c") == ["play c", "choice 2"]
    pc = g.pending_choice
    assert pc is not None and pc.prompt == "exhaust one" and (pc.min, pc.max) == (1, 1)
    assert [x.card_id for x in pc.candidates] == ["a", "b"]
    g.choose([b])
    assert trace(g)[2:] == ["chosen 1", "exhaust b", "m1"]


def test_choice_with_no_candidates_takes_skipped_at_once() -> None:
    g = start(card("c", 0, on_play=seq(
        N.Choice(CardSel("hand", CardFilter(tags=("none",))), "p", then=M(1), skipped=M(9)),
        M(2))))
    assert play(g, "c") == ["play c", "skipped", "m9", "m2"]
    assert not g.is_waiting


def test_choice_without_presenter_takes_skipped_at_once() -> None:
    g = start(card("c", 0, on_play=seq(N.Choice(HAND, "p", then=M(1), skipped=M(9)), M(2))),
              presenter=False)
    assert play(g, "c") == ["play c", "skipped", "m9", "m2"]


def test_choice_over_units() -> None:
    g = start(card("c", 0, on_play=N.Choice(ALL, "foe", then=N.DealDamage(
        4, UnitSel("var", var="foe")))), encounter="two_posts")
    play(g, "c")
    g.choose([g.enemies[1]])
    assert trace(g, "dmg") == ["dmg 2 4"]


def test_wait_pauses_until_the_clock_has_advanced_its_seconds() -> None:
    g = start(card("c", 0, on_play=seq(M(1), N.Wait(2.0), M(2))))
    assert play(g, "c") == ["play c", "m1", "wait 2"]
    assert g.is_waiting and g.waiting_kind == "wait"
    assert g.advance_time(1.5) is False
    assert g.is_waiting and trace(g)[-1] == "wait 2"
    assert g.advance_time(0.5) is True
    assert trace(g)[3:] == ["resume wait", "m2"]
    assert not g.is_waiting


def test_wait_of_zero_seconds_does_not_pause() -> None:
    """Decision: Wait(seconds <= 0) is a no-op (no WaitStarted, no pause)."""
    g = start(card("c", 0, on_play=seq(M(1), N.Wait(0), N.Wait(-1), M(2))))
    assert play(g, "c") == ["play c", "m1", "m2"]


def test_animation_gate_pauses_until_complete_animation() -> None:
    g = start(card("c", 0, on_play=seq(M(1), N.AnimationGate("swing"), M(2))))
    assert play(g, "c") == ["play c", "m1", "gate swing"]
    assert g.is_waiting and not g.is_waiting_for_choice and g.waiting_kind == "gate"
    assert g.advance_time(100) is False  # the clock does not open gates
    assert g.complete_animation("other") is False
    assert g.is_waiting
    assert g.complete_animation("swing") is True
    assert trace(g)[3:] == ["resume gate", "m2"]


# ---------------------------------------------------------------- cards
def test_draw_cards_completes_each_cards_on_drawn_before_the_next_draw() -> None:
    g = start(card("d1", 1, on_drawn=M(1)), card("d2", 1, on_drawn=M(2)),
              card("c", 0, on_play=seq(
                  N.AddCards("d1", PileScope.DRAW, DrawPilePosition.TOP),
                  N.AddCards("d2", PileScope.DRAW, DrawPilePosition.TOP),
                  N.DrawCards(2), M(3))),
              statuses=[mkstatus("watch", on_drawn=M(50))], player_statuses={"watch": 1})
    # status On Drawn branches first (snapshot order), then the card's own On Drawn
    assert trace(play(g, "c"), "draw", "m") == [
        "draw d2", "m50", "m2", "draw d1", "m50", "m1", "m3"]


def test_draw_cards_stops_early_at_a_full_hand() -> None:
    g = start(card("c", 0, on_play=seq(N.AddCards("defend", count=5), N.DrawCards(3), M(1))))
    draw_before = len(g.draw_pile())
    assert trace(play(g, "c"), "draw", "m") == ["m1"]  # 5 + 5 = 10 = max hand size
    assert len(g.draw_pile()) == draw_before and len(g.hand()) == 10


def test_add_cards_to_every_pile_and_position() -> None:
    g = start(card("new", 1, on_discard=M(91), on_exhaust=M(92)),
              card("c", 0, on_play=seq(
                  N.AddCards("new", PileScope.HAND, var="h"),
                  N.AddCards("new", PileScope.DRAW, DrawPilePosition.TOP, upgraded=True),
                  N.AddCards("new", PileScope.DRAW, DrawPilePosition.BOTTOM, count=2),
                  N.AddCards("new", PileScope.DRAW, DrawPilePosition.RANDOM),
                  N.AddCards("new", PileScope.DISCARD),
                  N.AddCards("new", PileScope.EXHAUST, upgraded=True),
                  N.GainGold(CountOf(var("h"))))))
    # creation in place: no discard/exhaust lifecycle (no CardDiscarded, no On Discard)
    assert play(g, "c") == [
        "play c", "tohand new", "created new DRAW", "created new DRAW", "created new DRAW",
        "created new DRAW", "created new DISCARD", "created new EXHAUST", "m1"]
    draw = g.draw_pile()
    assert draw[-1].card_id == "new" and draw[-1].upgraded  # TOP = drawn next
    assert [c.card_id for c in draw[:2]] == ["new", "new"]  # BOTTOM
    assert sum(c.card_id == "new" for c in draw) == 4
    assert [c.card_id for c in g.hand()][-1] == "new" and not g.hand()[-1].upgraded
    assert [c.card_id for c in g.discard_pile()] == ["new", "c"]
    assert g.exhaust_pile()[0].upgraded


def test_add_cards_to_a_full_hand_goes_to_discard_with_the_lifecycle() -> None:
    g = start(card("new", 1, on_discard=M(91)),
              card("c", 0, on_play=seq(N.AddCards("defend", count=5), N.AddCards("new"), M(1))))
    assert trace(play(g, "c"), "discard", "m") == ["discard new", "m91", "m1"]


def test_add_cards_to_master_is_a_flow_error() -> None:
    g = start(card("c", 0, on_play=N.AddCards("defend", PileScope.MASTER)))
    with pytest.raises(FlowError, match="cannot create a battle card in MASTER"):
        g.try_play_card(add(g, "c"))


def test_move_card_to_each_pile_with_its_lifecycle() -> None:
    g = start(card("a", 1), card("b", 1), card("x", 1, on_discard=M(91), on_exhaust=M(92)),
              card("c", 0, on_play=seq(
                  N.MoveCard(CardSel("hand", CardFilter(card="a")), PileScope.DRAW),
                  N.MoveCard(CardSel("hand", CardFilter(card="b")), PileScope.DRAW,
                             DrawPilePosition.BOTTOM),
                  N.MoveCard(CardSel("hand", CardFilter(card="x")), PileScope.DISCARD),
                  N.MoveCard(CardSel("discard", CardFilter(card="x")), PileScope.DISCARD),
                  N.MoveCard(CardSel("discard", CardFilter(card="x")), PileScope.EXHAUST),
                  N.MoveCard(CardSel("exhaust", CardFilter(card="x")), PileScope.HAND),
                  N.MoveCard(CardSel("draw", CardFilter(card="a")), PileScope.MASTER),
                  M(1))))
    for cid in "abx":
        add(g, cid)
    # moving to the pile the card is in is a no-op (no second discard)
    assert play(g, "c") == [
        "play c", "moved a DRAW", "moved b DRAW", "discard x", "m91", "exhaust x", "m92",
        "tohand x", "moved a None", "m1"]
    assert g.draw_pile()[0].card_id == "b"
    assert "a" not in [c.card_id for c in g.pile(PileScope.ALL)]


def test_exhaust_and_discard_card_complete_each_lifecycle_before_the_next_card() -> None:
    g = start(card("a", 1, tags=("t",), on_discard=M(91), on_exhaust=M(92)),
              card("b", 1, tags=("t",), on_discard=M(91), on_exhaust=M(92)),
              card("c", 0, on_play=seq(
                  N.DiscardCard(CardSel("hand", CardFilter(tags=("t",)))),
                  N.ExhaustCard(CardSel("discard", CardFilter(tags=("t",)))), M(1))))
    add(g, "a")
    add(g, "b")
    assert trace(play(g, "c"), "discard", "exhaust", "m") == [
        "discard a", "m91", "discard b", "m91", "exhaust a", "m92", "exhaust b", "m92", "m1"]


def test_played_card_moved_by_its_own_on_play_keeps_that_destination() -> None:
    g = start(card("c", 0, on_play=N.MoveCard(THIS, PileScope.DRAW)))
    assert play(g, "c") == ["play c", "moved c DRAW"]
    assert g.draw_pile()[-1].card_id == "c"


# ---------------------------------------------------------------- units
def test_deal_damage_to_one_all_and_random_enemies() -> None:
    g = start(card("one", 0, target=TargetMode.SINGLE_ENEMY, on_play=N.DealDamage(5, TARGET)),
              card("all", 0, on_play=N.DealDamage(2, ALL)),
              card("rnd", 0, on_play=N.DealDamage(1, UnitSel("random_enemy"), hits=6)),
              encounter="two_posts")
    assert trace(play(g, "one", g.enemies[1]), "dmg") == ["dmg 2 5"]
    assert trace(play(g, "all"), "dmg") == ["dmg 1 2", "dmg 2 2"]
    hits = trace(play(g, "rnd"), "dmg")
    assert len(hits) == 6 and set(hits) <= {"dmg 1 1", "dmg 2 1"}


def test_random_damage_only_picks_living_enemies_per_hit() -> None:
    g = start(card("rnd", 0, on_play=seq(N.Kill(UnitSel("random_enemy")),
                                         N.DealDamage(1, UnitSel("random_enemy"), hits=5))),
              encounter="two_posts")
    tr = play(g, "rnd")
    dead = int(tr[1].split()[1])
    alive = 3 - dead
    assert tr[2:] == [f"dmg {alive} 1"] * 5


def test_repeated_hits_let_reactions_resolve_between_hits() -> None:
    spiky = mkstatus("spiky", on_attacked=M(77))
    g = start(card("multi", 0, target=TargetMode.SINGLE_ENEMY,
                   on_play=seq(N.DealDamage(3, TARGET, hits=3), M(1))),
              card("wide", 0, on_play=N.DealDamage(2, ALL, hits=2)),
              statuses=[spiky], enemies=[enemy("post", statuses={"spiky": 1})],
              encounter="two_posts")
    assert trace(play(g, "multi", 0), "dmg", "m") == [
        "dmg 1 3", "m77", "dmg 1 3", "m77", "dmg 1 3", "m77", "m1"]
    # every enemy per hit, hit after hit
    assert trace(play(g, "wide"), "dmg", "m") == [
        "dmg 1 2", "m77", "dmg 2 2", "m77", "dmg 1 2", "m77", "dmg 2 2", "m77"]


def test_block_hp_heal_energy_and_statuses() -> None:
    g = start(card("c", 0, on_play=seq(
        N.GainBlock(4, SELF), N.LoseHp(10, PLAYER), N.Heal(3, PLAYER), N.Heal(50, PLAYER),
        N.GainEnergy(2), N.ApplyStatus("strength", 2, PLAYER),
        N.ApplyStatus("vulnerable", 3, ALL), N.RemoveStatus("vulnerable", ALL, 1),
        N.RemoveStatus("strength", PLAYER))))
    assert [t for t in play(g, "c") if not t.startswith("intent")] == [
        "play c", "block 0 4", "hplost 0 10", "healed 0 3", "healed 0 7", "energy 2",
        "status 0 strength 2", "status 1 vulnerable 3", "status 1 vulnerable 2",
        "status 0 strength 0", "unstatus 0 strength"]
    p = g.player
    assert p is not None and (p.block, p.hp, g.energy) == (4, 80, 5)


def test_reactions_of_a_multi_unit_action_run_in_unit_order() -> None:
    react = mkstatus("react", on_apply=N.GainBlock(1, SELF),
                     on_damage_taken=N.GainBlock(2, SELF), on_death=M(66))
    g = start(card("c", 0, on_play=seq(N.ApplyStatus("react", 1, ALL), N.LoseHp(1, ALL),
                                       N.Kill(ALL))),
              statuses=[react], encounter="two_posts")
    assert trace(play(g, "c"), "status", "block", "hplost", "died", "m") == [
        "status 1 react 1", "status 2 react 1", "block 1 1", "block 2 1",
        "hplost 1 1", "hplost 2 1", "block 1 2", "block 2 2", "died 1", "died 2", "m66", "m66"]


def test_register_card_hook_with_turns_expires_at_player_turn_start_step_1() -> None:
    # turns=1: this turn only (gone before step 3 refills energy on turn 2); turns=2: 2 turns
    g = start(card("h1", 0, on_play=N.RegisterCardHook(N.HookDef("energy", amount=1), turns=1)),
              card("h2", 0, on_play=N.RegisterCardHook(N.HookDef("energy", amount=10),
                                                        turns=2)),
              card("cheap", 0, on_play=N.RegisterCardHook(
                  N.HookDef("cost", amount=-1, where=CardFilter(card="strike")), turns=1)))
    strike = add(g, "strike")
    play(g, "h1")
    play(g, "h2")
    play(g, "cheap")
    assert g.get_effective_energy_cost(strike) == 0
    g.end_player_turn()
    assert g.turn_number == 2 and g.energy == 13  # h1 expired, h2 still active
    assert g.get_effective_energy_cost(strike) == 1
    g.end_player_turn()
    assert g.energy == 3


def test_modify_cost_for_turn_battle_and_run() -> None:
    deck = (DeckEntry("defend", count=9), DeckEntry("strike"))
    strikes = CardSel("all", CardFilter(card="strike"))
    g = start(card("turn", 0, on_play=N.ModifyCost(strikes, amount=-1, duration="turn")),
              card("battle", 0, on_play=N.ModifyCost(strikes, set_to=3, duration="battle")),
              card("run", 0, on_play=N.ModifyCost(strikes, amount=1, duration="run")),
              deck=deck)
    strike = next(c for c in g.pile(PileScope.ALL) if c.card_id == "strike")
    assert trace(play(g, "run"), "modified") == ["modified strike cost"]
    assert g.get_effective_energy_cost(strike) == 2
    entry = next(m for m in g.get_master_deck() if m.card_id == "strike")
    assert entry.cost_delta == 1  # run: the master deck entry changes too
    play(g, "turn")
    assert g.get_effective_energy_cost(strike) == 1
    play(g, "battle")
    assert g.get_effective_energy_cost(strike) == 2  # set to 3, then this turn's -1
    g.end_player_turn()
    assert g.get_effective_energy_cost(strike) == 3  # the turn change expired
    entry = next(m for m in g.get_master_deck() if m.card_id == "strike")
    assert entry.cost_delta == 1  # turn and battle changes stay out of the run


def test_upgrade_card_switches_to_the_upgraded_variant() -> None:
    g = start(card("c", 0, on_play=N.UpgradeCard(CardSel("hand", CardFilter(card="strike")))))
    strike = add(g, "strike")
    assert trace(play(g, "c"), "modified") == ["modified strike upgrade"]
    assert strike.upgraded and strike.active.numbers["damage"] == 9


def test_transform_card_into_a_card_or_from_a_pool() -> None:
    g = start(card("into", 0, on_play=N.TransformCard(CardSel("hand", CardFilter(card="strike")),
                                                      into="bash")),
              card("pool", 0, on_play=N.TransformCard(
                  CardSel("hand", CardFilter(card="defend"), top=1),
                  pool=CardFilter(type=CardType.ATTACK))))
    strike = add(g, "strike")
    assert trace(play(g, "into"), "modified") == ["modified bash transform"]
    assert strike.card_id == "bash" and not strike.upgraded
    first = g.hand()[0]
    play(g, "pool")
    assert first.active.type is CardType.ATTACK and first.card_id != "defend"


def test_transform_drops_the_old_cards_cost_changes() -> None:
    """Decision: a transformed instance is a new card: the old card's run (master-deck) and
    temporary cost changes do not carry over."""
    deck = (DeckEntry("defend", count=9), DeckEntry("bash"))
    bashes = CardSel("all", CardFilter(card="bash"))
    g = start(card("cheapen", 0, on_play=seq(N.ModifyCost(bashes, amount=-1, duration="run"),
                                             N.ModifyCost(bashes, amount=-1))),
              card("into", 0, on_play=N.TransformCard(bashes, into="strike")), deck=deck)
    bash = next(c for c in g.pile(PileScope.ALL) if c.card_id == "bash")
    play(g, "cheapen")
    assert g.get_effective_energy_cost(bash) == 0
    play(g, "into")
    assert bash.card_id == "strike" and g.get_effective_energy_cost(bash) == 1


def test_spawned_enemy_gets_its_intent_at_once() -> None:
    g = start(card("c", 0, on_play=seq(N.SpawnEnemy("dummy", var="new"), M(1),
                                       N.DealDamage(2, UnitSel("var", var="new")))))
    assert play(g, "c") == ["play c", "spawn 2 dummy", "intent 2", "m1", "dmg 2 2"]
    assert g.enemies[1].pending_intents


def test_kill_and_revive() -> None:
    mourn = mkstatus("mourn", on_death=M(66))
    g = start(card("c", 0, on_play=seq(N.Kill(ALL), M(1), N.Revive(ALL, 7), M(2))),
              statuses=[mourn], enemies=[enemy("post", statuses={"mourn": 1})],
              encounter="two_posts")
    assert [t for t in play(g, "c") if not t.startswith("intent")] == [
        "play c", "died 1", "died 2", "m66", "m66", "m1", "revived 1 7", "revived 2 7", "m2"]
    assert [u.hp for u in g.enemies] == [7, 7] and g.phase is BattlePhase.PLAYER_PHASE


def test_gain_gold() -> None:
    g = start(card("c", 0, on_play=seq(N.GainGold(15), N.GainGold(-1000))))
    before = g.gold
    play(g, "c")
    assert [(e.amount, e.total) for e in g.event_log if isinstance(e, ev.GoldGained)] == [
        (15, before + 15), (-(before + 15), 0)]  # gold never goes below 0: the loss is what was there
    assert g.gold == 0


def test_end_turn_starts_player_turn_end_after_the_whole_wave() -> None:
    """EndTurn asks; PlayerTurnEnd starts after the rest of On Play, its Wait, the status
    On Play branches and the card's destination."""
    seen: list[str] = []
    g = start(card("stop", 0, on_play=seq(N.EndTurn(), M(1), N.Wait(1), M(2))),
              statuses=[mkstatus("echo", on_play=M(3))], player_statuses={"echo": 1})
    g.subscribe(ev.PhaseChanged, lambda e: seen.append(
        f"{e.new.name} {[c.card_id for c in g.discard_pile()]}"))
    play(g, "stop")
    assert g.phase is BattlePhase.PLAYER_PHASE and g.is_waiting
    g.advance_time(1)
    assert trace(g, "m", "phase")[:4] == ["m1", "m2", "m3", "phase PLAYER_TURN_END"]
    assert seen[0] == "PLAYER_TURN_END ['stop']"  # destination before the phase moved
    assert g.turn_number == 2 and g.phase is BattlePhase.PLAYER_PHASE


def test_end_turn_from_an_enemy_does_not_end_the_players_next_turn() -> None:
    """Decision: EndTurn outside PlayerTurnStart/PlayerPhase is ignored."""
    g = start(enemies=[enemy("foe", behaviour=N.EndTurn())], encounter="foe")
    g.end_player_turn()
    assert g.turn_number == 2 and g.phase is BattlePhase.PLAYER_PHASE


# ---------------------------------------------------------------- selectors
def test_card_filters_by_tag_type_and_keyword() -> None:
    g = start(card("tagged", 1, tags=("fire", "x")), card("eth", 1, keywords=(Keyword.ETHEREAL,)),
              card("c", 0, on_play=seq(
                  N.GainGold(CountOf(CardSel("hand", CardFilter(tags=("fire",))))),
                  N.GainGold(CountOf(CardSel("hand", CardFilter(tags=("fire", "y"))))),
                  N.GainGold(CountOf(CardSel("hand", CardFilter(type=CardType.ATTACK)))),
                  N.GainGold(CountOf(CardSel("hand", CardFilter(keyword=Keyword.ETHEREAL)))),
                  N.GainGold(CountOf(CardSel("hand", CardFilter(type=CardType.SKILL)))))))
    for cid in ("tagged", "eth", "strike", "bash"):
        add(g, cid)
    # skills: 5 defends + tagged + eth; the played card has left the hand
    assert trace(play(g, "c"), "m") == ["m1", "m0", "m2", "m1", "m7"]


def test_random_n_picks_distinct_cards_from_the_filtered_set() -> None:
    g = start(card("c", 0, on_play=N.ExhaustCard(
        CardSel("hand", CardFilter(card="strike"), random=2))))
    strikes = [add(g, "strike") for _ in range(4)]
    play(g, "c")
    ex = g.exhaust_pile()
    assert len(ex) == 2 and len({c.uid for c in ex}) == 2
    assert all(c in strikes for c in ex)
    # the same seed picks the same cards
    g2 = start(card("c", 0, on_play=N.ExhaustCard(
        CardSel("hand", CardFilter(card="strike"), random=2))))
    for _ in range(4):
        add(g2, "strike")
    play(g2, "c")
    assert [c.uid for c in g2.exhaust_pile()] == [c.uid for c in ex]


def test_top_n_of_the_draw_pile_is_the_next_cards_to_draw() -> None:
    g = start(card("c", 0, on_play=N.ExhaustCard(CardSel("draw", top=2))))
    top_two = [c.uid for c in g.draw_pile()[-2:]][::-1]
    play(g, "c")
    assert [c.uid for c in g.exhaust_pile()] == top_two


def test_this_selects_the_played_card_while_it_is_in_flight() -> None:
    g = start(card("c", 0, on_play=seq(N.GainGold(CountOf(THIS)),
                                       N.GainGold(CountOf(HAND)))))
    assert trace(play(g, "c"), "m") == ["m1", "m5"]
    assert g.discard_pile()[-1].pile is Pile.DISCARD


def test_card_hook_registered_outside_the_players_turn_counts_from_the_next_turn() -> None:
    # A hook made during the enemy phase (here: a delayed continuation at the end of the
    # EnemyPhase) with turns=1 applies to the next player turn instead of expiring unseen.
    g = start(card("later", 0, on_play=N.Sequence((
        N.WaitUntil("enemy_phase_end"),
        N.RegisterCardHook(N.HookDef("energy", amount=1), turns=1)))))
    play(g, "later")
    g.end_player_turn()
    assert g.turn_number == 2 and g.energy == 4  # active during turn 2
    g.end_player_turn()
    assert g.energy == 3  # and gone at turn 3


def test_extra_turn_node_grants_a_player_turn_with_the_same_turn_number() -> None:
    g = start(card("vault", 0, on_play=seq(N.ExtraTurn(), N.EndTurn())))
    play(g, "vault")
    # the turn ended at once (EndTurn after the wave) and went back to PlayerTurnStart
    phases = [p for p, _ in g.phase_history]
    assert phases[-3:] == [BattlePhase.PLAYER_TURN_END, BattlePhase.PLAYER_TURN_START,
                           BattlePhase.PLAYER_PHASE]
    assert BattlePhase.ENEMY_PHASE not in phases
    assert g.turn_number == 1 and len(g.hand()) == 5  # a new draw, same turn number
    g.end_player_turn()
    assert g.turn_number == 2  # the next end goes through the EnemyPhase as usual


def test_draw_forbid_hook_stops_every_draw_while_active() -> None:
    g = start(card("trance", 0, on_play=seq(
        N.DrawCards(2), N.RegisterCardHook(N.HookDef("draw", "forbid"), turns=1))))
    play(g, "trance")
    assert g.draw_cards(2) == 0  # forbidden for the rest of the turn
    g.end_player_turn()
    assert len(g.hand()) == 5 and g.draw_cards(1) == 1  # expired at the next turn start


def test_a_target_that_dies_mid_effect_takes_nothing_more_and_the_effect_goes_on() -> None:
    # SPEC 3.7: hits and statuses aimed at a dead target do nothing; the rest of the effect runs
    g = start(card("doom", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
                   on_play=seq(N.Kill(TARGET), N.DealDamage(6, TARGET, hits=3),
                               N.ApplyStatus("weak", 2, TARGET), M(1), N.DealDamage(4, ALL))),
              encounter="two_posts")
    first, second = g.enemies
    tr = play(g, "doom", first)
    assert tr.index("died 1") < tr.index("m1")
    assert [t for t in tr if t.startswith("dmg")] == ["dmg 2 4"]  # only the living post
    assert first.statuses == {} and not first.alive and second.alive

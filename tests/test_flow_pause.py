"""SPEC 2.16: Choice, Wait and Animation Gate pause the whole effect wave of the Entry.

One test per sentence of the seeds (battle-lifecycle guide, 001), asserting event order.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flow_support import (
    ALL,
    HAND,
    PLAYER,
    THIS,
    M,
    add,
    card,
    enemy,
    flow_pack,
    seq,
    start,
    trace,
)
from flow_support import status as mkstatus

from gcs import events as ev
from gcs.content.defs import DeckEntry
from gcs.enums import (
    BattlePhase,
    CardType,
    DrawPilePosition,
    Keyword,
    Pile,
    PileScope,
    TargetMode,
)
from gcs.errors import ChoiceError, GameError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter, CardSel, Compare, UnitSel, UnitStat, Var
from gcs.game import Game


def play(g: Game, card_id: str, target: Any = None) -> list[str]:
    inst = add(g, card_id)
    assert g.try_play_card(inst, target), g.play_refusal(inst, target)
    return trace(g)


def var(name: str) -> CardSel:
    return CardSel("var", var=name)


WAIT = N.Wait(1.0)
PICK = N.Choice(HAND, "pick", then=N.ExhaustCard(CardSel("var", var="pick")))


# ---------------------------------------------------------------- how far a pause reaches
@pytest.mark.parametrize("pause", ["wait", "choice", "gate"])
def test_pause_holds_the_rest_of_the_sequence(pause: str) -> None:
    nodes: dict[str, N.Node] = {"wait": WAIT, "choice": PICK, "gate": N.AnimationGate()}
    node = nodes[pause]
    g = start(card("c", 0, on_play=seq(M(1), node, M(2))))
    play(g, "c")
    assert trace(g, "m") == ["m1"] and g.is_waiting
    if pause == "wait":
        g.advance_time(1)
    elif pause == "choice":
        g.choose(0)
    else:
        g.complete_animation()
    assert trace(g, "m") == ["m1", "m2"] and not g.is_waiting


def test_pause_holds_the_remaining_loop_iterations() -> None:
    g = start(card("c", 0, on_play=seq(
        N.Loop(3, seq(N.GainGold(Var("i")), N.Wait(1), N.GainGold(10)), var="i"), M(99))))
    play(g, "c")
    marks = []
    while g.is_waiting:
        marks.append(trace(g, "m"))
        g.advance_time(1)
    assert marks == [["m0"], ["m0", "m10", "m1"], ["m0", "m10", "m1", "m10", "m2"]]
    assert trace(g, "m") == ["m0", "m10", "m1", "m10", "m2", "m10", "m99"]


def test_pause_holds_the_remaining_foreach_items() -> None:
    g = start(card("a", 1, tags=("t",)), card("b", 1, tags=("t",)),
              card("c", 0, on_play=seq(N.Foreach(CardSel("hand", CardFilter(tags=("t",))), "x",
                                                 seq(N.Wait(1), N.DiscardCard(var("x")))),
                                       M(1))))
    add(g, "a")
    add(g, "b")
    play(g, "c")
    assert trace(g, "discard", "m") == []
    g.advance_time(1)
    assert trace(g, "discard", "m") == ["discard a"]
    g.advance_time(1)
    assert trace(g, "discard", "m") == ["discard a", "discard b", "m1"]


def test_pause_holds_the_played_cards_lifecycle() -> None:
    """While On Play waits the card is in no pile; its Exhaust lifecycle comes after."""
    g = start(card("c", 0, keywords=(Keyword.EXHAUST,), on_exhaust=M(92),
                   on_play=seq(M(1), WAIT, M(2))))
    play(g, "c")
    inst = g.played_this_turn()[0]
    assert inst.pile is Pile.LIMBO and inst not in g.hand() + g.exhaust_pile()
    g.advance_time(1)
    assert trace(g)[1:] == ["m1", "wait 1", "resume wait", "m2", "exhaust c", "m92"]


def test_pause_holds_the_next_cards_lifecycle() -> None:
    """A discard lifecycle that waits holds the discard of the next selected card."""
    g = start(card("a", 1, tags=("t",), on_discard=seq(M(91), WAIT, M(92))),
              card("b", 1, tags=("t",), on_discard=M(93)),
              card("c", 0, on_play=seq(N.DiscardCard(CardSel("hand", CardFilter(tags=("t",)))),
                                       M(1))))
    add(g, "a")
    b = add(g, "b")
    play(g, "c")
    assert trace(g, "discard", "m") == ["discard a", "m91"]
    assert b.pile is Pile.HAND
    g.advance_time(1)
    assert trace(g, "discard", "m") == ["discard a", "m91", "m92", "discard b", "m93", "m1"]


def test_pause_holds_the_queued_phase_transitions_at_turn_end() -> None:
    g = start(statuses=[mkstatus("slow", on_turn_end=seq(M(1), WAIT, M(2)))],
              player_statuses={"slow": 1})
    assert g.end_player_turn() is True
    assert g.phase is BattlePhase.PLAYER_TURN_END and g.is_waiting
    assert trace(g, "m", "turnend", "phase") == ["phase PLAYER_TURN_END", "m1"]
    g.advance_time(1)
    assert trace(g, "m", "turnend", "phase")[1:] == [
        "m1", "m2", "turnend 1", "phase ENEMY_PHASE", "phase PLAYER_TURN_START",
        "phase PLAYER_PHASE"]


def test_pause_at_turn_start_holds_the_draw_and_the_player_phase() -> None:
    g = start(statuses=[mkstatus("slow", on_turn_start=seq(M(1), N.AnimationGate(), M(2)))],
              player_statuses={"slow": 1})
    g.end_player_turn()
    assert g.phase is BattlePhase.PLAYER_TURN_START and g.is_waiting
    assert trace(g, "draw", "m")[-1] == "m1"
    hand = g.hand()[0] if g.hand() else None
    assert hand is None  # turn-end discarded the hand; the turn-2 draw has not happened
    g.complete_animation()
    assert trace(g, "draw", "m", "phase")[-8:] == [
        "m1", "m2", "draw defend", "draw defend", "draw defend", "draw defend", "draw defend",
        "phase PLAYER_PHASE"]


def test_pause_in_an_enemy_intent_holds_the_next_enemy_and_the_turn() -> None:
    g = start(enemies=[enemy("foe", behaviour=seq(M(1), WAIT, M(2)))], encounter="post_foe")
    g2 = start(enemies=[enemy("foe", behaviour=seq(M(1), WAIT, M(2)))], encounter="foe")
    for game in (g, g2):
        game.end_player_turn()
        assert game.phase is BattlePhase.ENEMY_PHASE and game.is_waiting
        game.advance_time(1)
        assert trace(game, "m", "phase")[-4:] == [
            "m1", "m2", "phase PLAYER_TURN_START", "phase PLAYER_PHASE"]


def test_pause_in_the_opening_draw_holds_the_rest_of_start_battle() -> None:
    ask = card("ask", 1, on_drawn=seq(M(1), N.Choice(HAND, "p", then=N.DiscardCard(var("p"))),
                                      M(2)))
    pack = flow_pack([ask], deck=(DeckEntry("ask", count=1), DeckEntry("defend", count=9)))
    for seed in range(40):
        g = Game(pack, seed=seed)
        g.start_battle("post")
        if g.is_waiting_for_choice:
            break
    else:
        pytest.fail("no seed draws 'ask' in the opening hand")
    assert g.phase is BattlePhase.INITIALIZE and g.turn_number == 0
    drawn = len(trace(g, "draw"))
    g.choose(0)
    tail = trace(g, "m", "draw", "discard", "phase")
    assert tail[tail.index("m1"):] == (
        ["m1", "discard defend", "m2"] + ["draw defend"] * (5 - drawn)
        + ["phase PLAYER_TURN_START", "phase PLAYER_PHASE"])
    assert g.turn_number == 1


def test_pause_in_a_status_on_drawn_branch_holds_the_cards_own_branch_and_next_draw() -> None:
    g = start(card("d", 1, on_drawn=M(2)),
              card("c", 0, on_play=seq(
                  N.AddCards("d", PileScope.DRAW, DrawPilePosition.TOP, count=2),
                  N.DrawCards(2))),
              statuses=[mkstatus("watch", on_drawn=seq(M(1), N.AnimationGate()))],
              player_statuses={"watch": 1})
    play(g, "c")
    assert trace(g, "draw", "m") == ["draw d", "m1"]
    g.complete_animation()
    assert trace(g, "draw", "m") == ["draw d", "m1", "m2", "draw d", "m1"]
    g.complete_animation()
    assert trace(g, "draw", "m") == ["draw d", "m1", "m2", "draw d", "m1", "m2"]


def test_pause_in_a_reaction_holds_the_next_hit() -> None:
    g = start(card("multi", 0, target=TargetMode.SINGLE_ENEMY,
                   on_play=seq(N.DealDamage(3, UnitSel("target"), hits=2), M(1))),
              statuses=[mkstatus("spiky", on_attacked=seq(M(7), N.Wait(1)))],
              enemies=[enemy("post", statuses={"spiky": 1})])
    play(g, "multi", 0)
    assert trace(g, "dmg", "m") == ["dmg 1 3", "m7"]
    g.advance_time(1)
    assert trace(g, "dmg", "m") == ["dmg 1 3", "m7", "dmg 1 3", "m7"]
    g.advance_time(1)
    assert trace(g, "dmg", "m") == ["dmg 1 3", "m7", "dmg 1 3", "m7", "m1"]


# ---------------------------------------------------------------- the input lock
@pytest.mark.parametrize("pause", ["wait", "choice", "gate"])
def test_input_is_locked_while_paused(pause: str) -> None:
    nodes: dict[str, N.Node] = {"wait": WAIT, "choice": PICK, "gate": N.AnimationGate("g")}
    node = nodes[pause]
    g = start(card("c", 0, on_play=seq(node, M(1))))
    other = g.hand()[1]  # (the Choice answer below exhausts hand[0])
    play(g, "c")
    assert g.is_waiting
    assert g.is_waiting_for_choice is (pause == "choice")
    assert (g.pending_choice is not None) is (pause == "choice")
    before = json.dumps(g.to_json(), sort_keys=True)
    n = len(g.event_log)
    assert g.can_play_card(other) is False
    assert g.try_play_card(other) is False
    assert g.end_player_turn() is False
    with pytest.raises(GameError):
        g.draw_cards(1)
    assert g.phase is BattlePhase.PLAYER_PHASE
    assert json.dumps(g.to_json(), sort_keys=True) == before and len(g.event_log) == n
    if pause != "choice":
        with pytest.raises(ChoiceError, match="no Choice is open"):
            g.choose(0)
    if pause == "choice":
        g.choose(0)
    else:
        g.settle()
    assert not g.is_waiting and g.can_play_card(other) and trace(g, "m") == ["m1"]


def test_wrong_choice_answers_raise_and_change_nothing() -> None:
    two = N.Choice(CardSel("hand", CardFilter(card="strike")), "p", min=2, max=3,
                   then=N.ExhaustCard(CardSel("var", var="p")))
    g = start(card("c", 0, on_play=two), encounter="two_posts")
    strikes = [add(g, "strike") for _ in range(4)]
    defend = g.hand()[0]
    play(g, "c")
    pc = g.pending_choice
    assert pc is not None and (pc.min, pc.max) == (2, 3) and pc.candidates == strikes
    before = json.dumps(g.to_json(), sort_keys=True)
    n = len(g.event_log)
    clone = g.clone()
    foreign = clone.hand()[-1]  # equal card, but of another game
    for wrong in ([strikes[0]], strikes, [defend, strikes[0]], [0], [0, 1, 2, 3], [0, 4],
                  [0, -1], [strikes[0], strikes[0]], [0, 0], [True, 1], [foreign, strikes[1]],
                  [g.enemies[0], strikes[1]], ["0", 1], [], strikes[0], 7):
        with pytest.raises(ChoiceError):
            g.choose(wrong)
        assert json.dumps(g.to_json(), sort_keys=True) == before, wrong
        assert len(g.event_log) == n and g.is_waiting_for_choice
    g.choose([strikes[3], 1])
    assert [c.uid for c in g.exhaust_pile()] == [strikes[3].uid, strikes[1].uid]


def test_choice_min_and_max_are_capped_by_the_number_of_candidates() -> None:
    g = start(card("c", 0, on_play=N.Choice(CardSel("hand", CardFilter(card="strike")), "p",
                                            min=3, max=5)))
    add(g, "strike")
    add(g, "strike")
    play(g, "c")
    pc = g.pending_choice
    assert pc is not None and (pc.min, pc.max) == (2, 2)


def test_choice_with_min_zero_accepts_an_empty_answer() -> None:
    g = start(card("c", 0, on_play=seq(N.Choice(HAND, "p", min=0, max=1,
                                                then=N.ExhaustCard(var("p"))), M(1))))
    play(g, "c")
    g.choose([])
    assert trace(g)[-2:] == ["chosen 0", "m1"] and g.exhaust_pile() == []


def test_advance_time_partial_does_not_resume_and_extra_time_carries_over() -> None:
    """Decision: the clock is exact; time left over after a Wait ends counts towards the
    next Wait of the same wave."""
    g = start(card("c", 0, on_play=seq(N.Wait(1.0), M(1), N.Wait(2.0), M(2), N.Wait(5.0),
                                       M(3))))
    play(g, "c")
    assert g.advance_time(0.25) is False and g.advance_time(0.25) is False
    assert trace(g, "m") == []
    assert g.advance_time(3.0) is True  # ends the 1 s wait (0.5 more) and the 2 s wait
    assert trace(g, "m", "wait", "resume") == [
        "wait 1", "resume wait", "m1", "wait 2", "resume wait", "m2", "wait 5"]
    assert g.clock == pytest.approx(3.5)
    g.advance_time(4.0)
    assert trace(g, "m") == ["m1", "m2"]
    g.advance_time(0.5)
    assert trace(g, "m") == ["m1", "m2", "m3"] and g.clock == pytest.approx(8.0)


def test_advance_time_outside_a_wait_only_moves_the_clock() -> None:
    g = start()
    assert g.advance_time(2) is False and g.clock == 2
    with pytest.raises(GameError):
        g.advance_time(-1)


# ---------------------------------------------------------------- captured state
def test_wait_resumes_with_the_same_selected_objects() -> None:
    """Object slots keep the selection (a random enemy is not re-picked on resume)."""
    g = start(card("c", 0, on_play=seq(N.SetObj("foe", UnitSel("random_enemy")), WAIT,
                                       N.DealDamage(1, UnitSel("var", var="foe"), hits=1),
                                       N.DealDamage(1, UnitSel("var", var="foe")))),
              encounter="two_posts", seed=11)
    play(g, "c")
    g.advance_time(1)
    hits = trace(g, "dmg")
    assert len(hits) == 2 and hits[0] == hits[1]


def test_choice_result_is_a_live_object_slot_and_values_stay_frozen() -> None:
    """SetVar freezes a number; the object slot reads the unit's current HP."""
    g = start(card("c", 0, target=TargetMode.SINGLE_ENEMY, on_play=seq(
        N.SetVar("hp0", UnitStat("hp", UnitSel("target"))),
        N.Choice(ALL, "foe"),
        N.DealDamage(5, UnitSel("var", var="foe")),
        N.GainGold(Var("hp0")),
        N.GainGold(UnitStat("hp", UnitSel("var", var="foe"))))))
    play(g, "c", 0)
    g.choose(0)
    assert trace(g, "m") == ["m500", "m495"]


# ---------------------------------------------------------------- nested loops
def test_nested_loops_go_on_only_after_the_resumed_iteration_completes() -> None:
    body = seq(N.GainGold(Var("i")), N.Wait(1), N.GainGold(10))
    inner = N.Foreach(CardSel("hand", CardFilter(tags=("t",))), "x", body)
    g = start(card("a", 1, tags=("t",)), card("b", 1, tags=("t",)),
              card("c", 0, on_play=seq(N.Loop(2, inner, var="i"), M(99))))
    add(g, "a")
    add(g, "b")
    play(g, "c")
    while g.is_waiting:
        g.advance_time(1)
    assert trace(g, "m") == ["m0", "m10", "m0", "m10", "m1", "m10", "m1", "m10", "m99"]
    assert trace(g, "wait").count("wait 1") == 4


def test_while_waits_for_its_body_before_testing_again() -> None:
    g = start(card("c", 0, on_play=N.While(
        Compare("lt", UnitStat("block", PLAYER), 3),
        seq(N.Choice(HAND, "p", then=N.GainBlock(1, PLAYER)), M(1)))))
    play(g, "c")
    for _ in range(3):
        assert g.is_waiting_for_choice
        g.choose(0)
    assert not g.is_waiting and trace(g, "m") == ["m1"] * 3


# ---------------------------------------------------------------- one ordered batch
def test_status_on_play_branches_form_one_batch_and_the_play_completes_once() -> None:
    """Two statuses hit by one play: the first waits, the second runs only after it, and
    the card's hooks and destination wait for both."""
    costs: list[str] = []
    hook = N.RegisterCardHook(N.HookDef("cost", amount=-1, where=CardFilter(card="strike")))
    g = start(card("c", 0, keywords=(Keyword.EXHAUST,), on_play=seq(M(1), hook)),
              statuses=[mkstatus("first", on_play=seq(M(2), WAIT, M(3))),
                        mkstatus("second", on_play=M(4))],
              player_statuses={"first": 1, "second": 1})
    strike = add(g, "strike")
    g.subscribe(ev.Event, lambda e: costs.append(
        f"{trace([e])[0]}:{g.get_effective_energy_cost(strike)}")
        if isinstance(e, (ev.GoldGained, ev.CardExhausted)) else None)
    play(g, "c")
    assert trace(g, "m", "wait") == ["m1", "m2", "wait 1"]
    assert g.get_effective_energy_cost(strike) == 1  # hook not registered yet
    g.advance_time(1)
    assert trace(g, "m", "exhaust") == ["m1", "m2", "m3", "m4", "exhaust c"]
    # the hook registered after every branch, before the destination
    assert costs == ["m1:1", "m2:1", "m3:1", "m4:1", "exhaust c:0"]


def test_turn_end_status_batch_completes_once_before_the_phase_advances() -> None:
    g = start(statuses=[mkstatus("first", on_turn_end=seq(M(1), N.Choice(CardSel("discard"), "p"),
                                                           M(2))),
                        mkstatus("second", on_turn_end=seq(M(3), WAIT, M(4)))],
              player_statuses={"first": 1, "second": 1})
    g.end_player_turn()
    assert trace(g, "m")[-1] == "m1" and g.is_waiting_for_choice
    g.choose(0)
    assert trace(g, "m")[-1] == "m3" and g.waiting_kind == "wait"
    assert g.phase is BattlePhase.PLAYER_TURN_END
    g.advance_time(1)
    tail = trace(g, "m", "turnend", "phase")
    assert tail[tail.index("m1"):] == [
        "m1", "m2", "m3", "m4", "turnend 1", "phase ENEMY_PHASE", "phase PLAYER_TURN_START",
        "phase PLAYER_PHASE"]
    assert trace(g).count("turnend 1") == 1


def test_persistent_hooks_of_a_played_card_register_after_a_choice_in_a_status_branch() -> None:
    hook = N.RegisterCardHook(N.HookDef("energy", amount=1))
    g = start(card("power", 0, type=CardType.POWER, on_play=hook),
              statuses=[mkstatus("ask", on_play=N.Choice(HAND, "p"))],
              player_statuses={"ask": 1})
    play(g, "power")
    assert g.is_waiting_for_choice and g._e.s.hooks == []
    g.choose(0)
    assert len(g._e.s.hooks) == 1
    g.end_player_turn()
    assert g.energy == 4


def test_the_played_card_selected_by_this_during_a_pause() -> None:
    g = start(card("c", 0, on_play=seq(WAIT, N.ExhaustCard(THIS))))
    play(g, "c")
    g.advance_time(1)
    assert trace(g, "exhaust") == ["exhaust c"] and g.exhaust_pile()[0].card_id == "c"

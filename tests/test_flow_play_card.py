"""Nested plays (seed 004 "normal and nested cards"): the Play Card node runs steps 2-5 for the
card it plays; and Card Hooks whose scope counts enemy turns (EnemyPhase step 4)."""

from __future__ import annotations

from flow_support import TARGET, THIS, M, add, card, seq, start, trace

import gcs
from gcs import events as ev
from gcs.content.defs import DeckEntry
from gcs.enums import BattlePhase, CardType, Keyword, PileScope, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter, CardSel

TOP = CardSel("draw", top=1)
TIP = card("tip", 1, on_play=M(5))
BURNER = card("burner", 1, keywords=(Keyword.EXHAUST,), on_play=M(6))
LOCKED = card("locked", 0, type=CardType.CURSE, keywords=(Keyword.UNPLAYABLE,))
POKE = card("poke", 1, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
            on_play=N.DealDamage(4, TARGET))


def game(*cards: gcs.GameCard, top: str = "tip", encounter: str = "post") -> gcs.Game:
    g = start(TIP, BURNER, LOCKED, POKE, *cards, encounter=encounter,
              deck=(DeckEntry("defend", count=10),))
    g.add_card_to_pile(top, PileScope.DRAW, gcs.DrawPilePosition.TOP)
    g.clear_event_log()
    return g


def test_play_card_nested_play_runs_steps_2_to_5_for_the_top_of_draw() -> None:
    g = game(card("hv", 1, on_play=seq(N.PlayCard(TOP), M(9))))
    tip = g.draw_pile()[-1]
    hv = add(g, "hv")
    assert g.try_play_card(hv)
    # hv: step 2-3; its On Play plays tip for free (steps 2-5, no EnergySpent), then goes on
    assert trace(g, "play", "m", "EnergySpent", "discard") == [
        "EnergySpent", "play hv", "play tip", "m5", "m9"]
    played = [x for x in g.event_log if isinstance(x, ev.CardPlayed)]
    assert [(x.instance_id, x.cost) for x in played] == [(hv.uid, 1), (tip.uid, 0)]
    assert g.played_this_turn() == [hv, tip]
    assert g.discard_pile() == [tip, hv]  # step 5 for both: Discard without the lifecycle
    assert g.energy == 2


def test_play_card_at_its_cost_pays_or_is_skipped_without_the_energy() -> None:
    g = game(card("paid", 0, on_play=N.PlayCard(TOP, free=False)))
    tip = g.draw_pile()[-1]
    assert g.try_play_card(add(g, "paid"))
    assert [x for x in g.event_log if isinstance(x, ev.EnergySpent)] == [ev.EnergySpent(1, 2)]
    assert tip in g.discard_pile()
    g = game(card("paid", 0, on_play=N.PlayCard(TOP, free=False)))
    g._e.s.energy = 0
    tip = g.draw_pile()[-1]
    assert g.try_play_card(add(g, "paid"))
    assert g.draw_pile()[-1] is tip and tip not in g.played_this_turn()


def test_play_card_authored_destination_and_exhaust_keyword() -> None:
    g = game(card("hv", 0, on_play=N.PlayCard(TOP, to=PileScope.EXHAUST)))
    tip = g.draw_pile()[-1]
    assert g.try_play_card(add(g, "hv"))
    assert ev.CardExhausted(tip.uid, "tip", None, PileScope.EXHAUST) in g.event_log
    assert g.exhaust_pile() == [tip]
    g = game(card("hv", 0, on_play=N.PlayCard(TOP)), top="burner")
    burner = g.draw_pile()[-1]
    assert g.try_play_card(add(g, "hv"))
    assert ev.CardExhausted(burner.uid, "burner", None, PileScope.EXHAUST) in g.event_log


def test_play_card_a_copy_is_created_in_no_pile_and_the_original_stays() -> None:
    g = game(card("echo", 0, on_play=N.PlayCard(CardSel("hand", CardFilter(card="tip")),
                                                copy=True, var="c")))
    tip = add(g, "tip")
    assert g.try_play_card(add(g, "echo"))
    copies = [x for x in g.event_log if isinstance(x, ev.CardCreated)]
    assert len(copies) == 1 and copies[0].from_pile is None and copies[0].to_pile is None
    assert tip in g.hand()  # the original was not played
    copy = next(c for c in g.discard_pile() if c.uid == copies[0].instance_id)
    assert copy.card_id == "tip" and copy in g.played_this_turn()
    assert trace(g, "play", "m") == ["play echo", "play tip", "m5"]


def test_play_card_target_chosen_by_the_node_or_a_random_living_enemy() -> None:
    g = game(card("aim", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
                  on_play=N.PlayCard(TOP, target=TARGET)), top="poke", encounter="two_posts")
    a, b = g.enemies
    assert g.try_play_card(add(g, "aim"), b)
    assert b.hp == b.max_hp - 4 and a.hp == a.max_hp
    poke_play = [x for x in g.event_log if isinstance(x, ev.CardPlayed)][-1]
    assert poke_play.card_id == "poke" and poke_play.target == b.uid
    g = game(card("wild", 0, on_play=N.PlayCard(TOP)), top="poke", encounter="two_posts")
    assert g.try_play_card(add(g, "wild"))
    hit = [x for x in g.event_log if isinstance(x, ev.DamageDealt)]
    assert len(hit) == 1 and hit[0].target in (1, 2) and hit[0].amount == 4


def test_play_card_does_not_play_an_unplayable_card() -> None:
    g = game(card("hv", 0, on_play=N.PlayCard(TOP)), top="locked")
    locked = g.draw_pile()[-1]
    assert g.try_play_card(add(g, "hv"))
    assert g.draw_pile()[-1] is locked and locked not in g.played_this_turn()


def test_play_card_a_nested_play_that_wins_lets_the_outer_play_finish_first() -> None:
    nuke = card("nuker", 0, type=CardType.ATTACK, target=TargetMode.ALL_ENEMIES,
                on_play=N.DealDamage(999, gcs.flow.exprs.UnitSel("all_enemies")))
    g = game(nuke, card("hv", 0, on_play=seq(N.PlayCard(TOP), M(9))), top="nuker")
    assert g.try_play_card(add(g, "hv"))
    tr = trace(g, "play", "m", "died", "phase")
    assert tr == ["play hv", "play nuker", "died 1", "m9", "phase BATTLE_WON"]
    assert g.phase is BattlePhase.BATTLE_WON


def test_play_card_from_the_hand_itself_and_this_while_in_flight_is_not_replayed() -> None:
    tips = CardSel("hand", CardFilter(card="tip"))
    g = game(card("again", 0, on_play=seq(N.PlayCard(THIS), N.PlayCard(tips))))
    tip = add(g, "tip")
    again = add(g, "again")
    assert g.try_play_card(again)
    assert [x.card_id for x in g.event_log if isinstance(x, ev.CardPlayed)] == ["again", "tip"]
    assert g.discard_pile() == [tip, again]


def test_havoc_plays_the_top_card_of_draw_and_exhausts_it() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=3)
    g.set_master_deck(["defend"] * 6 + ["havoc"])
    g.start_battle("jaw_worm")
    havoc = g.add_card_to_hand("havoc")
    top = g.draw_pile()[-1]
    n = len(g.event_log)
    assert g.try_play_card(havoc)
    evs = g.event_log[n:]
    played = [x.instance_id for x in evs if isinstance(x, ev.CardPlayed)]
    assert played == [havoc.uid, top.uid]
    assert ev.CardExhausted(top.uid, "defend", None, PileScope.EXHAUST) in evs
    assert g.exhaust_pile() == [top] and havoc in g.discard_pile()
    assert g.player is not None and g.player.block == 5
    assert g.energy == 2


# ---------------------------------------------------------------- Hooks at EnemyPhase step 4
CHEAP = N.HookDef("cost", amount=-1, where=CardFilter(card="defend"))


def hook_game(scope: str, turns: int, encounter: str = "post") -> tuple[gcs.Game, list[int]]:
    g = start(card("h", 0, on_play=N.RegisterCardHook(CHEAP, turns=turns, scope=scope)),
              encounter=encounter)
    d = g.hand()[0]
    costs: list[int] = []
    g.subscribe(ev.PhaseChanged, lambda x: costs.append(g.get_effective_energy_cost(d))
                if x.new is BattlePhase.PLAYER_TURN_START else None)
    assert g.try_play_card(add(g, "h"))
    assert g.get_effective_energy_cost(d) == 0
    return g, costs


def test_hook_scope_enemy_turns_is_removed_at_enemy_phase_step_4() -> None:
    g, costs = hook_game("enemy_turns", 1)
    g.end_player_turn()
    assert costs == [1]  # already gone when PlayerTurnStart begins: removed in EnemyPhase
    g, costs = hook_game("player_turns", 1)
    g.end_player_turn()
    assert costs == [0]  # a player-turn hook lasts until PlayerTurnStart step 1


def test_hook_scope_enemy_turns_counts_each_enemy_turn() -> None:
    g, costs = hook_game("enemy_turns", 2, "two_posts")
    g.end_player_turn()  # two enemy turns end in this round
    assert costs == [1] and g.get_effective_energy_cost(g.hand()[0]) == 1
    g, costs = hook_game("enemy_turns", 3, "two_posts")
    g.end_player_turn()
    d = next(c for c in g.hand() if c.card_id == "defend")
    assert costs == [0] and g.get_effective_energy_cost(d) == 0
    g.end_player_turn()
    assert costs == [0, 1]


def test_yaml_play_card_and_remove_from_battle_compile_to_their_nodes() -> None:
    c = gcs.builtin_content()
    assert c.cards["havoc"].on_play == N.PlayCard(
        TOP, target=gcs.flow.exprs.UnitSel("random_enemy"), to=PileScope.EXHAUST)
    for cid, d in c.cards.items():
        if d.type is CardType.POWER:  # every bundled Power authors its destination
            assert isinstance(d.on_play, N.Sequence), cid
            assert d.on_play.steps[-1] == N.RemoveFromBattle(THIS), cid


def test_play_card_mayhem_style_status_plays_the_top_card_at_turn_start() -> None:
    mayhem = gcs.StatusDef("mayhem", "Mayhem", entries={"on_turn_start": N.PlayCard(TOP)})
    g = start(TIP, statuses=[mayhem], player_statuses={"mayhem": 1},
              deck=(DeckEntry("defend", count=10),))
    g.add_card_to_pile("tip", PileScope.DRAW, gcs.DrawPilePosition.TOP)
    g.clear_event_log()
    g.end_player_turn()
    assert g.phase is BattlePhase.PLAYER_PHASE and g.turn_number == 2
    assert trace(g, "play", "m") == ["play tip", "m5"]
    # played at step 6, after step 5 cleared the record: it counts for this turn
    assert [c.card_id for c in g.played_this_turn()] == ["tip"]
    assert any(c.card_id == "tip" for c in g.discard_pile())


def test_play_card_omniscience_style_choose_then_play_twice_and_exhaust() -> None:
    omni = card("omni", 0, on_play=N.Choice(CardSel("draw"), "c", then=seq(
        N.Loop(2, N.PlayCard(CardSel("var", var="c"))), N.ExhaustCard(CardSel("var", var="c")))))
    g = game(omni)
    tip = g.draw_pile()[-1]
    assert g.try_play_card(add(g, "omni"))
    g.choose([tip])
    assert trace(g, "play", "m", "exhaust") == ["play omni", "play tip", "m5", "play tip", "m5",
                                                 "exhaust tip"]
    assert g.exhaust_pile() == [tip] and g.played_this_turn().count(tip) == 2


def test_play_card_a_nested_play_paused_in_a_wait_saves_and_resumes_identically() -> None:
    slow = card("slowtip", 0, on_play=seq(M(1), N.Wait(1.0), M(2)))
    g = game(slow, card("hv", 0, on_play=seq(N.PlayCard(TOP, to=PileScope.EXHAUST), M(9))),
             top="slowtip")
    assert g.try_play_card(add(g, "hv"))
    assert g.is_waiting
    h = gcs.Game.from_json(g.content, g.to_json())
    for x in (g, h):
        x.advance_time(1.0)
    assert h == g and trace(g, "m")[-3:] == ["m1", "m2", "m9"]
    assert [c.card_id for c in g.exhaust_pile()] == ["slowtip"]


def test_yaml_play_card_fields_card_hook_scope_and_decay_at_load_and_dump_round_trip() -> None:
    from gcs import load_content
    from gcs.content import dump
    from gcs.flow.exprs import UnitSel

    cards = {
        "omni": {"name": "O", "cost": 1, "type": "skill", "target": "single_enemy", "on_play": [
            {"play_card": {"from": "hand", "where": {"type": "attack"}, "free": False,
                           "copy": True, "target": "target", "to": "discard", "as": "p"}},
            "card_hook cost add -1 scope enemy_turns turns 2",
            "remove_from_battle this"]}}
    statuses = {"weak": {"decay": "minus_one", "decay_at": "round_end"}}
    c = load_content({"pack": "p", "cards": cards, "statuses": statuses})
    steps = c.cards["omni"].on_play
    assert isinstance(steps, N.Sequence)
    play, hook, out = steps.steps
    assert play == N.PlayCard(CardSel("hand", CardFilter(type=CardType.ATTACK)), free=False,
                              copy=True, target=UnitSel("target"), to=PileScope.DISCARD,
                              var="p")
    assert isinstance(hook, N.RegisterCardHook) and hook.scope == "enemy_turns"
    assert hook.turns == 2 and out == N.RemoveFromBattle(THIS)
    assert c.statuses["weak"].decay_at == "round_end"
    again = load_content({"pack": "p", "cards": {"omni": dump.card(c.cards["omni"])},
                          "statuses": {"weak": dump.status(c.statuses["weak"])}})
    assert again.cards["omni"] == c.cards["omni"] and again.statuses == c.statuses


def test_yaml_bad_decay_moment_and_hook_scope_are_content_errors() -> None:
    from gcs import ContentError, load_content

    bad = {"pack": "p", "statuses": {"weak": {"decay_at": "dawn"}}, "cards": {"h": {
        "name": "H", "cost": 0, "type": "skill", "on_play": "card_hook cost add -1 scope forever"}}}
    try:
        load_content(bad)
    except ContentError as exc:
        text = str(exc)
        assert "decay_at" in text and "dawn" in text and "forever" in text
    else:
        raise AssertionError("bad content loaded")

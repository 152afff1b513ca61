"""Armor decay, delayed triggers and extra turns at their steps of seed 001."""

from __future__ import annotations

import pytest
from test_units_support import (
    SELF,
    card,
    encounter,
    enemy,
    game,
    idle,
    in_order,
    mark,
    marks,
    pack,
    probe,
    seq,
    status,
    trace,
)

import gcs
from gcs.content.db import Content
from gcs.content.defs import AiDef, DeckEntry
from gcs.enums import ArmorDecayRule
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel, UnitStat
from gcs.lazylog import materialize

PLAYER = UnitSel("player")


def armor_pack(player: dict[str, int] | None = None, foe: dict[str, int] | None = None) -> Content:
    return pack(
        statuses=[status("barricade", keeps_block=True),
                  status("peek", entries={"on_turn_start": probe(5, UnitStat("block", SELF))})],
        enemies=[enemy("turtle", 80, [idle("shell", N.GainBlock(9, SELF)), idle("rest")],
                       AiDef(cycle=("shell", "rest")), statuses=foe)],
        encounters=[encounter("turtle")],
        cards=[card("wall", 0, on_play=N.GainBlock(9, SELF))],
        deck=[DeckEntry("wall", count=10)], player_statuses=player,
    )


@pytest.mark.parametrize(("rule", "want"), [
    (ArmorDecayRule.RESET, 0), (ArmorDecayRule.KEEP, 9), (ArmorDecayRule.HALVE, 4)])
def test_armor_decay_rule_for_the_player_at_player_turn_start_step_2(
        rule: ArmorDecayRule, want: int) -> None:
    g = game(armor_pack({"peek": 1}), "turtle",
             rules=gcs.BattleRules(armor_decay=rule))
    assert g.try_play_card(g.hand()[0])
    n = len(g.event_log)
    g.end_player_turn()
    assert g.player is not None and g.player.block == want
    tr = trace(g, n)
    start = tr[tr.index(("phase", "PLAYER_TURN_START")):]
    # step 2 before the step-6 turn-start behaviours (which see the decayed block)
    assert ("mark", 5, want) in start
    if rule is not ArmorDecayRule.KEEP:
        assert in_order(start, ("block_set", 0, want), ("mark", 5, want), ("TurnStarted",))
    else:
        assert not [t for t in start if t[0] == "block_set"]


@pytest.mark.parametrize(("rule", "want"), [
    (ArmorDecayRule.RESET, 0), (ArmorDecayRule.KEEP, 9), (ArmorDecayRule.HALVE, 4)])
def test_armor_decay_rule_for_each_enemy_at_its_own_turn_start(
        rule: ArmorDecayRule, want: int) -> None:
    g = game(armor_pack(foe={"peek": 1}), "turtle",
             rules=gcs.BattleRules(armor_decay=rule))
    g.end_player_turn()  # the turtle shells (9 block)
    assert g.enemies[0].block == 9  # the player's turn start does not touch enemy block
    n = len(g.event_log)
    g.end_player_turn()  # at its turn start (step 1) the rule applies, before its behaviours
    assert g.enemies[0].block == want
    assert ("mark", 5, want) in trace(g, n)


def test_armor_keeps_block_status_overrides_the_rule() -> None:
    g = game(armor_pack({"barricade": 1}, {"barricade": 1}), "turtle")
    assert g.try_play_card(g.hand()[0])
    g.end_player_turn()
    assert g.player is not None and g.player.block == 9 and g.enemies[0].block == 9
    g.end_player_turn()
    assert g.enemies[0].block == 9  # kept through the turtle's turn start


# ---------------------------------------------------------------- delayed triggers
def delayed_pack() -> Content:
    return pack(
        statuses=[status("ticker", entries={"on_turn_start": mark(60), "on_turn_end": mark(61)})],
        enemies=[enemy("slug", 80, [idle("ooze", mark(70))])],
        encounters=[encounter("slug")],
        cards=[
            card("later", 0, on_play=seq(mark(1), N.WaitUntil("player_turn_start"),
                                         probe(2, UnitStat("energy")),
                                         probe(3, UnitStat("block", PLAYER)))),
            card("tonight", 0, on_play=seq(mark(4), N.WaitUntil("player_turn_end"), mark(5))),
            card("dusk", 0, on_play=seq(mark(6), N.WaitUntil("enemy_phase_end"), mark(7))),
            card("wall", 0, on_play=N.GainBlock(5, SELF)),
        ],
        deck=[DeckEntry("wall", count=10)], player_statuses={"ticker": 1},
    )


def test_delayed_trigger_player_turn_start_runs_at_step_4_after_armor_and_energy() -> None:
    g = game(delayed_pack(), "slug")
    assert g.try_play_card(g.hand()[0])  # 5 block
    assert g.try_play_card(g.add_card_to_hand("later"))
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    start = tr[tr.index(("phase", "PLAYER_TURN_START")):]
    # armor reset (step 2) and energy refill (step 3) happened; then step 6 behaviours
    assert in_order(start, ("block_set", 0, 0), ("mark", 2, 3), ("mark", 3, 0), ("mark", 60),
                    ("DrawPhase",))


def test_delayed_trigger_player_turn_end_runs_at_step_4_after_decay_before_turn_ended() -> None:
    c = delayed_pack()
    g = game(c, "slug")
    assert g.try_play_card(g.add_card_to_hand("tonight"))
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("DiscardPhase",), ("mark", 61), ("mark", 5), ("TurnEnded",),
                    ("phase", "ENEMY_PHASE"))


def test_delayed_trigger_enemy_phase_end_runs_at_step_5_before_new_intents() -> None:
    g = game(delayed_pack(), "slug")
    assert g.try_play_card(g.add_card_to_hand("dusk"))
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("phase", "ENEMY_PHASE"), ("mark", 70), ("mark", 7),
                    ("intent", 1, "ooze", None), ("phase", "PLAYER_TURN_START"))
    assert g.turn_number == 2


def test_delayed_triggers_run_in_scheduling_order() -> None:
    g = game(delayed_pack(), "slug")
    for cid in ("tonight", "later", "dusk"):
        assert g.try_play_card(g.add_card_to_hand(cid))
    g.end_player_turn()
    got = [m[0] for m in marks(g) if m[0] < 60]
    assert got == [4, 1, 6, 5, 7, 2, 3]


# ---------------------------------------------------------------- extra turns
def test_extra_turn_goes_back_to_player_turn_start_without_enemy_phase() -> None:
    # The counter is set directly, as the ExtraTurn node does (tests/test_flow_nodes.py).
    g = game(delayed_pack(), "slug")
    g._e.s.extra_turns = 1
    assert g.try_play_card(g.hand()[0])
    assert len(g.played_this_turn()) == 1
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("TurnEnded",), ("phase", "PLAYER_TURN_START"), ("DrawPhase",),
                    ("TurnStarted",), ("phase", "PLAYER_PHASE"))
    assert ("phase", "ENEMY_PHASE") not in tr
    # TurnNumber counts rounds: unchanged; played and drawn lists are this turn's
    assert g.turn_number == 1 and g.played_this_turn() == []
    assert len(g.drawn_this_turn()) == 5
    assert g.player is not None and g.player.block == 0  # armor rule applies again
    n = len(g.event_log)
    g.end_player_turn()
    assert ("phase", "ENEMY_PHASE") in trace(g, n) and g.turn_number == 2


def test_extra_turn_counts_for_card_hook_expiry_and_delayed_player_triggers() -> None:
    c = pack(cards=[card("surge", 0, on_play=N.RegisterCardHook(N.HookDef("energy", "add", 1),
                                                                 turns=1)),
                    card("later", 0, on_play=seq(N.WaitUntil("player_turn_start"), mark(1)))],
             deck=[DeckEntry("strike", count=10)])
    g = game(c, "dummy")
    materialize(g)  # (the test sets a state field directly, which no replay repeats)
    g._e.s.extra_turns = 1
    assert g.try_play_card(g.add_card_to_hand("surge"))
    assert g.try_play_card(g.add_card_to_hand("later"))
    g.end_player_turn()
    assert g.turn_number == 1 and g.energy == 3 and marks(g) == [(1,)]

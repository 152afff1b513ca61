"""SPEC 2.11 (StartBattle), battle end and activity (2.9, 2.17 core parts), master deck
vs starting deck and the per-battle random streams."""

from __future__ import annotations

from typing import Any

import pytest
from core_support import (
    mark,
    pack,
    snapshot,
    start,
    trace,
    uids,
    watch_tag,
    watcher,
)

import gcs
from gcs import BattlePhase as P
from gcs import events as ev
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import IntentKind
from gcs.errors import NotInBattleError, RewardError, RunOverError, UnknownIdError
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel
from gcs.rng import Rng, derive

KILLER = EnemyDef("killer", "Killer", 30, 30, moves=(
    MoveDef("kill", "Kill", IntentKind.ATTACK, damage=999,
            behaviour=N.DealDamage(999, UnitSel("target"))),), ai=AiDef(cycle=("kill",)))
BEGIN = StatusDef("begin", "Begin", entries={"on_battle_start": mark(51)})


def s_pack(**kw: Any) -> gcs.Content:
    return pack(statuses=[watcher("eye", 100), BEGIN], enemies=[KILLER],
                encounters=[EncounterDef("killer", "Killer", ("killer",)),
                            EncounterDef("mixed", "Mixed", ("dummy", "jaw_worm", "dummy"))],
                player_statuses={"eye": 1, "begin": 1}, **kw)


# ---------------------------------------------------------------- the seven steps
def test_start_battle_step1_clears_the_previous_battle() -> None:
    g = start(s_pack(), ["zero"] * 8 + ["nuke", "burn"], hand=5, seed=4)
    old = g.pile(gcs.PileScope.ALL)
    g.try_play_card(g.add_card_to_hand("burn"))
    g.try_play_card(g.add_card_to_hand("nuke"))
    g.skip_reward()
    g.start_battle("dummy")
    assert g.exhaust_pile() == [] and g.discard_pile() == [] and g.played_this_turn() == []
    assert sorted(c.card_id for c in g.pile(gcs.PileScope.ALL)) == sorted(
        ["zero"] * 8 + ["nuke", "burn"])
    assert not set(map(id, old)) & set(map(id, g.pile(gcs.PileScope.ALL)))
    with pytest.raises(NotInBattleError):
        g.move_card_to_pile(old[0], gcs.PileScope.DISCARD)
    assert g.phase_history == [(P.INITIALIZE, 0), (P.PLAYER_TURN_START, 1),
                               (P.PLAYER_PHASE, 1)]
    assert g.energy == 3 and g.turn_number == 1


def test_start_battle_step1_during_an_active_battle_starts_afresh() -> None:
    g = start(s_pack(), ["zero"] * 10, hand=5)
    g.try_play_card(g.hand()[0])
    g.end_player_turn()
    g.start_battle("two_dummies")
    assert g.turn_number == 1 and len(g.hand()) == 5 and len(g.draw_pile()) == 5
    assert g.played_this_turn() == [] and len(g.enemies) == 2


def test_start_battle_step2_units_from_the_encounter_in_order() -> None:
    g = start(s_pack(), ["zero"] * 10, encounter="mixed")
    assert [u.def_id for u in g.enemies] == ["dummy", "jaw_worm", "dummy"]
    assert [u.uid for u in g.enemies] == [1, 2, 3]
    assert g.player is not None and g.player.uid == 0 and g.player.hp == 80
    assert g.player.stacks("eye") == 1 and g.player.stacks("begin") == 1


def test_start_battle_step2_player_hp_comes_from_the_run() -> None:
    g = start(s_pack(), ["zero"] * 9 + ["nuke"], encounter="jaw_worm", hand=10)
    g.end_player_turn()  # the worm chomps for 11
    assert g.player is not None and g.player.hp == 69
    n = next(c for c in g.pile(gcs.PileScope.ALL) if c.card_id == "nuke")
    g.move_card_to_pile(n, gcs.PileScope.HAND)
    g.try_play_card(n)
    g.skip_reward()
    assert g.run_hp == (69, 80)
    g.start_battle("dummy")
    assert g.player is not None and g.player.hp == 69


@pytest.mark.parametrize("seed", [0, 1, 99])
def test_start_battle_step3_draw_pile_is_the_master_deck_shuffled_by_the_battle_stream(
        seed: int) -> None:
    g = gcs.Game(s_pack(), seed=seed)
    g.set_master_deck(["strike", "defend", "bash", "zero", "two", "burn", "curse", "zap"])
    for battle in (1, 2):
        if battle == 2:
            g.start_battle("mixed")  # a new battle: a new stream
        else:
            g.start_battle("dummy")
        first = 1 + 8 * (battle - 1)  # instance ids go on from the last battle's
        order = list(range(first, first + 8))
        Rng(derive(derive(seed, f"battle{battle}"), "shuffle")).shuffle(order)
        assert uids(g.draw_pile()) == order[:-5]
        assert uids(g.hand()) == order[::-1][:5]
        assert [c.card_id for c in g.pile(gcs.PileScope.ALL)] != []


def test_start_battle_step4_opening_hand_is_drawn_before_battle_started() -> None:
    g = start(s_pack(), ["zero"] * 10 + ["innate"])
    tr = trace(g.event_log)
    tr = tr[tr.index(("phase", "INITIALIZE")):]  # after set_master_deck's CardAddedToDeck
    started = tr.index(("BattleStarted",))
    draws = [i for i, t in enumerate(tr) if t[0] == "CardDrawn"]
    assert len(draws) == 5 and max(draws) < started
    assert tr[0] == ("phase", "INITIALIZE") and tr[draws[0]] == ("CardDrawn", g.hand()[0].uid)
    assert g.hand()[0].card_id == "innate"


def test_start_battle_step5_turn_number_1_and_battle_started_during_initialize() -> None:
    g = gcs.Game(s_pack(), seed=3)
    seen: list[Any] = []
    g.subscribe(ev.BattleStarted, lambda x: seen.append(
        (x, g.phase, g.turn_number, g.is_battle_active, len(g.hand()),
         [u.intent for u in g.enemies])))
    g.start_battle("jaw_worm")
    assert seen == [(ev.BattleStarted("jaw_worm", 1), P.INITIALIZE, 1, True, 5, [None])]


def test_start_battle_step6_first_intents_then_battle_start_statuses() -> None:
    g = start(s_pack(), ["zero"] * 10, encounter="jaw_worm")
    tr = trace(g.event_log)
    assert tr.index(("BattleStarted",)) < tr.index(("EnemyUnitIntentChanged",)) < tr.index(
        ("mark", watch_tag(100, "on_battle_start"))) < tr.index(("mark", 51000)) < tr.index(
        ("phase", "PLAYER_TURN_START"))
    assert g.enemies[0].pending_intents[0].move == "chomp"


def test_start_battle_step7_player_turn_start_then_player_phase_before_returning() -> None:
    g = start(s_pack(), ["zero"] * 10)
    tr = trace(g.event_log)
    i = tr.index(("phase", "PLAYER_TURN_START"))
    assert tr[-2:] == [("TurnStarted",), ("phase", "PLAYER_PHASE")] and i < len(tr) - 2
    assert g.phase is P.PLAYER_PHASE and not g.is_waiting


def test_start_battle_none_raises_and_starts_nothing() -> None:
    g = gcs.Game(s_pack(), seed=1)
    snap = snapshot(g)
    with pytest.raises(gcs.GameError, match="no battle started"):
        g.start_battle(None)
    assert snapshot(g) == snap and g.phase is P.NONE and not g.is_battle_active
    assert g.event_log == []


def test_start_battle_none_during_a_battle_leaves_it_alone() -> None:
    g = start(s_pack(), ["zero"] * 10)
    snap = snapshot(g)
    n = len(g.event_log)
    with pytest.raises(gcs.GameError):
        g.start_battle(None)
    assert snapshot(g) == snap and len(g.event_log) == n


def test_start_battle_unknown_encounter_raises_and_changes_nothing() -> None:
    g = start(s_pack(), ["zero"] * 10)
    snap = snapshot(g)
    with pytest.raises(UnknownIdError, match="nope"):
        g.start_battle("nope")
    bad = EncounterDef("bad", "Bad", ("no_such_enemy",))
    with pytest.raises(UnknownIdError, match="no_such_enemy"):
        g.start_battle(bad)
    assert snapshot(g) == snap


def test_start_battle_accepts_an_encounter_definition() -> None:
    g = gcs.Game(s_pack(), seed=1)
    g.start_battle(EncounterDef("adhoc", "Adhoc", ("dummy", "dummy")))
    assert len(g.enemies) == 2 and g.phase is P.PLAYER_PHASE


# ---------------------------------------------------------------- master vs starting deck
def test_start_battle_character_starting_deck_fills_the_master_deck_at_creation() -> None:
    g = gcs.Game(s_pack(), seed=1)
    assert sorted(m.card_id for m in g.get_master_deck()) == sorted(
        ["strike"] * 5 + ["defend"] * 4 + ["bash"])
    g.start_battle("dummy")
    assert len(g.pile(gcs.PileScope.ALL)) == 10


def test_start_battle_empty_master_deck_uses_the_starting_deck_without_changing_it() -> None:
    g = gcs.Game(s_pack(), seed=1)
    g.clear_master_deck()
    g.start_battle("dummy")
    assert sorted(c.card_id for c in g.pile(gcs.PileScope.ALL)) == sorted(
        ["strike"] * 5 + ["defend"] * 4 + ["bash"])
    assert g.get_master_deck() == []


def test_start_battle_master_deck_wins_over_the_starting_deck() -> None:
    g = gcs.Game(s_pack(), seed=1)
    g.set_master_deck(["zero", "two"])
    g.start_battle("dummy")
    assert sorted(c.card_id for c in g.pile(gcs.PileScope.ALL)) == ["two", "zero"]


def test_start_battle_both_decks_empty_gives_a_battle_with_no_cards() -> None:
    g = gcs.Game(s_pack(deck=()), seed=1)
    assert g.get_master_deck() == []
    g.start_battle("dummy")
    assert g.pile(gcs.PileScope.ALL) == [] and g.phase is P.PLAYER_PHASE
    assert g.draw_cards(3) == 0
    assert g.end_player_turn() and g.turn_number == 2 and g.hand() == []


# ---------------------------------------------------------------- battle end and activity
def test_battle_active_from_initialize_through_battle_ended_then_closed() -> None:
    g = gcs.Game(s_pack(), seed=1)
    g.set_master_deck(["nuke"] * 6)
    assert not g.is_battle_active and g.phase_history == []
    seen: list[Any] = []
    g.subscribe(ev.PhaseChanged, lambda x: seen.append((x.new, g.is_battle_active)))
    g.subscribe(ev.BattleEnded, lambda x: seen.append(("ended", g.is_battle_active, g.phase)))
    g.start_battle("dummy")
    g.try_play_card(g.hand()[0])
    assert g.phase is P.BATTLE_WON and g.is_battle_active and g.is_waiting_for_reward
    g.skip_reward()
    assert seen == [(P.INITIALIZE, True), (P.PLAYER_TURN_START, True), (P.PLAYER_PHASE, True),
                    (P.BATTLE_WON, True), ("ended", True, P.BATTLE_WON), (P.NONE, False)]
    assert isinstance(g.event_log[-2], ev.BattleEnded)
    assert not g.is_battle_active and g.phase is P.NONE


def test_battle_after_battle_ended_phase_none_piles_empty_history_kept() -> None:
    g = start(s_pack(), ["nuke"] * 6)
    g.try_play_card(g.hand()[0])
    g.skip_reward()
    assert g.phase is P.NONE and not g.is_battle_active and g.current_hand is None
    assert g.pile(gcs.PileScope.ALL) == [] and g.played_this_turn() == []
    assert g.enemies == [] and g.last_result is True
    assert g.phase_history == [(P.INITIALIZE, 0), (P.PLAYER_TURN_START, 1),
                               (P.PLAYER_PHASE, 1), (P.BATTLE_WON, 1), (P.NONE, 1)]
    g.start_battle("dummy")
    assert g.phase_history[0] == (P.INITIALIZE, 0) and len(g.phase_history) == 3


def test_battle_victory_offers_rewards_then_battle_ended_after_apply_or_skip() -> None:
    for finish in ("apply", "skip"):
        g = start(s_pack(), ["nuke"] * 6, encounter="jaw_worm")
        g.try_play_card(g.hand()[0])
        tr = trace(g.event_log)
        assert tr.index(("phase", "BATTLE_WON")) < tr.index(
            ("mark", watch_tag(100, "on_battle_end"))) < tr.index(("BattleRewardOffered",))
        assert ("BattleEnded",) not in tr and g.is_waiting_for_reward
        n = len(g.event_log)
        if finish == "apply":
            g.apply_reward(0)
        else:
            g.skip_reward()
        ended = [x for x in g.event_log[n:] if isinstance(x, ev.BattleEnded)]
        assert len(ended) == 1 and ended[0].won is True
        assert not g.is_waiting_for_reward and g.phase is P.NONE


def test_battle_defeat_has_no_reward_and_ends_with_won_false() -> None:
    g = start(s_pack(), ["zero"] * 10, encounter="killer")
    n = len(g.event_log)
    assert g.end_player_turn()
    evs = g.event_log[n:]
    tr = trace(evs)
    assert ("BattleRewardOffered",) not in tr
    assert tr.index(("phase", "BATTLE_LOST")) < tr.index(
        ("mark", watch_tag(100, "on_battle_end"))) < tr.index(("BattleEnded",))
    ended = [x for x in evs if isinstance(x, ev.BattleEnded)]
    assert ended[0].won is False
    assert g.phase is P.NONE and g.last_result is False and not g.is_waiting_for_reward
    assert g.run_hp[0] == 0


def test_start_battle_while_a_reward_is_offered_is_refused_and_changes_nothing() -> None:
    """Issue 30: the won battle's BattleEnded comes with its reward decision; a start_battle
    that skipped it would never publish it. Refused (RewardError), nothing changed."""
    g = start(s_pack(), ["nuke"] * 6, encounter="jaw_worm")
    g.try_play_card(g.hand()[0])
    assert g.is_waiting_for_reward
    snap, n = snapshot(g), len(g.event_log)
    with pytest.raises(RewardError, match=r"take it \(apply_reward\) or skip it "
                       r"\(skip_reward\) first; that publishes its BattleEnded"):
        g.start_battle("dummy")
    assert snapshot(g) == snap and len(g.event_log) == n and g.is_waiting_for_reward
    g.skip_reward()
    assert isinstance(g.event_log[-2], ev.BattleEnded)
    g.start_battle("dummy")  # the reward decided: the next battle starts
    assert g.phase is P.PLAYER_PHASE


def test_start_battle_after_a_lost_run_is_refused_the_run_is_over() -> None:
    """Issue 26 item 11: the next battle of a lost run started at 1 HP. A lost battle ends the
    run (run HP 0), as in Slay the Spire: start_battle raises RunOverError and changes
    nothing; a new run is a new Game (the master-deck calls still work)."""
    g = start(s_pack(), ["zero"] * 10, encounter="killer")
    assert g.end_player_turn() and g.last_result is False and g.run_hp[0] == 0
    snap, n = snapshot(g), len(g.event_log)
    for enc in ("dummy", "jaw_worm"):
        with pytest.raises(RunOverError, match="the run is over: its last battle was lost"):
            g.start_battle(enc)
    assert snapshot(g) == snap and len(g.event_log) == n and not g.is_battle_active
    g.add_card_to_master_deck("zero")  # the run's deck can still be read and changed
    fresh = gcs.Game(g.content, seed=2)
    fresh.set_master_deck(["zero"] * 10)
    fresh.start_battle("dummy")
    assert fresh.player is not None and fresh.player.hp == fresh.player.max_hp

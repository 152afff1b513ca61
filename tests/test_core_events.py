"""SPEC 2.19 (the events table), subscription and determinism (same seed, same log,
across processes too)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from core_support import (
    TARGET,
    THIS,
    autoplay_log,
    new_events,
    pack,
    start,
    trace,
)
from minipack import card

import gcs
from gcs import HandDiscardRule, PileScope
from gcs import events as ev
from gcs.content.defs import EncounterDef
from gcs.enums import CardType, Keyword, TargetMode
from gcs.errors import BusyError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter, CardSel

TESTS = Path(__file__).parent
WEAKEN = card("weaken", 0, target=TargetMode.SINGLE_ENEMY, on_play=N.ApplyStatus("weak", 1, TARGET))
UPGRADER = card("upgrader", 0, on_play=N.UpgradeCard(CardSel("hand", CardFilter(card="strike"))))
CHEAPEN = card("cheapen", 0, on_play=N.ModifyCost(CardSel("hand", CardFilter(card="two")), -1))
SHIFT = card("shift", 0, on_play=N.TransformCard(CardSel("hand", CardFilter(card="curse")),
                                                 into="zero"))
SELF_UP = card("self_up", 0, on_play=N.UpgradeCard(THIS))


def e_pack() -> gcs.Content:
    return pack(WEAKEN, UPGRADER, CHEAPEN, SHIFT, SELF_UP,
                encounters=[EncounterDef("keep", "Keep", ("dummy",),
                                         hand_discard=HandDiscardRule.PERSIST)])


def game(**kw: Any) -> gcs.Game:
    return start(e_pack(), kw.pop("deck", ["zero"] * 12), hand=kw.pop("hand", 3), **kw)


# ---------------------------------------------------------------- the table, row by row
def test_event_card_played_payload_and_timing() -> None:
    g = game(encounter="jaw_worm")
    s = g.add_card_to_hand("strike")
    n = len(g.event_log)
    g.try_play_card(s, 0)
    evs = new_events(g, n)
    assert evs[:2] == [ev.EnergySpent(1, 2), ev.CardPlayed(s.uid, "strike", False, 1, 1)]
    assert isinstance(evs[2], ev.DamageDealt)  # On Play runs after CardPlayed


def test_event_card_modified_on_upgrade_cost_and_transform() -> None:
    g = game()
    s = g.add_card_to_hand("strike")
    t = g.add_card_to_hand("two")
    c = g.add_card_to_hand("curse")
    n = len(g.event_log)
    g.try_play_card(g.add_card_to_hand("upgrader"))
    g.try_play_card(g.add_card_to_hand("cheapen"))
    g.try_play_card(g.add_card_to_hand("shift"))
    mods = [x for x in new_events(g, n) if isinstance(x, ev.CardModified)]
    assert mods == [ev.CardModified(s.uid, "strike", "upgrade", True),
                    ev.CardModified(t.uid, "two", "cost", False),
                    ev.CardModified(c.uid, "zero", "transform", False)]
    assert s.upgraded and g.get_effective_energy_cost(t) == 1 and c.card_id == "zero"


def test_event_card_modified_upgrade_during_own_on_play_changes_the_instance() -> None:
    g = game()
    u = g.add_card_to_hand("self_up")
    n = len(g.event_log)
    g.try_play_card(u)
    assert ev.CardModified(u.uid, "self_up", "upgrade", True) in new_events(g, n)
    assert u.upgraded and g.discard_pile()[-1] is u


def test_event_card_drawn_payload() -> None:
    g = game()
    top = g.draw_pile()[-1]
    n = len(g.event_log)
    g.draw_cards(1)
    assert new_events(g, n) == [ev.CardDrawn(top.uid, "zero", PileScope.DRAW, PileScope.HAND)]


def test_event_card_discarded_sources_and_non_sources() -> None:
    g = game()
    n = len(g.event_log)
    g.try_play_card(g.hand()[0])                               # default placement: no
    g.add_card_to_pile("zero", PileScope.DISCARD)              # creation in Discard: no
    assert not any(isinstance(x, ev.CardDiscarded) for x in new_events(g, n))
    a = g.hand()[0]
    g.move_card_to_pile(a, PileScope.DISCARD)                  # explicit move: yes
    b = g.hand()[0]
    n = len(g.event_log)
    g.end_player_turn()                                        # turn-end cleanup: yes
    assert ev.CardDiscarded(b.uid, "zero", PileScope.HAND, PileScope.DISCARD) in new_events(g, n)


def test_event_card_exhausted_sources_and_non_sources() -> None:
    g = game()
    n = len(g.event_log)
    g.add_card_to_pile("burn", PileScope.EXHAUST)              # creation in Exhaust: no
    assert not any(isinstance(x, ev.CardExhausted) for x in new_events(g, n))
    b = g.add_card_to_hand("burn")
    x = g.add_card_to_hand("ethereal")
    m = g.hand()[0]
    n = len(g.event_log)
    g.move_card_to_pile(m, PileScope.EXHAUST)                  # explicit move
    g.try_play_card(b)                                         # post-play of an Exhaust card
    g.end_player_turn()                                        # Ethereal at turn end
    got = [x.instance_id for x in new_events(g, n) if isinstance(x, ev.CardExhausted)]
    assert got == [m.uid, b.uid, x.uid]


def test_event_card_retained_for_retain_and_for_every_card_under_persist() -> None:
    g = game()
    r = g.add_card_to_hand("retain")
    n = len(g.event_log)
    g.end_player_turn()
    assert [x.instance_id for x in new_events(g, n) if isinstance(x, ev.CardRetained)] == [r.uid]
    p = game(encounter="keep")
    hand = p.hand()
    n = len(p.event_log)
    p.end_player_turn()
    assert [x.instance_id for x in new_events(p, n)
            if isinstance(x, ev.CardRetained)] == [c.uid for c in hand]


def test_event_card_added_to_hand_for_generated_and_moved_cards() -> None:
    g = game()
    n = len(g.event_log)
    a = g.add_card_to_hand("two")
    d = g.draw_pile()[0]
    g.move_card_to_pile(d, PileScope.HAND)
    assert new_events(g, n) == [ev.CardAddedToHand(a.uid, "two", None, PileScope.HAND),
                                ev.CardAddedToHand(d.uid, "zero", PileScope.DRAW, PileScope.HAND)]


def test_event_card_added_to_deck_on_master_deck_additions() -> None:
    g = game()
    n = len(g.event_log)
    g.add_card_to_master_deck("bash", is_upgraded=True)
    assert new_events(g, n) == [ev.CardAddedToDeck(-1, "bash", None, PileScope.MASTER, True, 13)]


def test_event_card_added_to_deck_carries_the_lifecycle_payload() -> None:
    """Seed 000's events table gives OnCardAddedToDeck the CardLifecycleEventArgs payload."""
    x = ev.CardAddedToDeck(-1, "bash", None, PileScope.MASTER, True, 13)
    assert isinstance(x, ev._Lifecycle)
    assert (x.instance_id, x.card_id, x.from_pile, x.to_pile) == (-1, "bash", None,
                                                                  PileScope.MASTER)
    assert (x.upgraded, x.deck_size) == (True, 13)  # the fields it carried before stay


def test_event_draw_pile_shuffled_has_no_payload() -> None:
    assert ev.DrawPileShuffled() == ev.DrawPileShuffled()
    assert not dataclasses.fields(ev.DrawPileShuffled)


def test_event_turn_and_phase_events_have_turn_numbers() -> None:
    g = game()
    n = len(g.event_log)
    g.end_player_turn()
    evs = new_events(g, n)
    kinds = [x for x in evs if isinstance(x, (ev.DiscardPhase, ev.TurnEnded, ev.DrawPhase,
                                              ev.TurnStarted))]
    assert kinds == [ev.DiscardPhase(1), ev.TurnEnded(1), ev.DrawPhase(2), ev.TurnStarted(2)]


def test_event_enemy_intent_changed_on_status_stack_change() -> None:
    g = game(encounter="jaw_worm")
    assert g.enemies[0].pending_intents[0].damage == 11
    n = len(g.event_log)
    g.try_play_card(g.add_card_to_hand("weaken"), 0)
    changed = [x for x in new_events(g, n) if isinstance(x, ev.EnemyUnitIntentChanged)]
    assert changed == [ev.EnemyUnitIntentChanged(1, "chomp", 8, 1)]
    assert g.enemies[0].pending_intents[0].damage == 8


def test_event_battle_ended_carries_the_result_then_the_phase_closes_last() -> None:
    g = game(deck=["nuke"] * 6)
    g.try_play_card(g.hand()[0])
    assert isinstance(g.event_log[-1], ev.BattleRewardOffered)
    g.skip_reward()
    end, close = g.event_log[-2:]
    p = g.player
    assert p is not None
    assert end == ev.BattleEnded(True, 1, p.hp, p.max_hp, (0,), None)
    assert close == ev.PhaseChanged(gcs.BattlePhase.BATTLE_WON, gcs.BattlePhase.NONE, 1)


def test_event_payloads_are_frozen_values_not_live_objects() -> None:
    g = game()
    g.try_play_card(g.hand()[0])
    g.end_player_turn()
    for x in g.event_log:
        fields = list(getattr(x, "__dataclass_fields__", {}))
        for v in fields:
            assert not isinstance(getattr(x, v), (gcs.CardInstance, gcs.Unit, list, dict))
        if fields:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(x, fields[0], 5)


# ---------------------------------------------------------------- subscription
def test_subscribe_handlers_run_synchronously_and_read_live_state() -> None:
    g = game()
    seen: list[Any] = []

    def on_drawn(x: ev.CardDrawn) -> None:
        seen.append((x.instance_id, g.hand()[-1].uid, x.instance_id in
                     [c.uid for c in g.drawn_this_turn()]))

    g.subscribe(ev.CardDrawn, on_drawn)
    g.draw_cards(2)
    assert len(seen) == 2 and all(a == b and c for a, b, c in seen)


def test_subscribe_returns_an_unsubscribe_callable_and_event_catches_all() -> None:
    g = game()
    got: list[ev.Event] = []
    drawn: list[ev.Event] = []
    off_all = g.subscribe(ev.Event, got.append)
    off = g.subscribe(ev.CardDrawn, drawn.append)
    n = len(g.event_log)
    g.draw_cards(1)
    assert got == new_events(g, n) and drawn == got
    off()
    off_all()
    g.draw_cards(1)
    assert len(got) == 1 and len(drawn) == 1


def test_subscribe_handlers_cannot_change_state_while_resolving() -> None:
    g = game()
    errors: list[Exception] = []

    def meddle(x: ev.CardDrawn) -> None:
        try:
            g.draw_cards(1)
        except BusyError as exc:
            errors.append(exc)
        refused.append(g.end_player_turn())  # a refusal: False, not an error
        refused.append(g.can_play_card(g.hand()[0]))
        refused.append(g.try_play_card(g.hand()[0]))

    refused: list[bool] = []
    g.subscribe(ev.CardDrawn, meddle)
    assert g.draw_cards(1) == 1
    assert len(errors) == 1 and "event handler" in str(errors[0])
    assert refused == [False, False, False]


def test_subscribe_works_without_the_event_log() -> None:
    g = gcs.Game(e_pack(), seed=1, log_events=False)
    got: list[ev.PhaseChanged] = []
    g.subscribe(ev.PhaseChanged, got.append)
    g.start_battle("dummy")
    assert g.event_log == [] and [x.new for x in got][-1] is gcs.BattlePhase.PLAYER_PHASE


def test_event_classes_exist_for_every_seed_event() -> None:
    for name in ("BattleStarted", "BattleEnded", "BattleRewardOffered", "PhaseChanged",
                 "TurnStarted", "TurnEnded", "DrawPhase", "DiscardPhase", "EnergySpent",
                 "CardPlayed", "CardModified", "CardDrawn", "CardDiscarded", "CardExhausted",
                 "CardRetained", "CardAddedToHand", "CardAddedToDeck", "DrawPileShuffled",
                 "EnemyUnitIntentChanged"):
        cls = getattr(gcs.events, name)
        assert issubclass(cls, ev.Event)


# ---------------------------------------------------------------- determinism
def test_determinism_same_seed_same_calls_same_event_log() -> None:
    assert autoplay_log(7) == autoplay_log(7)
    assert autoplay_log(7) != autoplay_log(8)


def test_determinism_across_processes() -> None:
    root = TESTS.parent
    logs = []
    for hashseed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed,
                   PYTHONPATH=os.pathsep.join([str(root), str(TESTS)]))
        out = subprocess.run(
            [sys.executable, "-c", "import core_support; print(core_support.autoplay_log(3))"],
            cwd=TESTS, env=env, capture_output=True, text=True, check=True)
        logs.append(out.stdout.rstrip("\n"))
    assert logs[0] == logs[1] == autoplay_log(3)
    assert "BattleEnded" in logs[0]


def test_determinism_rng_streams_are_per_battle() -> None:
    g = gcs.Game(e_pack(), seed=5)
    g.set_master_deck(["zero", "two", "burn", "curse", "strike", "defend", "bash"] * 2)
    g.start_battle("dummy")
    first = [c.card_id for c in g.draw_pile()]
    g.start_battle("dummy")
    second = [c.card_id for c in g.draw_pile()]
    h = gcs.Game(e_pack(), seed=5)
    h.set_master_deck(["zero", "two", "burn", "curse", "strike", "defend", "bash"] * 2)
    h.start_battle("dummy")
    assert [c.card_id for c in h.draw_pile()] == first
    assert second != first  # battle 2 draws from its own stream
    assert trace(g.event_log)


def test_determinism_card_type_power_in_log_is_reproducible() -> None:
    a = start(e_pack(), ["power", "zero", "nuke"] * 4, seed=11)
    b = start(e_pack(), ["power", "zero", "nuke"] * 4, seed=11)
    for g in (a, b):
        for c in g.hand():
            if g.get_active_card(c).type is CardType.POWER or Keyword.EXHAUST in c.active.keywords:
                g.try_play_card(c)
    assert a.event_log == b.event_log


def test_every_event_class_is_a_frozen_slotted_dataclass_payload() -> None:
    import dataclasses

    from gcs import events as ev

    assert len(ev.ALL_EVENTS) >= 30
    for cls in ev.ALL_EVENTS:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        # slotted: no per-instance dict (mypyc-compiled classes declare ``__mypyc_attrs__``)
        assert "__slots__" in cls.__dict__ or "__mypyc_attrs__" in cls.__dict__, cls

# mypy: disable-error-code="arg-type"
"""The refusal table (docs/rules/refusals.md), row by row: ``try_play_card``, ``can_play_card``,
``play_refusal`` and ``end_player_turn`` return False (or name the reason) for every *state*
reason and change nothing; only programming errors raise a GameError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from core_support import THIS, pack, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st
from minipack import card

import gcs
from gcs import events as ev
from gcs.errors import NotInBattleError, TargetError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter
from gcs.lazylog import materialize

PICK = card("pick", 0, on_play=N.Choice(gcs.flow.exprs.CardSel("hand"), "c"))
SLOW = card("slow", 0, on_play=N.Wait(1.0))
GATE = card("gate", 0, on_play=N.AnimationGate("swing"))
OUT = card("out", 0, on_play=N.RemoveFromBattle(THIS))
FORBID = gcs.StatusDef("no_zero", "No Zero", hooks=(N.HookDef(
    "playable", "forbid", where=CardFilter(card="zero")),))
CONTENT = pack(PICK, SLOW, GATE, OUT, statuses=[FORBID])


def game(deck: list[str] | None = None, encounter: str = "two_dummies") -> gcs.Game:
    g = gcs.Game(CONTENT, seed=3)
    g.set_master_deck(deck or ["zero", "two", "strike", "defend", "curse", "zap"] * 2)
    g.start_battle(encounter)
    return g


def refused(g: gcs.Game, call: Callable[[], Any], reason: str | None = None,
            play: tuple[Any, Any] | None = None) -> None:
    """The call returns False, changes nothing, publishes nothing; play_refusal names why."""
    snap, n = snapshot(g), len(g.event_log)
    assert call() is False
    assert snapshot(g) == snap and len(g.event_log) == n
    if play is not None and reason is not None:
        assert g.play_refusal(*play) == reason


def raises(g: gcs.Game, call: Callable[[], Any], error: type[Exception], match: str) -> None:
    snap, n = snapshot(g), len(g.event_log)
    with pytest.raises(error, match=match):
        call()
    assert snapshot(g) == snap and len(g.event_log) == n


def zap(g: gcs.Game) -> gcs.CardInstance:
    return g.add_card_to_hand("zap")


# ---------------------------------------------------------------- state reasons: False
def test_refusal_row_no_battle() -> None:
    g = gcs.Game(CONTENT, seed=1)
    refused(g, g.end_player_turn)  # never started
    g = game(["nuke"] * 6, "dummy")
    c = g.hand()[1]
    assert g.try_play_card(g.hand()[0])
    g.skip_reward()  # the battle is over: its cards were this game's, so no error
    refused(g, lambda: g.try_play_card(c), "no battle is active", (c, None))
    refused(g, lambda: g.can_play_card(c))
    refused(g, g.end_player_turn)


def test_refusal_row_wrong_phase_during_rewards() -> None:
    g = game(["nuke"] * 6, "dummy")
    assert g.try_play_card(g.hand()[0])
    c = g.hand()[0]
    assert g.phase is gcs.BattlePhase.BATTLE_WON
    refused(g, lambda: g.try_play_card(c), "phase is BATTLE_WON, not PLAYER_PHASE", (c, None))
    refused(g, lambda: g.can_play_card(c))
    refused(g, g.end_player_turn)


@pytest.mark.parametrize("what", ["pick", "slow", "gate"])
def test_refusal_row_waiting_for_a_choice_wait_or_gate(what: str) -> None:
    g = game()
    assert g.try_play_card(g.add_card_to_hand(what))
    assert g.is_waiting
    c = g.hand()[0]
    refused(g, lambda: g.try_play_card(c), "an effect is still resolving (Choice, Wait or "
            "Animation Gate)", (c, None))
    refused(g, lambda: g.can_play_card(c))
    refused(g, g.end_player_turn)


def test_refusal_row_not_in_hand_and_left_the_battle() -> None:
    g = game()
    d = g.draw_pile()[-1]
    refused(g, lambda: g.try_play_card(d), "the card is not in hand", (d, None))
    refused(g, lambda: g.can_play_card(d))
    o = g.add_card_to_hand("out")
    assert g.try_play_card(o)
    refused(g, lambda: g.try_play_card(o), "the card has left this battle", (o, None))
    refused(g, lambda: g.can_play_card(o))


def test_refusal_row_energy_unplayable_and_hooks() -> None:
    g = game()
    materialize(g)  # (the test sets the energy directly, which no replay repeats: log as it goes)
    two = g.add_card_to_hand("two")
    g._e.s.energy = 1
    refused(g, lambda: g.try_play_card(two), "not enough energy", (two, None))
    refused(g, lambda: g.can_play_card(two))
    curse = g.add_card_to_hand("curse")
    refused(g, lambda: g.try_play_card(curse), "unplayable", (curse, None))
    zero = g.add_card_to_hand("zero")
    assert g.player is not None
    g.player.statuses["no_zero"] = 1
    refused(g, lambda: g.try_play_card(zero), "a hook forbids it", (zero, None))
    refused(g, lambda: g.can_play_card(zero))


def test_refusal_row_targets_that_do_not_fit() -> None:
    g = game()
    z = zap(g)
    a, b = g.enemies
    refused(g, lambda: g.try_play_card(z), "the card needs an enemy target", (z, None))
    refused(g, lambda: g.try_play_card(z, g.player), "the player is not an enemy target",
            (z, g.player))
    refused(g, lambda: g.try_play_card(z, 2), "there is no enemy at index 2", (z, 2))
    refused(g, lambda: g.try_play_card(z, -1), "there is no enemy at index -1", (z, -1))
    a.alive = False  # a dead enemy
    try:
        refused(g, lambda: g.try_play_card(z, a), "the target is dead", (z, a))
    finally:
        a.alive = True
    d = g.add_card_to_hand("defend")  # SELF: the UI passed the hovered enemy
    refused(g, lambda: g.try_play_card(d, b), "Defend (NONE) takes no target", (d, b))
    n = g.add_card_to_hand("nuke")  # ALL_ENEMIES
    refused(g, lambda: g.try_play_card(n, 0), "Nuke (ALL_ENEMIES) takes no target", (n, 0))


def test_refusal_row_called_from_an_event_handler() -> None:
    g = game()
    c = g.add_card_to_hand("zero")
    seen: list[Any] = []

    def probe(x: ev.CardPlayed) -> None:
        seen.append((g.try_play_card(c), g.can_play_card(c), g.end_player_turn(),
                     g.play_refusal(c)))

    g.subscribe(ev.CardPlayed, probe)
    assert g.try_play_card(g.add_card_to_hand("defend"))
    assert seen == [(False, False, False,
                     "called from an event handler while the runtime is resolving")]
    assert c in g.hand()


# ---------------------------------------------------------------- programming errors: raise
def test_refusal_row_wrong_argument_types_raise() -> None:
    g = game()
    z = zap(g)
    raises(g, lambda: g.try_play_card("zap"), NotInBattleError, "expected a CardInstance, got str")
    raises(g, lambda: g.can_play_card(None), NotInBattleError, "got NoneType")
    raises(g, lambda: g.play_refusal(3), NotInBattleError, "got int")
    raises(g, lambda: g.try_play_card(z, "e0"), TargetError, "enemy Unit or enemy index")
    raises(g, lambda: g.try_play_card(z, True), TargetError, "enemy Unit or enemy index")
    raises(g, lambda: g.try_play_card(z, 1.0), TargetError, "enemy Unit or enemy index")


def test_refusal_row_instances_of_another_game_raise() -> None:
    g = game()
    other = game()
    twin = g.clone()
    for foreign in (other.hand()[0], twin.hand()[0]):
        raises(g, lambda f=foreign: g.try_play_card(f), NotInBattleError, "not in this battle")
        raises(g, lambda f=foreign: g.can_play_card(f), NotInBattleError, "not in this battle")
    z = zap(g)
    raises(g, lambda: g.try_play_card(z, other.enemies[0]), TargetError, "not an enemy in this")
    raises(g, lambda: g.try_play_card(z, twin.enemies[0]), TargetError, "not an enemy in this")


def test_refusal_row_2_identity_is_checked_first_after_a_battle_ended() -> None:
    """Issue 30: card instance ids are unique in the game and each card knows its game, so
    once battles have ended an instance of another game (or of a clone, or a master-deck
    view) still raises where this game's own card of an ended battle is a state reason."""
    g, other = game(), game()
    twin = g.clone()
    mine, theirs, cloned = g.hand()[0], other.hand()[0], twin.hand()[0]
    for x in (g, other, twin):
        x.move_card_to_pile(x.hand()[0], gcs.PileScope.MASTER)  # (leaves the battle: REMOVED)
    view = g.pile(gcs.PileScope.MASTER)[0]
    for x in (g, other, twin):
        x.try_play_card(x.add_card_to_hand("nuke"))  # the battle is won ...
        x.skip_reward()  # ... and closed: no battle active, the instances REMOVED
    assert not g.is_battle_active and mine.uid == theirs.uid == cloned.uid
    refused(g, lambda: g.try_play_card(mine), "no battle is active")
    for foreign in (theirs, cloned, view):
        raises(g, lambda f=foreign: g.try_play_card(f), NotInBattleError, "not in this battle")
        raises(g, lambda f=foreign: g.can_play_card(f), NotInBattleError, "not in this battle")
    g.start_battle("two_dummies")  # new instances, new ids: the old card has left the battle
    assert mine.uid not in {c.uid for c in g.pile(gcs.PileScope.ALL)}
    refused(g, lambda: g.try_play_card(mine), "the card has left this battle")
    raises(g, lambda: g.try_play_card(theirs), NotInBattleError, "not in this battle")


def test_refusal_wrong_types_raise_even_without_a_battle() -> None:
    g = gcs.Game(CONTENT, seed=1)
    raises(g, lambda: g.try_play_card(None), NotInBattleError, "expected a CardInstance")
    assert g.end_player_turn() is False


# ---------------------------------------------------------------- can and try agree
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 30), min_size=1, max_size=25))
def test_refusal_can_play_card_true_means_try_play_card_succeeds(seed: int,
                                                                 picks: list[int]) -> None:
    g = gcs.Game(CONTENT, seed=seed)
    g.set_master_deck(["zero", "two", "strike", "defend", "curse", "zap", "nuke", "burn"] * 2)
    g.start_battle("two_dummies")
    for k in picks:
        if not g.is_battle_active or g.is_waiting_for_reward:
            break
        hand = g.hand()
        if not hand:
            g.end_player_turn()
            continue
        c = hand[k % len(hand)]
        can = g.can_play_card(c)
        target = None
        if g.requires_target(c):
            alive = [u for u in g.enemies if u.alive]
            target = alive[0] if alive else None
        assert (g.play_refusal(c, target) is None) == can
        if can:
            assert g.try_play_card(c, target) is True
        else:
            refused(g, lambda c=c, t=target: g.try_play_card(c, t))
        if k % 7 == 0:
            g.end_player_turn()

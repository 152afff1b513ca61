# mypy: disable-error-code="arg-type, list-item, misc"
"""Misuse: every wrong call raises a GameError subclass that says what was wrong (or, where
the seeds describe a refusal, returns False) and changes no state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from core_support import THIS, pack, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from minipack import card

import gcs
from gcs import DrawPilePosition, PileScope, Reward
from gcs.errors import (
    ChoiceError,
    NoBattleError,
    NotInBattleError,
    RewardError,
    TargetError,
    UnknownCardError,
    UnknownIdError,
)
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel

PICK = card("pick", 0, on_play=N.Choice(CardSel("hand"), "c", then=N.DiscardCard(
    CardSel("var", var="c"))))
SLOW = card("slow", 0, on_play=N.Wait(1.0))
GATE = card("gate", 0, on_play=N.AnimationGate("swing"))
SELF_OUT = card("self_out", 0, on_play=N.MoveCard(THIS, PileScope.MASTER))
CONTENT = pack(PICK, SLOW, GATE, SELF_OUT)
DECK = ["strike", "zero", "two", "curse", "power", "burn", "defend", "zap"] * 2


def scenario(name: str, seed: int = 1) -> gcs.Game:
    """A game in one of the states misuse is tried in."""
    g = gcs.Game(CONTENT, seed=seed)
    g.set_master_deck(DECK)
    if name == "none":
        return g
    if name == "reward" or name == "ended":
        g.set_master_deck(["nuke"] * 6)
        g.start_battle("jaw_worm")
        g.try_play_card(g.hand()[0])
        if name == "ended":
            g.skip_reward()
        return g
    g.start_battle("two_dummies")
    p = next((c for c in g.hand() if c.card_id == "power"), None)
    if p is not None:
        g.try_play_card(p)  # leaves the battle: a "removed" instance to misuse
    if name in ("choice", "wait", "gate"):
        g.try_play_card(g.add_card_to_hand({"choice": "pick", "wait": "slow",
                                            "gate": "gate"}[name]))
    return g


SCENARIOS = ["none", "idle", "choice", "wait", "gate", "reward", "ended"]


def expect_misuse(g: gcs.Game, call: Callable[[], Any], error: type[Exception] = gcs.GameError,
                  match: str | None = None) -> None:
    snap = snapshot(g)
    n = len(g.event_log)
    with pytest.raises(error, match=match):
        call()
    assert snapshot(g) == snap and len(g.event_log) == n


# ---------------------------------------------------------------- no battle
@pytest.mark.parametrize("call", [
    lambda g: g.draw_cards(1),
    lambda g: g.add_card_to_hand("zero"),
    lambda g: g.add_card_to_pile("zero", PileScope.DRAW),
    lambda g: g.move_card_to_pile(None, PileScope.DRAW),
    lambda g: g.shuffle_draw_pile(),
    lambda g: g.choose(0),
    lambda g: g.apply_reward(0),
    lambda g: g.skip_reward(),
])
def test_misuse_battle_calls_without_a_battle_raise_no_battle_error(
        call: Callable[[gcs.Game], Any]) -> None:
    for name in ("none", "ended"):
        g = scenario(name)
        expect_misuse(g, lambda g=g: call(g), NoBattleError, "no battle is active")


def test_misuse_reads_without_a_battle_are_empty_not_errors() -> None:
    g = scenario("none")
    assert g.hand() == [] and g.pile(PileScope.ALL) == [] and g.enemies == []
    assert g.phase is gcs.BattlePhase.NONE and g.turn_number == 0
    assert not g.is_waiting and not g.is_waiting_for_reward and g.pending_choice is None


# ---------------------------------------------------------------- instances and targets
def test_misuse_instance_of_another_game_or_a_clone_raises_not_in_battle() -> None:
    g = scenario("idle")
    other = scenario("idle")
    twin = g.clone()
    for foreign in (other.hand()[0], twin.hand()[0]):
        expect_misuse(g, lambda f=foreign: g.try_play_card(f), NotInBattleError,
                      "not in this battle")
        expect_misuse(g, lambda f=foreign: g.can_play_card(f), NotInBattleError)
        expect_misuse(g, lambda f=foreign: g.move_card_to_pile(f, PileScope.DISCARD),
                      NotInBattleError)


def test_misuse_non_instance_raises_not_in_battle_naming_the_type() -> None:
    g = scenario("idle")
    expect_misuse(g, lambda: g.try_play_card("strike"), NotInBattleError,
                  "expected a CardInstance, got str")
    expect_misuse(g, lambda: g.get_active_card(3), gcs.GameError, "got int")
    expect_misuse(g, lambda: g.get_effective_energy_cost("x"), gcs.GameError,
                  "got str")


def test_misuse_removed_instance_is_a_refusal_not_an_error() -> None:
    g = scenario("idle")
    s = g.add_card_to_hand("self_out")
    assert g.try_play_card(s)
    assert s not in g.pile(PileScope.ALL)
    snap, n = snapshot(g), len(g.event_log)
    assert g.try_play_card(s) is False and g.can_play_card(s) is False
    assert g.play_refusal(s) == "the card has left this battle"
    assert snapshot(g) == snap and len(g.event_log) == n


def test_misuse_wrong_target_types_raise_and_unfitting_targets_are_refused() -> None:
    g = scenario("idle")
    s = g.add_card_to_hand("strike")
    d = g.add_card_to_hand("defend")
    expect_misuse(g, lambda: g.try_play_card(s, "e0"), TargetError, "enemy Unit or enemy index")
    expect_misuse(g, lambda: g.try_play_card(s, True), TargetError)
    snap = snapshot(g)
    assert g.try_play_card(s, 7) is False and g.try_play_card(s, -1) is False  # do not fit
    assert g.play_refusal(s, 7) == "there is no enemy at index 7"
    assert snapshot(g) == snap
    assert g.try_play_card(s, g.player) is False  # an ally does not fit: a refusal
    assert g.try_play_card(d, 0) is False and g.play_refusal(d, 0) == "Defend (NONE) takes no target"
    assert snapshot(g) == snap


# ---------------------------------------------------------------- ids and kinds
def test_misuse_unknown_ids_raise_naming_the_id() -> None:
    g = scenario("idle")
    expect_misuse(g, lambda: g.add_card_to_hand("nope"), UnknownCardError, "'nope'")
    expect_misuse(g, lambda: g.add_card_to_pile("nope", PileScope.DRAW), UnknownCardError)
    expect_misuse(g, lambda: g.add_card_to_master_deck("nope"), UnknownCardError, "'nope'")
    expect_misuse(g, lambda: g.remove_card_from_master_deck("nope"), UnknownCardError)
    expect_misuse(g, lambda: g.upgrade_card_in_master_deck("nope"), UnknownCardError)
    expect_misuse(g, lambda: g.set_master_deck(["zero", "nope"]), UnknownCardError)
    expect_misuse(g, lambda: g.start_battle("nope"), UnknownIdError, "'nope'")
    with pytest.raises(UnknownIdError, match="'nope'"):
        gcs.Game(CONTENT, seed=1, character="nope")


def test_misuse_wrong_pile_or_position_kinds() -> None:
    g = scenario("idle")
    c = g.hand()[0]
    expect_misuse(g, lambda: g.add_card_to_pile("zero", PileScope.MASTER), gcs.GameError,
                  "MASTER")
    expect_misuse(g, lambda: g.add_card_to_pile("zero", PileScope.ALL), gcs.GameError, "ALL")
    expect_misuse(g, lambda: g.add_card_to_pile("zero", "hand"), gcs.GameError,
                  "PileScope")
    expect_misuse(g, lambda: g.add_card_to_pile("zero", PileScope.DRAW, "top"),
                  gcs.GameError, "DrawPilePosition")
    expect_misuse(g, lambda: g.move_card_to_pile(c, "discard"), gcs.GameError,
                  "PileScope")
    expect_misuse(g, lambda: g.move_card_to_pile(c, PileScope.DRAW, 1), gcs.GameError)
    expect_misuse(g, lambda: g.pile("hand"), gcs.GameError, "PileScope")


def test_misuse_bad_counts_and_times() -> None:
    g = scenario("idle")
    for bad in (-1, 1.5, "2", None, True):
        expect_misuse(g, lambda b=bad: g.draw_cards(b), gcs.GameError, "draw_cards")
    for bad in (-0.5, "1", None, float("nan"), float("inf")):
        expect_misuse(g, lambda b=bad: g.advance_time(b), gcs.GameError, "seconds")


def test_misuse_bad_card_arguments_for_queries() -> None:
    g = scenario("idle")
    expect_misuse(g, lambda: g.requires_target("strike"), gcs.GameError, "GameCard")
    expect_misuse(g, lambda: g.format_description("strike"), gcs.GameError,
                  "GameCard")
    expect_misuse(g, lambda: g.format_description(g.content.card("strike"), "x"),
                  gcs.GameError, "CardInstance")


# ---------------------------------------------------------------- waiting
@pytest.mark.parametrize("name", ["choice", "wait", "gate"])
def test_misuse_state_changing_calls_while_waiting(name: str) -> None:
    g = scenario(name)
    assert g.is_waiting
    c = g.hand()[0]
    expect_misuse(g, lambda: g.draw_cards(1), gcs.GameError, "waiting")
    expect_misuse(g, lambda: g.add_card_to_hand("zero"), gcs.GameError, "waiting")
    expect_misuse(g, lambda: g.move_card_to_pile(c, PileScope.DISCARD), gcs.GameError,
                  "waiting")
    expect_misuse(g, lambda: g.shuffle_draw_pile(), gcs.GameError, "waiting")
    snap = snapshot(g)
    assert g.try_play_card(c) is False and g.end_player_turn() is False
    assert g.can_play_card(c) is False
    assert snapshot(g) == snap


def test_misuse_wrong_choice_answers() -> None:
    g = scenario("choice")
    ch = g.pending_choice
    assert ch is not None
    expect_misuse(g, lambda: g.choose(99), ChoiceError, "out of range")
    expect_misuse(g, lambda: g.choose([0, 0]), ChoiceError, "twice")
    expect_misuse(g, lambda: g.choose([0, 1]), ChoiceError, "between 1 and 1")
    expect_misuse(g, lambda: g.choose([]), ChoiceError)
    expect_misuse(g, lambda: g.choose("x"), ChoiceError, "not a candidate")
    expect_misuse(g, lambda: g.choose(g.draw_pile()[0]), ChoiceError, "not a candidate")
    idle = scenario("idle")
    expect_misuse(idle, lambda: idle.choose(0), ChoiceError, "no Choice is open")


def test_misuse_wrong_reward_calls() -> None:
    g = scenario("idle")
    expect_misuse(g, lambda: g.apply_reward(0), RewardError, "no reward is offered")
    expect_misuse(g, g.skip_reward, RewardError, "no reward is offered")
    r = scenario("reward")
    assert r.is_waiting_for_reward
    expect_misuse(r, lambda: r.apply_reward(99), RewardError, "out of range")
    expect_misuse(r, lambda: r.apply_reward(Reward("gold", amount=999)), RewardError,
                  "not offered")


def test_misuse_refusals_return_false_and_change_nothing() -> None:
    r = scenario("reward")
    snap = snapshot(r)
    assert r.try_play_card(r.hand()[0]) is False  # outside PlayerPhase
    assert r.end_player_turn() is False
    assert r.complete_animation() is False
    assert snapshot(r) == snap
    g = scenario("gate")
    snap = snapshot(g)
    assert g.complete_animation("other") is False
    assert snapshot(g) == snap
    assert g.complete_animation("swing") is True


# ---------------------------------------------------------------- property tests
def _own(g: gcs.Game) -> gcs.CardInstance | None:
    cards = g.pile(PileScope.ALL)
    return cards[0] if cards else None


def _foreign(g: gcs.Game) -> Any:
    c = g.clone()
    cards = c.pile(PileScope.ALL)
    return cards[0] if cards else gcs.CardInstance(1, CONTENT.card("zero"))


SKIP = object()


def _when(cond: Callable[[gcs.Game], bool],
          call: Callable[[gcs.Game], Any]) -> Callable[[gcs.Game], Any]:
    return lambda g: call(g) if cond(g) else SKIP


def _not_player_turn(g: gcs.Game) -> bool:
    return g.phase is not gcs.BattlePhase.PLAYER_PHASE or g.is_waiting


def _strike(g: gcs.Game) -> Any:
    return next((c for c in g.hand() if c.card_id == "strike"), None)


MISUSES: list[tuple[str, Callable[[gcs.Game], Any]]] = [
    ("play foreign", lambda g: g.try_play_card(_foreign(g))),
    ("can play foreign", lambda g: g.can_play_card(_foreign(g))),
    ("move foreign", lambda g: g.move_card_to_pile(_foreign(g), PileScope.HAND)),
    ("play non-card", lambda g: g.try_play_card(42)),
    ("play from draw", _when(lambda g: bool(g.draw_pile()),
                             lambda g: g.try_play_card(g.draw_pile()[0]))),
    ("play unplayable", lambda g: g.try_play_card(next(
        (c for c in g.hand() if c.card_id == "curse"), None))),
    ("strike bad target", _when(lambda g: _strike(g) is not None,
                                lambda g: g.try_play_card(_strike(g), "far away"))),
    ("strike no target", _when(lambda g: _strike(g) is not None,
                               lambda g: g.try_play_card(_strike(g)))),
    ("end turn not allowed", _when(_not_player_turn, lambda g: g.end_player_turn())),
    ("draw negative", lambda g: g.draw_cards(-2)),
    ("draw float", lambda g: g.draw_cards(0.5)),
    ("draw while waiting", _when(lambda g: g.is_waiting, lambda g: g.draw_cards(1))),
    ("shuffle while waiting", _when(lambda g: g.is_waiting, lambda g: g.shuffle_draw_pile())),
    ("add unknown", lambda g: g.add_card_to_hand("unknown_card")),
    ("create in master", lambda g: g.add_card_to_pile("zero", PileScope.MASTER)),
    ("create bad pile", lambda g: g.add_card_to_pile("zero", 3)),
    ("move bad pile", lambda g: g.move_card_to_pile(_own(g), "x")),
    ("move bad position", lambda g: g.move_card_to_pile(_own(g), PileScope.DRAW, "top")),
    ("choose none open", _when(lambda g: not g.is_waiting_for_choice, lambda g: g.choose(0))),
    ("choose out of range", lambda g: g.choose(1000)),
    ("choose twice", lambda g: g.choose([0, 0])),
    ("reward none", _when(lambda g: not g.is_waiting_for_reward, lambda g: g.apply_reward(0))),
    ("skip none", _when(lambda g: not g.is_waiting_for_reward, lambda g: g.skip_reward())),
    ("reward not offered", lambda g: g.apply_reward(Reward("gold", amount=12345))),
    ("start none", lambda g: g.start_battle(None)),
    ("start unknown", lambda g: g.start_battle("no_such_encounter")),
    ("set unknown", lambda g: g.set_master_deck(["zero", "unknown_card"])),
    ("set bad entry", lambda g: g.set_master_deck([("zero", "yes")])),
    ("remove unknown", lambda g: g.remove_card_from_master_deck("unknown_card")),
    ("upgrade unknown", lambda g: g.upgrade_card_in_master_deck("unknown_card")),
    ("add master unknown", lambda g: g.add_card_to_master_deck("unknown_card")),
    ("cost of non-card", lambda g: g.get_effective_energy_cost("zero")),
    ("active of non-card", lambda g: g.get_active_card(None)),
    ("describe non-card", lambda g: g.format_description(7)),
    ("requires non-card", lambda g: g.requires_target("zero")),
    ("read bad pile", lambda g: g.pile("draw")),
    ("negative time", lambda g: g.advance_time(-1)),
    ("wrong gate", lambda g: g.complete_animation("no_such_gate")),
    ("try while waiting", _when(lambda g: g.is_waiting and bool(g.hand()),
                                lambda g: g.try_play_card(g.hand()[0]))),
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(SCENARIOS), seed=st.integers(0, 2**32),
       calls=st.lists(st.sampled_from(range(len(MISUSES))), min_size=1, max_size=12))
def test_property_random_misuse_sequences_raise_or_refuse_and_change_nothing(
        name: str, seed: int, calls: list[int]) -> None:
    g = scenario(name, seed)
    snap = snapshot(g)
    n = len(g.event_log)
    for i in calls:
        label, call = MISUSES[i]
        try:
            result = call(g)
        except gcs.GameError as exc:
            assert str(exc), label
        else:
            assert result is SKIP or result is False, (label, result)
        assert snapshot(g) == snap, label
        assert len(g.event_log) == n, label


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), calls=st.lists(st.sampled_from(range(len(MISUSES))),
                                                  min_size=1, max_size=8),
       legit=st.lists(st.integers(0, 9), min_size=1, max_size=6))
def test_property_misuse_between_legal_plays_changes_nothing(
        seed: int, calls: list[int], legit: list[int]) -> None:
    g = scenario("idle", seed)
    for k in legit:
        if not g.is_battle_active or g.is_waiting:
            break
        hand = g.hand()
        if k < len(hand):
            c = hand[k]
            g.try_play_card(c, 0 if g.requires_target(c) else None)
        elif k == 9:
            g.end_player_turn()
        snap = snapshot(g)
        for i in calls:
            try:
                result = MISUSES[i][1](g)
            except gcs.GameError:
                pass
            else:
                assert result is SKIP or result is False, MISUSES[i][0]
            assert snapshot(g) == snap, MISUSES[i][0]


def test_misuse_position_enum_values_are_accepted() -> None:
    g = scenario("idle")
    for pos in DrawPilePosition:
        assert g.add_card_to_pile("zero", PileScope.DRAW, pos).card_id == "zero"


def test_misuse_a_refused_argument_leaves_the_call_guard_on() -> None:
    """An ArgumentError changes nothing, and the guard still guards the calls after it: a
    handler that raises later is still reported as HandlerError after its wave."""
    from gcs.errors import HandlerError

    g = gcs.Game(gcs.builtin_content(), seed=2)
    g.start_battle("jaw_worm")
    for bad in (lambda: g.draw_cards("x"), lambda: g.apply(42), lambda: g.choose("a")):
        with pytest.raises(gcs.GameError):
            bad()
        assert g._e.depth == 0

    def boom(ev: object) -> None:
        raise RuntimeError("handler bug")

    g.subscribe(gcs.events.TurnStarted, boom)
    with pytest.raises(HandlerError):
        g.end_player_turn()
    assert g.turn_number == 2 and g._e.depth == 0  # the wave completed without the handler


def test_misuse_set_master_deck_over_the_limit_says_how_many_it_takes() -> None:
    g = scenario("idle")
    expect_misuse(g, lambda: g.set_master_deck(["zero"] * 100_001), gcs.GameError,
                  r"set_master_deck: parameter 'entries' must hold at most 100000 entries, got "
                  r"more than 100000$")

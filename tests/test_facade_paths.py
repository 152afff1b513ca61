"""The facade's shortcuts play the same game as the long way round: clone copies (each side
independent, checked against a save round trip as the deep-copy reference), the guard's
journal fast path, End Turn and the wave settle compiled in gcs.agent, the shared default
rules, play_battle reading state fields, and the state size measure."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_core_invariants import CONTENT, do, pick_call

import gcs
from gcs import Game
from gcs.agent import END_ACTION, Action
from gcs.battle.state import CardInstance, Ctx, Delayed, Frame, State, Unit, state_size
from gcs.events import Event
from gcs.guard import fields
from gcs.lazylog import calls, materialize
from gcs.rng import Rng
from gcs.rules import BattleRules
from gcs.sim.policies import GreedyPolicy, RandomPolicy
from gcs.sim.runner import BattleResult, play_battle

MUTABLE = (list, dict, set, CardInstance, Unit, Frame, Ctx, Delayed, Rng, State)


def _walk(g: Game, r: random.Random, n: int) -> None:
    """``n`` random facade calls (those of the invariants suite), refusals included; ``n``
    calls in one walk or in several give the same calls."""
    for _ in range(n):
        spec = pick_call(g, r)
        if spec is None:  # no battle, and the pick was to stay idle
            continue
        with contextlib.suppress(gcs.GameError):
            do(g, spec)


def _mutable_objects(s: State) -> dict[int, object]:
    """Every mutable object reachable from a state (content and immutable values left out)."""
    out: dict[int, object] = {}
    todo: list[Any] = [s]
    while todo:
        o = todo.pop()
        if not isinstance(o, (*MUTABLE, tuple)) or id(o) in out:
            continue
        if isinstance(o, MUTABLE):
            out[id(o)] = o
        if isinstance(o, dict):
            todo += [*o.keys(), *o.values()]
        elif isinstance(o, (list, tuple, set)):
            todo += list(o)
        else:
            todo += [getattr(o, f) for f in fields(type(o)) if hasattr(o, f)]
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), before=st.integers(0, 60),
       chunks=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=8))
def test_clone_and_original_never_affect_each_other(seed: int, before: int,
                                                    chunks: list[tuple[int, int]]) -> None:
    """Clone anywhere, then change both sides in turns: each ends exactly as a deep copy
    (a save round trip taken at the clone) that made the same calls alone."""
    g = Game(CONTENT, seed=seed)
    _walk(g, random.Random(seed), before)
    twin = g.clone()
    shared = _mutable_objects(g._e.s).keys() & _mutable_objects(twin._e.s).keys()
    assert not shared  # no list, dict, card, unit, frame, scope or stream is shared
    ref_g = Game.from_json(CONTENT, g.to_json())
    ref_t = Game.from_json(CONTENT, g.to_json())
    rg, rt = random.Random(seed + 1), random.Random(seed + 2)
    for a, b in chunks:  # interleaved: a calls on the original, b on the clone, repeated
        _walk(g, rg, a)
        _walk(twin, rt, b)
    _walk(ref_g, random.Random(seed + 1), sum(a for a, _ in chunks))
    _walk(ref_t, random.Random(seed + 2), sum(b for _, b in chunks))
    assert g.to_json() == ref_g.to_json()
    assert twin.to_json() == ref_t.to_json()


def test_card_and_unit_copies_have_every_field_and_own_containers() -> None:
    g = Game(CONTENT, seed=5)
    g.start_battle("jaw_worm")
    g.apply(g.legal_actions()[0])
    s = g._e.s
    for obj in [*s.cards.values(), *s.units]:
        dup = obj.copy(s.token) if isinstance(obj, CardInstance) else obj.copy()
        assert type(dup) is type(obj) and dup is not obj
        for f in fields(type(obj)):
            a, b = getattr(obj, f), getattr(dup, f)
            assert a == b, f
            if isinstance(a, (list, dict)):
                assert a is not b, f
    other = object()  # a clone's card carries the clone's token (an identity, not data)
    assert all(c.copy(other).token is other for c in s.cards.values())
    hurt = s.units[0].copy()
    hurt.statuses["x"] = 1
    hurt.history.append("m")
    hurt.rolled["m"] = 3
    assert "x" not in s.units[0].statuses and "m" not in s.units[0].rolled


def journal(g: Game) -> list[Any]:
    """The calls a restore replays: the deferred log's while it is deferred (gcs/lazylog.py),
    else the guard's journal since its checkpoint."""
    e = g._e
    return e.journal if e.deferred is None else calls(e)


@pytest.mark.parametrize("deferred", [True, False])
def test_guard_journal_keeps_one_plain_argument_as_given_and_copies_lists(deferred: bool) -> None:
    g = Game(gcs.builtin_content(), seed=2)
    if not deferred:
        materialize(g)
    g.start_battle("jaw_worm")
    a = g.legal_actions()[0]
    g.apply(a)
    deck = ["strike", "defend"]
    g.set_master_deck(deck)
    g.add_card_to_master_deck("strike", True)
    jr = journal(g)
    assert (g._e.deferred is not None) == deferred and (g._e.ckpt is None) == deferred
    assert jr[-3] == ("apply", (a,), {}) and jr[-3][1][0] is a  # the fast path: as given
    name, args, kw = jr[-2]
    assert name == "set_master_deck" and args == (deck,) and args[0] is not deck and not kw
    assert jr[-1] == ("add_card_to_master_deck", ("strike", True), {})
    g.add_card_to_master_deck(card="bash")
    assert journal(g)[-1] == ("add_card_to_master_deck", (), {"card": "bash"})


def test_guard_rewind_replays_the_journal_of_every_recorded_kind() -> None:
    """An engine error after calls of every journal kind restores the state before it."""
    g = Game(gcs.builtin_content(), seed=4)
    g.start_battle("jaw_worm")
    g.apply(g.legal_actions()[0])
    g.set_master_deck(["strike", ("defend", True)])
    g.add_card_to_master_deck(card="bash")
    g.add_card_to_hand("strike")
    g.apply("end")
    before = g.to_json()
    hand = g.hand()
    g._e.s.stack.append(Frame(999, None, 0, None, None))  # no handler: an internal error
    with pytest.raises(gcs.GameError, match="internal error"):
        g.draw_cards(1)
    assert g.to_json() == before
    assert all(x is y for x, y in zip(g.hand(), hand, strict=True))


def test_the_apply_guard_restores_and_chains_as_every_guarded_call(monkeypatch: Any) -> None:
    """``Game.apply`` has its own guard wrapper (no argument tuple per call): an engine error in
    its wave restores the state and the log, names the call and chains the cause; a keyword
    call, an Action and its text all take it, and a text action is journaled as given."""
    from gcs.battle import frames as K
    from gcs.engine import HANDLERS

    g = Game(gcs.builtin_content(), seed=4)
    g.start_battle("jaw_worm")
    g.apply(action=g.legal_actions()[0])
    g.apply("end")
    assert journal(g)[-1] == ("apply", ("end",), {})
    before, log = g.to_json(), g.event_log

    step = HANDLERS[K.TURN_END]
    armed = []

    def broken(e: Any, f: Any) -> None:
        if armed:  # once: the rewind replays the journal through this step too
            armed.clear()
            raise ZeroDivisionError("a broken step")
        step(e, f)

    monkeypatch.setitem(HANDLERS, K.TURN_END, broken)
    g._e.stepwise = True  # (frame by frame: the turn end's frame is run by the loop's handler)
    for action in (END_ACTION, "end"):
        armed.append(True)
        with pytest.raises(gcs.GameError, match="internal error in apply: ZeroDivisionError") as err:
            g.apply(action)
        assert isinstance(err.value.__cause__, ZeroDivisionError)
        assert g.to_json() == before and g.event_log == log
    monkeypatch.undo()
    g.apply(END_ACTION)  # the restored game plays on
    assert g.turn_number == 3


def test_apply_end_is_end_player_turn() -> None:
    """``apply(end)`` and the facade call run the same engine function (``steps.waves``)."""
    for enc in sorted(gcs.builtin_content().encounters):
        a = Game(gcs.builtin_content(), seed=9)
        a.start_battle(enc)
        b = a.clone()
        for _ in range(6):
            if END_ACTION not in a.legal_actions():
                break
            a.apply(END_ACTION)
            assert b.end_player_turn() is True
            assert a.to_json() == b.to_json() and a.event_log == b.event_log
    g = Game(gcs.builtin_content(), seed=9)
    assert g.end_player_turn() is False  # no battle: refused, nothing changes


def test_apply_takes_an_action_or_its_text_alike() -> None:
    games = [Game(gcs.builtin_content(), seed=3) for _ in range(2)]
    for g in games:
        g.start_battle("cultist")
    games[0].apply(Action.end())
    games[1].apply("end")
    assert games[0] == games[1]
    with pytest.raises(gcs.GameError, match="expected an Action"):
        games[0].apply(3)  # type: ignore[arg-type]


def test_games_without_rules_share_one_frozen_default() -> None:
    a, b = Game(gcs.builtin_content(), seed=1), Game(gcs.builtin_content(), seed=2)
    assert a.rules is b.rules and a.rules == BattleRules()
    with pytest.raises(AttributeError):
        a.rules.step_limit = 5  # type: ignore[misc]
    own = BattleRules(step_limit=9_000)
    assert Game(gcs.builtin_content(), rules=own).rules is own


def _play_battle_by_properties(game: Game, encounter: str, policy: Any, take_rewards: bool,
                               max_turns: int) -> BattleResult:
    """play_battle as it read the game through its public properties."""
    game.start_battle(encounter)
    game.settle()
    decisions = 0
    unfinished = False
    while True:
        if not take_rewards and game.is_waiting_for_reward:
            game.skip_reward()
            break
        legal = game.legal_actions()
        if not legal:
            break
        if game.turn_number > max_turns:
            unfinished = True
            break
        game.apply(policy(game, legal))
        decisions += 1
    p = game.player
    assert p is not None
    won = bool(game.last_result) and not unfinished
    return BattleResult(won=won, turns=game.turn_number, hp_left=p.hp if won else 0,
                        decisions=decisions, unfinished=unfinished)


@pytest.mark.parametrize("take_rewards", [False, True])
def test_play_battle_reads_the_fields_its_properties_read(take_rewards: bool) -> None:
    content = gcs.builtin_content()
    for enc in sorted(content.encounters):
        for seed, max_turns in ((1, 300), (2, 2)):
            for greedy in (False, True):
                g, h = Game(content, seed=seed), Game(content, seed=seed)
                pa = GreedyPolicy() if greedy else RandomPolicy(seed)
                pb = GreedyPolicy() if greedy else RandomPolicy(seed)
                r = play_battle(g, enc, pa, take_rewards=take_rewards, max_turns=max_turns)
                ref = _play_battle_by_properties(h, enc, pb, take_rewards, max_turns)
                assert (r.won, r.turns, r.hp_left, r.decisions, r.unfinished) == (
                    ref.won, ref.turns, ref.hp_left, ref.decisions, ref.unfinished)
                assert g == h


def test_state_size_counts_the_state_not_the_content() -> None:
    content = gcs.builtin_content()
    g = Game(content, seed=12345, log_events=False)
    empty = state_size(g)
    g.start_battle("jaw_worm")
    pol = RandomPolicy(12345)
    for _ in range(4):
        g.apply(pol(g, g.legal_actions()))
    mid = state_size(g)
    assert 0 < empty < mid < 8 * 1024  # issue 11: a battle state under 8 KB
    assert state_size(g._e.s) == mid
    assert 0.9 * mid < state_size(g.clone()) <= mid  # a clone's lists have no spare room
    g.add_card_to_hand("strike")
    assert state_size(g) > mid  # one more card instance
    assert state_size(Game(content, seed=12345, log_events=True)) == empty  # the log is not state


def test_starting_deck_is_built_once_per_content_and_character_as_add_entry_builds_it() -> None:
    from minipack import mini

    from gcs.battle import run as game_module

    content = gcs.builtin_content()
    game_module._STARTING_DECKS.clear()
    built = Game(content, seed=1)  # by add_entry
    copied = Game(content, seed=1)  # from the stored entries
    assert copied == built and copied._e.s.next_entry == built._e.s.next_entry
    assert copied._e.s.master is not built._e.s.master
    copied.add_card_to_master_deck("bash")
    copied.remove_card_from_master_deck("strike")
    assert built.get_master_deck() == Game(content, seed=1).get_master_deck()
    assert len(Game(content, seed=1).get_master_deck()) == 10
    other = mini()  # another content: its own deck, not the one stored for the first
    ch = other.characters["ironclad"]
    want = sum(d.count for d in ch.starting_deck)
    assert len(Game(other, seed=1).get_master_deck()) == want == len(Game(other).get_master_deck())


def test_event_record_follows_subscribers_logging_and_clones() -> None:
    """``Engine.record`` is rebound whenever what it must do changes: a subscriber makes it
    build and deliver events, unsubscribing gives the plain log back, a clone sharing the log
    copies it on its first record, and the ring is cut by the end of every call."""
    a, b = (Game(gcs.builtin_content(), seed=12) for _ in range(2))
    assert a.event_log == []  # the starting deck is built with logging off
    seen: list[Any] = []
    unsubscribe = b.subscribe(Event, seen.append)
    for g in (a, b):
        g.start_battle("jaw_worm")
    unsubscribe()
    for g in (a, b):
        for _ in range(3):
            g.apply(g.legal_actions()[-1])
    assert a.event_log == b.event_log and seen == a.event_log[:len(seen)] and seen
    c = a.clone()
    before = a.event_log
    c.apply(c.legal_actions()[-1])
    assert a.event_log == before and c.event_log[:len(before)] == before
    assert len(c.event_log) > len(before)
    quiet = Game(gcs.builtin_content(), seed=12, log_events=False)
    quiet.start_battle("jaw_worm")
    assert quiet.event_log == []
    a._e.log_cap = 40
    for _ in range(6):
        if not a.legal_actions():
            break
        a.apply(a.legal_actions()[-1])
        assert len(a.event_log) <= 40


def test_new_intent_builds_the_named_tuple_itself() -> None:
    from gcs.battle.state import Intent, new_intent
    from gcs.enums import IntentKind

    it = new_intent("bite", "Bite", IntentKind.ATTACK, 7, 2, None)
    assert type(it) is Intent and it == Intent("bite", "Bite", IntentKind.ATTACK, 7, 2, None)
    assert (it.move, it.damage, it.hits, it.block) == ("bite", 7, 2, None)
    assert it._replace(hits=3) == Intent("bite", "Bite", IntentKind.ATTACK, 7, 3)

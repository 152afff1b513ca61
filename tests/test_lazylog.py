"""The deferred event log (gcs/lazylog.py): a default ``Game()`` records nothing until its log is
read, and the log it then gives is the one a game that logged as it went keeps: the same events
in the same order, the ring cut at the same points. Each test drives two games with one seed
through the same calls: ``lazy`` (a default game) and ``ref`` (made to log as it goes from the
start), choosing each call from ``ref`` so that ``lazy`` hands out no live object."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from fuzz_support import garbage
from test_flow_saves import PACK

import gcs
from gcs import events as ev
from gcs.agent import END_ACTION, Action
from gcs.content.db import Content
from gcs.enums import PileScope
from gcs.errors import GameError
from gcs.game import Game
from gcs.lazylog import DEFER_CALLS, calls, defer, materialize

BUILTIN = gcs.builtin_content()
Call = tuple[str, tuple[Any, ...]]


def eager(content: Content, seed: int, **kw: Any) -> Game:
    """A game that logs every event as it goes (its deferral ended before any call)."""
    g = Game(content, seed=seed, **kw)
    materialize(g)
    assert g._e.deferred is None and g._e.hot
    return g


def twins(content: Content, seed: int, log_cap: int | None = None) -> tuple[Game, Game]:
    lazy, ref = Game(content, seed=seed), eager(content, seed)
    assert lazy._e.deferred == () and not lazy._e.hot
    if log_cap is not None:
        lazy._e.log_cap = ref._e.log_cap = log_cap
    return lazy, ref


def pick(ref: Game, rng: random.Random) -> Call:
    """A call for both games, chosen by reading ``ref``: indices and ids, never live objects.
    Mostly legal actions; also illegal ones, the clock, draws, shuffles, the master deck and
    new battles, so that every kind of journal entry comes up."""
    if not ref.is_battle_active:
        r = rng.random()
        if ref.last_result is False and r < 0.7:  # the run is over: start_battle is refused
            return ("add_card_to_master_deck", ("strike", rng.random() < 0.5))
        if r < 0.1:
            return ("add_card_to_master_deck", ("strike", rng.random() < 0.5))
        if r < 0.15:
            return ("upgrade_card_in_master_deck", ("defend",))
        return ("start_battle", (rng.choice(sorted(ref.content.encounters)),))
    legal = ref.legal_actions()
    r = rng.random()
    if ref.waiting_kind == "wait" and r < 0.5:
        return ("advance_time", (rng.choice([0.05, 0.3, 1.0]),))
    if ref.waiting_kind == "gate" and r < 0.5:
        return ("complete_animation", ())
    if ref.is_waiting and not legal:
        return ("settle", ())
    if r < 0.04:
        return ("apply", (Action.play(99),))  # IllegalActionError: refused, nothing undone
    if r < 0.07 and not ref.is_waiting and not ref.is_waiting_for_reward:
        return ("draw_cards", (1,))
    if r < 0.09 and not ref.is_waiting and not ref.is_waiting_for_reward:
        return ("shuffle_draw_pile", ())
    if r < 0.12 and legal and legal[-1] == END_ACTION:
        return ("apply", ("end",))  # an action as text
    if r < 0.15:
        return ("end_player_turn", ())
    if not legal:
        return ("settle", ())
    return ("apply", (rng.choice(legal),))


def do(g: Game, call: Call) -> str:
    """Make ``call`` on ``g``; what it returned or raised, as text."""
    name, args = call
    try:
        return repr(getattr(g, name)(*args))
    except GameError as exc:
        return type(exc).__name__


def dump(g: Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def play(lazy: Game, ref: Game, rng: random.Random, calls: int, *,
         peek: float = 0.0, clear: float = 0.0) -> None:
    """Make ``calls`` random calls on both games; with probability ``peek`` per call a clone of
    ``lazy`` reads its log (which must equal ``ref``'s, and leaves ``lazy`` deferred), with
    ``clear`` both clear their logs."""
    for i in range(calls):
        call = pick(ref, rng)
        assert do(lazy, call) == do(ref, call), call
        if rng.random() < peek:
            c = lazy.clone()
            assert c.event_log == ref.event_log
        if rng.random() < clear and i < calls - 1:  # (a clear needs calls after it to matter)
            lazy.clear_event_log()
            ref.clear_event_log()


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("which", ["builtin", "pausing"])
def test_the_deferred_log_is_the_log_of_a_game_that_logs_as_it_goes(which: str, seed: int) -> None:
    content = BUILTIN if which == "builtin" else PACK
    lazy, ref = twins(content, seed)
    rng = random.Random(seed)
    play(lazy, ref, rng, 300, peek=0.03, clear=0.01)
    assert lazy._e.deferred is not None and lazy._e.log == []  # still deferred: nothing kept
    assert lazy.event_log == ref.event_log and ref.event_log
    assert lazy._e.deferred is None and lazy._e.hot  # read once: it logs as it goes now
    play(lazy, ref, rng, 40)
    assert lazy.event_log == ref.event_log and dump(lazy) == dump(ref)


@pytest.mark.parametrize("seed", range(3))
def test_the_deferred_log_cuts_its_ring_where_the_live_log_does(seed: int) -> None:
    lazy, ref = twins(PACK if seed else BUILTIN, seed, log_cap=50)
    rng = random.Random(100 + seed)
    play(lazy, ref, rng, 250, peek=0.05)
    log = ref.event_log
    assert 25 <= len(log) <= 50 and len(lazy.event_log) == len(log) and lazy.event_log == log


def test_a_default_game_records_nothing_until_the_log_is_read() -> None:
    g = Game(BUILTIN, seed=1)
    g.start_battle("jaw_worm")
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    e = g._e
    assert e.log == [] and not e.hot and e.deferred_n == 7 and len(calls(e)) == 7
    log = g.event_log
    assert isinstance(log[0], ev.PhaseChanged) and any(isinstance(x, ev.CardPlayed) for x in log)
    assert e.deferred is None and e.defer_base is None and e.hot
    quiet = Game(BUILTIN, seed=1, log_events=False)
    quiet.start_battle("jaw_worm")
    assert quiet._e.deferred is None and quiet.event_log == []


def test_a_game_that_makes_the_bound_of_calls_logs_as_it_goes_from_then_on() -> None:
    lazy, ref = twins(BUILTIN, 4, log_cap=300)
    rng = random.Random(4)
    made = 0
    refused_at_bound = False
    while lazy._e.deferred is not None:
        call = pick(ref, rng)
        got = do(lazy, call)
        assert got == do(ref, call), call
        made += 1
        assert made <= DEFER_CALLS + 1
        if made == DEFER_CALLS:
            refused_at_bound = got.endswith("Error")
    # the call that reaches the bound rebuilds the log; a refused one leaves that to the next
    # call (gcs/guard.py), so the rebuild may come one call later
    assert made == DEFER_CALLS or (made == DEFER_CALLS + 1 and refused_at_bound)
    assert lazy._e.hot and lazy._e.log  # the replay's log, kept
    play(lazy, ref, rng, 30)
    assert lazy.event_log == ref.event_log and dump(lazy) == dump(ref)


def test_a_subscriber_ends_the_deferral_and_sees_every_event_after() -> None:
    lazy, ref = twins(BUILTIN, 5)
    rng = random.Random(5)
    play(lazy, ref, rng, 20)
    seen: list[ev.Event] = []
    n = len(ref.event_log)
    unsubscribe = lazy.subscribe(ev.Event, seen.append)
    assert lazy._e.deferred is None
    play(lazy, ref, rng, 20)
    assert seen == ref.event_log[n:] and seen
    unsubscribe()
    play(lazy, ref, rng, 10)
    assert lazy.event_log == ref.event_log


@pytest.mark.parametrize("getter", ["player", "enemies", "hand", "draw_pile", "discard_pile",
                                    "exhaust_pile", "played_this_turn", "drawn_this_turn",
                                    "current_hand", "pile"])
def test_a_live_object_handed_out_ends_the_deferral(getter: str) -> None:
    """The caller may change a card or unit it holds, which no replay repeats: the log is
    rebuilt first and kept from then on, so a change made by hand is no harm to it."""
    lazy, ref = twins(BUILTIN, 6)
    rng = random.Random(6)
    play(lazy, ref, rng, 8)
    got = getattr(lazy, getter)
    got(PileScope.HAND) if getter == "pile" else got() if callable(got) else None
    assert lazy._e.deferred is None and lazy.event_log == ref.event_log
    player, twin = lazy._e.s.units[0], ref._e.s.units[0]
    player.block = twin.block = player.block + 3  # (the same change by hand on both)
    play(lazy, ref, rng, 15)
    assert lazy.event_log == ref.event_log


def test_a_pending_choice_ends_the_deferral() -> None:
    lazy, ref = twins(PACK, 7)
    rng = random.Random(7)
    for _ in range(400):
        if ref.is_waiting_for_choice:
            break
        play(lazy, ref, rng, 1)
    assert ref.pending_choice is not None and lazy._e.deferred is not None
    assert lazy.pending_choice is not None and lazy._e.deferred is None
    assert lazy.event_log == ref.event_log


@pytest.mark.parametrize("call", ["add_card_to_hand", "add_card_to_pile"])
def test_a_call_that_returns_a_live_card_ends_the_deferral_after_it(call: str) -> None:
    lazy, ref = twins(BUILTIN, 8)
    lazy.start_battle("jaw_worm")
    ref.start_battle("jaw_worm")
    args: tuple[Any, ...] = ("anger",) if call == "add_card_to_hand" else ("anger", PileScope.DRAW)
    made = getattr(lazy, call)(*args)
    getattr(ref, call)(*args)
    assert lazy._e.deferred is None and made in lazy._e.s.cards.values()
    assert lazy.event_log == ref.event_log and isinstance(lazy.event_log[-1], ev.Event)


def test_a_call_no_replay_can_make_again_ends_the_deferral_before_it() -> None:
    lazy, ref = twins(BUILTIN, 9)
    deck = ["strike", "defend", "bash", "anger"]
    lazy.set_master_deck(iter(deck))  # (an iterator: a replay could not read it again)
    ref.set_master_deck(iter(deck))
    assert lazy._e.deferred is None
    lazy.start_battle("jaw_worm")
    ref.start_battle("jaw_worm")
    assert lazy.event_log == ref.event_log and dump(lazy) == dump(ref)


def test_a_call_undone_by_the_guard_leaves_the_deferred_log_as_it_was() -> None:
    from test_fuzz_content import SMALL

    d = copy.deepcopy(SMALL)
    d["pack"]["limits"] = {"max_count": 1_000_000}
    d["cards"]["defend"]["on_play"] = [{"add_card": {"card": "strike", "count": 999_999}}]
    content = gcs.load_content(d)
    rules = gcs.BattleRules(step_limit=5_000)
    lazy, ref = Game(content, seed=3, rules=rules), eager(content, 3, rules=rules)
    enc = sorted(content.encounters)[0]
    failed = 0
    rng = random.Random(3)
    for g in (lazy, ref):
        g.start_battle(enc)
    for _ in range(60):
        if not ref.is_battle_active or ref.is_waiting_for_reward:
            break
        hand = [c.card_id for c in ref.hand()]
        call: Call = (("apply", (Action.play(hand.index("defend")),)) if "defend" in hand
                      and ref.energy >= 1 else ("apply", (rng.choice(ref.legal_actions()),)))
        out = do(lazy, call)
        assert out == do(ref, call)
        failed += out == "StepLimitError"
    assert failed and lazy._e.deferred is not None
    assert lazy.event_log == ref.event_log and dump(lazy) == dump(ref)


def test_a_clone_of_a_deferred_game_defers_on_its_own() -> None:
    lazy, ref = twins(BUILTIN, 10)
    rng = random.Random(10)
    play(lazy, ref, rng, 12)
    c, cref = lazy.clone(), ref.clone()
    assert c._e.deferred is lazy._e.deferred and c._e.deferred_n == lazy._e.deferred_n  # shared
    rng2 = random.Random(11)
    play(c, cref, rng2, 25)
    play(lazy, ref, rng, 25)
    assert c.event_log == cref.event_log and lazy.event_log == ref.event_log
    assert c.event_log != lazy.event_log


def test_a_loaded_game_defers_from_the_loaded_state() -> None:
    lazy, ref = twins(PACK, 12)
    rng = random.Random(12)
    play(lazy, ref, rng, 30)
    save = ref.to_json()
    a, b = Game.from_json(PACK, save), Game.from_json(PACK, save)
    materialize(b)
    assert a._e.deferred == () and a._e.defer_base is not None and b._e.hot
    play(a, b, rng, 40)
    assert a.event_log == b.event_log and dump(a) == dump(b)


def test_a_state_changed_by_hand_while_deferred_is_named_when_the_log_is_read() -> None:
    """The deferral's backstop: the replay is checked against the game (engine steps, piles,
    HP, energy, streams); a change made by hand outside the calls is refused, not logged
    wrong."""
    g = Game(BUILTIN, seed=14)
    g.start_battle("jaw_worm")
    g._e.s.energy = 1  # (internals, changed by hand: no call did it)
    with pytest.raises(GameError, match=r"could not be rebuilt.* another energy .*are lost"):
        _ = g.event_log
    assert g.event_log == [] and g._e.hot  # (consistent: it logs as it goes from now on)
    g.apply(END_ACTION)
    assert any(isinstance(x, ev.TurnEnded) for x in g.event_log)


def test_a_watcher_is_told_of_each_call_while_the_log_stays_deferred() -> None:
    from gcs.guard import watch_calls

    lazy, ref = twins(BUILTIN, 15)
    told: list[int] = []
    stop = watch_calls(lazy, lambda: told.append(lazy._e.s.steps))
    rng = random.Random(15)
    play(lazy, ref, rng, 30)
    stop()
    assert len(told) == 30 and lazy._e.deferred is not None
    assert lazy.event_log == ref.event_log


def _garbage_call(ref: Game, rng: random.Random) -> Call:
    """A call with random arguments of random types (no live object), or a legal action to keep
    the battle going: what a careless caller makes, for both games."""
    def a() -> Any:
        return garbage(rng)

    r = rng.random()
    if r < 0.45:
        return pick(ref, rng)
    calls: list[Call] = [
        ("start_battle", (rng.choice([a(), "jaw_worm", "cultist"]),)),
        ("draw_cards", (a(),)),
        ("apply", (a(),)),
        ("apply", (rng.choice(["end", "play 99", "choose 1,1", "play 0 @e9", "skip"]),)),
        ("choose", (rng.choice([a(), [a()], [0], [0, 1]]),)),
        ("advance_time", (a(),)),
        ("complete_animation", (rng.choice([None, a()]),)),
        ("apply_reward", (a(),)),
        ("set_master_deck", (rng.choice([[a(), a()], ["strike", ("defend", True)], a()]),)),
        ("add_card_to_master_deck", (rng.choice(["strike", a()]), rng.choice([False, a()]))),
        ("remove_card_from_master_deck", (rng.choice(["strike", a()]), rng.choice([True, a()]))),
        ("upgrade_card_in_master_deck", (rng.choice(["bash", a()]),)),
        ("shuffle_draw_pile", ()), ("settle", ()), ("skip_reward", ()),
    ]
    return rng.choice(calls)


@pytest.mark.parametrize("seed", range(4))
def test_garbage_calls_leave_the_deferred_log_equal_to_the_live_one(seed: int) -> None:
    """Refused calls (every kind of bad argument), text actions and unreplayable arguments on a
    deferred game and its twin: the same outcome call by call, and the same log after."""
    lazy, ref = twins(BUILTIN, 20 + seed)
    rng = random.Random(20 + seed)
    for _ in range(250):
        call = _garbage_call(ref, rng)
        assert do(lazy, call) == do(ref, call), call
        if lazy._e.deferred is None:  # (an unreplayable argument ended it: defer anew)
            assert lazy.event_log == ref.event_log
            lazy.clear_event_log()
            ref.clear_event_log()
            defer(lazy._e, lazy._e.s.clone())
    assert lazy.event_log == ref.event_log and dump(lazy) == dump(ref)

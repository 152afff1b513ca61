"""The deferred event log: a game that logs records nothing until someone reads the log.

A ``Game(log_events=True)`` (the default) with no subscriber keeps, instead of the events, the
outermost changing calls it was given (``Engine.deferred``, a chain of the entries of
``gcs/replay.py`` that a clone shares)
and the state they started from (``Engine.defer_base``; None: the game as constructed). The
engine is deterministic, so the first read of ``event_log`` replays those calls on a private
copy that logs every event, takes its log, and from then on the game logs as it goes. So does a
game that gets a subscriber (handlers see events as they happen), a call whose arguments cannot
be replayed, and a game that has made ``DEFER_CALLS`` calls (a bound on the replay's time and
the chain's memory). The log read is the log the game would have kept: the same events, in the
same order, the ring cut at the same points (``tests/test_lazylog.py`` compares them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import GameError
from .replay import Call, replay, replica

if TYPE_CHECKING:
    from .battle.state import State
    from .engine import Engine

DEFER_CALLS = 1_024  # calls kept at most; the next one rebuilds the log and logs as it goes


def defer(e: Engine, base: State | None) -> None:
    """Start deferring the (empty) log of ``e``: the calls from now on run from ``base`` (the
    state now, a clone nobody changes; None: the game as constructed)."""
    assert e.logging and not e.log and not any(e.subs.values())
    e.deferred = ()
    e.deferred_n = 0
    e.defer_base = base
    e.refresh_hot()


def keep(e: Engine, call: Call) -> bool:
    """Add ``call`` to the deferred calls of ``e``; True when they have reached the bound."""
    e.deferred = (e.deferred, call)
    e.deferred_n += 1
    return e.deferred_n >= DEFER_CALLS


def calls(e: Engine) -> list[Call]:
    """The deferred calls of ``e``, in order (the chain unrolled; [] when not deferred)."""
    out = []
    node = e.deferred
    while node:
        node, call = node
        out.append(call)
    out.reverse()
    return out


def materialize(game: Any) -> None:
    """Rebuild the deferred log of ``game`` (replay its calls with logging on) and log as it
    goes from now on; nothing to do if its log is not deferred. Called between calls, never
    inside one (a subscriber, the only way in from inside a wave, ends the deferral first)."""
    e: Engine = game._e
    if e.deferred is None:
        return
    made = calls(e)
    r = replica(game, e.defer_base, logging=True)
    replay(r, made, trim=True)
    re: Engine = r._e
    why = _diverged(re.s, e.s)
    e.log = [] if why else re.log
    e.log_shared = False
    e.deferred = None
    e.deferred_n = 0
    e.defer_base = None
    e.refresh_hot()
    if why:
        raise GameError(f"the deferred event log could not be rebuilt: the replay of the game's "
                        f"{len(made)} calls ended with another {why} (was the battle state "
                        f"changed other than through the Game's calls?); the events until now "
                        f"are lost, the game logs those from now on")


def restart(e: Engine) -> None:
    """``clear_event_log`` on a deferred log: the calls from now on run from the state now."""
    e.deferred = ()
    e.deferred_n = 0
    e.defer_base = e.s.clone()


def _diverged(a: State, b: State) -> str:
    """What differs between the replay's state ``a`` and the game's ``b`` (empty: nothing), by
    the counters every call moves: engine steps, turn, phase, piles, HP, block, energy and the
    three battle streams (a cheap check, not a full comparison)."""
    pairs = (
        ("engine step count", a.steps, b.steps),
        ("turn", a.turn, b.turn),
        ("phase", a.phase, b.phase),
        ("hand", a.hand, b.hand),
        ("draw pile", a.draw, b.draw),
        ("discard pile", a.discard, b.discard),
        ("exhaust pile", a.exhaust, b.exhaust),
        ("energy", a.energy, b.energy),
        ("unit HP", [u.hp for u in a.units], [u.hp for u in b.units]),
        ("unit block", [u.block for u in a.units], [u.block for u in b.units]),
        ("master deck", a.master, b.master),
        ("random streams", (a.rng_shuffle.state, a.rng_ai.state, a.rng_cards.state,
                            a.run_rng.state),
         (b.rng_shuffle.state, b.rng_ai.state, b.rng_cards.state, b.run_rng.state)),
    )
    for name, x, y in pairs:
        if x != y:
            return name
    return ""

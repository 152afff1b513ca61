"""Replaying recorded facade calls on a private copy of a game (the engine is deterministic).

Two things keep a list of the outermost changing calls a game was given: the call guard
(``gcs/guard.py``), to restore the state from before a call that broke, and the deferred
event log (``gcs/lazylog.py``), to rebuild the log when someone first reads it. An entry is
``(method name, arguments, keywords)``, with the arguments as the call got them (lists copied);
a replay runs the unguarded methods (``RAW``) on a replica: a game of the same content, seed,
rules and character on a copy of the state the calls started from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any

from .agent import Action
from .battle.state import CardInstance, Reward, State, Unit
from .content.defs import EncounterDef, GameCard
from .enums import DrawPilePosition, PileScope

if TYPE_CHECKING:
    from .engine import Engine

Call = tuple[str, tuple[Any, ...], dict[str, Any]]
RAW: dict[str, Callable[..., Any]] = {}  # the unguarded methods, by name (filled by the guard)

# the argument types that need no check and no copy (the common case)
PLAIN = frozenset((type(None), bool, int, float, str, CardInstance, Unit, Action, Reward,
                   PileScope, DrawPilePosition))
NO_KW: dict[str, Any] = {}  # the keywords of a call that had none (never changed)


def replayable(v: object) -> bool:
    """Whether a replay can pass ``v`` again: plain values, content, the game's own card and
    unit objects, and lists and tuples of those (at most 1,000 long)."""
    if type(v) in PLAIN:
        return True
    if v is None or isinstance(v, (bool, int, float, str, Enum, CardInstance, Unit, GameCard,
                                   EncounterDef, Reward, Action)):
        return True
    if isinstance(v, (list, tuple)):
        return len(v) <= 1_000 and all(replayable(x) for x in v)
    return False


def entry(name: str, args: tuple[Any, ...], kw: dict[str, Any]) -> Call | None:
    """The journal entry of a call, or None when its arguments cannot be replayed."""
    if not kw and (not args or (len(args) == 1 and type(args[0]) in PLAIN)):
        return (name, args, kw)  # the common case: nothing to copy
    if replayable(args) and replayable(tuple(kw.values())):
        return (name, tuple(_frozen(a) for a in args), {k: _frozen(v) for k, v in kw.items()})
    return None


def _frozen(v: Any) -> Any:
    """An argument as recorded: lists copied (a caller may change them later)."""
    if isinstance(v, list):
        return [_frozen(x) for x in v]
    return v


def _mapped(v: Any, s: State) -> Any:
    """An argument for the replay: card and unit objects become the replay's own."""
    if isinstance(v, CardInstance):
        return s.cards.get(v.uid, v)
    if isinstance(v, Unit):
        return s.units[v.uid] if 0 <= v.uid < len(s.units) else v
    if isinstance(v, list):
        return [_mapped(x, s) for x in v]
    if isinstance(v, tuple) and not hasattr(v, "_fields"):
        return tuple(_mapped(x, s) for x in v)
    return v


def replica(game: Any, state: State | None, *, logging: bool) -> Any:
    """A private game like ``game`` (content, seed, rules, character, presenter; no subscriber,
    no watcher) on a clone of ``state``, or, with None, as ``game`` was constructed; with
    ``logging`` it logs every event at once (its ring cut as ``game``'s), else nothing. Every
    call on it runs unguarded."""
    from .engine import Engine

    e: Engine = game._e
    cls: Any = type(game)
    # (the rules and content the engine plays by: ``game.rules`` is only what it was made with)
    if state is None:
        ch = game._char
        r = cls(e.c, seed=game.seed, rules=e.rules, character=None if ch is None else ch.id,
                log_events=False, presenter=e.presenter)
    else:
        r = cls.__new__(cls)
        r.seed, r.content, r.rules, r._char = game.seed, e.c, e.rules, game._char
        r._e = Engine(e.c, state.clone(), e.rules, logging=False, presenter=e.presenter)
    re: Engine = r._e
    re.depth = 1  # every call of the replay runs unguarded
    if logging:
        re.log_cap = e.log_cap
        re.logging = True
    return r


def replay(r: Any, calls: Iterable[Call], *, trim: bool = False) -> None:
    """Run ``calls`` on the replica ``r``, in order. A call that raises a ``GameError`` (one
    that failed in the original too, the guard undoing nothing: a deferred log keeps those) is
    passed over, as the guard passed it to the caller. With ``trim`` the log's ring is cut
    after each call that returned, as the guard cuts it after an outermost call."""
    from .errors import GameError

    re: Engine = r._e
    for name, args, kw in calls:
        s = re.s
        try:
            RAW[name](r, *_mapped(args, s), **{k: _mapped(v, s) for k, v in kw.items()})
        except GameError:
            continue  # (the guard cuts no ring after a call that raised)
        if trim and len(re.log) > re.log_cap:
            re.trim_log()

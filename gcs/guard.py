"""The call guard around every public ``Game`` method (see docs/rules/boundary.md).

- A subscriber that raises does not stop the wave: the engine records the first failure,
  runs the remaining handlers and the rest of the wave, and the call then raises
  ``HandlerError`` (naming the handler and the event, the original as ``__cause__``).
- An engine error inside a wave (``StepLimitError``, ``FlowError``, or any internal exception,
  which is wrapped in ``GameError``) restores the state from before the call: the same card
  and unit objects, their fields as they were, the event log as it was. The guard keeps a
  checkpoint (a state clone) and a journal of at most ``JOURNAL`` calls since; a restore
  replays the journal on a private copy (the engine is deterministic), so a call that
  succeeds costs one list append, not a clone.
- Calls made from inside a handler run unguarded (state-changing ones raise ``BusyError``).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .agent import Action
from .agent import apply as _apply
from .battle.roles import forget_roles
from .battle.state import CardInstance, State, Unit
from .errors import ArgumentError, FlowError, GameError, HandlerError, StepLimitError
from .lazylog import DEFER_CALLS, calls, keep, materialize
from .replay import NO_KW, PLAIN, RAW, Call, entry, replay, replica

if TYPE_CHECKING:
    from .engine import Engine

# the calls that can change state (a snapshot is taken before them)
CHANGING = frozenset((
    "start_battle", "try_play_card", "end_player_turn", "choose", "advance_time",
    "complete_animation", "settle", "apply_reward", "skip_reward", "draw_cards",
    "add_card_to_hand", "add_card_to_pile", "move_card_to_pile", "shuffle_draw_pile", "apply",
    "set_master_deck", "add_card_to_master_deck", "remove_card_from_master_deck",
    "upgrade_card_in_master_deck", "clear_master_deck",
))


def fields(cls: type) -> tuple[str, ...]:
    """The data fields of a state class, read from its declaration: ``__slots__`` in pure
    Python, ``__mypyc_attrs__`` once mypyc compiled it (compiled classes have no slots)."""
    names: tuple[str, ...] = tuple(getattr(cls, "__slots__", None)
                                   or getattr(cls, "__mypyc_attrs__", None) or ())
    return tuple(n for n in names if not n.startswith("__"))


# ``token`` is an identity, not data (gcs/battle/state.py): a restore keeps the live game's
_CARD_FIELDS = tuple(f for f in fields(CardInstance) if f != "token")
_UNIT_FIELDS = fields(Unit)
_STATE_FIELDS = tuple(f for f in fields(State) if f != "token")


def restore(e: Engine, snap: State, log_len: int) -> None:
    """Put the state back as ``snap`` holds it, keeping the live card and unit objects (a
    caller may hold them) and dropping the events published since."""
    live = e.s
    cards = {}
    for uid, old in snap.cards.items():
        obj = live.cards.get(uid, old)
        if obj is not old:
            for f in _CARD_FIELDS:
                setattr(obj, f, getattr(old, f))
        else:
            obj.token = live.token  # (made by the private copy: now the live game's card)
        cards[uid] = obj
    units = []
    for i, old_u in enumerate(snap.units):
        u = live.units[i] if i < len(live.units) else old_u
        if u is not old_u:
            for f in _UNIT_FIELDS:
                setattr(u, f, getattr(old_u, f))
        units.append(u)
    for f in _STATE_FIELDS:
        setattr(live, f, getattr(snap, f))
    live.cards = cards
    live.units = units
    del e.own_log()[log_len:]
    e.failure = None
    e.busy = False
    e.legal = None
    e.legal_key = (-1, False, False)


def _handler_error(e: Engine) -> HandlerError:
    handler, event, exc = e.failure  # type: ignore[misc]
    e.failure = None
    name = getattr(handler, "__qualname__", None) or repr(handler)
    err = HandlerError(f"event handler {name} raised {type(exc).__name__}: {exc} on "
                       f"{type(event).__name__}; the wave was completed without it")
    err.__cause__ = exc  # as ``raise err from exc``
    err.__suppress_context__ = True
    return err


# the changing calls that return a live card object (the caller may change it, which no replay
# of the calls would repeat): a deferred log is rebuilt after them (gcs/lazylog.py)
LIVE_RESULT = frozenset(("add_card_to_hand", "add_card_to_pile"))
JOURNAL = 64  # calls replayed at most to restore a state (a new checkpoint after that many)


def _rewind(game: Any, e: Engine, log_len: int) -> None:
    """Put the state back as it was before the failed call: replay the journal from the
    checkpoint on a private copy (no subscribers, no log), then copy it into the live state.
    While the log is deferred its calls are the journal, and its base the checkpoint."""
    if e.deferred is not None:
        r = replica(game, e.defer_base, logging=False)
        replay(r, calls(e))
    else:
        ck = e.ckpt
        assert ck is not None  # (a guarded call checkpoints before it runs)
        r = replica(game, ck, logging=False)
        replay(r, e.journal)
    restore(e, r._e.s, log_len)


def guarded(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` with the guard: a checkpoint and a journal of the calls since, so that an engine
    error can restore the state from before the call; handler failures raised after it. A
    deferred log (``gcs/lazylog.py``) keeps the call too."""
    RAW[name] = fn
    live = name in LIVE_RESULT

    @functools.wraps(fn)
    def call(self: Any, *args: Any, **kw: Any) -> Any:
        e: Engine | None = self.__dict__.get("_e")
        if e is None or e.busy or e.depth:
            return fn(self, *args, **kw)
        rec = entry(name, args, kw)  # (taken before the call: the arguments as it got them)
        deferred = e.deferred
        if deferred is not None and rec is None:
            materialize(self)  # a call no replay can make again: the log is kept from now on
            deferred = None
        n = len(e.log)  # what a failure needs to undo the call: the log length, loop runs
        ticks = e.ticks
        _begin(e, deferred, name)
        try:
            out = fn(self, *args, **kw)
        except Exception as exc:
            # (it chains itself)
            raise _failed(self, e, n, ticks, exc, fn.__name__, rec)  # noqa: B904
        e.depth -= 1
        if e.deferred is not None and rec is not None:
            # (the journal and the deferred log's calls, in one)
            if keep(e, rec) or live:
                materialize(self)
        else:
            _journal(e, rec)
        _done(e)
        return out

    return call


def guarded_apply(fn: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """``guarded(fn, "apply")`` for ``Game.apply(action)``, the call an agent loop makes on every
    decision: the same guard and journal, without an argument tuple and keyword dict per
    call, and an ``Action`` goes straight to ``agent.apply`` (what ``Game.apply`` does with
    one: it converts only text)."""
    RAW["apply"] = fn

    @functools.wraps(fn)
    def call(self: Any, action: Any) -> None:
        e: Engine | None = self.__dict__.get("_e")
        plain = type(action) is Action
        if e is None or e.busy or e.depth:
            if plain and e is not None:
                _apply(e, action)
            else:
                fn(self, action)
            return
        deferred = e.deferred
        if plain and deferred is not None:
            # the usual decision of an agent loop: an Action, the log deferred (so empty, and
            # no subscriber: no handler can fail). The general path below, with what it finds
            # known: no checkpoint to take (the deferred calls are the journal), nothing
            # logged for a failure to drop, no ring to cut
            made: Call = ("apply", (action,), NO_KW)
            ticks = e.ticks
            e.depth = 1
            if e.roles_open:  # (as ``_begin``)
                forget_roles(e)
            try:
                _apply(e, action)
            except Exception as exc:
                raise _failed(self, e, 0, ticks, exc, "apply", made)  # noqa: B904 (it chains itself)
            e.depth = 0
            # (``keep(e, made)``, inlined; the chain read again: nothing in a call ends the
            # deferral, and if something did the call would not be kept)
            deferred = e.deferred
            if deferred is not None:
                e.deferred = (deferred, made)
                e.deferred_n = n = e.deferred_n + 1
                if n >= DEFER_CALLS:
                    materialize(self)
            if e.watchers:
                _ended(e)
            return
        # an Action or its text: nothing to copy; anything else is refused by the call (after
        # the log, if deferred, is rebuilt: no replay could make it)
        rec: Call | None = (("apply", (action,), NO_KW) if plain or type(action) in PLAIN
                            else None)
        if rec is None and deferred is not None:
            materialize(self)
            deferred = None
        n = len(e.log)  # what a failure needs to undo the call: the log length, loop runs
        ticks = e.ticks
        _begin(e, deferred, "apply")
        try:
            if plain:
                _apply(e, action)
            else:
                fn(self, action)
        except Exception as exc:
            # (it chains itself)
            raise _failed(self, e, n, ticks, exc, fn.__name__, rec)  # noqa: B904
        e.depth -= 1
        if e.deferred is not None and rec is not None:
            # (the journal and the deferred log's calls, in one)
            if keep(e, rec):
                materialize(self)
        else:  # (``_journal(e, rec)``, inlined: the call of every decision)
            jr = e.journal
            if len(jr) >= JOURNAL or rec is None:
                e.ckpt = None
            else:
                jr.append(rec)
        # (``_done(e)``, called only when it has something to do: the log past its ring, a
        # watcher to tell, or a handler's failure to raise)
        if len(e.log) > e.log_cap or e.watchers or e.failure is not None:
            _done(e)

    return call


def _begin(e: Engine, deferred: tuple[Any, ...] | None, name: str) -> None:
    """Enter an outermost guarded call: checkpoint the state if there is none, count the call
    in progress. While the log is ``deferred`` its calls and base are the journal and the
    checkpoint (a restore replays them), so no clone is taken. The status roles read before
    are forgotten once a live unit was handed out (its holder may have changed it by hand
    since)."""
    if e.roles_open:
        forget_roles(e)
    if e.ckpt is None and deferred is None:
        try:
            e.ckpt = e.s.clone()
        except Exception as exc:  # (a state broken by hand: nothing was changed yet)
            raise unreadable(name, exc) from exc
        e.journal = []
    e.depth += 1


def _journal(e: Engine, rec: Call | None) -> None:
    """After a call that returned: journal it (``rec``), or, with the journal full or a call
    no replay can make again, drop the checkpoint (the next call takes the state it left)."""
    jr = e.journal
    if len(jr) >= JOURNAL or rec is None:
        e.ckpt = None
    else:
        jr.append(rec)


def _failed(game: Any, e: Engine, n: int, ticks: int, exc: Exception, fname: str,
            rec: Call | None) -> Exception:
    """A guarded call raised ``exc``: undo its wave if one ran (or broke), tell the watchers,
    and return the exception for the caller (``exc`` itself if it is a ``GameError``). A
    deferred log keeps ``rec``, the call, when nothing was undone (what the call did before it
    raised stays, so its replay does the same)."""
    e.depth -= 1
    if isinstance(exc, ArgumentError):
        return exc  # refused before it changed anything: nothing to undo
    engine = isinstance(exc, (StepLimitError, FlowError)) or not isinstance(exc, GameError)
    if engine or e.ticks != ticks:  # a wave ran (or broke): undo it
        e.depth += 1
        try:
            _rewind(game, e, n)
        finally:
            e.depth -= 1
    elif e.deferred is not None and rec is not None:
        keep(e, rec)  # (past the bound, the next call that returns rebuilds the log)
    e.failure = None
    _ended(e)
    if isinstance(exc, GameError):
        return exc
    err = GameError(f"internal error in {fname}: {type(exc).__name__}: {exc} "
                    "(the state was restored; please report this)")
    err.__cause__ = exc  # as ``raise err from exc``
    err.__suppress_context__ = True
    return err


def _done(e: Engine) -> None:
    """A guarded call returned: cut the event log's ring, tell the watchers, then raise a
    handler's failure if any."""
    if len(e.log) > e.log_cap:
        e.trim_log()
    if e.watchers:
        _ended(e)
    if e.failure is not None:
        raise _handler_error(e)


def watch_calls(game: Any, fn: Callable[[], None]) -> Callable[[], None]:
    """Call ``fn()`` on the caller's thread each time an outermost public call of ``game``
    that can change it has ended (returned or raised, the state consistent); returns the
    function that stops it. For observers such as the monitor; ``fn`` must not call ``game``'s
    changing methods, and an exception from it is ignored (an observer never breaks a call)."""
    watchers = game._e.watchers
    watchers.append(fn)
    return functools.partial(_unwatch, watchers, fn)


def _unwatch(watchers: list[Callable[[], None]], fn: Callable[[], None]) -> None:
    if fn in watchers:
        watchers.remove(fn)


def _ended(e: Engine) -> None:
    watchers = e.watchers
    if watchers:
        for fn in tuple(watchers):
            with contextlib.suppress(Exception):  # an observer's failure is not the caller's
                fn()


def read_guarded(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn``, a public call that changes nothing, with an error from inside the engine raised
    as a ``GameError`` that names the call (the reads have nothing to undo). A state the engine
    makes never raises in them; one a caller broke by hand through a live object (a string
    written into a unit's ``hp``, ``None`` for its statuses) would, and no internal exception
    type reaches a caller."""

    @functools.wraps(fn)
    def call(self: Any, *args: Any, **kw: Any) -> Any:
        try:
            return fn(self, *args, **kw)
        except GameError:
            raise
        except Exception as exc:
            raise unreadable(name, exc) from exc

    return call


def unreadable(name: str, exc: Exception) -> GameError:
    """The error of a call that found the state broken before it changed anything."""
    return GameError(f"internal error in {name}: {type(exc).__name__}: {exc} (nothing was "
                     "changed; was a field of a live card or unit set by hand? else please "
                     "report this)")


def guard_class(cls: type, inline: tuple[str, ...] = (), plain: tuple[str, ...] = ()) -> None:
    """Wrap the public methods of ``cls``: those that can change state with the guard, the
    others (and the properties) with ``read_guarded``, but for the methods that catch as it
    does in their own body (``inline``) and the properties that only return a field of the
    state (``plain``: nothing a caller can reach makes them raise)."""
    for name in sorted(CHANGING):
        fn = getattr(cls, name)
        setattr(cls, name, guarded_apply(fn) if name == "apply" else guarded(fn, name))
    skip = CHANGING | set(inline) | set(plain)
    for name, v in sorted(vars(cls).items()):
        if name.startswith("_") or name in skip:
            continue
        if isinstance(v, property) and v.fget is not None:
            setattr(cls, name, property(read_guarded(v.fget, name), v.fset, v.fdel, v.__doc__))
        elif callable(v) and not isinstance(v, (type, staticmethod, classmethod)):
            setattr(cls, name, read_guarded(v, name))

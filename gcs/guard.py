"""The call guard around every public ``Game`` method (see docs/rules/boundary.md).

- A subscriber that raises does not stop the wave: the engine records the first failure,
  runs the remaining handlers and the rest of the wave, and the call then raises
  ``HandlerError`` (naming the handler and the event, the original as ``__cause__``).
- An engine error inside a wave (``StepLimitError``, ``FlowError``, or any internal exception,
  which is wrapped in ``GameError``) restores the state from before the call: the same card
  and unit objects, their fields as they were, the event log as it was.
- Calls made from inside a handler run unguarded (state-changing ones raise ``BusyError``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .battle.state import CardInstance, State, Unit
from .errors import ArgumentError, GameError, HandlerError

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
# the fields of the state classes (spelled out: compiled classes have no ``__slots__``)
_CARD_FIELDS = ("uid", "card_id", "upgraded", "cost_delta", "battle_delta", "battle_set",
                "turn_delta", "turn_set", "pile", "origin", "base", "active")
_UNIT_FIELDS = ("uid", "def_id", "name", "hp", "max_hp", "block", "statuses", "alive", "move",
                "history", "intent", "rules_used")
_STATE_FIELDS = (
    "seed", "master", "next_entry", "gold", "hp", "max_hp", "character", "battles", "run_rng",
    "active", "phase", "history", "turn", "player_turns", "encounter", "hand_rule",
    "cards", "next_card", "hand", "draw", "discard", "exhaust", "played", "drawn",
    "units", "energy", "rng_shuffle", "rng_ai", "rng_cards", "stack", "pause", "wait_left",
    "gate", "choice_kind", "choice_ids", "choice_min", "choice_max", "choice_prompt",
    "clock", "hooks", "next_seq", "delayed", "end_turn", "extra_turns", "rewards", "result",
    "plays", "damage", "steps",
)
_ = (CardInstance, Unit)


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
    err.__cause__ = exc
    return err


def guarded(fn: Callable[..., Any], changing: bool) -> Callable[..., Any]:
    """``fn`` with the guard: snapshot/restore on engine errors, handler failures raised."""

    @functools.wraps(fn)
    def call(self: Any, *args: Any, **kw: Any) -> Any:
        e: Engine | None = getattr(self, "_e", None)
        if e is None or e.busy or e.depth:
            return fn(self, *args, **kw)
        snap = e.s.clone() if changing else None
        n = len(e.log)
        e.depth += 1
        try:
            out = fn(self, *args, **kw)
        except ArgumentError:
            raise
        except Exception as exc:
            if snap is not None:
                restore(e, snap, n)
            else:
                e.failure = None
            if isinstance(exc, GameError):
                raise
            raise GameError(f"internal error in {fn.__name__}: {type(exc).__name__}: {exc} "
                            "(the state was restored; please report this)") from exc
        finally:
            e.depth -= 1
        if e.failure is not None:
            raise _handler_error(e)
        return out

    return call


def guard_class(cls: type) -> None:
    """Wrap the public methods of ``cls`` that can change state."""
    for name in sorted(CHANGING):  # read-only calls publish nothing and change nothing
        setattr(cls, name, guarded(getattr(cls, name), True))

"""Argument checks of the public calls: a wrong type or value raises ``ArgumentError`` (a
``GameError`` that is also a ``TypeError``/``ValueError``) naming the call and the parameter.

Each helper returns the checked value, so a facade method starts with one line per parameter.
See docs/rules/boundary.md for what every call refuses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeVar

from .content.db import Content
from .content.defs import GameCard
from .content.limits import MAX_DECK  # entries of set_master_deck
from .enums import DrawPilePosition, PileScope
from .errors import ArgumentError, GameError, UnknownCardError

T = TypeVar("T")

MAX_SECONDS = 1e9      # advance_time: at most ~31 years of game clock in one call
MAX_COUNT = 1_000_000  # draw_cards and other counts


def pile_and_position(pile: object, position: object) -> None:
    """A pile scope and a draw pile position, as the card calls take them."""
    if not isinstance(pile, PileScope):
        raise GameError(f"pile must be a PileScope, got {pile!r}")
    if not isinstance(position, DrawPilePosition):
        raise GameError(f"position must be a DrawPilePosition, got {position!r}")


def _bad(call: str, name: str, want: str, got: object) -> ArgumentError:
    shown = repr(got) if not isinstance(got, int) or abs(got) < 10**30 else "a huge integer"
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return ArgumentError(f"{call}: parameter {name!r} must be {want}, got {shown}")


def boolean(call: str, name: str, v: object) -> bool:
    if not isinstance(v, bool):
        raise _bad(call, name, "True or False", v)
    return v


def integer(call: str, name: str, v: object, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _bad(call, name, f"an int in {lo}..{hi}", v)
    return v


def seconds(call: str, name: str, v: object) -> float:
    if (not isinstance(v, (int, float)) or isinstance(v, bool)
            or (isinstance(v, int) and not 0 <= v <= MAX_SECONDS)
            or not math.isfinite(v) or not 0 <= v <= MAX_SECONDS):
        raise _bad(call, name, f"a finite number of seconds in 0..{MAX_SECONDS:g}", v)
    return float(v)


def text(call: str, name: str, v: object, optional: bool = False) -> str | None:
    if v is None and optional:
        return None
    if not isinstance(v, str):
        raise _bad(call, name, "a string" + (" or None" if optional else ""), v)
    return v


def instance_of(call: str, name: str, v: object, cls: type[T] | tuple[type, ...],
                what: str) -> T:
    if not isinstance(v, cls):
        raise _bad(call, name, what, v)
    return v  # type: ignore[return-value]


def own_card(call: str, name: str, content: Content, v: object) -> GameCard:
    """A card id of this content, or one of this content's GameCards (base or upgraded)."""
    if isinstance(v, str):
        return content.card(v)
    if not isinstance(v, GameCard):
        raise _bad(call, name, "a card id (str) or a GameCard", v)
    base = content.cards.get(v.id)
    if base is None or (v is not base and v is not base.upgrade and v != base):
        raise UnknownCardError(f"{call}: parameter {name!r} is a card of another content "
                               f"({v.id!r} is not the card of pack {content.pack_id!r})")
    return base


def entries(call: str, name: str, v: object) -> list[Any]:
    if isinstance(v, (str, bytes)) or not isinstance(v, Iterable):
        raise _bad(call, name, "an iterable of MasterEntry, card ids or (id, upgraded) pairs", v)
    out = []
    for x in v:
        out.append(x)
        if len(out) > MAX_DECK:
            raise ArgumentError(f"{call}: parameter {name!r} must hold at most {MAX_DECK} "
                                f"entries, got more than {MAX_DECK}")
    from .battle.state import MasterEntry

    for i, x in enumerate(out):
        if isinstance(x, MasterEntry):
            if (not isinstance(x.card_id, str) or not isinstance(x.upgraded, bool)
                    or not isinstance(x.cost_delta, int) or isinstance(x.cost_delta, bool)
                    or not -999 <= x.cost_delta <= 999):
                raise _bad(call, f"{name}[{i}]", "a MasterEntry(card id, bool, int delta)", x)
        elif isinstance(x, tuple) and (len(x) != 2 or not isinstance(x[0], str)
                                       or not isinstance(x[1], bool)):
            raise _bad(call, f"{name}[{i}]", "a master deck entry (card id, upgraded) pair", x)
        elif not isinstance(x, (str, tuple, MasterEntry)):
            raise _bad(call, f"{name}[{i}]",
                       "a master deck entry (MasterEntry, card id or (id, upgraded) pair)", x)
    return out


def handler(call: str, name: str, v: object) -> Any:
    if not callable(v):
        raise _bad(call, name, "a callable taking the event", v)
    return v


def event_class(call: str, name: str, v: object) -> Any:
    from .events import Event

    if not isinstance(v, type) or not issubclass(v, Event):
        raise _bad(call, name, "gcs.events.Event or one of its subclasses", v)
    return v

"""What every definition kind's schema reads alike: a display name from an id, a mapping of
numbers, a checked list, a ``low..high`` range, and the names a scope must know."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from ..problems import (
    Ctx,
    Env,
    get_int,
    get_list,
    get_map,
    listing,
)

T = TypeVar("T")


def title(ident: str) -> str:
    """A display name from an id: ``jaw_worm`` -> ``Jaw Worm``."""
    return " ".join(w.capitalize() for w in re.split(r"[_\-]+", ident) if w)


def numbers(v: object, ctx: Ctx) -> dict[str, int] | None:
    m = get_map(v, ctx, "a mapping of number names to integers, like {damage: 6}")
    if m is None:
        return None
    out = {k: get_int(n, ctx.at(k)) for k, n in m.items()}
    return None if None in out.values() else {k: n for k, n in out.items() if n is not None}


def items(v: object, ctx: Ctx, get: Callable[[object, Ctx], T | None],
           what: str) -> list[T] | None:
    """A list whose items ``get`` checks; None (after reporting) if it or any item is bad."""
    items = get_list(v, ctx, what)
    if items is None:
        return None
    out = [get(x, ctx.at(i)) for i, x in enumerate(items)]
    good = [x for x in out if x is not None]
    return good if len(good) == len(out) else None


def bounds(v: object, ctx: Ctx, lo: int) -> tuple[int, int] | None:
    """``7`` or ``[5, 9]`` -> (low, high)."""
    if isinstance(v, list):
        if len(v) != 2:
            ctx.error("wrong type: expected an integer or a [low, high] pair")
            return None
        a, b = get_int(v[0], ctx.at(0), lo), get_int(v[1], ctx.at(1), lo)
        if a is None or b is None:
            return None
        if a > b:
            ctx.error(f"bad range [{a}, {b}]: low is greater than high")
            return None
        return a, b
    n = get_int(v, ctx, lo)
    return None if n is None else (n, n)


def check_vars(env: Env, known: Iterable[str], what: str) -> None:
    names = set(known)
    allowed = names | env.bound
    for name, ctx in env.used:
        if name not in allowed:
            ctx.error(f"unknown number '${name}' ({what}: {listing(names, name) or 'none'})")
    check_slot_types(env)


HOLDS = {"value": "a value", "cards": "cards", "units": "units"}


def check_slot_types(env: Env) -> None:
    """A slot bound to hold one kind (value, cards, units) must not be read as another."""
    for name, kind, ctx in env.typed:
        bound = env.kinds.get(name)
        if bound is not None and bound[0] != kind:
            ctx.error(f"wrong slot type: '${name}' holds {HOLDS[bound[0]]} (bound at "
                      f"'{bound[1].where()[3]}') but is read here as {HOLDS[kind]}")


"""Argument checks of the environments (standard library only): what ``GcsEnv``,
``GcsVectorEnv`` and their ``reset``/``step``/``decode`` accept. A wrong value raises
``ArgumentError`` (a ``GameError``, ``TypeError`` and ``ValueError``) naming the call and the
parameter, before anything changes (docs/rules/boundary.md, section 7).

Numbers may be Python's or numpy's (``numbers.Integral``/``numbers.Real`` cover numpy scalars);
a bool, a float where an index is wanted, text and arrays of more than one value are refused,
never truncated or converted.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from ..content.limits import MAX_DECK
from ..errors import ArgumentError

MAX_RANDOM_CARDS = 10_000  # cards a random deck adds to the starter deck
MAX_ENVS = 10_000  # episodes of one GcsVectorEnv (each holds its observation buffers)
MAX_LIMIT = 10**9  # max_turns, max_steps
MAX_SEED = 2**128  # an episode seed (gymnasium's generators take any non-negative int)
MAX_ENCOUNTERS = 10_000
SPLITS = ("train", "test")  # the sides of a held-out card split (card_split)


def _shown(v: object) -> str:
    try:
        text = repr(v)
    except Exception:  # (a value whose repr fails is still named by its type)
        text = f"a {type(v).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def bad(call: str, name: str, want: str, got: object) -> ArgumentError:
    """The error of one parameter: ``call: parameter 'name' must be want, got value``."""
    return ArgumentError(f"{call}: parameter {name!r} must be {want}, got {_shown(got)}")


def _is_bool(v: object) -> bool:
    return isinstance(v, bool) or type(v).__name__ == "bool_"  # (numpy's bool is no int)


def integer(call: str, name: str, v: object, lo: int, hi: int) -> int:
    """An int (Python's or numpy's, not a bool) in ``lo..hi``."""
    if _is_bool(v) or not isinstance(v, numbers.Integral) or not lo <= int(v) <= hi:
        raise bad(call, name, f"an int in {lo}..{hi}", v)
    return int(v)


def real(call: str, name: str, v: object) -> float:
    """A finite number (Python's or numpy's, not a bool)."""
    if _is_bool(v) or not isinstance(v, numbers.Real) or not math.isfinite(float(v)):
        raise bad(call, name, "a finite number", v)
    return float(v)


def boolean(call: str, name: str, v: object) -> bool:
    if not isinstance(v, bool):
        raise bad(call, name, "True or False", v)
    return v


def choice(call: str, name: str, v: object, options: Sequence[str]) -> str:
    """One of the texts ``options``."""
    if not isinstance(v, str) or v not in options:
        raise bad(call, name, "one of " + ", ".join(repr(o) for o in options), v)
    return v


def action_index(call: str, v: object, n: int) -> int:
    """An action index of ``Discrete(n)``: an int, a numpy integer or a 0-d integer array."""
    if getattr(v, "ndim", None) == 0 and getattr(getattr(v, "dtype", None), "kind", "") in (
            "i", "u"):
        v = v.item()  # type: ignore[attr-defined]  # (a 0-d integer array: its one value)
    return integer(call, "action", v, 0, n - 1)


def seed(call: str, v: object) -> int | None:
    """An episode seed: None (fresh entropy) or an int >= 0."""
    if v is None:
        return None
    return integer(call, "seed", v, 0, MAX_SEED)


def options(call: str, v: object) -> None:
    """``reset(options=...)``: none are defined, so anything but None or {} is refused (a
    task's arguments are given to the constructor)."""
    if v is None or (isinstance(v, Mapping) and not v):
        return
    raise bad(call, "options", "None: reset takes no options (give the task's arguments, "
              "such as encounter or deck, to the constructor)", v)


def encounters(call: str, v: object) -> tuple[str, ...]:
    """An encounter id or a non-empty list of ids."""
    if isinstance(v, str):
        return (v,)
    if (isinstance(v, Sequence) and 0 < len(v) <= MAX_ENCOUNTERS
            and all(isinstance(x, str) for x in v)):
        return tuple(v)
    raise bad(call, "encounter", "an encounter id, a non-empty list of ids or '*'", v)


def deck(call: str, v: object, random_deck: str,
         drafted: str = "drafted") -> tuple[str, ...] | str | None:
    """None (the starter deck), ``random_deck``, ``drafted`` or a list of card ids."""
    if v is None:
        return None
    if isinstance(v, str) and v in (random_deck, drafted):
        return v
    if (isinstance(v, Sequence) and not isinstance(v, str) and len(v) <= MAX_DECK
            and all(isinstance(x, str) for x in v)):
        return tuple(v)
    raise bad(call, "deck", f"None, a list of at most {MAX_DECK} card ids, {random_deck!r} or "
              f"{drafted!r}", v)


def task_fields(call: str, kwargs: dict[str, Any], known: Sequence[str]) -> dict[str, Any]:
    """The task arguments beyond encounter/run/shuffle/deck, checked, with their types made
    plain (numpy numbers become ints and floats); an unknown name is refused."""
    unknown = sorted(k for k in kwargs if k not in known)
    if unknown:
        raise ArgumentError(f"{call}: unknown argument {unknown[0]!r} (the task arguments: "
                            f"{', '.join(known)})")
    out: dict[str, Any] = {}
    for k, v in kwargs.items():
        if k in ("deck_rewards", "take_rewards"):
            out[k] = boolean(call, k, v)
        elif k == "random_cards":
            out[k] = integer(call, k, v, 0, MAX_RANDOM_CARDS)
        elif k == "act":
            out[k] = integer(call, k, v, 0, 1)
        elif k in ("max_turns", "max_steps"):
            out[k] = integer(call, k, v, 1, MAX_LIMIT)
        elif k == "card_split":
            out[k] = None if v is None else choice(call, k, v, SPLITS)
        elif k == "split_seed":
            out[k] = integer(call, k, v, 0, MAX_SEED)
        elif k == "start_hp":
            out[k] = start_hp(call, v)
        elif k == "holdout":
            x = real(call, k, v)
            if not 0.0 < x < 1.0:
                raise bad(call, k, "a fraction between 0 and 1 (exclusive)", v)
            out[k] = x
        else:  # illegal_penalty, shaping
            out[k] = real(call, k, v)
    return out


def start_hp(call: str, v: object) -> tuple[int, ...]:
    """A table of starting HP in percent of max HP (1..100 each), as a tuple; () for full."""
    want = "a list of HP percentages (ints 1..100), one drawn per episode; () for full HP"
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence) or len(v) > MAX_ENCOUNTERS:
        raise bad(call, "start_hp", want, v)
    out: list[int] = []
    for x in v:
        if _is_bool(x) or not isinstance(x, numbers.Integral) or not 1 <= int(x) <= 100:
            raise bad(call, "start_hp", want, v)
        out.append(int(x))
    return tuple(out)

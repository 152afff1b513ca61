"""The save check's readers of raw JSON values: each returns the value of the kind it needs or
raises the :class:`SaveError` that names its JSON path (gcs/battle/save_check.py)."""

from __future__ import annotations

import math
from typing import Any

from ..errors import SaveError

BIG = 2**53  # the largest count, id, amount or stack a save may hold (exact in JSON doubles)


def fail(path: str, message: str) -> SaveError:
    """The error for the first problem, at ``path``."""
    return SaveError(f"corrupt save at {path}: {message}")


def _name(v: object) -> str:
    return type(v).__name__


def need_int(v: object, path: str, lo: int = -BIG, hi: int = BIG) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise fail(path, f"expected an integer, got {_name(v)}")
    if not lo <= v <= hi:
        raise fail(path, f"{v} is out of range {lo}..{hi}")
    return v


def need_num(v: object, path: str, lo: float = 0.0, hi: float = float(BIG)) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise fail(path, f"expected a number, got {_name(v)}")
    if isinstance(v, int) and not -BIG <= v <= BIG:
        raise fail(path, "number too large")
    if not math.isfinite(v) or not lo <= v <= hi:
        raise fail(path, f"{v} is out of range {lo}..{hi}")
    return float(v)


def need_bool(v: object, path: str) -> bool:
    if not isinstance(v, bool):
        raise fail(path, f"expected true or false, got {_name(v)}")
    return v


def need_str(v: object, path: str, limit: int = 10_000) -> str:
    if not isinstance(v, str):
        raise fail(path, f"expected a string, got {_name(v)}")
    if len(v) > limit:
        raise fail(path, f"string longer than {limit} characters")
    return v


def need_list(v: object, path: str, n: int | None = None, limit: int = 1_000_000) -> list[Any]:
    if not isinstance(v, list):
        raise fail(path, f"expected a list, got {_name(v)}")
    if n is not None and len(v) != n:
        raise fail(path, f"expected a list of {n} items, got {len(v)}")
    if len(v) > limit:
        raise fail(path, f"list longer than {limit} items")
    return v


def need_dict(v: object, path: str, keys: tuple[str, ...] | None = None) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise fail(path, f"expected an object, got {_name(v)}")
    for k in v:
        if not isinstance(k, str):
            raise fail(path, f"key {k!r} is not a string")
    if keys is not None:
        missing = [k for k in keys if k not in v]
        if missing:
            raise fail(f"{path}.{missing[0]}", "missing")
        extra = sorted(k for k in v if k not in keys)
        if extra:
            raise fail(f"{path}.{extra[0]}", "unknown field")
    return v


def need_id(v: object, path: str, known: Any, what: str, blank: bool = False) -> str:
    s = need_str(v, path, 200)
    if blank and s == "":
        return s
    if s not in known:
        raise fail(path, f"unknown {what} id {s!r} in this content")
    return s


def need_hex(v: object, path: str) -> int:
    s = need_str(v, path, 40)
    try:
        x = int(s, 16)
    except ValueError:
        raise fail(path, f"expected a hex string, got {s!r}") from None
    if not 0 <= x < 2**64:
        raise fail(path, "random state out of range 0..2**64-1")
    return x


def need_enum(v: object, path: str, enum: Any) -> Any:
    try:
        return enum(v)
    except (ValueError, TypeError):
        raise fail(path, f"not a valid {enum.__name__}: {v!r}") from None


# ---------------------------------------------------------------- the raw JSON

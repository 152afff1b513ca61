"""The check of one results row read back from a file: every column present, of its type and
within its range, whatever the format (CSV text, JSON values or Parquet's Python values), and
its ``check`` (a digest of its values written with it) still matching them.

A row that fails raises ``ResultsError`` naming the file, the row and the column, so a report
never counts a damaged or edited row and a resume never keeps one (docs/rules/boundary.md,
section 6). Files written before the ``check`` column existed are still read, unchecked; files
written before the ``block`` column, read with no block (their checks over their own columns).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from ..errors import GameError

Row = dict[str, Any]

#: Every column of a results file, in file order.
COLUMNS: tuple[str, ...] = (
    "job", "encounter", "deck", "policy", "character", "pack", "sweep_seed",
    "battle", "seed", "won", "unfinished", "turns", "hp_left", "damage_taken", "actions",
    "plays", "damage", "block",
)
#: The columns of a file written before the ``block`` column (read with ``block`` {}).
PRE_BLOCK: tuple[str, ...] = COLUMNS[:-1]
CHECK = "check"  # the last column of a file: ``row_check`` of the row's values
FILE_COLUMNS: tuple[str, ...] = (*COLUMNS, CHECK)
BIG = 2**53  # counts, turns, HP: far above any battle, exact in a float and in JSON
# the integer columns and their ranges (``seed`` is a 64-bit game seed, ``sweep_seed`` is what
# ``--seed`` was: an int64 in a Parquet file)
INTS: dict[str, tuple[int, int]] = {
    "job": (0, BIG), "sweep_seed": (-(2**63), 2**63 - 1), "battle": (0, BIG),
    "seed": (0, 2**64 - 1), "turns": (0, BIG), "hp_left": (0, BIG), "damage_taken": (0, BIG),
    "actions": (0, BIG),
}
BOOLS = ("won", "unfinished")
TEXTS = ("encounter", "deck", "policy", "character", "pack")
NONEMPTY = ("encounter", "policy", "pack")
MAPS = ("plays", "damage", "block")
MAX_TEXT = 100_000  # characters of a text column (a deck or a policy path)
MAX_KEYS = 10_000  # card ids in one plays/damage/block column
_INT_TEXT = re.compile(r"-?[0-9]{1,20}")


class ResultsError(GameError):
    """A results file that cannot be read, written or resumed."""


def _bad(where: str, col: str, want: str, got: object) -> ResultsError:
    shown = repr(got)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return ResultsError(f"{where}: column {col!r} must be {want}, got {shown}")


def _int(v: object, where: str, col: str, text: bool) -> int:
    lo, hi = INTS[col]
    if text and isinstance(v, str) and _INT_TEXT.fullmatch(v):
        n = int(v)
    elif not text and isinstance(v, int) and not isinstance(v, bool):
        n = v
    else:
        raise _bad(where, col, f"a whole number in {lo}..{hi}", v)
    if not lo <= n <= hi:
        raise _bad(where, col, f"a whole number in {lo}..{hi}", v)
    return n


def _bool(v: object, where: str, col: str, text: bool) -> bool:
    if text and isinstance(v, str) and v.lower() in ("true", "false"):
        return v.lower() == "true"  # (a spreadsheet or pandas may write True)
    if not text and isinstance(v, bool):
        return v
    raise _bad(where, col, "true or false", v)


def _text(v: object, where: str, col: str) -> str:
    if not isinstance(v, str) or len(v) > MAX_TEXT or (col in NONEMPTY and not v):
        want = "a non-empty string" if col in NONEMPTY else "a string"
        raise _bad(where, col, f"{want} of at most {MAX_TEXT} characters", v)
    return v


def _map(v: object, where: str, col: str, text: bool) -> dict[str, int]:
    want = "a JSON object of card id -> whole number >= 0"
    if text:
        if not isinstance(v, str):
            raise _bad(where, col, want, v)
        try:
            v = json.loads(v) if v else {}
        except (ValueError, RecursionError):
            raise _bad(where, col, want, v) from None
    if isinstance(v, list):  # pyarrow gives a map as a list of (key, value) pairs
        if not all(isinstance(kv, (list, tuple)) and len(kv) == 2 for kv in v):
            raise _bad(where, col, want, v)
        v = dict(v)
    if not isinstance(v, dict) or len(v) > MAX_KEYS:
        raise _bad(where, col, want, v)
    out: dict[str, int] = {}
    for k, n in v.items():
        if (not isinstance(k, str) or not k or not isinstance(n, int) or isinstance(n, bool)
                or not 0 <= n <= BIG):
            raise ResultsError(f"{where}: column {col!r} holds {str(k)[:40]!r}: {str(n)[:40]}, "
                               f"not a card id and a whole number in 0..{BIG}")
        out[k] = n
    return out


def row_check(row: Row, columns: tuple[str, ...] = COLUMNS) -> str:
    """The ``check`` of a row: 16 hex digits of a digest of its values, stable across processes
    (written with every row; a row whose values no longer give it was changed). ``columns``:
    ``PRE_BLOCK`` for a row of a file written before the ``block`` column."""
    parts = []
    for c in columns:
        v = row[c]
        if isinstance(v, dict):
            v = ";".join(f"{k}={n}" for k, n in sorted(v.items()))
        parts.append(str(v))
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=8).hexdigest()


def normalize(raw: dict[str, Any], where: str, *, text: bool = False) -> Row:
    """A row read back from a file, checked, with its values in their Python types (``check``
    verified and left out). ``text``: the values are CSV text (else JSON or Parquet values,
    which must have their own types)."""
    cols = COLUMNS if "block" in raw else PRE_BLOCK
    missing = [c for c in cols if c not in raw]
    if missing:
        raise ResultsError(f"{where}: not a gcs results row (no column {missing[0]!r})")
    extra = [str(c) for c in raw if c not in INTS and c not in FILE_COLUMNS]
    if extra:
        raise ResultsError(f"{where}: not a gcs results row (an unknown column {extra[0][:40]!r})")
    row: Row = {}
    for c in cols:
        v = raw[c]
        if c in INTS:
            row[c] = _int(v, where, c, text)
        elif c in BOOLS:
            row[c] = _bool(v, where, c, text)
        elif c in MAPS:
            row[c] = _map(v, where, c, text)
        else:
            row[c] = _text(v, where, c)
    if cols is PRE_BLOCK:
        row["block"] = {}
    if row["won"] and row["unfinished"]:
        raise ResultsError(f"{where}: a battle cannot be both won and unfinished")
    if not row["won"] and row["hp_left"]:
        raise ResultsError(f"{where}: column 'hp_left' is {row['hp_left']} in a battle not won "
                           "(it is the HP left when won, else 0)")
    if CHECK in raw:
        got = raw[CHECK]
        if got != row_check(row, cols):
            raise ResultsError(f"{where}: its check {str(got)[:20]!r} does not match its values "
                               "(the row was changed after it was written)")
    return row

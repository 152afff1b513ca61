"""Located problems: where a value sits in a pack (file, key path, definition, field) and the
primitive checks that report a problem there instead of raising.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable
from enum import Enum
from typing import NamedTuple, TypeVar

from ..flow.exprs import UnitSel

E = TypeVar("E", bound=Enum)
Key = str | int

# ---------------------------------------------------------------- problems and locations


class Problem(NamedTuple):
    """One problem: its file, the key path inside it (for the line), the definition and field."""

    file: str
    ypath: tuple[Key, ...]
    label: str
    field: str
    message: str
    line: int | None = None
    also: tuple[str, tuple[Key, ...]] | None = None  # another place: "first defined at"


class Sink:
    """Collects problems, references to check once every id is known, and graph-call edges."""

    __slots__ = ("calls", "problems", "refs")

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.refs: list[tuple[str, str, Ctx]] = []  # (kind, id, where)
        self.calls: list[tuple[str, str, Ctx]] = []  # (calling graph, called graph, where)


class Env:
    """What the effects of one definition assume: default units and the value names they read."""

    __slots__ = ("apply_to", "bound", "deal_to", "graph", "kinds", "typed", "used")

    def __init__(self, deal_to: UnitSel | None = None, apply_to: UnitSel | None = None,
                 graph: str | None = None) -> None:
        self.deal_to = deal_to  # None: `deal` must say `to:`
        self.apply_to = apply_to
        self.graph = graph  # the graph being compiled (for call-cycle edges)
        self.bound: set[str] = set()  # slots set by set/as/loop variables
        self.used: list[tuple[str, Ctx]] = []  # every $name read
        # slot typing: what each bound slot holds ("value", "cards" or "units"), where it is
        # bound, and every typed read of a $name (a value, a card selection, a unit)
        self.kinds: dict[str, tuple[str, Ctx]] = {}
        self.typed: list[tuple[str, str, Ctx]] = []


class Ctx:
    """Where a value sits: a chain of keys from a definition's root, made into text on error."""

    __slots__ = ("env", "file", "fkey", "label", "parent", "root", "sink", "ykey")

    def __init__(self, sink: Sink, env: Env, parent: Ctx | None, ykey: Key | None,
                 fkey: Key | None) -> None:
        self.sink = sink
        self.env = env
        self.parent = parent
        self.ykey = ykey  # the key in the data (None: implied by a short form, not in the file)
        self.fkey = fkey  # the key shown in the field path
        self.file = ""
        self.root: tuple[Key, ...] = ()
        self.label = ""

    @classmethod
    def top(cls, sink: Sink, env: Env, file: str, root: tuple[Key, ...], label: str) -> Ctx:
        """The context of a definition: ``root`` is its key path inside ``file``."""
        ctx = cls(sink, env, None, None, None)
        ctx.file, ctx.root, ctx.label = file, root, label
        return ctx

    def at(self, key: Key) -> Ctx:
        """A key that is present in the data."""
        return Ctx(self.sink, self.env, self, key, key)

    def virtual(self, name: str, ykey: Key | None = None) -> Ctx:
        """A field implied by a short form (``apply vulnerable 2`` -> ``apply.status``)."""
        return Ctx(self.sink, self.env, self, ykey, name)

    def with_env(self, env: Env) -> Ctx:
        ctx = Ctx(self.sink, env, self.parent, self.ykey, self.fkey)
        ctx.file, ctx.root, ctx.label = self.file, self.root, self.label
        return ctx

    def where(self) -> tuple[str, tuple[Key, ...], str, str]:
        """(file, key path for the line, definition label, field path)."""
        chain: list[Ctx] = []
        node: Ctx | None = self
        while node is not None and node.parent is not None:
            chain.append(node)
            node = node.parent
        top = node if node is not None else self
        chain.reverse()
        ypath = list(top.root)
        field = ""
        open_path = True
        for c in chain:
            if c.ykey is None:
                open_path = False
            elif open_path:
                ypath.append(c.ykey)
            if isinstance(c.fkey, int):
                field += f"[{c.fkey}]"
            elif c.fkey is not None:
                field += ("." if field else "") + c.fkey
        return top.file, tuple(ypath), top.label, field

    def error(self, message: str) -> None:
        file, ypath, label, field = self.where()
        self.sink.problems.append(Problem(file, ypath, label, field, message))

    def ref(self, kind: str, ident: str) -> None:
        """Record a reference to a definition, checked once the whole pack is read."""
        self.sink.refs.append((kind, ident, self))


# ---------------------------------------------------------------- primitive checks


def describe(v: object) -> str:
    """A short description of a raw value for 'expected X, got Y' messages."""
    if v is None:
        return "nothing (null)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"the integer {v}"
    if isinstance(v, float):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the string {v!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


def expected(ctx: Ctx, what: str, v: object) -> None:
    ctx.error(f"wrong type: expected {what}, got {describe(v)}")


def listing(names: Iterable[str], near: str = "", limit: int = 12) -> str:
    """Names for a message, the closest to ``near`` first, cut at ``limit``."""
    return _listing(tuple(sorted(set(names))), near, limit)


@functools.lru_cache(maxsize=4096)
def _listing(pool: tuple[str, ...], near: str, limit: int) -> str:
    close = difflib.get_close_matches(near, pool, n=3, cutoff=0.6) if near else []
    ordered = close + [n for n in pool if n not in close]
    more = ", ..." if len(ordered) > limit else ""
    return ", ".join(ordered[:limit]) + more


def get_int(v: object, ctx: Ctx, lo: int | None = None, hi: int | None = None) -> int | None:
    """An integer in ``lo..hi``; ``hi`` defaults to the pack's ``max_int`` limit."""
    if type(v) is not int:
        expected(ctx, "an integer" + (f" >= {lo}" if lo is not None else ""), v)
        return None
    if lo is not None and v < lo:
        ctx.error(f"bad value {v}: expected an integer >= {lo}")
        return None
    return v if within(v, ctx, hi) else None


def within(v: int | float, ctx: Ctx, hi: int | float | None = None, what: str = "max_int") -> bool:
    """True if ``|v| <= hi`` (default: the pack's ``max_int``); else a problem naming the limit."""
    from .limits import current

    cap = getattr(current(), what) if hi is None else hi
    if not -cap <= v <= cap:
        shown = str(v) if len(str(v)) <= 40 else str(v)[:20] + "..."
        ctx.error(f"bad value {shown}: above the limit {cap} ({what}; a pack may change it "
                  f"under 'limits:' in pack.yaml)")
        return False
    return True


def get_str(v: object, ctx: Ctx) -> str | None:
    if not isinstance(v, str):
        expected(ctx, "a string", v)
        return None
    return v


def get_bool(v: object, ctx: Ctx) -> bool | None:
    if not isinstance(v, bool):
        expected(ctx, "true or false", v)
        return None
    return v


def get_word(v: object, ctx: Ctx, options: Iterable[str]) -> str | None:
    opts = tuple(options)
    if not isinstance(v, str):
        expected(ctx, "one of: " + ", ".join(opts), v)
        return None
    if v not in opts:
        ctx.error(f"bad value {v!r} (expected one of: {', '.join(opts)})")
        return None
    return v


def get_enum(v: object, ctx: Ctx, enum: type[E]) -> E | None:
    word = get_word(v, ctx, [m.value for m in enum])
    return None if word is None else enum(word)


def get_map(v: object, ctx: Ctx, what: str = "a mapping") -> dict[str, object] | None:
    if not isinstance(v, dict):
        expected(ctx, what, v)
        return None
    for k in v:
        if not isinstance(k, str):
            ctx.error(f"wrong type: keys must be strings, got {describe(k)}")
            return None
    return v


def get_list(v: object, ctx: Ctx, what: str = "a list") -> list[object] | None:
    if not isinstance(v, list):
        expected(ctx, what, v)
        return None
    return v


def check_keys(m: dict[str, object], ctx: Ctx, allowed: Iterable[str],
               required: Iterable[str] = ()) -> bool:
    """Report unknown and missing fields of a mapping; True when there were none."""
    allowed_set = allowed if isinstance(allowed, (frozenset, set)) else frozenset(allowed)
    ok = True
    for k in m:
        if not isinstance(k, str):
            ctx.error(f"wrong type: keys must be strings, got {describe(k)}")
            ok = False
        elif k not in allowed_set:
            ctx.at(k).error(f"unknown field (expected one of: {listing(allowed_set, k, 40)})")
            ok = False
    for k in required:
        if k not in m:
            ctx.at(k).error("missing required field")
            ok = False
    return ok


NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def get_name(v: object, ctx: Ctx) -> str | None:
    """A slot name (``as:``, ``set:``): letters, digits and underscores."""
    s = get_str(v, ctx)
    if s is not None and not NAME_RE.match(s):
        ctx.error(f"bad name {s!r}: use letters, digits and underscores")
        return None
    return s


def get_ref(v: object, ctx: Ctx, kind: str) -> str | None:
    """An id of another definition (checked once the whole pack is read)."""
    s = get_str(v, ctx)
    if s is not None:
        ctx.ref(kind, s)
    return s



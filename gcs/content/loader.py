"""Load a content pack: a directory of YAML files (or one file, or a mapping) -> ``Content``.

Every problem in the pack is reported at once, each with file, line, definition and field, in a
:class:`ContentError`; a bad pack never half-loads. Directory packs go through the compiled cache.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..errors import ContentError
from ..flow import nodes as N
from . import cache
from .db import Content
from .defs import CharacterDef, EncounterDef, EnemyDef, GameCard, RewardTable, StatusDef
from .limits import (
    CEILINGS,
    CURRENT,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_EXPANDED,
    MAX_PROBLEMS,
    Limits,
)
from .pickled import built as _content  # (a content from its parts, as an unpickling builds it)
from .problems import Ctx, Env, Key, Problem, Sink, check_keys, get_map, get_str, listing
from .schema import COMPILERS, ID_RE, LABELS, SECTIONS, Parts, Source

if TYPE_CHECKING:
    from yaml.nodes import Node

T = TypeVar("T")
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
BUILTIN = DATA_DIR / "ironclad"
PACK_FIELDS = ("id", "name", "description", "version", "limits")


# ---------------------------------------------------------------- pack files


def _classify(rel: PurePosixPath) -> str | None:
    """Which section a file holds: ``pack``, a section name, or None (not a pack file)."""
    if len(rel.parts) > 1:
        return rel.parts[0] if rel.parts[0] in SECTIONS else None
    stem = rel.stem
    if stem == "pack":
        return "pack"
    return next((s for s in SECTIONS if stem == s or stem.startswith(s + "_")), None)


def pack_files(path: Path) -> list[tuple[str, bytes]]:
    """The YAML files of a pack directory (sorted relative paths), or the one file given."""
    if path.is_file():
        return [(path.name, path.read_bytes())]
    rels = [p.relative_to(path) for p in path.rglob("*")
            if p.suffix in (".yaml", ".yml") and p.is_file()]
    order = ("pack", *SECTIONS)

    def key(rel: Path) -> tuple[int, str]:  # pack.yaml, then by section, then by path
        kind = _classify(PurePosixPath(rel.as_posix()))
        return (order.index(kind) if kind in order else len(order)), rel.as_posix()

    return [(rel.as_posix(), (path / rel).read_bytes()) for rel in sorted(rels, key=key)]


def digest_of(files: list[tuple[str, bytes]]) -> str:
    h = hashlib.sha256()
    for rel, data in files:
        h.update(rel.encode() + b"\0" + str(len(data)).encode() + b"\0")
        h.update(data)
    return h.hexdigest()


class _Build:
    """Problems and sources gathered from files or a mapping, then compiled in one go."""

    def __init__(self) -> None:
        self.sink = Sink()
        self.sources: list[Source] = []
        self.texts: dict[str, str] = {}
        self.order: list[str] = []
        self.pack_id: str | None = None
        self.limits = Limits()

    def problem(self, file: str, message: str, line: int | None = None,
                ypath: tuple[Key, ...] = (), label: str = "",
                also: tuple[str, tuple[Key, ...]] | None = None) -> None:
        self.sink.problems.append(Problem(file, ypath, label, "", message, line, also))

    def pack(self, raw: object, file: str, root: tuple[Key, ...]) -> None:
        ctx = Ctx.top(self.sink, Env(), file, root, "pack")
        if isinstance(raw, str):
            raw = {"id": raw}
        m = get_map(raw, ctx, "a pack mapping {id: ..., name: ...}")
        if m is None or not check_keys(m, ctx, PACK_FIELDS, ("id",)):
            return
        got = get_str(m["id"], ctx.at("id"))
        if got is not None and not ID_RE.match(got):
            ctx.at("id").error(f"bad pack id {got!r}: use letters, digits, '_' and '-'")
        elif got is not None:
            self.pack_id = got
        if "limits" in m:
            self.limits = _limits(m["limits"], ctx.at("limits"))


    def sections(self, data: object, file: str, mapping: bool) -> None:
        """A whole pack in one mapping: ``pack`` plus section name -> definitions."""
        ctx = Ctx.top(self.sink, Env(), file, (), "")
        m = get_map(data, ctx, "a mapping of sections (pack, cards, statuses, ...)")
        if m is None:
            return
        check_keys(m, ctx, ("pack", *SECTIONS), ("pack",))
        for kind, section in m.items():
            where, root = (kind, ()) if mapping else (file, (kind,))
            if kind not in SECTIONS and kind != "pack":
                continue
            if kind == "pack":
                self.pack(section, where, root)
            else:
                self.sources.append(Source(kind, where, root, section))

    def file(self, rel: str, data: bytes, single: bool) -> None:
        self.order.append(rel)
        kind = "all" if single else _classify(PurePosixPath(rel))
        if kind is None:
            self.problem(rel, "not a pack file: name it pack.yaml, <section>.yaml, "
                         "<section>_*.yaml or put it in a <section>/ folder (sections: "
                         + ", ".join(SECTIONS) + ")")
            return
        if len(data) > MAX_BYTES:
            self.problem(rel, f"file larger than {MAX_BYTES} bytes")
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.problem(rel, f"not UTF-8 text ({exc.reason} at byte {exc.start})")
            return
        self.texts[rel] = text
        from .yamldoc import read_yaml  # (PyYAML is loaded for a pack read from its files only)

        doc = read_yaml(text)
        for line, message in doc.errors:
            self.problem(rel, message, line)
        if doc.errors:
            return
        for ypath, line in doc.dups:
            skip = 1 if single else 0  # a single-file pack nests sections one level down
            sect = str(ypath[0]) if single else kind
            inner = ypath[skip:]
            if sect not in LABELS or not inner:
                self.problem(rel, f"duplicate key {ypath[-1]!r}", line, ypath, "", (rel, ypath))
                continue
            label = f"{LABELS[sect]} {inner[0]!r}"
            if len(inner) == 1:
                self.problem(rel, "duplicate id", line, ypath, label, (rel, ypath))
            else:
                field = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in inner[1:])
                self.sink.problems.append(Problem(rel, ypath, label, field.lstrip("."),
                                                  "duplicate key", line, (rel, ypath)))
        if single:
            self.sections(doc.data, rel, False)
        elif kind == "pack":
            self.pack(doc.data, rel, ())
        else:
            self.sources.append(Source(kind, rel, (), doc.data))

    def compile(self) -> Parts:
        token = CURRENT.set(self.limits)
        try:
            parts = compile_pack(self.pack_id or "", self.sources, self.sink)
        finally:
            CURRENT.reset(token)
        if self.sink.problems or parts is None:
            raise ContentError(self.render())
        return parts

    def render(self) -> list[str]:
        """Every problem as ``file:line: definition: field 'f': message``, in file order."""
        from .yamldoc import compose, line_of

        roots: dict[str, Node | None] = {}

        def line(file: str, ypath: tuple[Key, ...]) -> int | None:
            if file not in self.texts:
                return None
            if file not in roots:
                roots[file] = compose(self.texts[file])
            return line_of(roots[file], ypath)

        rows: list[tuple[int, int, int, str]] = []
        problems = self.sink.problems
        for i, p in enumerate(problems[:MAX_PROBLEMS]):
            ln = p.line if p.line is not None else line(p.file, p.ypath)
            text = p.message
            if p.also is not None:
                text += f" (first defined at {p.also[0]}:{line(*p.also) or '?'})"
            head = [f"{p.file}:{ln}" if ln else p.file]
            head += [p.label] if p.label else []
            head += [f"field '{p.field}'"] if p.field else []
            order = self.order.index(p.file) if p.file in self.order else len(self.order)
            rows.append((order, ln or 0, i, ": ".join([*head, text])))
        out: list[str] = []
        seen: set[str] = set()
        for *_, text in sorted(rows):
            if text not in seen:
                seen.add(text)
                out.append(text)
        if len(problems) > MAX_PROBLEMS:
            out.append(f"... and {len(problems) - MAX_PROBLEMS} more problems (the first "
                       f"{MAX_PROBLEMS} are listed)")
        return out


# ---------------------------------------------------------------- the whole pack


def compile_pack(pack_id: str, sources: list[Source], sink: Sink) -> Parts | None:
    """Compile every section, then check references and call cycles; None if any problem."""
    built: dict[str, dict[str, object]] = {k: {} for k in SECTIONS}
    first: dict[tuple[str, str], tuple[str, tuple[Key, ...]]] = {}
    for src in sources:
        label = LABELS[src.kind]
        if src.data is None:
            continue
        if not isinstance(src.data, dict):
            top = Ctx.top(sink, Env(), src.file, src.root, "")
            top.error(f"wrong type: expected a mapping of {label} id -> definition, "
                      f"got {type(src.data).__name__}")
            continue
        compile_one = COMPILERS[src.kind]
        for ident, raw in src.data.items():
            where = (src.file, (*src.root, ident))
            if not isinstance(ident, str) or not ID_RE.match(ident):
                sink.problems.append(Problem(src.file, where[1], "", "", f"bad {label} id "
                                             f"{ident!r}: use letters, digits, '_' and '-'"))
                continue
            seen = first.setdefault((src.kind, ident), where)
            if seen is not where:
                sink.problems.append(Problem(src.file, where[1], f"{label} {ident!r}", "",
                                             "duplicate id", also=seen))
            ctx = Ctx.top(sink, Env(), src.file, where[1], f"{label} {ident!r}")
            got = compile_one(ident, raw, ctx)  # a duplicate is checked too, never kept
            if seen is where:
                built[src.kind][ident] = got
    known = {LABELS[k]: {i for (kind, i) in first if kind == k} for k in SECTIONS}
    # a move (``set_move``) is known when some enemy of the pack has it
    known["move"] = {m.id for d in built["enemies"].values() if isinstance(d, EnemyDef)
                     for m in d.moves}
    for kind, ident, ctx in sink.refs:
        ids = known[kind]
        if ident not in ids:
            have = f"known: {listing(ids, ident)}" if ids else "none are defined"
            ctx.error(f"unknown {kind} {ident!r} ({have})")
    _check_cycles(sink)
    if sink.problems:
        return None

    def defs(kind: str, cls: type[T]) -> tuple[T, ...]:
        return tuple(d for d in built[kind].values() if isinstance(d, cls))

    graphs = cast("dict[str, N.Node]", built["graphs"])
    return Parts(pack_id, defs("cards", GameCard), defs("statuses", StatusDef),
                 defs("enemies", EnemyDef), defs("encounters", EncounterDef),
                 defs("characters", CharacterDef), defs("rewards", RewardTable),
                 MappingProxyType(graphs))


def _check_cycles(sink: Sink) -> None:
    """Report each cycle of graph calls once, at the call that closes it."""
    edges: dict[str, list[tuple[str, Ctx]]] = {}
    for caller, callee, ctx in sink.calls:
        edges.setdefault(caller, []).append((callee, ctx))
    done: set[str] = set()
    reported: set[tuple[str, ...]] = set()

    def visit(g: str, stack: list[str]) -> None:
        stack.append(g)
        for callee, ctx in edges.get(g, ()):
            if callee in stack:
                ring = stack[stack.index(callee):]
                cycle = [g, *ring[:-1], g] if len(ring) > 1 else [g, g]
                i = ring.index(min(ring))
                key = tuple(ring[i:] + ring[:i])
                if key not in reported:
                    reported.add(key)
                    ctx.error("call cycle: " + " -> ".join(cycle))
            elif callee not in done:
                visit(callee, stack)
        stack.pop()
        done.add(g)

    for g in sorted(edges):
        if g not in done:
            visit(g, [])


# ---------------------------------------------------------------- public API


def _limits(raw: object, ctx: Ctx) -> Limits:
    """``limits:`` of pack.yaml: overrides of the number limits, each within its ceiling."""
    m = get_map(raw, ctx, "a mapping of limit name -> number")
    if m is None or not check_keys(m, ctx, Limits.names(), ()):
        return Limits()
    got: dict[str, int | float] = {}
    for k, v in m.items():
        ok = (k == "max_wait" and isinstance(v, float)) or type(v) is int
        if not ok or not 1 <= v <= CEILINGS[k]:  # type: ignore[operator]
            ctx.at(k).error(f"bad value {v!r}: expected a number in 1..{CEILINGS[k]:g}")
        else:
            got[k] = v  # type: ignore[assignment]
    return Limits().with_(**got)


def _expanded(v: object, memo: dict[int, int], depth: int, where: str) -> int:
    """How many values ``v`` holds once every shared part is counted at each place it appears
    (memoised by identity, so a DAG of 2^40 paths costs its few nodes; a cycle is too deep)."""
    if depth > MAX_DEPTH:
        raise ContentError(f"{where}: nested more than {MAX_DEPTH} levels deep (or cyclic)")
    if isinstance(v, Mapping):
        items: Any = v.values()
    elif isinstance(v, (list, tuple)):
        items = v
    else:
        return 1
    n = memo.get(id(v))
    if n is None:
        n = memo[id(v)] = 1 + sum(_expanded(x, memo, depth + 1, where) for x in items)
    return n


def _bounded(source: Mapping[str, Any]) -> None:
    """A mapping pack's bound on shared parts, as YAML's on aliases: each top-level entry (a
    section, as a file of a pack directory) holds at most MAX_EXPANDED values once its shared
    sub-lists and sub-mappings are counted wherever they appear (PyYAML builds such sharing
    from anchors when a user parses YAML themselves)."""
    memo: dict[int, int] = {}
    for key, value in source.items():
        where = f"<mapping>.{key}"
        if _expanded(value, memo, 1, where) > MAX_EXPANDED:
            raise ContentError(f"{where}: its shared parts expand to more than {MAX_EXPANDED} "
                               "values (a mapping built from shared sub-lists, an alias bomb?)")


def _plain(v: object, depth: int = 0, where: str = "<mapping>") -> object:
    """Builder/mapping data as YAML would give it: dicts, lists and scalars (bounded depth,
    so a cyclic or absurdly deep mapping is a ContentError, not a RecursionError)."""
    if depth > MAX_DEPTH:
        raise ContentError(f"{where}: nested more than {MAX_DEPTH} levels deep (or cyclic)")
    if isinstance(v, Mapping):
        return {k: _plain(x, depth + 1, f"{where}.{k}") for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x, depth + 1, f"{where}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    raise ContentError(f"{where}: unsupported value of type {type(v).__name__} (a mapping holds "
                       "mappings, lists, strings, numbers, true/false and null)")


def load_content(source: str | Path | Mapping[str, Any], *, use_cache: bool = True) -> Content:
    """Load and validate a pack (directory, YAML file or mapping); errors list every problem.
    Nothing but ContentError leaves this call (docs/rules/boundary.md lists the limits)."""
    if not isinstance(source, (str, Path, Mapping)):
        raise ContentError(f"load_content needs a path or a mapping, got {type(source).__name__}")
    try:
        return _load(source, use_cache)
    except ContentError:
        raise
    except (RecursionError, ValueError, TypeError, KeyError, OverflowError, OSError,
            AttributeError, IndexError) as exc:  # a safety net: each should be a problem above
        where = source if not isinstance(source, Mapping) else "<mapping>"
        raise ContentError(f"{where}: could not be loaded ({type(exc).__name__}: "
                           f"{str(exc)[:200]})") from None


def _load(source: str | Path | Mapping[str, Any], use_cache: bool) -> Content:
    build = _Build()
    if isinstance(source, Mapping):
        _bounded(source)
        data = _plain(source)
        build.order = ["<mapping>", "pack", *SECTIONS]
        build.sections(data, "<mapping>", True)
        compiled = build.compile()  # raises ContentError listing every problem
        try:
            text = json.dumps(data, sort_keys=True, default=repr)
        except TypeError:  # keys of mixed types that validation tolerated (e.g. in numbers)
            text = repr(data)
        return _content(compiled, hashlib.sha256(text.encode()).hexdigest())
    path = Path(source)
    if not path.exists():
        raise ContentError(f"{path}: no such file or directory")
    files = pack_files(path)
    if not files:
        raise ContentError(f"{path}: no YAML files (a pack needs pack.yaml)")
    digest = digest_of(files)
    if use_cache:
        hit = cache.load(digest)
        if hit is not None:
            return _content(hit, digest)
    single = path.is_file()
    if not single and not any(rel in ("pack.yaml", "pack.yml") for rel, _ in files):
        build.order.append("pack.yaml")
        build.problem("pack.yaml", "missing: a pack directory needs pack.yaml with the pack 'id'")
    with cache.gc_paused():
        for rel, data in files:
            build.file(rel, data, single)
        parts = build.compile()
    if use_cache:
        cache.store(digest, parts)
    return _content(parts, digest)


def pack_content(pack: str | Path | None) -> Content:
    """The pack at ``pack``, or the bundled pack for None (the command line's ``--pack``)."""
    return builtin_content() if pack is None else load_content(pack)


@functools.cache
def builtin_content() -> Content:
    """The bundled Ironclad pack (gcs/data/ironclad), loaded once per process."""
    return load_content(BUILTIN)


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def summary(content: Content) -> str:
    """``pack 'ironclad': 52 cards, 12 statuses, ...`` (used by ``gcs validate``)."""
    parts = [_count(len(content.cards), "card"), _count(len(content.statuses), "status",
                                                        "statuses"),
             _count(len(content.enemies), "enemy", "enemies"),
             _count(len(content.encounters), "encounter"),
             _count(len(content.characters), "character"),
             _count(len(content.reward_tables), "reward table")]
    if content.graphs:
        parts.append(_count(len(content.graphs), "graph"))
    return f"pack {content.pack_id!r}: " + ", ".join(parts)


def validate_path(path: str | Path) -> tuple[bool, list[str]]:
    """(ok, lines): one ``ok: ...`` summary line, or one line per problem."""
    try:
        content = load_content(path)
    except ContentError as exc:
        return False, list(exc.problems)
    return True, ["ok: " + summary(content)]

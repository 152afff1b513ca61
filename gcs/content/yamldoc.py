"""YAML text -> plain data, read from PyYAML's event stream: one file's values, its duplicate keys
and its problems with their lines, under the pack limits; and the line of a key path, for a
problem's message. The loader imports this only when a pack is read from its files (a cached
pack never loads PyYAML).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .limits import MAX_DEPTH, MAX_EXPANDED, MAX_INT_DIGITS
from .problems import Key

Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_INT = "tag:yaml.org,2002:int"
# Plain words YAML 1.1 would turn into something else; as in YAML 1.2, yes/no/on/off stay words.
_PLAIN_SPECIAL = frozenset((
    "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~"))
_RESOLVER = yaml.resolver.Resolver()
_CTOR = yaml.constructor.SafeConstructor()
_MERGE_KEY = object()


# ---------------------------------------------------------------- YAML text -> data


class YamlDoc:
    """One parsed file: ``data``, problems with lines, and duplicate keys (key path, line)."""

    __slots__ = ("data", "dups", "errors")

    def __init__(self) -> None:
        self.data: object = None
        self.errors: list[tuple[int, str]] = []
        self.dups: list[tuple[tuple[Key, ...], int]] = []


def _scalar(ev: Any) -> object:
    v: str = ev.value
    tag = ev.tag
    if tag is None or tag == "!":
        if ev.implicit[0] and v and v[0] not in "-+0123456789.<=~" and v not in _PLAIN_SPECIAL:
            return v  # the common case: a plain word
        tag = _RESOLVER.resolve(ScalarNode, v, ev.implicit)  # type: ignore[no-untyped-call]
    if tag == _STR:
        return v
    if tag == _MERGE:
        return _MERGE_KEY
    if tag == _INT and sum(ch.isdigit() for ch in v) > MAX_INT_DIGITS:
        raise yaml.constructor.ConstructorError(
            None, None, f"integer with more than {MAX_INT_DIGITS} digits", ev.start_mark)
    build = _CTOR.yaml_constructors.get(tag)
    if build is None:
        raise yaml.constructor.ConstructorError(
            None, None, f"unsupported tag {tag!r}", ev.start_mark)
    return build(_CTOR, ScalarNode(tag, v, ev.start_mark, ev.end_mark, ev.style))


def read_yaml(text: str) -> YamlDoc:
    """Parse YAML into plain data from the event stream (fast), noting duplicate keys."""
    doc = YamlDoc()
    loader = Loader(text)
    get = loader.get_event
    stack: list[tuple[Any, bool, object, bool, Any]] = []
    path: list[Key] = []
    anchors: dict[str, object] = {}
    sizes: dict[int, int] = {}  # id of an anchored value -> values it holds, expanded
    open_ids: set[int] = set()  # containers not yet closed (an alias to one is recursive)
    expanded = 0
    merged: dict[int, set[object]] = {}
    cur: Any = None
    key_ev: Any = None
    is_map, key, has_key = False, None, False
    docs = 0
    try:
        while True:
            ev = get()
            cls = ev.__class__
            if cls is ScalarEvent:
                val: Any = _scalar(ev)
            elif cls is MappingStartEvent:
                val = {}
            elif cls is SequenceStartEvent:
                val = []
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                open_ids.discard(id(cur))
                cur, is_map, key, has_key, key_ev = stack.pop()
                if cur is not None:
                    path.pop()
                continue
            elif cls is AliasEvent:
                if ev.anchor not in anchors:
                    doc.errors.append((ev.start_mark.line + 1, f"unknown alias *{ev.anchor}"))
                    return doc
                val = anchors[ev.anchor]
                if id(val) in open_ids:
                    doc.errors.append((ev.start_mark.line + 1, f"recursive alias *{ev.anchor}: "
                                       "an anchor cannot contain an alias of itself"))
                    return doc
                expanded += _size(val, sizes)
                if expanded > MAX_EXPANDED:
                    doc.errors.append((ev.start_mark.line + 1, f"aliases expand to more than "
                                       f"{MAX_EXPANDED} values (an alias bomb?)"))
                    return doc
            elif cls is StreamEndEvent:
                break
            else:
                if cls is DocumentStartEvent:
                    docs += 1
                    if docs > 1:
                        doc.errors.append((ev.start_mark.line + 1,
                                           "a pack file holds one YAML document (found '---')"))
                        return doc
                continue
            if cls is not AliasEvent and ev.anchor is not None:
                anchors[ev.anchor] = val
            container = cls is MappingStartEvent or cls is SequenceStartEvent
            child: Key = 0
            if cur is None:
                doc.data = val
            elif not is_map:
                child = len(cur)
                cur.append(val)
            elif not has_key:
                if container:
                    doc.errors.append((ev.start_mark.line + 1, "complex mapping keys are not "
                                       "supported"))
                    return doc
                key, has_key, key_ev = val, True, ev
                continue
            else:
                has_key = False
                if key is _MERGE_KEY:
                    if not _merge(cur, val, merged) or container:
                        doc.errors.append((ev.start_mark.line + 1, "a merge key '<<' takes an "
                                           "alias of a mapping, like '<<: *base'"))
                        return doc
                    continue
                if not isinstance(key, (str, int, float, bool)) and key is not None:
                    doc.errors.append((key_ev.start_mark.line + 1, "unsupported mapping key"))
                    return doc
                child = key if isinstance(key, (str, int)) else str(key)
                if key in cur and key not in merged.get(id(cur), ()):
                    doc.dups.append(((*path, child), key_ev.start_mark.line + 1))
                    val = {} if cls is MappingStartEvent else [] if container else val
                else:
                    cur[key] = val
            if container:
                if len(stack) >= MAX_DEPTH:
                    doc.errors.append((ev.start_mark.line + 1, f"nested more than {MAX_DEPTH} "
                                       "levels deep"))
                    return doc
                open_ids.add(id(val))
                stack.append((cur, is_map, key, False, key_ev))
                if cur is not None:
                    path.append(child)
                cur, is_map, has_key = val, cls is MappingStartEvent, False
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        kind = "YAML error" if isinstance(exc, yaml.constructor.ConstructorError) else \
            "YAML syntax error"
        doc.errors.append((line, f"{kind}: {exc.problem or exc.context}"))
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, max(0, exc.position)) + 1
        doc.errors.append((line, f"unreadable character {exc.character!r}: "
                           "control characters are not allowed"))
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError) as exc:
        doc.errors.append((1, f"YAML error: {exc}"))
    finally:
        loader.dispose()
    return doc


def _size(v: object, sizes: dict[int, int]) -> int:
    """How many values ``v`` holds once every alias inside it is expanded (memoised)."""
    if not isinstance(v, (dict, list)):
        return 1
    got = sizes.get(id(v))
    if got is None:
        items = v.values() if isinstance(v, dict) else v
        got = 1 + sum(_size(x, sizes) for x in items)
        sizes[id(v)] = got
    return got


def _merge(cur: dict[object, object], val: object, merged: dict[int, set[object]]) -> bool:
    items = val if isinstance(val, list) else [val]
    maps = [m for m in items if isinstance(m, dict)]
    if len(maps) != len(items):
        return False
    keys = merged.setdefault(id(cur), set())
    for m in maps:
        for k, v in m.items():
            if k not in cur:
                cur[k] = v
                keys.add(k)
    return True


def line_of(root: Node | None, ypath: tuple[Key, ...]) -> int | None:
    """The line of the deepest node of ``ypath`` that exists (1-based)."""
    if root is None:
        return None
    node, line = root, root.start_mark.line + 1
    for k in ypath:
        if isinstance(node, MappingNode):
            for kn, vn in node.value:
                if isinstance(kn, ScalarNode) and kn.value == str(k):
                    node, line = vn, kn.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, SequenceNode) and isinstance(k, int) and k < len(node.value):
            node = node.value[k]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def compose(text: str) -> Node | None:
    """The node tree of ``text`` (for ``line_of``), or None if it does not parse."""
    try:
        return yaml.compose(text, Loader=Loader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None

"""The memory of one game's mutable state, in bytes: a deep ``sys.getsizeof`` for the benchmarks.

Counts every object reachable from the game's ``State`` (the State itself, its lists and dicts,
card instances, units, frames, contexts, hooks, RNGs, and the integers they hold) once each, and
leaves out what the state only points at and shares with every other game: anything reachable
from the loaded ``Content`` (card, status and enemy definitions, behaviour nodes), strings (ids
and names, interned or shared with the content), enum members, ``None``/booleans/small ints,
classes and functions. Works on both engines (a mypyc class lists its attributes in
``__mypyc_attrs__``). The engine's own ``state_size`` (when there is one) is the reference;
this helper is how the benchmark measures until then.
"""

from __future__ import annotations

import enum
import sys
import types
from collections.abc import Iterator, Mapping
from typing import Any

_ATOMS = (str, bytes, bool, type(None), float, complex, type, types.FunctionType,
          types.BuiltinFunctionType, types.ModuleType, types.MethodType, enum.Enum)


def _attributes(obj: Any) -> Iterator[Any]:
    """The attribute values of ``obj``: mypyc attributes, ``__slots__`` and ``__dict__``."""
    names: list[str] = []
    for cls in type(obj).__mro__:
        names += getattr(cls, "__mypyc_attrs__", ())
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    for name in dict.fromkeys(names):
        if name in ("__dict__", "__weakref__"):
            continue
        try:
            yield getattr(obj, name)
        except AttributeError:  # a slot never set
            continue
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        yield d


def _children(obj: Any) -> Iterator[Any]:
    if isinstance(obj, Mapping):  # dicts, and the content's read-only mappingproxy views
        yield from obj.keys()
        yield from obj.values()
    elif isinstance(obj, list | tuple | set | frozenset):
        yield from obj
    else:
        yield from _attributes(obj)


def _walk(root: Any, skip: set[int]) -> Iterator[Any]:
    """Every object reachable from ``root`` once, not entering ``skip`` ids or atoms."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in skip or isinstance(obj, _ATOMS):
            continue
        if isinstance(obj, int) and -5 <= obj <= 256:  # CPython's shared small ints
            continue
        seen.add(id(obj))
        yield obj
        if not isinstance(obj, int):
            todo.extend(_children(obj))


def shared_ids(content: Any) -> set[int]:
    """The ids of every object reachable from ``content`` (kept alive by it)."""
    return {id(o) for o in _walk(content, set())}


def deep_size(root: Any, skip: set[int]) -> int:
    """Bytes of every object reachable from ``root``, except ``skip`` ids and shared atoms."""
    return sum(sys.getsizeof(o) for o in _walk(root, skip))


def state_size(game: Any) -> int:
    """Bytes of ``game``'s mutable state (content and shared immutable values excluded)."""
    state = game._e.s
    return deep_size(state, shared_ids(game.content))

"""Pickling of the frozen definitions (content, behaviour nodes, events, rules).

Each frozen dataclass pickles (and ``copy``/``deepcopy``-s) as ``cls(*fields)``: one ``__init__``
call. Python's own way for a slotted dataclass works in the source tree, but once mypyc compiled
these classes, unpickling would assign fields one by one and a frozen class refuses that; the
reducers registered here make both engines pickle the same way (content cache, process pools,
Ray, user code), and pickles move between them.
"""

from __future__ import annotations

import copyreg
import dataclasses
from types import ModuleType
from typing import Any


def _reducer(cls: type) -> Any:
    names = tuple(f.name for f in dataclasses.fields(cls))

    def reduce(obj: Any) -> tuple[type, tuple[Any, ...]]:
        return cls, tuple([getattr(obj, n) for n in names])

    return reduce


def frozen_classes(*modules: ModuleType) -> list[type]:
    """The frozen dataclasses defined in ``modules`` whose fields are all ``__init__`` arguments."""
    out = []
    for mod in modules:
        for cls in vars(mod).values():
            if (isinstance(cls, type) and cls.__module__ == mod.__name__
                    and dataclasses.is_dataclass(cls)
                    and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
                    and all(f.init for f in dataclasses.fields(cls))):
                out.append(cls)
    return out


def register() -> None:
    """Register ``cls(*fields)`` reducers with :mod:`copyreg` (idempotent)."""
    from . import agent, events, rules
    from .content import defs
    from .flow import exprs, nodes

    for cls in frozen_classes(defs, nodes, exprs, events, rules, agent):
        copyreg.pickle(cls, _reducer(cls))

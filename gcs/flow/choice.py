"""Answering an open Choice: validate the selection against candidates, min and max."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..battle.state import CHOICE, NO_PAUSE, CardInstance, Unit
from ..errors import ChoiceError
from ..events import ChoiceMade
from .nodes import Choice

if TYPE_CHECKING:
    from ..engine import Engine


def answer_choice(e: Engine, selection: Sequence[Any] | Any) -> None:
    """Store the chosen candidates in the Choice's slot and lift the pause (the caller runs
    the loop). Candidates are given as objects or indices; a wrong answer raises ChoiceError
    and changes nothing."""
    s = e.s
    if s.pause != CHOICE:
        raise ChoiceError("no Choice is open")
    if not isinstance(selection, (list, tuple)):
        selection = [selection]
    ids: list[int] = []
    for x in selection:
        if isinstance(x, bool):
            raise ChoiceError(f"not a candidate: {x!r}")
        if isinstance(x, int):
            if not 0 <= x < len(s.choice_ids):
                raise ChoiceError(
                    f"candidate index {x} out of range 0..{len(s.choice_ids) - 1}")
            ids.append(s.choice_ids[x])
        elif isinstance(x, (CardInstance, Unit)) and s.choice_kind == (
                "c" if isinstance(x, CardInstance) else "u"):
            own = s.cards.get(x.uid) if isinstance(x, CardInstance) else (
                s.units[x.uid] if 0 <= x.uid < len(s.units) else None)
            if x.uid not in s.choice_ids or own is not x:
                raise ChoiceError(f"{x!r} is not a candidate of this Choice")
            ids.append(x.uid)
        else:
            raise ChoiceError(f"not a candidate: {x!r}")
    if len(set(ids)) != len(ids):
        raise ChoiceError("a candidate was chosen twice")
    if not s.choice_min <= len(ids) <= s.choice_max:
        raise ChoiceError(
            f"choose between {s.choice_min} and {s.choice_max} candidates, got {len(ids)}")
    frame = s.stack[-1]
    node = frame.node
    assert frame.ctx is not None and isinstance(node, Choice)
    frame.ctx.objs[node.var] = [s.choice_kind, ids]
    s.pause = NO_PAUSE
    s.choice_ids = []
    if e.hot:
        e.record((ChoiceMade, tuple(ids), False))

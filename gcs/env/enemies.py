"""Which enemy each of the layout's enemy slots shows: the slot map of one battle.

The action space and the observation have ``MAX_ENEMIES`` enemy slots. An encounter's enemies
take them in encounter order; an enemy that appears later (a split, a summon) takes the first
empty slot, else the first slot whose enemy is dead. A slot keeps its enemy for as long as it
lives, no living enemy is left without one while five or fewer live at once (the most the
bundled content has: docs/env.md), and a battle that never has more than five enemies keeps
enemy ``t`` in slot ``t`` (the layout before slot maps). The map depends on the battle's history (who died
before whom appeared), so the episode keeps it, and ``get_state`` saves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import MAX_ENEMIES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..battle.state import Unit
    from ..game import Game

EMPTY = -1


def _free(slots: list[int], units: Sequence[Unit], alive: bool) -> int:
    """The slot a new enemy takes: the first empty one, else (a living enemy) the first whose
    enemy is dead; -1 when none is."""
    for k in range(MAX_ENEMIES):
        if slots[k] == EMPTY:
            return k
    if alive:
        for k in range(MAX_ENEMIES):
            if not units[slots[k] + 1].alive:
                return k
    return -1


class EnemySlots:
    """The slot map of the current battle: ``units[k]`` is the enemy index (encounter order,
    as ``Action.target``) shown in slot ``k``, or ``EMPTY``; ``slot_of`` the inverse."""

    __slots__ = ("slot_of", "units")

    def __init__(self, units: list[int] | None = None) -> None:
        self.units: list[int] = list(units) if units is not None else [EMPTY] * MAX_ENEMIES
        self.slot_of: dict[int, int] = {t: k for k, t in enumerate(self.units) if t != EMPTY}

    def clear(self) -> None:
        """A new battle: every slot empty."""
        self.units = [EMPTY] * MAX_ENEMIES
        self.slot_of = {}

    def update(self, game: Game) -> None:
        """Give a slot to each enemy of ``game``'s battle that has none and can have one."""
        units = game._e.s.units
        n = len(units) - 1
        if len(self.slot_of) >= n:  # (the usual case: nobody new)
            return
        slots = self.units
        for t in range(n):
            if t in self.slot_of:
                continue
            k = _free(slots, units, units[t + 1].alive)
            if k >= 0:
                held = slots[k]
                if held != EMPTY:
                    del self.slot_of[held]
                slots[k] = t
                self.slot_of[t] = k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EnemySlots) and other.units == self.units

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[EnemySlots], tuple[list[int]]]:
        return EnemySlots, (list(self.units),)

    def __repr__(self) -> str:
        return f"EnemySlots({self.units})"

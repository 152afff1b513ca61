"""The damage and block folds: a unit's modifiers (Strength, Weak, Vulnerable, Dexterity,
Frail) applied in one place, adds in status order and then the multiplications."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.defs import Modifier
from .state import Unit

if TYPE_CHECKING:
    from ..engine import Engine


def _fold_unit(e: Engine, u: Unit, stage: str, num: int, den: int) -> tuple[int, int]:
    """One unit's ``stage`` modifiers on ``num/den``: the adds in status order, then the muls
    (in status order too)."""
    statuses = e.c.statuses
    muls: list[Modifier] | None = None  # (made at the first mul: most folds only add)
    for sid, n in u.statuses.items():
        for m in statuses[sid].modifiers:
            if m.stage != stage:
                continue
            if m.op == "add":
                num += (m.amount * n if m.per_stack else m.amount) * den
            elif muls is None:
                muls = [m]
            else:
                muls.append(m)
    if muls is not None:
        for m in muls:
            num *= m.num
            den *= m.den
    return num, den


def attack_damage(e: Engine, base: int, src: Unit | None, dst: Unit | None) -> int:
    """Attack damage through the attacker's ``deal`` then the defender's ``take`` modifiers."""
    num, den = base, 1
    c = e.c
    # (a unit with no status folds nothing: no set method call for it; nor does a unit that
    # holds no status with a modifier at the stage, ``deal_statuses`` or ``take_statuses``:
    # ``_fold_unit`` would skip every modifier it holds, e.g. an enemy with only Strength
    # taking a hit)
    if src is not None and src.statuses and not c.deal_statuses.isdisjoint(src.statuses):
        num, den = _fold_unit(e, src, "deal", num, den)
    if dst is not None and dst.statuses and not c.take_statuses.isdisjoint(dst.statuses):
        num, den = _fold_unit(e, dst, "take", num, den)
    v = num // den
    return v if v > 0 else 0


def block_amount(e: Engine, base: int, u: Unit) -> int:
    """Block gained through the unit's ``block`` modifiers (Dexterity, Frail)."""
    # (no ``block`` modifier among the unit's statuses: ``_fold_unit`` would fold nothing)
    if not u.statuses or e.c.block_statuses.isdisjoint(u.statuses):
        return base if base > 0 else 0
    num, den = _fold_unit(e, u, "block", base, 1)
    v = num // den
    return v if v > 0 else 0

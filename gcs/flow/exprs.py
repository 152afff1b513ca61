"""Values, conditions and selectors used by behaviour-graph nodes (immutable data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..enums import CardType, Keyword, Rarity


# ---------------------------------------------------------------- values
@dataclass(frozen=True, slots=True)
class Var:
    """A value slot of the current scope, falling back to the source card's numbers."""

    name: str


@dataclass(frozen=True, slots=True)
class XCost:
    """The energy paid for an X-cost card."""


@dataclass(frozen=True, slots=True)
class CountOf:
    """How many objects a selector picks."""

    select: CardSel | UnitSel


@dataclass(frozen=True, slots=True)
class StacksOf:
    """Stacks of a status on a unit (0 if absent)."""

    status: str
    unit: UnitSel


@dataclass(frozen=True, slots=True)
class UnitStat:
    """A number of a unit: ``hp``, ``max_hp``, ``block``, ``missing_hp``, ``hp_losses`` (times it
    lost HP this battle); or ``energy`` / ``turn`` / ``hand_size`` / ``gold`` (the player's)
    of the battle."""

    stat: str
    unit: UnitSel | None = None


@dataclass(frozen=True, slots=True)
class BinOp:
    """``add``, ``sub``, ``mul``, ``div`` (floor), ``min``, ``max`` of two values."""

    op: str
    a: Value
    b: Value


@dataclass(frozen=True, slots=True)
class RandInt:
    """A uniform integer in ``[lo, hi]`` from the battle's card stream."""

    lo: Value
    hi: Value


@dataclass(frozen=True, slots=True)
class Upgrades:
    """How many times the source card instance was upgraded (0, 1, or more for a repeatable
    upgrade): ``{upgrades: this}``."""


Value = Union[int, Var, XCost, CountOf, StacksOf, UnitStat, BinOp, RandInt, Upgrades]


def formula(v: Value, upgrades: int) -> int | None:
    """A repeatable upgrade's number for ``upgrades`` upgrades: ``v`` of integers, arithmetic
    and ``{upgrades: this}`` (None for any other value: the loader refuses it)."""
    if type(v) is int:
        return v
    if isinstance(v, Upgrades):
        return upgrades
    if isinstance(v, BinOp):
        a, b = formula(v.a, upgrades), formula(v.b, upgrades)
        return None if a is None or b is None else arithmetic(v.op, a, b)
    return None


def arithmetic(op: str, a: int, b: int) -> int | None:
    """``a op b`` for a BinOp's ``op`` (``div`` floors, and is 0 for a 0 divisor); None for
    an unknown ``op``."""
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        return a // b if b else 0
    if op == "min":
        return min(a, b)
    return max(a, b) if op == "max" else None


# ---------------------------------------------------------------- selectors
@dataclass(frozen=True, slots=True)
class CardFilter:
    """Cards matching every given criterion."""

    tags: tuple[str, ...] = ()
    type: CardType | None = None
    keyword: Keyword | None = None
    card: str | None = None
    upgraded: bool | None = None
    exclude_self: bool = False
    upgradable: bool | None = None  # has an upgrade it does not have yet
    types: tuple[CardType, ...] = ()  # any of these types (``type: [attack, power]``)
    rarity: tuple[Rarity, ...] = ()  # any of these rarities
    character: str | None = None  # whose card it is
    exclude_tags: tuple[str, ...] = ()  # none of these tags
    replay: bool | None = None  # is (not) a replayed copy (``play_card`` with ``replay``)


CARD_SOURCES = ("hand", "draw", "discard", "exhaust", "played", "drawn", "this", "var", "all")


@dataclass(frozen=True, slots=True)
class CardSel:
    """Card instances from a pile (``hand``, ``draw``, ...), the source card (``this``) or a slot."""

    source: str
    where: CardFilter | None = None
    random: Value | None = None
    top: Value | None = None
    var: str | None = None


UNIT_SOURCES = ("self", "player", "target", "all_enemies", "random_enemy", "var", "enemies_and_player",
                "filtered")


@dataclass(frozen=True, slots=True)
class UnitSel:
    """Units: ``self`` (the actor), ``player``, ``target``, ``all_enemies``, ``random_enemy``, ``var``;
    ``filtered``: the units of ``of`` but ``exclude`` (a unit source), then ``random`` of them
    (0: all) drawn on the card stream."""

    source: str
    var: str | None = None
    of: UnitSel | None = None
    exclude: str | None = None
    random: int = 0


# ---------------------------------------------------------------- conditions
@dataclass(frozen=True, slots=True)
class Compare:
    op: str  # lt le eq ne ge gt
    a: Value
    b: Value


@dataclass(frozen=True, slots=True)
class HasStatus:
    status: str
    unit: UnitSel


@dataclass(frozen=True, slots=True)
class AllOf:
    conds: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    conds: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Not:
    cond: Cond


@dataclass(frozen=True, slots=True)
class Intends:
    """The unit's planned intent is of ``kind`` (``attack``: any intent that deals damage, as
    the game's ``getIntentBaseDmg() >= 0``)."""

    kind: str
    unit: UnitSel


@dataclass(frozen=True, slots=True)
class Same:
    """Two unit selections pick the same unit (each exactly one)."""

    a: UnitSel
    b: UnitSel


Cond = Union[Compare, HasStatus, AllOf, AnyOf, Not, Intends, Same, bool]

COMPARE_OPS = ("lt", "le", "eq", "ne", "ge", "gt")
BIN_OPS = ("add", "sub", "mul", "div", "min", "max")

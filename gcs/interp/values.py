"""Evaluating values, conditions and selectors against the live battle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..battle.combat import random_enemy
from ..battle.hooks import card_matches
from ..battle.state import Ctx, Unit
from ..enums import Pile
from ..errors import FlowError
from ..flow.exprs import (
    BIN_OPS,
    COMPARE_OPS,
    AllOf,
    AnyOf,
    BinOp,
    CardSel,
    Compare,
    Cond,
    CountOf,
    HasStatus,
    Intends,
    Not,
    RandInt,
    Same,
    StacksOf,
    UnitSel,
    UnitStat,
    Upgrades,
    Value,
    Var,
    XCost,
    arithmetic,
)

if TYPE_CHECKING:
    from ..engine import Engine


def val(e: Engine, v: Value, ctx: Ctx) -> int:
    """The integer a value expression has now."""
    if type(v) is int:
        return v
    t = type(v)
    if t is Var:
        return var(e, v.name, ctx)  # type: ignore[union-attr]
    if t is XCost:
        return ctx.x
    if isinstance(v, CountOf):
        return len(select(e, v.select, ctx)[1])
    if isinstance(v, StacksOf):
        us = units_of(e, v.unit, ctx)
        return us[0].statuses.get(v.status, 0) if us else 0
    if isinstance(v, UnitStat):
        return _stat(e, v, ctx)
    if isinstance(v, BinOp):
        got = arithmetic(v.op, val(e, v.a, ctx), val(e, v.b, ctx))
        if got is None:
            raise FlowError(f"unknown value operator {v.op!r} (expected one of "
                            f"{', '.join(BIN_OPS)})")
        return got
    if isinstance(v, RandInt):
        return e.s.rng_cards.between(val(e, v.lo, ctx), val(e, v.hi, ctx))
    if isinstance(v, Upgrades):
        inst = e.s.cards.get(ctx.src) if ctx.src >= 0 else None
        return 0 if inst is None else inst.upgrades
    if isinstance(v, bool):
        return int(v)
    raise FlowError(f"not a value: {v!r}")


def var(e: Engine, name: str, ctx: Ctx) -> int:
    """A value slot of the scope; else a status's live stacks; else the source card's numbers."""
    vals = ctx.vals
    if name in vals:
        got = vals[name]
        return got if type(got) is int else int(got)  # (no call of int for an int)
    if ctx.status and name == "stacks":
        return e.s.units[ctx.owner].statuses.get(ctx.status, 0)
    if ctx.src >= 0:
        inst = e.s.cards.get(ctx.src)
        if inst is not None:
            numbers: Mapping[str, int] | None = inst.own_numbers  # (grown, upgraded again)
            if numbers is None:  # (its active card's)
                numbers = inst.active.numbers
            if name in numbers:  # (a read-only mapping: ``in`` and ``[]``, no method calls)
                return numbers[name]
    raise FlowError(f"value slot {name!r} is not set in this scope ({ctx.entry or 'entry'})")


def _stat(e: Engine, v: UnitStat, ctx: Ctx) -> int:
    s = e.s
    if v.stat == "energy":
        return s.energy
    if v.stat == "turn":
        return s.turn
    if v.stat == "hand_size":
        return len(s.hand)
    if v.stat == "gold":
        return s.gold
    us = units_of(e, v.unit or UnitSel("self"), ctx)
    if not us:
        return 0
    u = us[0]
    if v.stat == "hp":
        return u.hp
    if v.stat == "max_hp":
        return u.max_hp
    if v.stat == "block":
        return u.block
    if v.stat == "missing_hp":
        return u.max_hp - u.hp
    if v.stat == "hp_losses":
        return u.hp_losses
    raise FlowError(f"unknown unit stat {v.stat!r}")


def test(e: Engine, c: Cond, ctx: Ctx) -> bool:
    """Whether a condition holds now."""
    if c is True or c is False:
        return c
    if isinstance(c, Compare):
        a = val(e, c.a, ctx)
        b = val(e, c.b, ctx)
        op = c.op
        if op == "lt":
            return a < b
        if op == "le":
            return a <= b
        if op == "eq":
            return a == b
        if op == "ne":
            return a != b
        if op == "ge":
            return a >= b
        if op == "gt":
            return a > b
        raise FlowError(f"unknown comparison {op!r} (expected one of {', '.join(COMPARE_OPS)})")
    if isinstance(c, HasStatus):
        return any(u.statuses.get(c.status, 0) for u in units_of(e, c.unit, ctx))
    if isinstance(c, AllOf):
        return all(test(e, x, ctx) for x in c.conds)
    if isinstance(c, AnyOf):
        return any(test(e, x, ctx) for x in c.conds)
    if isinstance(c, Not):
        return not test(e, c.cond, ctx)
    if isinstance(c, Intends):
        return any(_intends(u, c.kind) for u in units_of(e, c.unit, ctx))
    if isinstance(c, Same):
        one, two = units_of(e, c.a, ctx), units_of(e, c.b, ctx)
        return len(one) == 1 and len(two) == 1 and one[0] is two[0]
    raise FlowError(f"not a condition: {c!r}")


def _intends(u: Unit, kind: str) -> bool:
    """Is the living unit's shown intent of ``kind`` (``attack``: it deals damage)?"""
    it = u.intent
    if it is None or not u.alive or u.uid == 0:
        return False
    return it.damage is not None if kind == "attack" else it.kind.value == kind


# ---------------------------------------------------------------- selectors
def units_of(e: Engine, sel: UnitSel, ctx: Ctx) -> list[Unit]:
    """Units a selector picks now (object slots are read live)."""
    units = e.s.units
    src = sel.source
    if src == "target":
        if ctx.target < 0:
            return []
        return [units[ctx.target]]
    if src == "self":
        return [units[ctx.owner]]
    if src == "player":
        return [units[0]]
    if src == "all_enemies":
        return [u for u in units[1:] if u.alive]
    if src == "random_enemy":
        uid = random_enemy(e.s)
        return [] if uid < 0 else [units[uid]]
    if src == "var":
        slot = ctx.objs.get(sel.var or "")
        if slot is None or slot[0] != "u":
            raise FlowError(f"object slot {sel.var!r} does not hold units")
        return [units[i] for i in slot[1]]
    if src == "enemies_and_player":
        return [units[0]] + [u for u in units[1:] if u.alive]
    if src == "filtered" and sel.of is not None:
        got = units_of(e, sel.of, ctx)
        if sel.exclude is not None:
            gone = {u.uid for u in units_of(e, UnitSel(sel.exclude), ctx)}
            got = [u for u in got if u.uid not in gone]
        n = sel.random
        if n and got:
            rng = e.s.rng_cards
            got = list(got)
            got = [got.pop(rng.below(len(got))) for _ in range(min(n, len(got)))]
        return got
    raise FlowError(f"unknown unit selector {src!r}")


def cards_of(e: Engine, sel: CardSel, ctx: Ctx) -> list[int]:
    """Card instance ids a selector picks now (hand order; Draw from the top down)."""
    s = e.s
    src = sel.source
    ids: list[int]
    if src == "hand":
        ids = s.hand.copy()
    elif src == "draw":
        ids = s.draw[::-1]
    elif src == "discard":
        ids = s.discard.copy()
    elif src == "exhaust":
        ids = s.exhaust.copy()
    elif src == "played":
        ids = s.played.copy()
    elif src == "drawn":
        ids = s.drawn.copy()
    elif src == "this":
        ids = [ctx.src] if in_battle(e, "c", ctx.src) else []
    elif src == "all":
        ids = s.hand + s.draw[::-1] + s.discard + s.exhaust
    elif src == "var":
        slot = ctx.objs.get(sel.var or "")
        if slot is None or slot[0] != "c":
            raise FlowError(f"object slot {sel.var!r} does not hold cards")
        ids = [i for i in slot[1] if in_battle(e, "c", i)]  # live: gone cards drop out
    else:
        raise FlowError(f"unknown card selector {src!r}")
    cards = s.cards
    if sel.where is not None:
        ids = [i for i in ids if card_matches(cards[i], sel.where, ctx.src)]
    if sel.top is not None:
        ids = ids[: max(0, val(e, sel.top, ctx))]
    if sel.random is not None:
        n = max(0, val(e, sel.random, ctx))
        if n < len(ids):
            rng = s.rng_cards
            pool = ids.copy()
            picked = []
            for _ in range(n):
                picked.append(pool.pop(rng.below(len(pool))))
            ids = picked
    return ids


def select(e: Engine, sel: CardSel | UnitSel, ctx: Ctx) -> tuple[str, list[int]]:
    """A selection as an object slot value: ("c", card ids) or ("u", unit ids)."""
    if isinstance(sel, CardSel):
        return "c", cards_of(e, sel, ctx)
    return "u", [u.uid for u in units_of(e, sel, ctx)]


def in_battle(e: Engine, kind: str, i: int) -> bool:
    """Is this object still part of the battle? (a card that left it is REMOVED; units stay)"""
    if kind == "c":
        inst = e.s.cards.get(i)
        return inst is not None and inst.pile is not Pile.REMOVED
    return 0 <= i < len(e.s.units)


"""Damage and block credit: which card (or enemy move) caused each point of HP an enemy lost,
and each point of block the player gained.

A unit's ``sources`` remember, per status, who applied its stacks (a label -> signed stacks,
summing to the stacks held); a fold credits each modifier's change of the amount to its
status's sources, and a status's own damage goes to its sources. Block is credited the same way
through the ``block`` fold (Dexterity, Frail). The rules and worked examples are in
docs/simulation.md ("Damage credit", "Block credit").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Union

from .state import Ctx, Unit

if TYPE_CHECKING:
    from ..engine import Engine

# the label of damage and stacks that no card or enemy move caused (a character's starting
# statuses, an effect with no card behind it)
NONE: Final = "(none)"

# what a credit is: one label (all of it), or labels with weights (shared pro rata)
Credit = Union[str, dict[str, int]]


def split(total: int, weights: dict[str, int]) -> dict[str, int]:
    """``total`` shared pro rata by ``weights`` (signed; their sum is not 0): each label gets
    the floor of its exact share, then the remainder goes one point each to the largest
    fractional parts (ties: the first label in the dict's order). The shares sum to ``total``
    exactly; a zero share is left out. A negative ``total`` is split as its opposite."""
    if len(weights) == 1:  # (one label takes it all: the usual case, no arithmetic)
        for k, w in weights.items():
            if w:
                return {k: total} if total else {}
    if total < 0:
        return {k: -v for k, v in split(-total, weights).items()}
    w_sum = 0
    for w in weights.values():
        w_sum += w
    if w_sum == 0:
        return {NONE: total} if total else {}
    sign = 1
    if w_sum < 0:
        sign = -1
        w_sum = -w_sum
    out: dict[str, int] = {}
    rems: list[tuple[int, int, str]] = []
    given = 0
    for i, (k, w) in enumerate(weights.items()):
        q, r = divmod(total * w * sign, w_sum)
        out[k] = q
        given += q
        rems.append((-r, i, k))
    left = total - given  # (0 <= left < len(weights): the fractions sum to it)
    if left:
        rems.sort()
        for j in range(left):
            k = rems[j][2]
            out[k] += 1
    return {k: v for k, v in out.items() if v}


def positive(u: Unit, sid: str) -> dict[str, int]:
    """The sources of ``sid`` on ``u`` that added stacks (a source that took stacks away gets
    no credit: its effect is that fewer stacks share the change); {} when none is known."""
    src = u.sources.get(sid)
    if not src:
        return {}
    for v in src.values():
        if v <= 0:
            return {k: v for k, v in src.items() if v > 0}
    return src  # (all added stacks, the usual case: the unit's own dict, read only)


def of_ctx(e: Engine, ctx: Ctx) -> Credit:
    """Who causes what a running entry does: a status's branch, that status's sources on its
    owner (read only: the unit's own dict); a card's, the card; an enemy's move, the move;
    else ``NONE``."""
    s = e.s
    if ctx.status:
        w = positive(s.units[ctx.owner], ctx.status) if 0 <= ctx.owner < len(s.units) else {}
        return w if w else NONE
    return label_of(e, ctx)


def label_of(e: Engine, ctx: Ctx) -> str:
    """The card, else the enemy move, else ``NONE`` behind an entry (its status aside)."""
    s = e.s
    if ctx.src >= 0:
        inst = s.cards.get(ctx.src)
        if inst is not None:
            return inst.card_id
    if 0 < ctx.owner < len(s.units):
        return move_label(s.units[ctx.owner])
    return NONE


def move_label(u: Unit) -> str:
    """The label of an enemy's move: ``(enemy_id:move_id)``."""
    return f"({u.def_id}:{u.move})"


def credit_loss(dmg: dict[str, int], credit: Credit, loss: int, amount: int) -> None:
    """Count ``loss`` HP lost in ``dmg`` by ``credit``: a label takes it all; weights share
    it pro rata (the shares of a fold, which sum to ``amount``: the blocked and overkill part
    is taken from every share alike)."""
    if isinstance(credit, str):
        dmg[credit] = dmg.get(credit, 0) + loss
        return
    if len(credit) == 1:
        for k in credit:
            dmg[k] = dmg.get(k, 0) + loss
        return
    # (fold shares sum to ``amount``, a status's sources to its stacks: only the first can be
    # counted as they are)
    shares = credit if loss == amount and _total(credit) == amount else split(loss, credit)
    for k, v in shares.items():
        dmg[k] = dmg.get(k, 0) + v


def _total(weights: dict[str, int]) -> int:
    n = 0
    for v in weights.values():
        n += v
    return n


def restack(u: Unit, sid: str, old: int, new: int, credit: Credit | None) -> None:
    """Keep ``u.sources[sid]`` summing to the stacks after a change from ``old`` to ``new``
    (``new`` not 0): ``credit`` gets the change; with no credit, a change away from 0 goes to
    ``NONE`` and one towards 0 (decay, removal, a negated stack) takes from every source pro
    rata."""
    srcs = u.sources
    have = srcs.get(sid)
    if have is None:
        have = srcs[sid] = {NONE: old} if old else {}
    d = new - old
    if credit is None:
        if old and abs(new) < abs(old) and (new > 0) == (old > 0):
            srcs[sid] = split(new, have)
            return
        credit = NONE
    if isinstance(credit, str):
        have[credit] = have.get(credit, 0) + d
        if not have[credit]:
            del have[credit]
        return
    for k, v in split(d, credit).items():
        have[k] = have.get(k, 0) + v
        if not have[k]:
            del have[k]


def fold_credit(e: Engine, base: int, src: Unit | None, dst: Unit,
                card: str) -> tuple[int, dict[str, int]]:
    """``folds.attack_damage`` of ``base`` and who caused each point of it.

    The amount is folded as ``attack_damage`` does (the attacker's ``deal`` then the
    defender's ``take`` modifiers, each unit's adds then its muls). ``card`` holds the base;
    after each modifier, the change of the floored amount (0 at least) is credited: a rise to
    the modifier's status's sources pro rata, a fall taken from every share so far pro rata
    (Weak makes every contributor's part smaller). The shares sum to the amount."""
    prev = base if base > 0 else 0
    shares: dict[str, int] = {card: prev}
    num, den = base, 1
    if src is not None and src.statuses:
        num, den, prev = _fold_unit(e, src, "deal", num, den, prev, shares)
    if dst.statuses:
        num, den, prev = _fold_unit(e, dst, "take", num, den, prev, shares)
    return prev, {k: v for k, v in shares.items() if v}


def block_credit(e: Engine, base: int, u: Unit, holder: str) -> tuple[int, dict[str, int]]:
    """``folds.block_amount`` of ``base`` for ``u`` and who caused each point of it, as
    ``fold_credit`` does for an attack: ``holder`` (the card) holds the base, Dexterity's rise
    goes to its sources, Frail's fall is taken from every share pro rata."""
    prev = base if base > 0 else 0
    shares: dict[str, int] = {holder: prev}
    prev = _fold_unit(e, u, "block", base, 1, prev, shares)[2]
    return prev, {k: v for k, v in shares.items() if v}


def credit_block(e: Engine, u: Unit, amount: int, ctx: Ctx, fold: bool) -> int:
    """The block the player ``u`` gains from ``amount`` (through its ``block`` modifiers when
    ``fold``: a card's block), counted in the battle's block credit: the fold's shares, or
    all of it to who runs ``ctx`` (a status's block to that status's sources)."""
    if fold:
        held = u.statuses
        if held and not e.c.block_statuses.isdisjoint(held):
            got, shares = block_credit(e, amount, u, label_of(e, ctx))
            if got and u.alive:
                credit_loss(e.s.block_gained, shares, got, got)
            return got
    if amount <= 0:
        return 0
    if u.alive:
        if ctx.status:
            credit_loss(e.s.block_gained, of_ctx(e, ctx), amount, amount)
        else:  # (all to the card or move: the usual block, inline)
            key = label_of(e, ctx)
            tally = e.s.block_gained
            tally[key] = tally.get(key, 0) + amount
    return amount


def _fold_unit(e: Engine, u: Unit, stage: str, num: int, den: int, prev: int,
               shares: dict[str, int]) -> tuple[int, int, int]:
    """One unit's ``stage`` modifiers on ``num/den`` (adds in status order, then muls), each
    one's change of the floored amount credited in ``shares``: the new num, den and amount."""
    statuses = e.c.statuses
    muls: list[tuple[str, int, int]] = []
    for sid, n in u.statuses.items():
        for m in statuses[sid].modifiers:
            if m.stage != stage:
                continue
            if m.op == "add":
                num += (m.amount * n if m.per_stack else m.amount) * den
                prev = _step(shares, prev, num // den, u, sid)
            else:
                muls.append((sid, m.num, m.den))
    for sid, a, b in muls:
        num *= a
        den *= b
        prev = _step(shares, prev, num // den, u, sid)
    return num, den, prev


def _step(shares: dict[str, int], prev: int, cur: int, u: Unit, sid: str) -> int:
    """One modifier's change from ``prev`` to ``cur`` (floored at 0) credited in ``shares``."""
    if cur < 0:
        cur = 0
    c = cur - prev
    if c > 0:
        w = positive(u, sid)
        for k, v in (split(c, w) if w else {NONE: c}).items():
            shares[k] = shares.get(k, 0) + v
    elif c < 0:
        fell = split(cur, shares) if cur else {}
        shares.clear()
        shares.update(fell)
    return cur

"""Unit and battle actions of behaviour graphs: damage (hit by hit), block, HP, energy,
statuses, spawn/kill/revive, turn requests and gold (registered by gcs/engine.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from ..battle import cards as C
from ..battle import combat as U
from ..battle import frames as K
from ..battle.combat import deal_damage, gain_block, random_enemy, spawn_enemy
from ..battle.credit import credit_block, fold_credit, label_of, of_ctx
from ..battle.folds import attack_damage, block_amount
from ..battle.intents import set_move
from ..battle.state import Ctx, Frame, Unit
from ..enums import BattlePhase
from ..events import EnergyGained, GoldGained, RewardGoldAdded
from ..flow import nodes as N
from ..flow.exprs import Var
from .run import Exec
from .values import units_of, val, var

if TYPE_CHECKING:
    from ..engine import Engine


def _ex_damage(e: Engine, node: N.DealDamage, ctx: Ctx) -> None:
    v = node.amount
    # (``val`` of the usual amounts, with a call less: a card's number or a slot is read by
    # ``var``, a literal (an enemy's move) is itself)
    if type(v) is Var:
        amount = var(e, v.name, ctx)
    elif type(v) is int:
        amount = v
    else:
        amount = val(e, v, ctx)
    h = node.hits
    hits = h if type(h) is int else val(e, h, ctx)  # (``val`` of a literal, one call less)
    kind = node.kind
    attack = not ctx.status if kind is None else kind == "attack"
    source = node.target.source
    if source == "target" and hits == 1:
        # one hit on the scope's target (``units_of`` picks it, or none): the branch below
        # with ``targets`` = [ctx.target] or [], without building the lists
        uid = ctx.target
        if uid >= 0:
            _hit(e, ctx, amount, uid, attack)
        return
    rand = source == "random_enemy"
    targets = [] if rand else [u.uid for u in units_of(e, node.target, ctx)]
    if hits == 1 and len(targets) == 1:
        _hit(e, ctx, amount, targets[0], attack)
    elif hits > 0 and (targets or rand):
        e.s.stack.append(Frame(K.DAMAGE, node, 0, [amount, targets, hits, 1 if rand else 0, 0],
                               ctx))


def step_damage(e: Engine, f: Frame) -> None:
    """One hit on one target per step, so reactions resolve between hits."""
    amount, targets, hits, rand, ti = f.data
    s = e.s
    node = f.node
    ctx = f.ctx
    assert isinstance(node, N.DealDamage) and ctx is not None
    kind = node.kind
    attack = not ctx.status if kind is None else kind == "attack"
    if f.pc >= hits:
        s.stack.pop()
        return
    if rand:
        f.pc += 1
        uid = random_enemy(s)
        if uid >= 0:
            _hit(e, ctx, amount, uid, attack)
        return
    if not targets:
        s.stack.pop()
        return
    uid = targets[ti]
    ti += 1
    if ti >= len(targets):
        ti = 0
        f.pc += 1
    f.data[4] = ti
    _hit(e, ctx, amount, uid, attack)


def _hit(e: Engine, ctx: Ctx, amount: int, uid: int, attack: bool) -> None:
    """One hit. Not an attack (a status's damage, or ``kind: thorns``): no fold, no
    ``on_attacked``; block still absorbs it (the game's THORNS). Every hit on an enemy is credited
    (gcs/battle/credit.py)."""
    s = e.s
    units = s.units
    dst = units[uid]
    if not dst.alive:
        return
    src = units[ctx.owner]
    if not attack:
        # not an attack: credited to who applied the status (Combust, Thorns...) or to the card
        # or move whose entry it is (a card's ``kind: thorns``)
        deal_damage(e, src, dst, amount if amount > 0 else 0, None, False,
                    of_ctx(e, ctx) if uid else None)
    else:
        # an attack: the damage is folded, and counted for the source card (if it is one)
        inst = s.cards.get(ctx.src) if ctx.src >= 0 else None
        card_id = None if inst is None else inst.card_id
        held, hit = src.statuses, dst.statuses
        c = e.c
        if ((held and not c.deal_statuses.isdisjoint(held))
                or (hit and not c.take_statuses.isdisjoint(hit))):
            if uid:
                # a hit on an enemy: folded with each modifier's share credited to its source
                amount, shares = fold_credit(e, amount, src, dst,
                                             label_of(e, ctx) if card_id is None else card_id)
                deal_damage(e, src, dst, amount, card_id, True, shares)
                return
            amount = attack_damage(e, amount, src, dst)
        elif amount < 0:
            # (``attack_damage`` when neither unit holds a modifier at its stage, e.g. a hit on
            # an enemy with only Strength: it folds nothing, the amount floored at 0)
            amount = 0
        deal_damage(e, src, dst, amount, card_id, True,
                    None if card_id is not None or not uid else label_of(e, ctx))


def _per_unit(e: Engine, units: list[Unit], act: Callable[[Unit], None]) -> None:
    """Run ``act`` on each unit in order; the reactions it queues (on_apply,
    on_damage_taken, on_death...) then run in the same unit order, as one batch."""
    stack = e.s.stack
    base = len(stack)
    cuts = []
    for u in units:
        act(u)
        cuts.append(len(stack))
    if len(units) > 1 and len(stack) > base:
        segments = []
        lo = base
        for hi in cuts:
            segments.append(stack[lo:hi])
            lo = hi
        del stack[base:]
        for seg in reversed(segments):  # the first unit's reactions end on top: run first
            stack.extend(seg)


def _ex_block(e: Engine, node: N.GainBlock, ctx: Ctx) -> None:
    v = node.amount
    if type(v) is Var:  # (``val``, as in _ex_damage)
        amount = var(e, v.name, ctx)
    elif type(v) is int:
        amount = v
    else:
        amount = val(e, v, ctx)
    if node.target.source == "self":
        # the scope's owner (``units_of`` picks it), without the list; for a card's block the
        # fold of ``block_amount``, inlined: a unit with no ``block`` modifier among its
        # statuses folds nothing (the amount, floored at 0, which ``gain_block`` then skips)
        u = e.s.units[ctx.owner]
        if not ctx.owner:  # the player's block: credited (gcs/battle/credit.py)
            gain_block(e, u, credit_block(e, u, amount, ctx, not (ctx.status or node.raw)))
            return
        if ctx.status or node.raw:
            gain_block(e, u, amount)
            return
        held = u.statuses
        if held and not e.c.block_statuses.isdisjoint(held):
            amount = block_amount(e, amount, u)
        gain_block(e, u, amount)
        return
    fold = not (ctx.status or node.raw)
    for u in units_of(e, node.target, ctx):
        if not u.uid:
            gain_block(e, u, credit_block(e, u, amount, ctx, fold))
        else:
            gain_block(e, u, block_amount(e, amount, u) if fold else amount)


def _ex_lose_hp(e: Engine, node: N.LoseHp, ctx: Ctx) -> None:
    amount = val(e, node.amount, ctx)
    owner = ctx.owner  # (the unit whose behaviour runs caused it: Rupture reads it)
    credit = of_ctx(e, ctx)
    _per_unit(e, units_of(e, node.target, ctx),
              lambda u: U.lose_hp(e, u, amount, owner, credit))


def _ex_max_hp(e: Engine, node: N.GainMaxHp, ctx: Ctx) -> None:
    amount = val(e, node.amount, ctx)
    for u in units_of(e, node.target, ctx):
        U.gain_max_hp(e, u, amount)


def _ex_heal(e: Engine, node: N.Heal, ctx: Ctx) -> None:
    amount = val(e, node.amount, ctx)
    for u in units_of(e, node.target, ctx):
        U.heal(e, u, amount)


def _ex_energy(e: Engine, node: N.GainEnergy, ctx: Ctx) -> None:
    n = val(e, node.amount, ctx)
    s = e.s
    s.energy = max(0, s.energy + n)
    if e.hot:
        e.record(EnergyGained(n, s.energy))


def _ex_apply(e: Engine, node: N.ApplyStatus, ctx: Ctx) -> None:
    n = val(e, node.amount, ctx)
    sid = node.status
    units = units_of(e, node.target, ctx)
    if e.c.negating_statuses:  # (a pack where a status can negate debuffs: Artifact)
        units = [u for u in units if not U.negated(e, u, sid, n)]
    credit = of_ctx(e, ctx)  # (who applies the stacks: gcs/battle/credit.py)
    if ctx.status == sid and isinstance(credit, dict):
        credit = dict(credit)  # (a status that adds to itself: its sources change under it)
    if len(units) == 1:  # (what _per_unit does with one unit: nothing to reorder)
        U.apply_status(e, units[0], sid, n, source=ctx.owner, credit=credit)
        return
    _per_unit(e, units, lambda u: U.apply_status(e, u, sid, n, source=ctx.owner, credit=credit))


def _ex_remove(e: Engine, node: N.RemoveStatus, ctx: Ctx) -> None:
    n = None if node.amount is None else val(e, node.amount, ctx)
    sid = node.status
    _per_unit(e, units_of(e, node.target, ctx), lambda u: U.remove_status(e, u, sid, n))


def _ex_spawn(e: Engine, node: N.SpawnEnemy, ctx: Ctx) -> None:
    hp = None if node.hp is None else max(1, val(e, node.hp, ctx))
    u = spawn_enemy(e, e.c.enemy(node.enemy), hp=hp)
    if node.var:
        ctx.objs[node.var] = ["u", [u.uid]]


def _ex_kill(e: Engine, node: N.Kill, ctx: Ctx) -> None:
    entries = []
    for u in units_of(e, node.target, ctx):
        if u.alive:
            entries += U.die(e, u)
    if entries:
        C.push_entries(e, entries)


def _ex_revive(e: Engine, node: N.Revive, ctx: Ctx) -> None:
    hp = val(e, node.hp, ctx)
    sel = node.target
    for u in units_of(e, sel, ctx) if sel.source != "all_enemies" else e.s.units[1:]:
        U.revive(e, u, hp)


def _ex_end_turn(e: Engine, node: N.EndTurn, ctx: Ctx) -> None:
    # Only the player's own turn can be asked to end; elsewhere (PlayerTurnEnd, EnemyPhase,
    # Initialize) the request is ignored instead of ending the player's next turn at once.
    s = e.s
    if s.phase is BattlePhase.PLAYER_TURN_START or s.phase is BattlePhase.PLAYER_PHASE:
        s.end_turn = True


def _ex_extra_turn(e: Engine, node: N.ExtraTurn, ctx: Ctx) -> None:
    e.s.extra_turns += 1


def _ex_gold(e: Engine, node: N.GainGold, ctx: Ctx) -> None:
    s = e.s
    old = s.gold
    s.gold = max(0, old + val(e, node.amount, ctx))
    if e.hot:  # (the change made: a loss past 0 takes only the gold there is)
        e.record(GoldGained(s.gold - old, s.gold))


def _ex_reward_gold(e: Engine, node: N.RewardGold, ctx: Ctx) -> None:
    n = val(e, node.amount, ctx)
    if n <= 0:
        return
    s = e.s
    s.loot += n
    if e.hot:
        e.record(RewardGoldAdded(n, s.loot))


def _ex_set_move(e: Engine, node: N.SetMove, ctx: Ctx) -> None:
    set_move(e, e.s.units[ctx.owner], node.move)


UNIT_ACTIONS: Final[dict[type, Exec]] = {
    N.DealDamage: _ex_damage, N.GainBlock: _ex_block, N.LoseHp: _ex_lose_hp, N.Heal: _ex_heal,
    N.GainEnergy: _ex_energy, N.ApplyStatus: _ex_apply, N.RemoveStatus: _ex_remove,
    N.SpawnEnemy: _ex_spawn, N.Kill: _ex_kill, N.Revive: _ex_revive, N.EndTurn: _ex_end_turn,
    N.ExtraTurn: _ex_extra_turn, N.GainGold: _ex_gold, N.RewardGold: _ex_reward_gold, N.SetMove: _ex_set_move,
    N.GainMaxHp: _ex_max_hp,
}

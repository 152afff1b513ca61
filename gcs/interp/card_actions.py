"""Card actions of behaviour graphs: move, exhaust, discard, remove, play, upgrade, transform,
change the cost of, draw and create cards, and register card hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..battle import cards as C
from ..battle import frames as K
from ..battle.hooks import def_matches
from ..battle.intents import resolve_intents
from ..battle.play import nested_play
from ..battle.run import change_master_cost
from ..battle.state import ActiveHook, Ctx, Frame
from ..enums import BattlePhase, CardType, Pile, PileScope
from ..errors import FlowError
from ..events import CardModified
from ..flow import nodes as N
from .run import Exec, _where
from .values import cards_of, units_of, val

if TYPE_CHECKING:
    from ..engine import Engine


def _each(e: Engine, node: N.Node, ctx: Ctx, ids: list[int]) -> None:
    if len(ids) == 1:
        _card_op(e, node, ctx, ids[0])
    elif ids:
        e.s.stack.append(Frame(K.EACH, node, 0, ids, ctx))


def step_each(e: Engine, f: Frame) -> None:
    ids = f.data
    if f.pc >= len(ids):
        e.s.stack.pop()
        return
    i = ids[f.pc]
    f.pc += 1
    _card_op(e, f.node, f.ctx, i)  # type: ignore[arg-type]


def _card_op(e: Engine, node: N.Node, ctx: Ctx, uid: int) -> None:
    inst = e.s.cards.get(uid)
    if inst is None or inst.pile is Pile.REMOVED:
        return  # the card left the battle meanwhile
    if isinstance(node, N.MoveCard):
        C.move(e, inst, node.pile, node.position)
    elif isinstance(node, N.ExhaustCard):
        C.move(e, inst, PileScope.EXHAUST)
    elif isinstance(node, N.DiscardCard):
        C.move(e, inst, PileScope.DISCARD)
    elif isinstance(node, N.RemoveFromBattle):
        C.remove_from_battle(e, inst)
    elif isinstance(node, N.PlayCard):
        _play_card(e, node, ctx, inst)
    elif isinstance(node, N.UpgradeCard):
        if not inst.upgraded and inst.base.upgrade is not None:
            inst.set_card(inst.base, True)
            if e.hot:
                e.record(CardModified(inst.uid, inst.card_id, "upgrade", True))
        elif inst.upgraded and inst.active.repeatable:  # (Searing Blow: again and again)
            inst.upgrades += 1
            inst.refresh_numbers()
            if e.hot:
                e.record(CardModified(inst.uid, inst.card_id, "upgrade", True))
    elif isinstance(node, N.TransformCard):
        _transform(e, node, inst)
    elif isinstance(node, N.ModifyCost):
        _modify_cost(e, node, ctx, inst)


def _ex_cards(e: Engine, node: Any, ctx: Ctx) -> None:
    _each(e, node, ctx, cards_of(e, node.select, ctx))


def _ex_play(e: Engine, node: N.PlayCard, ctx: Ctx) -> None:
    ids = cards_of(e, node.select, ctx)
    if node.var:
        ctx.objs[node.var] = ["c", []]
    _each(e, node, ctx, ids)


def _play_card(e: Engine, node: N.PlayCard, ctx: Ctx, inst: Any) -> None:
    """One card of a Play Card node: a nested play that completes before the next card."""
    target = -1
    if node.target is not None:
        picked = [u.uid for u in units_of(e, node.target, ctx) if u.alive and u.uid > 0]
        target = picked[0] if picked else -1
    played = nested_play(e, inst, node.copy, node.free, target, node.to, node.replay,
                         ctx.x if node.same_x else -1)
    if played is not None and node.var:
        ctx.objs[node.var][1].append(played.uid)


def _transform(e: Engine, node: N.TransformCard, inst: Any) -> None:
    if node.into is not None:
        new = e.c.card(node.into)
    else:
        pool = sorted(
            (c for c in e.c.cards.values()
             if c.id != inst.card_id and c.type not in (CardType.STATUS, CardType.CURSE)),
            key=lambda c: c.id,
        )
        if node.pool is not None:
            where = node.pool
            pool = [c for c in pool if def_matches(c, where) and (
                where.upgradable is None or (c.upgrade is not None) == where.upgradable)]
        if not pool:
            return
        new = pool[e.s.rng_cards.below(len(pool))]
    # a new card: the old card's run (master-deck) and temporary cost changes and its own
    # numbers do not carry over
    inst.grown = None
    inst.set_card(new, False)
    inst.cost_delta = inst.battle_delta = inst.turn_delta = 0
    inst.battle_set = inst.turn_set = None
    if e.hot:
        e.record(CardModified(inst.uid, inst.card_id, "transform", False))


def _modify_cost(e: Engine, node: N.ModifyCost, ctx: Ctx, inst: Any) -> None:
    amount = val(e, node.amount, ctx)
    set_to = None if node.set_to is None else val(e, node.set_to, ctx)
    d = node.duration
    if d not in N.COST_DURATIONS:
        raise FlowError(f"ModifyCost: unknown duration {d!r} (expected one of "
                        f"{', '.join(N.COST_DURATIONS)})")
    if d == "turn":
        if set_to is not None:
            inst.turn_set, inst.turn_delta = set_to, 0
        inst.turn_delta += amount
    elif d == "battle":
        if set_to is not None:
            inst.battle_set, inst.battle_delta = set_to, 0
        inst.battle_delta += amount
    else:  # run: the master deck entry changes too
        base = inst.active.cost + inst.cost_delta
        delta = (set_to - base) if set_to is not None else amount
        inst.cost_delta += delta
        change_master_cost(e, inst.origin, delta)
    if e.hot:
        e.record(CardModified(inst.uid, inst.card_id, "cost", inst.upgraded))


def _ex_draw(e: Engine, node: N.DrawCards, ctx: Ctx) -> None:
    C.push_draw(e, val(e, node.count, ctx), automatic=False)


def _ex_add(e: Engine, node: N.AddCards, ctx: Ctx) -> None:
    if node.pile is PileScope.MASTER or node.pile is PileScope.ALL:
        raise FlowError(f"AddCards in {_where(e, ctx)} cannot create a battle card in "
                        f"{node.pile.name}; use HAND, DRAW, DISCARD or EXHAUST")
    n = max(0, val(e, node.count, ctx))
    if node.copy_of is not None:
        s = e.s
        srcs = [s.cards[i] for i in cards_of(e, node.copy_of, ctx)]
        e.charge(n * len(srcs), f"AddCards of copies in {_where(e, ctx)}")
        made = [C.create(e, src.base, node.pile, node.position, src.upgraded, src).uid
                for src in srcs for _ in range(n)]
    else:
        card = e.c.card(node.card)
        e.charge(n, f"AddCards of {node.card!r} in {_where(e, ctx)}")
        made = [C.create(e, card, node.pile, node.position, node.upgraded).uid
                for _ in range(n)]
    if node.var:
        ctx.objs[node.var] = ["c", made]


def _ex_grow(e: Engine, node: N.GrowNumber, ctx: Ctx) -> None:
    """The instance whose behaviour runs gains ``amount`` on one of its numbers (none: a card
    that has left the battle, or a status's or a move's behaviour, grows nothing)."""
    inst = e.s.cards.get(ctx.src) if ctx.src >= 0 else None
    if inst is None or inst.pile is Pile.REMOVED or node.number not in inst.numbers:
        return
    inst.grow(node.number, val(e, node.amount, ctx))
    if e.hot:
        e.record(CardModified(inst.uid, inst.card_id, "numbers", inst.upgraded))


def _ex_hook(e: Engine, node: N.RegisterCardHook, ctx: Ctx) -> None:
    if ctx.entry == "on_play" and not ctx.status and _play_pending(e, ctx):
        ctx.hooks.append(node)  # registered once the play's deferred branches complete
    else:
        register_hook(e, node, ctx.src)


def _play_pending(e: Engine, ctx: Ctx) -> bool:
    """Is the play that owns this On Play scope still resolving? (A delayed continuation of
    On Play resumes after its play completed: its hooks then register at once.)"""
    return any(f.kind == K.PLAY and f.ctx is ctx for f in e.s.stack)


def register_hook(e: Engine, node: N.Node, source: int) -> None:
    s = e.s
    assert isinstance(node, N.RegisterCardHook)
    # Scope = Turns counts player turns: the current one when registered during the
    # player's turn, otherwise the next one (a hook made in the enemy phase or at battle
    # start must not expire before it ever applies).
    # A hook whose scope counts enemy turns keeps its count down instead: it is removed at
    # EnemyPhase step 4 of the N-th enemy turn that ends after its registration.
    here = s.phase in (BattlePhase.PLAYER_TURN_START, BattlePhase.PLAYER_PHASE)
    if node.turns is None:
        expires = None
    elif node.scope == "enemy_turns":
        expires = node.turns
    else:
        expires = s.player_turns + node.turns + (0 if here else 1)
    s.hooks.append(ActiveHook(node, source, expires, s.next_seq))
    s.next_seq += 1
    resolve_intents(e)


CARD_ACTIONS: Final[dict[type, Exec]] = {
    N.DrawCards: _ex_draw, N.AddCards: _ex_add,
    N.MoveCard: _ex_cards, N.ExhaustCard: _ex_cards, N.DiscardCard: _ex_cards,
    N.RemoveFromBattle: _ex_cards, N.PlayCard: _ex_play,
    N.ModifyCost: _ex_cards, N.UpgradeCard: _ex_cards, N.TransformCard: _ex_cards,
    N.RegisterCardHook: _ex_hook, N.GrowNumber: _ex_grow,
}

"""Hooks: rules that change costs, playability, hand size, draws and energy while active.

Sources, in evaluation order: the player's statuses (snapshot order), Card Hooks registered
in this battle (registration order), then cards in hand that carry hooks (hand order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..content.defs import GameCard
from ..content.roles import HOOKS
from ..enums import KW_UNPLAYABLE
from ..flow.exprs import CardFilter, Cond, Value
from ..flow.nodes import HookDef, RegisterCardHook
from .roles import roles_of
from .state import ActiveHook, CardInstance, Ctx

if TYPE_CHECKING:
    from ..engine import Engine


# The interpreter's condition test and value reader (gcs/interp/values.py), which a card's own
# ``playable_if`` and ``cost_adjust`` need here, one layer below it: engine.py registers them
TESTS: list[Callable[[Engine, Cond, Ctx], bool]] = []
VALUES: list[Callable[[Engine, Value, Ctx], int]] = []


def play_condition_holds(e: Engine, inst: CardInstance) -> bool:
    """Does the card's ``playable_if`` hold now (``self`` the player, ``this`` the card)? True
    for a card without one."""
    cond = inst.active.playable_if
    if cond is None:
        return True
    return TESTS[0](e, cond, Ctx(0, inst.uid, -1, "", "playable_if"))


def cost_adjustment(e: Engine, inst: CardInstance) -> int:
    """The card's ``cost_adjust`` now (0 without one): added to its printed cost."""
    adjust = inst.active.cost_adjust
    if adjust is None:
        return 0
    return VALUES[0](e, adjust, Ctx(0, inst.uid, -1, "", "cost_adjust"))


def def_matches(card: GameCard, where: CardFilter) -> bool:
    """The filter criteria a definition decides alone: type, keyword, card id, tags, rarity,
    character."""
    if where.type is not None and card.type is not where.type:
        return False
    if where.types and card.type not in where.types:
        return False
    if where.rarity and card.rarity not in where.rarity:
        return False
    if where.character is not None and card.character != where.character:
        return False
    if where.exclude_tags and any(t in card.tags for t in where.exclude_tags):
        return False
    if where.keyword is not None and where.keyword not in card.keywords:
        return False
    if where.card is not None and card.id != where.card:
        return False
    return all(t in card.tags for t in where.tags)


def card_matches(inst: CardInstance, where: CardFilter | None, self_uid: int = -1) -> bool:
    """Does an instance match every criterion of a card filter?"""
    if where is None:
        return True
    if not def_matches(inst.active, where):
        return False
    if where.upgraded is not None and inst.upgraded != where.upgraded:
        return False
    if where.exclude_self and inst.uid == self_uid:
        return False
    if where.replay is not None and inst.replay != where.replay:
        return False
    return where.upgradable is None or (
        ((not inst.upgraded or inst.active.repeatable) and inst.base.upgrade is not None)
        == where.upgradable)


def active_hooks(e: Engine, kind: str) -> Iterator[tuple[HookDef, int]]:
    """The active hooks of ``kind`` in evaluation order, each with its source card id (-1: a
    status), so that a filter's ``exclude_self`` leaves out the card that made the hook."""
    s = e.s
    if s.units:
        statuses = e.c.statuses
        for sid in s.units[0].statuses:
            for h in statuses[sid].hooks:
                if h.kind == kind:
                    yield h, -1
    for ah in s.hooks:
        node = ah.node
        if isinstance(node, RegisterCardHook) and node.hook.kind == kind:
            yield node.hook, ah.source
    cards = s.cards
    for uid in s.hand:
        for h in cards[uid].active.hooks:
            if h.kind == kind:
                yield h, uid


def enemy_scoped(h: ActiveHook) -> bool:
    """Does this card hook count enemy turns (``scope: enemy_turns``), not player turns?"""
    node = h.node
    return isinstance(node, RegisterCardHook) and node.scope == "enemy_turns"


def _fold(e: Engine, kind: str, base: int) -> int:
    v = base
    for h, _ in active_hooks(e, kind):
        if h.op == "set":
            v = h.amount
        elif h.op == "add":
            v += h.amount
    return v


def hand_size(e: Engine) -> int:
    """The hand limit now: ``BattleRules.max_hand_size`` through hand-size hooks (in a wave)."""
    if not hooks_possible(e, True):
        return e.max_hand_size
    return max(0, _fold(e, "hand_size", e.max_hand_size))


def draws_forbidden(e: Engine) -> bool:
    """True while a ``draw`` hook with ``forbid`` is active (no card may be drawn)."""
    return any(h.op == "forbid" for h, _ in active_hooks(e, "draw"))


def draw_count(e: Engine) -> int:
    """This turn's automatic draws: ``BattleRules.draw_per_turn`` through draw hooks (in a
    wave)."""
    if not hooks_possible(e, True):
        return e.draw_per_turn
    return max(0, _fold(e, "draw", e.draw_per_turn))


def energy_per_turn(e: Engine) -> int:
    """This turn's energy: ``BattleRules.energy_per_turn`` through energy hooks (in a wave)."""
    if not hooks_possible(e, True):
        return e.energy_per_turn
    return max(0, _fold(e, "energy", e.energy_per_turn))


def hooks_possible(e: Engine, wave: bool = False) -> bool:
    """Cheap test: could any hook be active now? ``wave``: asked by a step of a running wave,
    which may read the player's status roles (gcs/battle/roles.py)."""
    s = e.s
    if s.hooks:
        return True
    if not s.units:
        return False
    c = e.c
    if wave:
        player = s.units[0]
        if player.statuses and roles_of(e, player) & HOOKS:
            return True
    else:
        hooked = c.hooked_statuses
        statuses = s.units[0].statuses
        if statuses and hooked and not hooked.isdisjoint(statuses):  # (no call if none)
            return True
    if c.card_hooks:
        cards = s.cards
        for uid in s.hand:
            if cards[uid].active.hooks:
                return True
    return False


def modified_cost(inst: CardInstance) -> int:
    """Definition cost + master-deck delta, then the battle and turn modifiers (before cost
    hooks and the floor at 0): a ``set`` replaces the value so far, later deltas still add."""
    cost = inst.active.cost + inst.cost_delta
    if inst.battle_set is not None:
        cost = inst.battle_set
    cost += inst.battle_delta
    if inst.turn_set is not None:
        cost = inst.turn_set
    return cost + inst.turn_delta


def effective_cost(e: Engine, inst: CardInstance, hooks: bool | None = None) -> int:
    """Definition cost (+ its ``cost_adjust``) + master-deck delta, then battle and turn
    modifiers, then cost hooks; >= 0.

    A ``set`` modifier replaces the value so far and later deltas still add. X-cost cards
    cost all current energy.
    """
    card = inst.active
    if card.x_cost:
        return e.s.energy
    cost = modified_cost(inst)
    if card.cost_adjust is not None and inst.battle_set is None and inst.turn_set is None:
        cost += cost_adjustment(e, inst)  # (a ``set`` modifier replaces the printed cost)
    if hooks is None:
        hooks = hooks_possible(e)
    if hooks:
        for h, src in active_hooks(e, "cost"):
            if card_matches(inst, h.where, src):
                cost = h.amount if h.op == "set" else cost + h.amount
    return cost if cost > 0 else 0


def playable_by_hooks(e: Engine, inst: CardInstance) -> bool:
    """False if Unplayable or a playability hook forbids this card."""
    if KW_UNPLAYABLE in inst.active.keywords:
        return False
    if hooks_possible(e):
        for h, src in active_hooks(e, "playable"):
            if h.op == "forbid" and card_matches(inst, h.where, src):
                return False
    return True

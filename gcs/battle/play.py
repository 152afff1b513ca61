"""Playing a card: validate everything first, then commit in the order of the seeds (004, 001)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..content.defs import GameCard
from ..enums import BattlePhase, CardType, Keyword, Pile, TargetMode
from ..errors import NotInBattleError, TargetError
from ..flow.interp import register_hook, start_entry
from . import frames as K
from .cards import (
    detach,
    lifecycle_entries,
    place,
    push_entries,
    remove_from_battle,
    to_exhaust,
)
from .combat import status_entries
from .hooks import effective_cost, hooks_possible, playable_by_hooks
from .phases import check_end, push_turn_end
from .state import NO_PAUSE, CardInstance, Ctx, Frame, Unit

if TYPE_CHECKING:
    from ..engine import Engine


def check_instance(e: Engine, inst: object) -> CardInstance:
    """The battle's own instance for ``inst``, or NotInBattleError."""
    if not isinstance(inst, CardInstance):
        raise NotInBattleError(f"expected a CardInstance, got {type(inst).__name__}")
    own = e.s.cards.get(inst.uid)
    if own is not inst:
        raise NotInBattleError(f"card instance {inst!r} is not in this battle")
    if own.pile is Pile.REMOVED:
        raise NotInBattleError(f"card instance {inst!r} has left this battle")
    return own


def check_target(e: Engine, inst: CardInstance, target: object) -> int:
    """Resolve a target to a unit id (-1 for none); a target of the wrong kind raises."""
    mode = inst.active.target
    if target is None:
        return -1
    if mode is not TargetMode.SINGLE_ENEMY:
        raise TargetError(
            f"{inst.active.name} ({mode.name}) takes no target, got {target!r}")
    if isinstance(target, int) and not isinstance(target, bool):
        idx = target + 1  # enemy index in encounter order
    elif isinstance(target, Unit):
        idx = target.uid
    else:
        raise TargetError(f"target must be an enemy Unit or enemy index, got {target!r}")
    units = e.s.units
    if not 1 <= idx < len(units) or (isinstance(target, Unit) and units[idx] is not target):
        raise TargetError(f"{target!r} is not an enemy in this battle")
    return idx


def refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """Why this play would be refused now (None: it is allowed). Commits nothing."""
    s = e.s
    if s.phase is not BattlePhase.PLAYER_PHASE or not s.active:
        return f"phase is {s.phase.name}, not PLAYER_PHASE"
    if s.pause != NO_PAUSE or s.stack:
        return "an effect is still resolving (Choice, Wait or Animation Gate)"
    return card_refusal(e, inst, target_uid)


def card_refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """The card-level checks of ``refusal`` (the caller knows the phase allows plays)."""
    s = e.s
    if inst.pile is not Pile.HAND:
        return "the card is not in hand"
    card = inst.active
    if Keyword.UNPLAYABLE in card.keywords:
        return "unplayable"
    hooks = hooks_possible(e)
    if hooks and not playable_by_hooks(e, inst):
        return "a hook forbids it"
    if not card.x_cost and effective_cost(e, inst, hooks) > s.energy:
        return "not enough energy"
    if card.target is TargetMode.SINGLE_ENEMY:
        if target_uid < 0:
            return "the card needs an enemy target"
        if not s.units[target_uid].alive:
            return "the target is dead"
    return None


def playable_in_hand(e: Engine, inst: CardInstance, hooks: bool) -> bool:
    """``card_refusal`` for a card known to be in hand, ignoring the target (hot path of
    legal actions); ``hooks`` is ``hooks_possible(e)``, computed once by the caller."""
    card = inst.active
    if Keyword.UNPLAYABLE in card.keywords:
        return False
    if hooks and not playable_by_hooks(e, inst):
        return False
    return card.x_cost or effective_cost(e, inst, hooks) <= e.s.energy


def commit_play(e: Engine, inst: CardInstance, target_uid: int) -> None:
    """Steps 2-3 of the play (leave hand, pay, record, CardPlayed), then queue the rest."""
    s = e.s
    card = inst.active
    cost = effective_cost(e, inst)
    if card.target is TargetMode.RANDOM_ENEMY:
        alive = [u.uid for u in s.units[1:] if u.alive]
        target_uid = alive[s.rng_cards.below(len(alive))] if alive else -1
    # 2. leave the hand, spend energy, record the play
    detach(e, inst)
    s.energy -= cost
    if cost > 0 and e.hot:
        e.emit(ev.EnergySpent(cost, s.energy))
    s.played.append(inst.uid)
    plays = s.plays
    plays[inst.card_id] = plays.get(inst.card_id, 0) + 1
    # 3. CardPlayed, then On Play and the status On Play branches (in PLAY frame steps)
    if e.hot:
        e.emit(ev.CardPlayed(inst.uid, inst.card_id, inst.upgraded, cost,
                             None if target_uid < 0 else target_uid))
    ctx = Ctx(0, inst.uid, target_uid, "", "on_play")
    ctx.x = cost
    s.stack.append(Frame(K.PLAY, None, 0, [inst.uid, target_uid], ctx))


def step_play(e: Engine, f: Frame) -> None:
    """The rest of a play (seed 004 steps 3-5); a step that queues work returns to the loop."""
    s = e.s
    stack = s.stack
    ctx = f.ctx
    assert ctx is not None
    uid = f.data[0]
    if f.pc == 0:
        # 3. the card's On Play behaviour
        f.pc = 1
        card = ctx_card(e, uid)
        if card is not None and card.on_play is not None:
            start_entry(e, card.on_play, ctx)
            if stack[-1] is not f or s.pause:
                return
    if f.pc == 1:
        # 3 (cont.). the On Play branches of the player's statuses (snapshot order), then of
        # each living enemy's statuses (encounter order), e.g. an enemy that reacts to Skills
        f.pc = 2
        if _status_on_play(e, ctx, uid):
            return
    if f.pc == 2:
        f.pc = 3
        # 4. every deferred branch has completed: register the card's persistent hooks
        if ctx.hooks:
            for hook in ctx.hooks:
                register_hook(e, hook, uid)
            ctx.hooks.clear()
        # 5. destination: an authored move is kept; Exhaust lifecycle; else Discard silently
        inst = s.cards.get(uid)
        if inst is not None and inst.pile is Pile.LIMBO:
            card = inst.active
            if Keyword.EXHAUST in card.keywords:
                to_exhaust(e, inst, Pile.LIMBO)
            elif card.type is CardType.POWER:
                remove_from_battle(e, inst)  # a played Power leaves the battle
            else:
                place(e, inst, Pile.DISCARD)
            if stack[-1] is not f or s.pause:
                return
    # the play is complete: re-read the battlefield, then a requested turn end
    stack.pop()
    if not check_end(e) and s.end_turn:
        s.end_turn = False
        push_turn_end(e)


def _status_on_play(e: Engine, ctx: Ctx, uid: int) -> bool:
    """Queue the status On Play branches of a play; True if any were queued."""
    s = e.s
    having = e.c.entry_statuses.get("on_play")
    if not having:
        return False
    entries = []
    units = s.units
    if not having.isdisjoint(units[0].statuses) and uid in s.cards:
        entries = [(n, c) for n, c in lifecycle_entries(e, s.cards[uid], "on_play") if c.status]
        for _, c in entries:
            c.target = ctx.target
    for u in units[1:]:
        if u.alive and not having.isdisjoint(u.statuses):
            for n, c in status_entries(e, u, "on_play"):
                c.src = uid
                c.objs["card"] = ["c", [uid]]
                entries.append((n, c))
    if entries:
        push_entries(e, entries)
        return True
    return False


def ctx_card(e: Engine, uid: int) -> GameCard | None:
    inst = e.s.cards.get(uid)
    return None if inst is None else inst.active

"""Playing a card (seed 004), steps 1-2: validate everything first (the play's gate), then
commit: the card leaves its pile, the energy is paid, the play recorded, OnCardPlayed; its PLAY
frame then runs steps 3-5 (gcs/steps/play.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import (
    KW_UNPLAYABLE,
    PILE_HAND,
    PILE_LIMBO,
    PILE_REMOVED,
    TARGET_RANDOM_ENEMY,
    TARGET_SINGLE_ENEMY,
    PileScope,
)
from ..errors import NotInBattleError
from ..events import CardCreated, CardPlayed, EnergySpent
from . import frames as K
from .cards import detach, new_instance
from .hooks import effective_cost, hooks_possible, modified_cost, playable_by_hooks
from .state import CardInstance, Ctx, Frame, State

if TYPE_CHECKING:
    from ..engine import Engine


def check_instance(e: Engine, inst: object) -> CardInstance:
    """The battle's own instance for ``inst``, or NotInBattleError."""
    if not isinstance(inst, CardInstance):
        raise NotInBattleError(f"expected a CardInstance, got {type(inst).__name__}")
    own = e.s.cards.get(inst.uid)
    if own is not inst:
        raise NotInBattleError(f"card instance {inst!r} is not in this battle")
    if own.pile is PILE_REMOVED:
        raise NotInBattleError(f"card instance {inst!r} has left this battle")
    return own


def card_refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """The card-level checks of ``refusal`` (the caller knows the phase allows plays)."""
    why = card_gate(e, inst)
    return target_refusal(e, inst, target_uid) if why is None else why


def target_refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """Why a single-enemy card cannot take ``target_uid`` (none given, or dead), or None."""
    if inst.active.target is TARGET_SINGLE_ENEMY:
        if target_uid < 0:
            return "the card needs an enemy target"
        if not e.s.units[target_uid].alive:
            return "the target is dead"
    return None


def card_gate(e: Engine, inst: CardInstance) -> str | None:
    """The checks of one card before its target: in hand, not Unplayable, no hook forbids
    it, enough energy (seed 001's gate, in this order)."""
    if inst.pile is not PILE_HAND:
        return "the card is not in hand"
    card = inst.active
    if KW_UNPLAYABLE in card.keywords:
        return "unplayable"
    hooks = hooks_possible(e)
    if hooks and not playable_by_hooks(e, inst):
        return "a hook forbids it"
    if not card.x_cost and effective_cost(e, inst, hooks) > e.s.energy:
        return "not enough energy"
    return None


def playable_in_hand(e: Engine, inst: CardInstance, hooks: bool) -> bool:
    """``card_refusal`` for a card known to be in hand, ignoring the target (hot path of
    legal actions); ``hooks`` is ``hooks_possible(e)``, computed once by the caller."""
    card = inst.active
    if KW_UNPLAYABLE in card.keywords:
        return False
    if card.x_cost:
        return not hooks or playable_by_hooks(e, inst)
    if hooks:
        return playable_by_hooks(e, inst) and effective_cost(e, inst, True) <= e.s.energy
    # effective_cost with no hook possible: the modifiers alone, floored at 0
    cost = modified_cost(inst)
    return (cost if cost > 0 else 0) <= e.s.energy


def commit_play(e: Engine, inst: CardInstance, target_uid: int, cost: int | None = None,
                nested: bool = False, dest: str = "", hooks: bool | None = None) -> Frame:
    """Steps 2-3 of the play (leave its pile, pay, record, CardPlayed), then queue the rest.

    ``cost`` None pays the effective cost; a nested play (Play Card node) may pass 0 (free).
    ``dest`` is a PileScope value authored by the node that played it ("" for step 5's rule).
    ``hooks`` is ``hooks_possible(e)`` when the caller knows it.
    """
    s = e.s
    card = inst.active
    # ``x``: what an X in the card's numbers counts (the energy paid)
    if cost is not None:
        paid = cost
        x = s.energy if card.x_cost else cost  # a free X card uses all energy
    elif (card.x_cost or inst.battle_set is not None or inst.turn_set is not None
          or (hooks_possible(e) if hooks is None else hooks)):
        paid = x = effective_cost(e, inst)
    else:
        # effective_cost(e, inst) in the usual case, inlined (two calls less per play): a fixed
        # cost, no ``set`` modifier (modified_cost is then the sum of the deltas) and no hook
        # possible, floored at 0
        paid = card.cost + inst.cost_delta + inst.battle_delta + inst.turn_delta
        if paid < 0:
            paid = 0
        x = paid
    if card.target is TARGET_RANDOM_ENEMY:
        target_uid = _random_enemy(s)
    uid = inst.uid
    # 2. leave the hand (or the pile a nested play took it from), spend energy, record the play
    if inst.pile is PILE_HAND:
        s.hand.remove(uid)  # detach(e, inst) of a hand card, inlined (every top-level play)
        inst.pile = PILE_LIMBO
    else:
        detach(e, inst)
    # (and 3. CardPlayed), then On Play and the status On Play branches (in PLAY frame steps)
    _record_play(e, inst, paid, target_uid)
    ctx = Ctx(0, uid, target_uid, "", "on_play", x)
    return e.push(K.PLAY, K.PLAY_ON_PLAY, [uid, target_uid, 1 if nested else 0, dest], ctx)


def _random_enemy(s: State) -> int:
    """The target of a random-enemy card: a living enemy drawn from the card stream (-1: none)."""
    alive = [u.uid for u in s.units[1:] if u.alive]
    return alive[s.rng_cards.below(len(alive))] if alive else -1


def _record_play(e: Engine, inst: CardInstance, paid: int, target_uid: int) -> None:
    """Step 2's energy and record of a card that has left its pile, and step 3's CardPlayed."""
    s = e.s
    uid = inst.uid
    cid = inst.card_id
    hot = e.hot
    energy = s.energy - paid
    s.energy = energy
    if paid > 0 and hot:
        e.record((EnergySpent, paid, energy))
    s.played.append(uid)
    plays = s.plays
    plays[cid] = plays.get(cid, 0) + 1
    if hot:
        e.record((CardPlayed, uid, cid, inst.upgraded, paid,
                  None if target_uid < 0 else target_uid))


def nested_play(e: Engine, inst: CardInstance, copy: bool, free: bool, target: int,
                dest: PileScope | None) -> CardInstance | None:
    """A Play Card node plays ``inst`` (or a new copy of it, created in no pile): the played
    instance, or None when it cannot be played (in flight, Unplayable, a hook forbids it, or
    not enough energy at cost); a card that is not played stays where it is."""
    s = e.s
    if inst.pile is PILE_LIMBO and not copy:
        return None  # already in flight (being played)
    if not playable_by_hooks(e, inst):
        return None
    cost = 0 if free else None
    if not free and not inst.active.x_cost and effective_cost(e, inst) > s.energy:
        return None
    if copy:
        src = inst
        inst = new_instance(e, src.base, src.upgraded, src.cost_delta, src.origin)
        inst.pile = PILE_LIMBO
        if e.hot:
            e.record((CardCreated, inst.uid, inst.card_id, None, None))
    if inst.active.target is TARGET_SINGLE_ENEMY:
        units = s.units
        if target < 1 or not units[target].alive:
            target = _random_enemy(s)
    else:
        target = -1
    commit_play(e, inst, target, cost, nested=True, dest="" if dest is None else dest.value)
    return inst

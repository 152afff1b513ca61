"""Playing a card (seed 004), steps 1-2: validate everything first (the play's gate), then
commit: the card leaves its pile, the energy is paid, the play recorded, OnCardPlayed; its PLAY
frame then runs steps 3-5 (gcs/steps/play.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import (
    PILE_HAND,
    PILE_LIMBO,
    TARGET_RANDOM_ENEMY,
    TARGET_SINGLE_ENEMY,
    PileScope,
)
from ..events import CardCreated, CardPlayed, EnergySpent
from . import frames as K
from .cards import detach, new_instance
from .combat import random_enemy
from .hooks import effective_cost, hooks_possible, playable_by_hooks
from .state import CardInstance, Ctx, Frame

if TYPE_CHECKING:
    from ..engine import Engine


def commit_play(e: Engine, inst: CardInstance, target_uid: int, cost: int | None = None,
                nested: bool = False, dest: str = "", hooks: bool | None = None,
                x_paid: int = -1) -> Frame:
    """Steps 2-3 of the play (leave its pile, pay, record, CardPlayed), then queue the rest.

    ``cost`` None pays the effective cost; a nested play (Play Card node) may pass 0 (free),
    and ``x_paid`` >= 0, the X an X-cost card counts (a replay's: the played card's).
    ``dest`` is a PileScope value authored by the node that played it ("" for step 5's rule).
    ``hooks`` is ``hooks_possible(e)`` when the caller knows it.
    """
    s = e.s
    card = inst.active
    # ``x``: what an X in the card's numbers counts (the energy paid)
    if cost is not None:
        paid = cost
        x = (x_paid if x_paid >= 0 else s.energy) if card.x_cost else cost  # (free X: all)
    elif (card.x_cost or inst.battle_set is not None or inst.turn_set is not None
          or card.cost_adjust is not None or (hooks_possible(e) if hooks is None else hooks)):
        paid = x = effective_cost(e, inst)
    else:
        # effective_cost(e, inst) in the usual case, inlined (two calls less per play): a fixed
        # cost, no ``set`` modifier (modified_cost is then the sum of the deltas), no cost
        # adjustment and no hook possible, floored at 0
        paid = card.cost + inst.cost_delta + inst.battle_delta + inst.turn_delta
        if paid < 0:
            paid = 0
        x = paid
    if card.target is TARGET_RANDOM_ENEMY:
        target_uid = random_enemy(s)
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


def _record_play(e: Engine, inst: CardInstance, paid: int, target_uid: int) -> None:
    """Step 2's energy and record of a card that has left its pile, and step 3's CardPlayed."""
    s = e.s
    uid = inst.uid
    cid = inst.card_id
    hot = e.hot
    energy = s.energy - paid
    s.energy = energy
    if paid > 0 and hot:
        e.record(EnergySpent(paid, energy))
    s.played.append(uid)
    plays = s.plays
    plays[cid] = plays.get(cid, 0) + 1
    if hot:
        e.record(CardPlayed(uid, cid, inst.upgraded, paid,
                  None if target_uid < 0 else target_uid))


def nested_play(e: Engine, inst: CardInstance, copy: bool, free: bool, target: int,
                dest: PileScope | None, replay: bool = False,
                x_paid: int = -1) -> CardInstance | None:
    """A Play Card node plays ``inst`` (or a new copy of it, created in no pile, with its
    upgrades, own numbers and cost changes; a ``replay`` copy ends in no pile): the played
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
        inst.copy_stats(src)
        inst.replay = replay
        inst.pile = PILE_LIMBO
        if e.hot:
            e.record(CardCreated(inst.uid, inst.card_id, None, None))
    if inst.active.target is TARGET_SINGLE_ENEMY:
        units = s.units
        if target < 1 or not units[target].alive:
            target = random_enemy(s)
    else:
        target = -1
    commit_play(e, inst, target, cost, nested=True, dest="" if dest is None else dest.value,
                x_paid=x_paid)
    return inst

"""The one refusal table: when a call or an action is refused, and why.

docs/rules/refusals.md is the call x situation table this module implements row by row. Each
situation is either a *state* reason (a refusable call returns False or names it, an action is
illegal) or a *programming* error (a ``GameError`` subclass is raised); a refused or failed
call changes nothing. The facade (``gcs.Game``: the refusable calls through ``play_guard`` and
``end_turn_refusal``, the other calls' own errors through ``call_error``, ``battle_error`` and
``idle_error``), the agent surface (``legal_actions`` and ``apply``: ``input_refusal``,
``card_refusal``, ``target_refusal``) and the play gate all ask here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import KW_UNPLAYABLE, PILE_HAND, PILE_REMOVED, TARGET_SINGLE_ENEMY, BattlePhase, Pile, TargetMode
from ..errors import (
    BusyError,
    GameError,
    NoBattleError,
    NotInBattleError,
    RewardError,
    RunOverError,
    TargetError,
)
from .hooks import effective_cost, hooks_possible, play_condition_holds, playable_by_hooks
from .state import NO_PAUSE, CardInstance, Unit

if TYPE_CHECKING:
    from ..engine import Engine

NO_TARGET = -1


def own_instance(e: Engine, card: object) -> CardInstance:
    """``card`` as this game's instance; raise for a non-instance or another game's instance.

    A card of this game that has left the battle (or a previous battle) is returned as is:
    its refusal is a state reason, checked later. Instance ids are unique in a game, so an
    id of this battle is this object; a card no battle of this game holds is told by its
    ``token`` (another game's, a clone's, or a ``pile(MASTER)`` view's is not this game's).
    """
    if not isinstance(card, CardInstance):
        raise NotInBattleError(f"expected a CardInstance, got {type(card).__name__}")
    s = e.s
    own = s.cards.get(card.uid)
    if own is card or (own is None and card.pile is Pile.REMOVED and card.token is s.token):
        return card
    raise NotInBattleError(
        f"card instance {card!r} is not in this battle (an instance of another Game or a "
        "clone, or a temporary view of the master deck)")


def battle_instance(e: Engine, inst: object) -> CardInstance:
    """The battle's own instance for ``inst`` (a card to move), or NotInBattleError: not an
    instance, another game's, or one that has left the battle."""
    if not isinstance(inst, CardInstance):
        raise NotInBattleError(f"expected a CardInstance, got {type(inst).__name__}")
    own = e.s.cards.get(inst.uid)
    if own is not inst:
        raise NotInBattleError(f"card instance {inst!r} is not in this battle")
    if own.pile is PILE_REMOVED:
        raise NotInBattleError(f"card instance {inst!r} has left this battle")
    return own


def target_of(e: Engine, target: object) -> int | str:
    """A target as a unit id (``NO_TARGET`` for None), or why it cannot be one (a state reason);
    raise for a value of the wrong type or a Unit of another game or battle."""
    if target is None:
        return NO_TARGET
    units = e.s.units
    if isinstance(target, Unit):
        uid = target.uid
        if not 0 <= uid < len(units) or units[uid] is not target:
            raise TargetError(f"{target!r} is not an enemy in this battle (a Unit of another "
                              "Game or battle)")
        return "the player is not an enemy target" if uid == 0 else uid
    if isinstance(target, int) and not isinstance(target, bool):
        if not 0 <= target < len(units) - 1:
            return f"there is no enemy at index {target}"
        return target + 1
    raise TargetError(f"target must be an enemy Unit or enemy index, got {target!r}")


def call_error(e: Engine) -> GameError | None:
    """The error of a changing call made from an event handler while the runtime resolves."""
    if e.busy:
        return BusyError("the runtime is resolving an effect; call it after the event handler")
    return None


def battle_error(e: Engine) -> GameError | None:
    """``call_error``, or the error of a call that needs an active battle."""
    if e.busy:
        return call_error(e)
    if not e.s.active:
        return NoBattleError("no battle is active (call start_battle first)")
    return None


def idle_error(e: Engine) -> GameError | None:
    """``battle_error``, or the error of a call that changes the piles while an effect waits
    or a reward is offered (drawing, adding and moving cards)."""
    why = battle_error(e)
    if why is not None:
        return why
    s = e.s
    if s.pause != NO_PAUSE:
        return GameError("an effect is waiting (Choice, Wait or Animation Gate); resolve it first")
    if s.rewards is not None:
        return RewardError("the battle is won and a reward is offered: take or skip it first "
                           "(cards cannot be drawn, added or moved now)")
    return None


def start_error(e: Engine) -> GameError | None:
    """The error of ``start_battle`` while the last battle's reward is offered (its BattleEnded
    is still to come: the reward decides it) or once the run is over (its last battle lost)."""
    s = e.s
    if s.rewards is not None:
        return RewardError("start_battle: the last battle is won and its reward is offered: "
                           "take it (apply_reward) or skip it (skip_reward) first; that "
                           "publishes its BattleEnded")
    if s.result is False and not s.active:
        return RunOverError("start_battle: the run is over: its last battle was lost (run HP "
                            "0); a new run is a new Game")
    return None


def input_refusal(e: Engine) -> str | None:
    """Rows 6-8: why the player cannot play a card or end the turn now (no battle, another
    phase, an effect still resolving), or None."""
    s = e.s
    if not s.active:
        return "no battle is active"
    if s.phase is not BattlePhase.PLAYER_PHASE:
        return f"phase is {s.phase.name}, not PLAYER_PHASE"
    if s.pause != NO_PAUSE or s.stack:
        return "an effect is still resolving (Choice, Wait or Animation Gate)"
    return None


def state_refusal(e: Engine) -> str | None:
    """Rows 5-8: the state reasons common to every refusable call (a handler's call, then
    ``input_refusal``)."""
    if e.busy:
        return "called from an event handler while the runtime is resolving"
    return input_refusal(e)


def card_refusal(e: Engine, inst: CardInstance) -> str | None:
    """Rows 10-13a, the play gate of one card before its target (seed 001's order): in hand,
    not Unplayable, no hook forbids it, enough energy for its effective cost, its play
    condition holds."""
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
    if card.playable_if is not None and not play_condition_holds(e, inst):
        return f"{card.name}'s play condition does not hold"
    return None


def playable_in_hand(e: Engine, inst: CardInstance, hooks: bool) -> bool:
    """``card_refusal(e, inst) is None`` for a card known to be in hand (the legal actions'
    form); ``hooks`` is ``hooks_possible(e)``, computed once by the caller."""
    card = inst.active
    if KW_UNPLAYABLE in card.keywords:
        return False
    if hooks and not playable_by_hooks(e, inst):
        return False
    if not card.x_cost and effective_cost(e, inst, hooks) > e.s.energy:
        return False
    return card.playable_if is None or play_condition_holds(e, inst)


def target_refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """Rows 16-17: why a single-enemy card cannot take ``target_uid`` (none given, or dead)."""
    if inst.active.target is TARGET_SINGLE_ENEMY:
        if target_uid < 0:
            return "the card needs an enemy target"
        if not e.s.units[target_uid].alive:
            return "the target is dead"
    return None


def play_guard(e: Engine, card: object, target: object,
               any_target: bool = False) -> tuple[CardInstance, int, str | None]:
    """Check a play: (instance, target uid, refusal or None). Programming errors raise first.

    With ``any_target`` (``can_play_card``) the target is not given yet: a single-enemy card
    only needs a living enemy to exist.
    """
    inst = own_instance(e, card)
    t = NO_TARGET if any_target else target_of(e, target)
    why = state_refusal(e)
    if why is not None:
        return inst, NO_TARGET, why
    s = e.s
    if s.cards.get(inst.uid) is not inst or inst.pile is Pile.REMOVED:
        return inst, NO_TARGET, "the card has left this battle"
    why = card_refusal(e, inst)
    if why is not None:
        return inst, NO_TARGET, why
    mode = inst.active.target
    if isinstance(t, str):
        return inst, NO_TARGET, t
    if any_target:
        if mode is TargetMode.SINGLE_ENEMY:
            alive = [u.uid for u in s.units[1:] if u.alive]
            if not alive:
                return inst, NO_TARGET, "no living enemy to target"
            return inst, alive[0], None
        return inst, NO_TARGET, None
    if mode is TargetMode.SINGLE_ENEMY:
        why = target_refusal(e, inst, t)
        return (inst, NO_TARGET, why) if why is not None else (inst, t, None)
    if t >= 0:
        return inst, NO_TARGET, f"{inst.active.name} ({mode.name}) takes no target"
    return inst, NO_TARGET, None


def end_turn_refusal(e: Engine) -> str | None:
    """Why ``end_player_turn`` would return False now, or None."""
    return state_refusal(e)

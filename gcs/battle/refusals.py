"""The one guard of the refusable calls: ``try_play_card``, ``can_play_card``, ``play_refusal``
and ``end_player_turn``.

Each situation is either a *state* reason (the call returns False, or ``play_refusal`` names
it) or a *programming* error (a ``GameError`` subclass is raised). docs/rules/refusals.md is
the call x situation table this module implements, row by row; nothing is changed by a
refused or failed call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import BattlePhase, Pile, TargetMode
from ..errors import NotInBattleError, TargetError
from .play import card_gate, target_refusal
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


def state_refusal(e: Engine) -> str | None:
    """The state reasons common to every refusable call (handler, battle, phase, waiting)."""
    s = e.s
    if e.busy:
        return "called from an event handler while the runtime is resolving"
    if not s.active:
        return "no battle is active"
    if s.phase is not BattlePhase.PLAYER_PHASE:
        return f"phase is {s.phase.name}, not PLAYER_PHASE"
    if s.pause != NO_PAUSE or s.stack:
        return "an effect is still resolving (Choice, Wait or Animation Gate)"
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
    why = card_gate(e, inst)
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

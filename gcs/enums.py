"""The enumerations of the GCS runtime (C# enum members become UPPER_SNAKE members)."""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Final


class _Enum(Enum):
    """An Enum hashed by identity (members are singletons).

    The standard Enum hashes by name in Python code, which shows up in hot paths; no
    outcome in gcs depends on the iteration order of a set of enum members.
    """

    __hash__ = object.__hash__


class BattlePhase(_Enum):
    """The battle's phase (seed 001): NONE when no battle is active."""

    NONE = "none"
    INITIALIZE = "initialize"
    PLAYER_TURN_START = "player_turn_start"
    PLAYER_PHASE = "player_phase"
    PLAYER_TURN_END = "player_turn_end"
    ENEMY_PHASE = "enemy_phase"
    BATTLE_WON = "battle_won"
    BATTLE_LOST = "battle_lost"


class PileScope(_Enum):
    """A pile as a read scope or move target; MASTER and ALL read differently from how they move (004)."""

    HAND = "hand"
    DRAW = "draw"
    DISCARD = "discard"
    EXHAUST = "exhaust"
    MASTER = "master"
    ALL = "all"


class DrawPilePosition(_Enum):
    """Where a card enters the draw pile: TOP (drawn next), BOTTOM or RANDOM (seeded)."""

    TOP = "top"
    BOTTOM = "bottom"
    RANDOM = "random"


class HandDiscardRule(_Enum):
    """What the turn end does with the hand: discard it, or let it persist (Ethereal still exhausts)."""

    DISCARD_ON_TURN_END = "discard_on_turn_end"
    PERSIST = "persist"


class Keyword(_Enum):
    """The card keywords of the seeds."""

    INNATE = "innate"
    RETAIN = "retain"
    ETHEREAL = "ethereal"
    EXHAUST = "exhaust"
    UNPLAYABLE = "unplayable"


class TargetMode(_Enum):
    """What a card targets; only SINGLE_ENEMY needs a target picker (``requires_target``)."""

    NONE = "none"
    SELF = "self"
    SINGLE_ENEMY = "single_enemy"
    ALL_ENEMIES = "all_enemies"
    RANDOM_ENEMY = "random_enemy"


class ArmorDecayRule(_Enum):
    """What happens to block at its holder's turn start: RESET to 0, KEEP, or HALVE."""

    RESET = "reset"
    KEEP = "keep"
    HALVE = "halve"


class CardType(_Enum):
    """A card's type (classification only: no engine rule depends on it)."""

    ATTACK = "attack"
    SKILL = "skill"
    POWER = "power"
    STATUS = "status"
    CURSE = "curse"


class Rarity(_Enum):
    """A card's rarity (reward tables weight by it)."""

    BASIC = "basic"
    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    SPECIAL = "special"
    CURSE = "curse"


class Decay(_Enum):
    """How a status loses stacks on its owner's turn end."""

    NONE = "none"
    MINUS_ONE = "minus_one"
    REMOVE = "remove"


class IntentKind(_Enum):
    """How an enemy's planned move is shown (the icon); STUN while a control status makes it skip."""

    ATTACK = "attack"
    ATTACK_DEFEND = "attack_defend"
    ATTACK_BUFF = "attack_buff"
    ATTACK_DEBUFF = "attack_debuff"
    DEFEND = "defend"
    DEFEND_BUFF = "defend_buff"
    BUFF = "buff"
    DEBUFF = "debuff"
    STRONG_DEBUFF = "strong_debuff"
    SLEEP = "sleep"
    STUN = "stun"
    ESCAPE = "escape"
    UNKNOWN = "unknown"


class Pile(IntEnum):
    """Where a card instance is right now (internal location codes)."""

    HAND = 0
    DRAW = 1
    DISCARD = 2
    EXHAUST = 3
    LIMBO = 4  # in flight: a played card during its own On Play
    REMOVED = 5


SCOPE_TO_PILE: dict[PileScope, Pile] = {
    PileScope.HAND: Pile.HAND,
    PileScope.DRAW: Pile.DRAW,
    PileScope.DISCARD: Pile.DISCARD,
    PileScope.EXHAUST: Pile.EXHAUST,
}


# Members read on the hot paths, as plain module constants: on Python 3.11 reading
# ``Pile.HAND`` goes through the enum class's slow attribute path (about 70 ns in the pure
# engine), a name bound once does not; compiled, a ``Final`` is read as a constant.
ARMOR_HALVE: Final = ArmorDecayRule.HALVE
ARMOR_RESET: Final = ArmorDecayRule.RESET
DECAY_MINUS_ONE: Final = Decay.MINUS_ONE
DECAY_NONE: Final = Decay.NONE
DECAY_REMOVE: Final = Decay.REMOVE
HAND_RULE_DISCARD_ON_TURN_END: Final = HandDiscardRule.DISCARD_ON_TURN_END
HAND_RULE_PERSIST: Final = HandDiscardRule.PERSIST
INTENT_STUN: Final = IntentKind.STUN
KW_ETHEREAL: Final = Keyword.ETHEREAL
KW_EXHAUST: Final = Keyword.EXHAUST
KW_INNATE: Final = Keyword.INNATE
KW_RETAIN: Final = Keyword.RETAIN
KW_UNPLAYABLE: Final = Keyword.UNPLAYABLE
PHASE_BATTLE_LOST: Final = BattlePhase.BATTLE_LOST
PHASE_BATTLE_WON: Final = BattlePhase.BATTLE_WON
PHASE_ENEMY_PHASE: Final = BattlePhase.ENEMY_PHASE
PHASE_INITIALIZE: Final = BattlePhase.INITIALIZE
PHASE_NONE: Final = BattlePhase.NONE
PHASE_PLAYER_PHASE: Final = BattlePhase.PLAYER_PHASE
PHASE_PLAYER_TURN_END: Final = BattlePhase.PLAYER_TURN_END
PHASE_PLAYER_TURN_START: Final = BattlePhase.PLAYER_TURN_START
PILE_DISCARD: Final = Pile.DISCARD
PILE_DRAW: Final = Pile.DRAW
PILE_EXHAUST: Final = Pile.EXHAUST
PILE_HAND: Final = Pile.HAND
PILE_LIMBO: Final = Pile.LIMBO
PILE_REMOVED: Final = Pile.REMOVED
POS_BOTTOM: Final = DrawPilePosition.BOTTOM
POS_TOP: Final = DrawPilePosition.TOP
SCOPE_ALL: Final = PileScope.ALL
SCOPE_DISCARD: Final = PileScope.DISCARD
SCOPE_DRAW: Final = PileScope.DRAW
SCOPE_EXHAUST: Final = PileScope.EXHAUST
SCOPE_HAND: Final = PileScope.HAND
SCOPE_MASTER: Final = PileScope.MASTER
TARGET_RANDOM_ENEMY: Final = TargetMode.RANDOM_ENEMY
TARGET_SINGLE_ENEMY: Final = TargetMode.SINGLE_ENEMY

"""The enumerations of the GCS runtime (C# enum members become UPPER_SNAKE members)."""

from __future__ import annotations

from enum import Enum, IntEnum


class BattlePhase(Enum):
    NONE = "none"
    INITIALIZE = "initialize"
    PLAYER_TURN_START = "player_turn_start"
    PLAYER_PHASE = "player_phase"
    PLAYER_TURN_END = "player_turn_end"
    ENEMY_PHASE = "enemy_phase"
    BATTLE_WON = "battle_won"
    BATTLE_LOST = "battle_lost"


class PileScope(Enum):
    HAND = "hand"
    DRAW = "draw"
    DISCARD = "discard"
    EXHAUST = "exhaust"
    MASTER = "master"
    ALL = "all"


class DrawPilePosition(Enum):
    TOP = "top"
    BOTTOM = "bottom"
    RANDOM = "random"


class HandDiscardRule(Enum):
    DISCARD_ON_TURN_END = "discard_on_turn_end"
    PERSIST = "persist"


class Keyword(Enum):
    INNATE = "innate"
    RETAIN = "retain"
    ETHEREAL = "ethereal"
    EXHAUST = "exhaust"
    UNPLAYABLE = "unplayable"


class TargetMode(Enum):
    NONE = "none"
    SELF = "self"
    SINGLE_ENEMY = "single_enemy"
    ALL_ENEMIES = "all_enemies"
    RANDOM_ENEMY = "random_enemy"


class ArmorDecayRule(Enum):
    RESET = "reset"
    KEEP = "keep"
    HALVE = "halve"


class CardType(Enum):
    ATTACK = "attack"
    SKILL = "skill"
    POWER = "power"
    STATUS = "status"
    CURSE = "curse"


class Rarity(Enum):
    BASIC = "basic"
    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    SPECIAL = "special"
    CURSE = "curse"


class Decay(Enum):
    """How a status loses stacks on its owner's turn end."""

    NONE = "none"
    MINUS_ONE = "minus_one"
    REMOVE = "remove"


class IntentKind(Enum):
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

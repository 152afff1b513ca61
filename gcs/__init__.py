"""GCS card-battle runtime: a deterministic, clonable deckbuilder battle engine."""

from __future__ import annotations

from typing import Any

from . import events
from ._version import __version__, engine_kind
from .agent import Action
from .battle.state import CardInstance, Intent, MasterEntry, Reward, Unit
from .content.db import Content
from .content.defs import (
    CharacterDef,
    EncounterDef,
    EnemyDef,
    GameCard,
    MoveDef,
    RewardTable,
    StatusDef,
)
from .enums import (
    ArmorDecayRule,
    BattlePhase,
    CardType,
    DrawPilePosition,
    HandDiscardRule,
    IntentKind,
    Keyword,
    PileScope,
    Rarity,
    TargetMode,
)
from .errors import (
    BusyError,
    ContentError,
    FlowError,
    GameError,
    IllegalActionError,
    SaveError,
    StepLimitError,
)
from .game import Game
from .pickling import register as _register_pickling
from .rules import BattleRules

_register_pickling()


def load_content(path_or_mapping: Any) -> Content:
    """Load and validate a content pack (a directory of YAML files, or the same data as a mapping)."""
    from .content.loader import load_content as _load

    return _load(path_or_mapping)


def builtin_content() -> Content:
    """The bundled, playable content pack (Ironclad)."""
    from .content.loader import builtin_content as _builtin

    return _builtin()


__all__ = [
    "Action", "ArmorDecayRule", "BattlePhase", "BattleRules", "BusyError", "CardInstance",
    "CardType", "CharacterDef", "Content", "ContentError", "DrawPilePosition", "EncounterDef",
    "EnemyDef", "FlowError", "Game", "GameCard", "GameError", "HandDiscardRule",
    "IllegalActionError", "Intent", "IntentKind", "Keyword", "MasterEntry", "MoveDef",
    "PileScope", "Rarity", "Reward", "RewardTable", "SaveError", "StatusDef", "StepLimitError",
    "TargetMode", "Unit", "__version__", "builtin_content", "engine_kind", "events",
    "load_content",
]

"""The schema of each definition kind (cards, statuses, enemies, encounters, characters,
reward tables, graphs): YAML-shaped data -> frozen defs, with located problems. References to
other definitions are recorded here and checked by the loader once the whole pack is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import NamedTuple

from ...flow import nodes as N
from ..defs import CharacterDef, EncounterDef, EnemyDef, GameCard, RewardTable, StatusDef
from ..problems import Ctx, Key
from .cards import CARD_ENTRIES, UPGRADE_FIELDS, compile_card, compile_status
from .enemies import compile_enemy
from .fields import title
from .places import compile_character, compile_encounter, compile_graph, compile_reward

__all__ = ["CARD_ENTRIES", "COMPILERS", "ID_RE", "LABELS", "SECTIONS", "UPGRADE_FIELDS", "Parts",
           "Source", "title"]

SECTIONS = ("cards", "statuses", "enemies", "encounters", "characters", "rewards", "graphs")
LABELS = {"cards": "card", "statuses": "status", "enemies": "enemy", "encounters": "encounter",
          "characters": "character", "rewards": "reward table", "graphs": "graph"}
ID_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-]*$")


class Source(NamedTuple):
    """One section's definitions as read: ``data`` sits at key path ``root`` inside ``file``."""

    kind: str
    file: str
    root: tuple[Key, ...]
    data: object


class Parts(NamedTuple):
    """Everything ``Content`` is built from (picklable: the compiled cache stores it)."""

    pack_id: str
    cards: tuple[GameCard, ...]
    statuses: tuple[StatusDef, ...]
    enemies: tuple[EnemyDef, ...]
    encounters: tuple[EncounterDef, ...]
    characters: tuple[CharacterDef, ...]
    reward_tables: tuple[RewardTable, ...]
    graphs: Mapping[str, N.Node]


COMPILERS: dict[str, Callable[[str, object, Ctx], object]] = {
    "cards": compile_card, "statuses": compile_status, "enemies": compile_enemy,
    "encounters": compile_encounter, "characters": compile_character,
    "rewards": compile_reward, "graphs": compile_graph,
}

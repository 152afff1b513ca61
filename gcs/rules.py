"""``BattleRules``: the numbers a battle runs by."""

from __future__ import annotations

from dataclasses import dataclass

from .enums import ArmorDecayRule, HandDiscardRule


@dataclass(frozen=True, slots=True)
class BattleRules:
    """Battle rules; an Encounter may override ``hand_discard``."""

    starting_hand_size: int = 5
    draw_per_turn: int = 5
    max_hand_size: int = 10
    energy_per_turn: int = 3
    armor_decay: ArmorDecayRule = ArmorDecayRule.RESET
    hand_discard: HandDiscardRule = HandDiscardRule.DISCARD_ON_TURN_END
    step_limit: int = 200_000

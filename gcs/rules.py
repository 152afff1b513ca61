"""``BattleRules``: the numbers a battle runs by."""

from __future__ import annotations

from dataclasses import dataclass

from .enums import ArmorDecayRule, HandDiscardRule
from .errors import ArgumentError

# name -> (lowest, highest) accepted value; see docs/rules/boundary.md
LIMITS: dict[str, tuple[int, int]] = {
    "starting_hand_size": (0, 100),
    "draw_per_turn": (0, 100),
    "max_hand_size": (0, 100),
    "energy_per_turn": (0, 1_000),
    "step_limit": (1, 100_000_000),
}


@dataclass(frozen=True, slots=True)
class BattleRules:
    """Battle rules; an Encounter may override ``hand_discard``. Bad values raise ArgumentError."""

    starting_hand_size: int = 5
    draw_per_turn: int = 5
    max_hand_size: int = 10
    energy_per_turn: int = 3
    armor_decay: ArmorDecayRule = ArmorDecayRule.RESET
    hand_discard: HandDiscardRule = HandDiscardRule.DISCARD_ON_TURN_END
    step_limit: int = 200_000
    # True: each shuffle orders the cards by keys of their identity (``cards.keyed_order``),
    # so two decks that share cards keep those cards in the same order (``gcs compare``'s
    # coupling); False: Fisher-Yates over the pile, the game's own shuffle and the default
    keyed_shuffle: bool = False

    def __post_init__(self) -> None:
        for name, (lo, hi) in LIMITS.items():
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise ArgumentError(f"BattleRules({name}={v!r}): needs an int in {lo}..{hi}")
        if not isinstance(self.armor_decay, ArmorDecayRule):
            raise ArgumentError(f"BattleRules(armor_decay={self.armor_decay!r}): needs an "
                                "ArmorDecayRule")
        if not isinstance(self.hand_discard, HandDiscardRule):
            raise ArgumentError(f"BattleRules(hand_discard={self.hand_discard!r}): needs a "
                                "HandDiscardRule")
        if not isinstance(self.keyed_shuffle, bool):
            raise ArgumentError(f"BattleRules(keyed_shuffle={self.keyed_shuffle!r}): needs a bool")

"""Policies: anything callable as ``policy(game, legal_actions) -> Action``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..agent import CHOOSE, PLAY, REWARD, Action
from ..enums import CardType
from ..rng import Rng

if TYPE_CHECKING:
    from ..game import Game

Policy = Callable[["Game", list[Action]], Action]


class RandomPolicy:
    """Uniform over the legal actions (one entry per hand card), from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        return legal[self.rng.below(len(legal))]


class GreedyPolicy:
    """A simple heuristic: powers first, block what is incoming, then the most damage."""

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        first = legal[0]
        if first.kind in (CHOOSE, REWARD):
            return first
        hand = game.hand()
        player = game.player
        assert player is not None
        incoming = 0
        for u in game.enemies:
            for it in u.pending_intents:
                if it.damage:
                    incoming += it.damage * it.hits
        need_block = max(0, incoming - player.block)
        best: Action | None = None
        best_score = 0.0
        for a in legal:
            if a.kind != PLAY:
                continue
            card = hand[a.card].active
            nums = card.numbers
            cost = max(0, game.get_effective_energy_cost(hand[a.card]))
            score = 1.0
            if card.type is CardType.POWER:
                score = 40.0
            elif card.type is CardType.ATTACK:
                dmg = nums.get("damage", 6) * nums.get("hits", 1)
                score = 10.0 + dmg
                if a.target >= 0:
                    foe = game.enemies[a.target]
                    if foe.hp <= dmg:
                        score += 25.0
                    score += 5.0 / (1 + foe.hp)
            elif "block" in nums:
                score = 8.0 + (min(nums["block"], need_block) * 2.0 if need_block else 1.0)
            score = score / (1 + cost * 0.3)
            if best is None or score > best_score:
                best, best_score = a, score
        return best if best is not None else legal[-1]


def make_policy(name: str, seed: int) -> Policy:
    """A named policy: ``random`` or ``greedy``."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "greedy":
        return GreedyPolicy()
    raise ValueError(f"unknown policy {name!r} (known: random, greedy)")

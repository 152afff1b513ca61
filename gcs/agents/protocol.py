"""The agent protocol: what ``gcs simulate --policy``, the runners and the environments call."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..agent import Action
    from ..game import Game


class Agent(Protocol):
    """Anything called as ``agent(game, legal) -> Action``: ``legal`` is
    ``game.legal_actions()`` (never empty) and the answer must be one of them. An agent may
    keep state between calls (a battle's or a run's decisions, in order) and must read only
    what the player may know: the piles' contents, not the draw order (``game.observation()``,
    the hand and piles, the units), and sample the rest with ``game.determinize(seed)``."""

    def __call__(self, game: Game, legal: list[Action]) -> Action: ...


AgentFactory = Callable[[int], Agent]
"""A seeded factory: ``factory(seed) -> Agent``. The runners make one agent per battle (or per
run) from the battle's policy seed, so the same seed gives the same decisions."""

"""Built-in players, the agent protocol and hints (docs/agents.md).

``HeuristicAgent`` (``--policy heuristic``) tries each option once on a sampled world;
``SearchAgent`` (``--policy search``) runs information-set MCTS with heuristic playouts;
``hint(game)`` ranks the legal actions for a UI. Both agents read only what the player may
know: hidden information is drawn afresh with ``Game.determinize``.
"""

from __future__ import annotations

from .assess import assess, outcome
from .heuristic import HeuristicAgent
from .hint import Hint, hint
from .protocol import Agent, AgentFactory
from .search import SearchAgent

__all__ = ["Agent", "AgentFactory", "HeuristicAgent", "Hint", "SearchAgent", "assess", "hint",
           "outcome"]

"""An Act 1 run as the game plays it: the map, its rooms, rests and card rewards (docs/run.md).

A layer above the engine: it drives a :class:`gcs.Game` between battles and never changes
how a battle plays.
"""

from .mapgen import ActMap, generate
from .play import heuristic_choice, play_act, run_rule
from .run import ActRun

__all__ = ["ActMap", "ActRun", "generate", "heuristic_choice", "play_act", "run_rule"]

"""A fingerprint of the built-in agents' play on whichever gcs this interpreter imports: a few
battles of each agent (the search at a small budget), their actions, and saves of sampled
worlds. Two engines (or two processes) play alike when their fingerprints are equal.

    python tests/agents_fingerprint.py      # prints the fingerprint as JSON

Used by tests/test_agents.py (in this process and in another one on the pure source tree).
"""

from __future__ import annotations

import hashlib
import json

import gcs
from gcs.agents import HeuristicAgent, SearchAgent, hint
from gcs.sim.runner import new_game, play_battle


def fingerprint() -> dict[str, object]:
    """The engine kind and one row per battle: encounter, agent, won, turns, actions."""
    content = gcs.builtin_content()
    rows: list[list[object]] = []
    for k, enc in enumerate(("gremlin_nob", "two_louses", "large_slime")):
        for name in ("heuristic", "search"):
            g = new_game(content, 31 + k)
            agent = HeuristicAgent(k) if name == "heuristic" else SearchAgent(k, iters=12,
                                                                              worlds=4)
            r = play_battle(g, enc, agent, record=True)
            rows.append([enc, name, r.won, r.turns, r.actions])
    g = new_game(content, 5)
    g.start_battle("two_louses")
    worlds = [hashlib.sha256(json.dumps(g.determinize(s).to_json(), sort_keys=True).encode())
              .hexdigest() for s in range(3)]
    hints = [[str(h.action), h.value, h.visits] for h in hint(g, iters=15, seed=3)]
    return {"engine": gcs.engine_kind(), "battles": rows, "worlds": worlds, "hints": hints}


if __name__ == "__main__":
    print(json.dumps(fingerprint()))

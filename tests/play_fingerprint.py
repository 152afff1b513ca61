"""A fingerprint of play on whichever gcs this interpreter imports: every bundled encounter, four
seeds each (random and greedy policies), and per battle the result plus sha256 of the final state
and of the event log. Two engines play the same game when their fingerprints are equal.

    python tests/play_fingerprint.py      # prints the fingerprint as JSON

Used by tests/test_compiled.py and tests/test_wheel.py (in this process or another one).
"""

from __future__ import annotations

import hashlib
import json

import gcs
from gcs.sim.policies import GreedyPolicy, RandomPolicy
from gcs.sim.runner import play_battle


def fingerprint() -> dict[str, object]:
    """The engine kind, the version and one row per battle played."""
    content = gcs.builtin_content()
    battles: list[list[object]] = []
    for enc in sorted(content.encounters):
        for seed in range(4):
            g = gcs.Game(content, seed=seed * 7919 + len(enc), log_events=True)
            pol = RandomPolicy(seed) if seed % 2 == 0 else GreedyPolicy()
            r = play_battle(g, enc, pol, record=True)
            state = json.dumps(g.to_json(), sort_keys=True)
            events = "\n".join(repr(e) for e in g.event_log)
            battles.append([enc, seed, r.won, r.turns, r.actions,
                            hashlib.sha256(state.encode()).hexdigest(),
                            hashlib.sha256(events.encode()).hexdigest()])
    return {"engine": gcs.engine_kind(), "version": gcs.__version__, "battles": battles}


if __name__ == "__main__":
    print(json.dumps(fingerprint()))

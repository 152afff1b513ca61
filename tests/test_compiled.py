"""The mypyc-compiled engine (scripts/compile_fast.py -> build/fast) plays exactly like the
pure-Python package: same seeds, same actions, same final states.

The test builds the compiled copy if it is missing or stale (about 20 s; needs mypy and a C
compiler, both part of the dev set-up). scripts/test also runs the whole suite against it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import hashlib, json, sys
from gcs import Game, builtin_content
from gcs.sim.policies import RandomPolicy, GreedyPolicy
from gcs.sim.runner import play_battle
import gcs.battle.phases as phases
content = builtin_content()
out = {"compiled": phases.__file__.endswith(".so"), "battles": []}
for enc in sorted(content.encounters):
    for seed in range(4):
        g = Game(content, seed=seed * 7919 + len(enc), log_events=True)
        pol = RandomPolicy(seed) if seed % 2 == 0 else GreedyPolicy()
        r = play_battle(g, enc, pol, record=True)
        state = json.dumps(g.to_json(), sort_keys=True)
        events = "\n".join(repr(e) for e in g.event_log)
        out["battles"].append([enc, seed, r.won, r.turns, r.actions,
                               hashlib.sha256(state.encode()).hexdigest(),
                               hashlib.sha256(events.encode()).hexdigest()])
print(json.dumps(out))
"""


def _run(pythonpath: str | None) -> dict[str, object]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    else:
        env.pop("PYTHONPATH", None)
    r = subprocess.run([sys.executable, "-P", "-c", SCRIPT], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_compiled_engine_plays_exactly_like_the_pure_python_package() -> None:
    build = subprocess.run([sys.executable, "scripts/compile_fast.py", "--if-stale"], cwd=ROOT,
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-3000:]
    pure = _run(str(ROOT))
    fast = _run(str(ROOT / "build" / "fast"))
    assert pure["compiled"] is False and fast["compiled"] is True
    assert fast["battles"] == pure["battles"]
    assert len(pure["battles"]) >= 40  # type: ignore[arg-type]

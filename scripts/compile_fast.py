"""Build the compiled engine: a copy of ``gcs`` under ``build/fast`` whose hot modules are
compiled with mypyc (about 2x faster). The pure-Python package stays the reference; the
tests check that both play identically (tests/test_compiled.py).

    python scripts/compile_fast.py [--if-stale] [--clean]

Use it by putting ``build/fast`` first on the path: ``PYTHONPATH=build/fast python -P -m gcs``
(``scripts/gcs`` does this). Needs mypy (the ``dev`` extra) and a C compiler.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "gcs"
OUT = ROOT / "build" / "fast"
STAMP = OUT / ".stamp"

# the engine core: state, rules, behaviour graphs and the agent loop (standard library only)
MODULES = [
    "gcs/rng.py", "gcs/engine.py", "gcs/agent.py",
    "gcs/battle/state.py", "gcs/battle/cards.py", "gcs/battle/phases.py", "gcs/battle/play.py",
    "gcs/battle/hooks.py", "gcs/battle/combat.py", "gcs/battle/intents.py",
    "gcs/battle/run.py", "gcs/battle/rewards.py", "gcs/battle/refusals.py",
    "gcs/flow/interp.py", "gcs/flow/actions.py", "gcs/flow/values.py",
    "gcs/sim/policies.py",
]


def source_digest() -> str:
    import mypy.version

    h = hashlib.sha256(mypy.version.__version__.encode())
    h.update(sys.version.encode())
    for p in sorted(SRC.rglob("*")):
        if p.is_file() and p.suffix in (".py", ".yaml", ".typed"):
            h.update(str(p.relative_to(ROOT)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def is_fresh() -> bool:
    return STAMP.exists() and STAMP.read_text() == source_digest()


def build() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    shutil.copytree(SRC, OUT / "gcs", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    env = dict(os.environ, MYPYC_OPT_LEVEL=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    cmd = [sys.executable, "-m", "mypyc", *MODULES]
    r = subprocess.run(cmd, cwd=OUT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
        raise SystemExit(f"mypyc failed (exit {r.returncode})")
    shutil.rmtree(OUT / "build", ignore_errors=True)
    STAMP.write_text(source_digest())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--if-stale", action="store_true", help="build only if sources changed")
    ap.add_argument("--clean", action="store_true", help="remove build/fast")
    a = ap.parse_args()
    if a.clean:
        shutil.rmtree(OUT, ignore_errors=True)
        return
    if a.if_stale and is_fresh():
        return
    print("compiling the engine core with mypyc (build/fast) ...", file=sys.stderr)
    build()
    print("compiled engine ready in build/fast", file=sys.stderr)


if __name__ == "__main__":
    main()

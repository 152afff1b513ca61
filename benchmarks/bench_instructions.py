"""Instructions per battle, counted by valgrind's callgrind: a speed comparison that a busy
machine does not disturb (wall-clock rates on a loaded 2-core machine vary by 2x between runs).

    python benchmarks/bench_instructions.py [--battles 300]
    python benchmarks/bench_instructions.py --copies 2000    # clone() against determinize()

Each workload runs N seeded Jaw Worm battles (random policy) in a fresh interpreter under
callgrind, once with N battles and once with none; the difference over N is printed, so the
interpreter's start-up and the imports cancel out:

    start   a Game and its start_battle (the per-battle set-up)
    apply   start + every decision through game.legal_actions() and game.apply()
    play    the simulator's loop (gcs.sim.runner.play_battle), as gcs simulate plays a battle

``--pack DIR`` plays a content pack directory instead of the bundled one (with the Ironclad, the
Jaw Worm and Gremlin Nob), to count two versions of the engine on one workload: an older
commit's pack (``git archive COMMIT gcs/data/ironclad | tar -x -C DIR``), counted by this script
under each tree's interpreter.

``--copies N`` counts instead ``clone()`` and ``determinize()`` of Gremlin Nob's first turn
(what ``benchmarks/agents.py --only speed`` times), per call, N calls against none.

Run it with the interpreter of the engine to measure (``.venv/compiled/bin/python -P`` for the
compiled wheel); compare two trees by running each one's copy of this script. PYTHONHASHSEED
is fixed, so the counts repeat exactly.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MODES = ("start", "apply", "play")
COPIES = ("clone", "determinize")


def workload(mode: str, n: int, pack: str | None = None) -> None:
    """``n`` battles of ``mode`` (or ``n`` copies: ``clone``, ``determinize``) in this
    process (the callgrind child), on ``pack`` (None: the bundled pack)."""
    from gcs import Game, builtin_content, load_content
    from gcs.sim.policies import RandomPolicy
    from gcs.sim.runner import battle_seed, play_battle, policy_seed

    content = builtin_content() if pack is None else load_content(pack)
    if mode in COPIES:
        g = Game(content, seed=5, log_events=False)
        g.start_battle("gremlin_nob")
        for i in range(n):
            if mode == "clone":
                g.clone()
            else:
                g.determinize(i)
        return
    for i in range(n):
        g = Game(content, seed=battle_seed(1, i), log_events=False)
        pol = RandomPolicy(policy_seed(1, i))
        if mode == "play":
            play_battle(g, "jaw_worm", pol, take_rewards=False)
            continue
        g.start_battle("jaw_worm")
        while mode == "apply" and g.is_battle_active and not g.is_waiting_for_reward:
            g.apply(pol(g, g.legal_actions()))


def count(mode: str, n: int, pack: str | None = None) -> int:
    """Instructions of one child run (callgrind's total)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        env = dict(os.environ, PYTHONHASHSEED="0")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            sys.executable, *(["-P"] if sys.flags.safe_path else []),
                            os.path.abspath(__file__), "--child", mode, str(n),
                            *([] if pack is None else ["--pack", pack])],
                           capture_output=True, text=True, env=env, check=True)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if m is None:
        raise SystemExit(f"no callgrind total in:\n{r.stderr[-2000:]}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=300)
    ap.add_argument("--copies", type=int, default=0,
                    help="count clone() and determinize() per call instead, over this many calls")
    ap.add_argument("--pack", help="a content pack directory (default: the bundled pack)")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        workload(a.child[0], int(a.child[1]), a.pack)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    import gcs

    print(f"engine        {gcs.engine_kind()} ({os.path.dirname(gcs.__file__)})")
    if a.pack is not None:
        print(f"pack          {a.pack}")
    if a.copies:
        per = {m: (count(m, a.copies, a.pack) - count(m, 0, a.pack)) / a.copies for m in COPIES}
        print(f"clone         {per['clone']:,.0f} instructions per call ({a.copies} calls)")
        print(f"determinize   {per['determinize']:,.0f} instructions per call "
              f"({per['determinize'] / per['clone']:.2f}x clone)")
        return
    for mode in MODES:
        per = (count(mode, a.battles, a.pack) - count(mode, 0, a.pack)) / a.battles
        print(f"{mode:<13} {per:,.0f} instructions per battle ({a.battles} battles)")


if __name__ == "__main__":
    main()

"""Where a battle's time goes: the fixed workload of bench_battle.py (Ironclad starter vs one Jaw
Worm, uniform random legal actions, a fresh default ``Game()`` each battle), split two ways.

    .venv/bin/python benchmarks/profile_battle.py                  # pure Python: the full picture
    .venv/bin/python benchmarks/profile_battle.py --battles 2000 --top 20
    .venv/compiled/bin/python benchmarks/profile_battle.py         # phases only mean much here

1. Phases, timed with ``perf_counter`` around each public call (no profiler running): making
   the game, ``start_battle``, ``legal_actions``, the policy, ``apply`` of a play, of End Turn
   (the whole enemy turn and the next draw) and of anything else, and the loop around them.
2. cProfile of the same battles: self time per module of the engine, the top functions by
   self time (with calls per battle), and Python calls per battle and per decision. On the
   compiled engine cProfile sees only the interpreted parts.

Shares are of the measured total; the wording and order of the lines are stable.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import gcs
from gcs import Game, builtin_content
from gcs.agent import END, PLAY
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import battle_seed, play_battle, policy_seed

PACKAGE = Path(gcs.__file__).resolve().parent
PHASES = ("new game", "start battle", "legal actions", "policy", "apply: play",
          "apply: end turn", "apply: other", "loop and bookkeeping")


def timed_phases(n: int, seed: int, log_events: bool) -> tuple[dict[str, float], dict[str, int], int]:
    """Seconds and calls per phase over ``n`` battles (the loop of ``play_battle``, unrolled)."""
    content = builtin_content()
    spent: dict[str, float] = dict.fromkeys(PHASES, 0.0)
    calls: dict[str, int] = dict.fromkeys(PHASES, 0)
    clock = time.perf_counter
    decisions = 0
    t_all = clock()
    for i in range(n):
        t0 = clock()
        g = Game(content, seed=battle_seed(seed, i), log_events=log_events)
        pol = RandomPolicy(policy_seed(seed, i))
        t1 = clock()
        g.start_battle("jaw_worm")
        g.settle()
        t2 = clock()
        spent["new game"] += t1 - t0
        spent["start battle"] += t2 - t1
        calls["new game"] += 1
        calls["start battle"] += 1
        while not g.is_waiting_for_reward:
            t0 = clock()
            legal = g.legal_actions()
            t1 = clock()
            spent["legal actions"] += t1 - t0
            calls["legal actions"] += 1
            if not legal:
                break
            a = pol(g, legal)
            t2 = clock()
            g.apply(a)
            t3 = clock()
            kind = "apply: play" if a.kind == PLAY else "apply: end turn" if a.kind == END \
                else "apply: other"
            spent["policy"] += t2 - t1
            calls["policy"] += 1
            spent[kind] += t3 - t2
            calls[kind] += 1
            decisions += 1
    total = clock() - t_all
    spent["loop and bookkeeping"] = total - sum(spent.values())
    return spent, calls, decisions


def module_of(filename: str) -> str:
    """``gcs/steps/runner.py`` for a gcs file; ``(built-in)`` (C code: builtins, and on the
    compiled engine the compiled modules) or ``(not gcs) name.py`` else."""
    if filename == "~":
        return "(built-in)"
    p = Path(filename).resolve()
    if p.is_relative_to(PACKAGE):
        return "gcs/" + p.relative_to(PACKAGE).as_posix()
    return f"(not gcs) {p.name}"


def profiled(n: int, seed: int, log_events: bool) -> tuple[dict[Any, Any], int]:
    """cProfile's raw stats of ``n`` battles played by ``play_battle``, and their decisions."""
    content = builtin_content()
    decisions = 0

    def run() -> None:
        nonlocal decisions
        for i in range(n):
            g = Game(content, seed=battle_seed(seed, i), log_events=log_events)
            r = play_battle(g, "jaw_worm", RandomPolicy(policy_seed(seed, i)), take_rewards=False)
            decisions += r.decisions

    prof = cProfile.Profile()
    prof.runcall(run)
    stats: dict[Any, Any] = pstats.Stats(prof).stats
    return stats, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--top", type=int, default=15, help="functions listed")
    ap.add_argument("--no-log", action="store_true", help="Game(log_events=False)")
    a = ap.parse_args()
    log = not a.no_log
    kind = ("compiled (mypyc, installed wheel)" if gcs.engine_kind() == "compiled"
            else "pure Python")
    print(f"workload      ironclad starter vs jaw_worm, random policy, 1 process, {a.battles} battles, "
          f"{'default Game()' if log else 'log_events=False'}, python {platform.python_version()}")
    print(f"engine        {kind}")

    timed_phases(50, a.seed, log)  # warm-up
    spent, calls, decisions = timed_phases(a.battles, a.seed, log)
    total = sum(spent.values())
    print(f"phases        wall time, no profiler: {a.battles / total:,.0f} battles/s, "
          f"{decisions / a.battles:.1f} decisions per battle")
    for ph in PHASES:
        per = f"{spent[ph] / calls[ph] * 1e6:8.1f} us/call  {calls[ph] / a.battles:5.1f} calls/battle" \
            if calls[ph] else ""
        print(f"  {ph:<20} {100 * spent[ph] / total:5.1f}%  {per}".rstrip())

    stats, decisions = profiled(a.battles, a.seed, log)
    self_total = sum(v[2] for v in stats.values()) or 1e-12
    by_module: dict[str, float] = defaultdict(float)
    for (filename, _, _), (_, _, tt, _, _) in stats.items():
        by_module[module_of(filename)] += tt
    ncalls = sum(v[1] for v in stats.values())
    print(f"modules       cProfile self time per module ({ncalls / a.battles:,.0f} Python calls per "
          f"battle, {ncalls / max(1, decisions):,.1f} per decision)")
    for mod, tt in sorted(by_module.items(), key=lambda kv: (-kv[1], kv[0]))[:a.top]:
        print(f"  {mod:<32} {100 * tt / self_total:5.1f}%")
    print(f"functions     cProfile self time, top {a.top} (calls per battle)")
    rows = sorted(stats.items(), key=lambda kv: (-kv[1][2], kv[0]))[:a.top]
    for (filename, line, name), (_, nc, tt, ct, _) in rows:
        where = module_of(filename) + (f":{line}" if filename != "~" else "")
        print(f"  {100 * tt / self_total:5.1f}%  {nc / a.battles:8.1f}  {where} {name}"
              f"  (cumulative {100 * ct / self_total:.1f}%)")


if __name__ == "__main__":
    main()

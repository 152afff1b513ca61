"""Compiled behaviour programs against the tree walk of frames, in one process, interleaved:
the builtin content as loaded, and the same content with its programs removed (every entry
then runs as NODE frames). Same workload as bench_battle (Ironclad starter vs one Jaw Worm,
random legal actions), plus the ``apply`` of single plays on clones of one mid-battle state.

    .venv/bin/python benchmarks/bench_flow.py              # pure Python
    .venv/compiled/bin/python benchmarks/bench_flow.py     # compiled engine

Prints, per measure, the median over the rounds for programs and for frames, and their ratio.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

from gcs import Game, builtin_content
from gcs.agent import PLAY
from gcs.content.db import Content
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import battle_seed, play_battle, policy_seed


def battles(content: Content, n: int) -> float:
    """Battles per second."""
    t = time.perf_counter()
    for i in range(n):
        g = Game(content, seed=battle_seed(5, i), log_events=False)
        play_battle(g, "jaw_worm", RandomPolicy(policy_seed(5, i)), take_rewards=False)
    return n / (time.perf_counter() - t)


def per_play(content: Content, card_id: str, n: int) -> float:
    """Microseconds per ``apply`` of a play of ``card_id`` (on a fresh clone each time)."""
    g = Game(content, seed=3, log_events=False)
    g.start_battle("jaw_worm")
    g.settle()
    uid = g.add_card_to_hand(card_id).uid
    spent = 0.0
    for _ in range(n):
        h = g.clone()
        index = [c.uid for c in h.hand()].index(uid)
        action = next(a for a in h.legal_actions() if a.kind == PLAY and a.card == index)
        t = time.perf_counter()
        h.apply(action)
        spent += time.perf_counter() - t
    return spent / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=500)
    ap.add_argument("--plays", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    programs = builtin_content()
    frames = copy.copy(programs)
    frames.programs = {}  # no compiled programs: every entry runs as the tree walk
    measures = {"battles/s": lambda c: battles(c, a.battles)}
    for cid in ("strike", "bash", "defend"):
        measures[f"{cid} apply us"] = lambda c, cid=cid: per_play(c, cid, a.plays)
    results: dict[str, dict[str, list[float]]] = {m: {"programs": [], "frames": []}
                                                  for m in measures}
    battles(programs, 50)  # warm-up
    for _ in range(a.rounds):
        for name, fn in measures.items():
            for label, c in (("programs", programs), ("frames", frames)):
                results[name][label].append(fn(c))
    for name, r in results.items():
        p, f = statistics.median(r["programs"]), statistics.median(r["frames"])
        print(f"{name:18s} programs {p:10.2f}   frames {f:10.2f}   programs/frames {p / f:.3f}")


if __name__ == "__main__":
    main()

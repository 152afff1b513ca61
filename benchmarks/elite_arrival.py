"""With how much HP does an Act 1 run arrive at its elites? The table the elite tasks draw from.

    .venv/compiled/bin/python -P benchmarks/elite_arrival.py --policy heuristic --runs 200

Plays ``--runs`` seeded runs of ``gcs.act`` (``gcs run --act 1``'s seeds: ``--seed`` and the
run index) with a policy and its run rule, and prints the share of max HP on arrival at each
elite fight: the count, the mean, and ``--bins`` quantiles (the ``(i + 0.5) / bins``-th, in
percent, rounded down): the ``start_hp`` table of the ``-v1`` elite tasks (gcs/env/registry.py).
Output is exact for a seed.
"""

from __future__ import annotations

import argparse

from gcs import builtin_content
from gcs.act import ActRun, run_rule
from gcs.act.batch import run_seed
from gcs.act.play import play_act
from gcs.rng import derive
from gcs.sim.policies import make_policy


def arrivals(policy: str, seed: int, runs: int) -> list[tuple[int, int, str]]:
    """(HP, max HP, encounter) on arrival at every elite fight of the runs (the runs of
    ``gcs run --act 1 --seed SEED --policy POLICY``, each policy seeded as there)."""
    content = builtin_content()
    out: list[tuple[int, int, str]] = []
    for i in range(runs):
        agent = make_policy(policy, derive(seed, f"policy#{i}"))
        run = ActRun(content, run_seed(seed, i))
        play_act(run, agent, run_rule(policy, agent))
        max_hp = run.game.run_hp[1]
        out += [(f.hp_before, max_hp, f.encounter) for f in run.fights if f.kind == "elite"]
    return out


def quantiles(shares: list[float], bins: int) -> list[int]:
    """The ``(i + 0.5) / bins``-th quantiles of ``shares`` (nearest rank), in percent."""
    xs = sorted(shares)
    return [int(100 * xs[min(len(xs) - 1, int((i + 0.5) / bins * len(xs)))]) for i in range(bins)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bins", type=int, default=20)
    args = ap.parse_args()
    got = arrivals(args.policy, args.seed, args.runs)
    shares = [hp / max_hp for hp, max_hp, _ in got]
    mean = sum(shares) / len(shares) if shares else 0.0
    by: dict[str, int] = {}
    for _, _, enc in got:
        by[enc] = by.get(enc, 0) + 1
    print(f"policy     {args.policy}, {args.runs} runs from seed {args.seed}")
    print(f"elites     {len(got)} ({', '.join(f'{k} {v}' for k, v in sorted(by.items()))})")
    print(f"mean       {mean:.1%} of max HP")
    print(f"quantiles  {', '.join(str(q) for q in quantiles(shares, args.bins))}")


if __name__ == "__main__":
    main()

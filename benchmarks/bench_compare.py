"""What the pairing of ``gcs compare`` saves: the battles a win-rate difference needs to reach a
target interval when both arms play the same seeds, against two unpaired runs.

    .venv/compiled/bin/python benchmarks/bench_compare.py                 # Carnage vs Gremlin Nob
    .venv/compiled/bin/python benchmarks/bench_compare.py --policy random --seeds 5
    .venv/compiled/bin/python benchmarks/bench_compare.py --encounter exordium_thugs --until 2

Runs ``gcs compare -e E --deck EDIT --until Tpp`` (the library call, on ``--workers``
processes) paired and ``--unpaired``, once per seed, and prints the battles each needed per arm
(the median over the seeds is the answer; the stop is checked every ``--chunk`` battles), the
saving (unpaired battles / paired battles), and what the variances of the last paired run
predict for it: with ``b`` and ``c`` the pairs only one arm won, a paired difference's variance
per pair is (b + c)/n - d^2 and two unpaired runs' is p1(1 - p1) + p2(1 - p2); their ratio is
the saving to expect. A baseline that never (or always) wins has nothing for the pairing to
cancel, and the saving is 1x whatever the method. The wording and order of the lines are stable.
"""

from __future__ import annotations

import argparse
import statistics
import time

from gcs import builtin_content
from gcs._version import engine_kind
from gcs.sim.backends import make_backend
from gcs.sim.compare import DEFAULT_POLICY, Arm, Outcome, Plan, run_compare
from gcs.sim.deckedit import apply_edits, parse_edits, starting_deck


def run(plan: Plan, workers: int) -> tuple[Outcome, float]:
    be = make_backend("local", workers)
    start = time.perf_counter()
    try:
        return run_compare(plan, be), time.perf_counter() - start
    finally:
        be.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--encounter", default="gremlin_nob")
    ap.add_argument("--deck", default="+carnage", help="the variant: an edit of the starter deck")
    ap.add_argument("--policy", default=DEFAULT_POLICY)
    ap.add_argument("--until", type=float, default=1.5, help="half-width target, pp")
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--cap", type=int, default=100_000, help="most battles per arm")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    content = builtin_content()
    deck = apply_edits(starting_deck(content, None), parse_edits(a.deck) or (), content)
    arms = (Arm("starter deck", "baseline", None, None, a.policy),
            Arm(a.deck, "deck", None, deck, a.policy))
    print(f"workload      gcs compare -e {a.encounter} --deck {a.deck} --policy {a.policy} "
          f"--until {a.until:g}pp --chunk {a.chunk} (paired, then --unpaired; seeds 1..{a.seeds})")
    print(f"engine        {engine_kind()}, {a.workers} worker(s)")
    needed: dict[bool, list[int]] = {True: [], False: []}
    last: Outcome | None = None
    for seed in range(1, a.seeds + 1):
        for paired in (True, False):
            plan = Plan(arms, (a.encounter,), seed, a.cap, a.chunk, a.until / 100, paired)
            out, secs = run(plan, a.workers)
            doc = out.to_dict()
            win = doc["variants"][0]["vs_baseline"]["win_rate"]
            state = "reached" if out.reached else "NOT reached"
            print(f"seed {seed:<8} {'paired' if paired else 'unpaired':<9}{doc['battles']:>7} battles "
                  f"per arm ({state}): {win['diff'] * 100:+.2f} pp [{win['low'] * 100:+.2f}, "
                  f"{win['high'] * 100:+.2f}], {secs:.1f} s")
            needed[paired].append(doc["battles"])
            if paired:
                last = out
    p, u = statistics.median(needed[True]), statistics.median(needed[False])
    print(f"battles       paired {p:,.0f} per arm ({2 * p:,.0f} in all); two unpaired runs "
          f"{u:,.0f} per arm ({2 * u:,.0f} in all) (medians)")
    print(f"saving        {u / p:.2f}x fewer battles paired")
    assert last is not None
    pair = last.tally.pairs[0][1]
    n = pair.pairs
    d = (pair.variant_only - pair.baseline_only) / n
    p1, p2 = (pair.both + pair.variant_only) / n, (pair.both + pair.baseline_only) / n
    var_paired = (pair.variant_only + pair.baseline_only) / n - d * d
    var_unpaired = p1 * (1 - p1) + p2 * (1 - p2)
    ratio = var_unpaired / var_paired if var_paired > 0 else float("inf")
    print(f"variances     per pair {var_paired:.4f} paired, {var_unpaired:.4f} unpaired "
          f"(win rates {p2:.1%} -> {p1:.1%}, discordant pairs {pair.variant_only} + "
          f"{pair.baseline_only} of {n}): {ratio:.2f}x expected")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

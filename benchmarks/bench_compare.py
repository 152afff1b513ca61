"""What the pairing of ``gcs compare`` saves: the battles a win-rate difference needs to reach a
target interval when both arms play the same seeds, against two unpaired runs.

    .venv/compiled/bin/python benchmarks/bench_compare.py                 # Carnage vs Gremlin Nob
    .venv/compiled/bin/python benchmarks/bench_compare.py --policy random --seeds 5
    .venv/compiled/bin/python benchmarks/bench_compare.py --encounter exordium_thugs --until 2
    .venv/compiled/bin/python benchmarks/bench_compare.py --fixed 2000      # interval widths
    .venv/compiled/bin/python benchmarks/bench_compare.py --policy greedy --start-hp 50

Runs ``gcs compare -e E --deck EDIT --until Tpp`` (the library call, on ``--workers``
processes) paired and ``--unpaired``, once per seed, and prints the battles each needed per arm
(the median over the seeds is the answer; the stop is checked every ``--chunk`` battles), the
saving (unpaired battles / paired battles), and what the variances of the last paired run
predict for it: with ``b`` and ``c`` the pairs only one arm won, a paired difference's variance
per pair is (b + c)/n - d^2 and two unpaired runs' is p1(1 - p1) + p2(1 - p2); their ratio is
the saving to expect. A baseline that never (or always) wins has nothing for the pairing to
cancel, and the saving is 1x whatever the method.

``--shuffle`` picks the shuffle both arms (and the unpaired runs) use: ``fisher-yates`` (the
game's), ``keyed`` (``gcs compare --keyed-shuffle``: the shared cards keep one order) or
``both`` (the default: each is measured in turn). ``--fixed N`` measures instead the interval
widths of win rate, HP left and turns after N battles per arm, paired and unpaired (seed 1):
the battles two unpaired runs need over the paired ones for the same width is the widths'
ratio squared, for a metric the win rate cannot speak for (a baseline that always wins); the
``bound`` line is the most any coupling could save on the win rate: a paired difference ``d``
of win rates has a variance per pair of at least ``d(1 - d)`` (no pair where only the baseline
wins), so the saving is at most ``(p1(1 - p1) + p2(1 - p2)) / (d(1 - d))``: a large effect
cannot be measured 3x cheaper by pairing, however the arms are coupled.
``--start-hp`` starts every battle at that HP (what a run arrives with). The wording and order
of the lines are stable.
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


def arms_of(content: object, a: argparse.Namespace) -> tuple[Arm, Arm]:
    deck = apply_edits(starting_deck(content, None), parse_edits(a.deck) or (), content)  # type: ignore[arg-type]
    return (Arm("starter deck", "baseline", None, None, a.policy),
            Arm(a.deck, "deck", None, deck, a.policy))


def fixed(a: argparse.Namespace, arms: tuple[Arm, Arm], keyed: bool) -> None:
    """Interval widths after ``a.fixed`` battles per arm, paired and unpaired."""
    widths: dict[bool, dict[str, float]] = {}
    for paired in (True, False):
        plan = Plan(arms, (a.encounter,), 1, a.fixed, a.chunk, None, paired, None, keyed,
                    a.start_hp)
        out, secs = run(plan, a.workers)
        doc = out.to_dict()
        vs = doc["variants"][0]["vs_baseline"]
        widths[paired] = {m: vs[m]["high"] - vs[m]["low"] for m in METRICS}
        print(f"{'paired' if paired else 'unpaired':<14}" + "  ".join(
            f"{m} {vs[m]['diff'] * SCALE[m]:+.2f} [{vs[m]['low'] * SCALE[m]:+.2f}, "
            f"{vs[m]['high'] * SCALE[m]:+.2f}]" for m in METRICS)
            + f"  (win rates {doc['baseline']['win_rate']:.1%} -> "
            f"{doc['variants'][0]['win_rate']:.1%}), {secs:.1f} s")
    p2, p1 = doc["baseline"]["win_rate"], doc["variants"][0]["win_rate"]
    d = abs(p1 - p2)
    best = (f"at most {(p1 * (1 - p1) + p2 * (1 - p2)) / (d * (1 - d)):.2f}x" if 0 < d < 1
            else "no bound (the win rates are equal or 0 and 1)")
    print(f"bound         win rate: {best} for any coupling (unpaired, the last run)"
          " (a paired difference's variance per pair is at least d(1 - d), d the difference)")
    print("saving        " + "  ".join(
        f"{m} " + (f"({widths[False][m] * SCALE[m]:.3f} / {widths[True][m] * SCALE[m]:.3f})^2 = "
                   f"{(widths[False][m] / widths[True][m]) ** 2:.2f}x"
                   if widths[True][m] > 0 else "no width (0 discordant pairs)")
        for m in METRICS))


def until(a: argparse.Namespace, arms: tuple[Arm, Arm], keyed: bool) -> None:
    """Battles per arm to reach the win-rate target, paired and unpaired, per seed."""
    needed: dict[bool, list[int]] = {True: [], False: []}
    last: Outcome | None = None
    for seed in range(1, a.seeds + 1):
        for paired in (True, False):
            plan = Plan(arms, (a.encounter,), seed, a.cap, a.chunk, a.until / 100, paired, None,
                        keyed, a.start_hp)
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
    ratio = (f"{var_unpaired / var_paired:.2f}x expected" if var_paired > 0
             else "no discordant pair: nothing to expect yet")
    print(f"variances     per pair {var_paired:.4f} paired, {var_unpaired:.4f} unpaired "
          f"(win rates {p2:.1%} -> {p1:.1%}, discordant pairs {pair.variant_only} + "
          f"{pair.baseline_only} of {n}): {ratio}")


METRICS = ("win_rate", "hp_left", "turns")
SCALE = {"win_rate": 100.0, "hp_left": 1.0, "turns": 1.0}  # (win rate shown in pp)


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
    ap.add_argument("--shuffle", choices=("fisher-yates", "keyed", "both"), default="both")
    ap.add_argument("--fixed", type=int, default=0, help="battles per arm: measure widths")
    ap.add_argument("--start-hp", type=int, default=0, help="the player's HP at the start")
    a = ap.parse_args(argv)
    content = builtin_content()
    arms = arms_of(content, a)
    what = f"--battles {a.fixed}" if a.fixed else f"--until {a.until:g}pp --chunk {a.chunk}"
    hp = f" --start-hp {a.start_hp}" if a.start_hp else ""
    print(f"workload      gcs compare -e {a.encounter} --deck {a.deck} --policy {a.policy}{hp} "
          f"{what} (paired, then --unpaired; "
          f"{'seed 1' if a.fixed else f'seeds 1..{a.seeds}'})")
    print(f"engine        {engine_kind()}, {a.workers} worker(s)")
    for keyed in {"fisher-yates": (False,), "keyed": (True,), "both": (False, True)}[a.shuffle]:
        print(f"shuffle       {'keyed (--keyed-shuffle)' if keyed else 'fisher-yates'}")
        (fixed if a.fixed else until)(a, arms, keyed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

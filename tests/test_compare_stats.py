"""The intervals of ``gcs compare`` on synthetic data with a known answer: their coverage over
many seeded samples, and their known values and limits.

Coverage tolerance: each scenario draws ``REPS`` = 2,000 samples, so the observed coverage of an
exact 95% interval has a Monte Carlo standard error of sqrt(0.95 * 0.05 / 2000) = 0.49 pp; the
methods themselves are within about 1 pp of 95% at these sample sizes (Newcombe 1998 reports a
mean coverage of 0.956 for his method 10 over a wide grid of small samples; the t interval is
exact for normal data and within 1 pp for the skewed integers below at n >= 60). A scenario
passes within 2.5 pp (about 3 standard errors plus the methods' own 1 pp), and the mean over
the scenarios, whose error is about half as big, within 1.5 pp. Everything is seeded: the same
samples every run.
"""

from __future__ import annotations

import math
import random

import pytest

from gcs.report.stats import (
    Z95,
    mean_interval,
    newcombe_independent,
    newcombe_paired,
    t_quantile,
    welch_interval,
    wilson,
)

REPS = 2000
TOL_ONE, TOL_MEAN = 0.025, 0.015

# (both won, only the variant won, only the baseline won): the rest lost both; n pairs
PAIRED = [
    ((0.40, 0.15, 0.05), 200),   # correlated arms, a clear difference
    ((0.05, 0.70, 0.00), 300),   # Carnage vs Gremlin Nob: the baseline nearly never wins
    ((0.45, 0.03, 0.02), 400),   # nearly identical arms: few discordant pairs
    ((0.20, 0.20, 0.20), 150),   # uncorrelated, no difference
]


def _paired_sample(rng: random.Random, probs: tuple[float, float, float], n: int) -> tuple[int, ...]:
    c11, c10, c01 = probs
    t = [0, 0, 0, 0]
    for _ in range(n):
        u = rng.random()
        t[0 if u < c11 else 1 if u < c11 + c10 else 2 if u < c11 + c10 + c01 else 3] += 1
    return tuple(t)


def _coverage(seed: int, draw: object, truth: float, ci: object) -> float:
    rng = random.Random(seed)
    hits = 0
    for _ in range(REPS):
        lo, hi = ci(draw(rng))  # type: ignore[operator]
        hits += lo <= truth <= hi
    return hits / REPS


def test_newcombe_paired_interval_covers_the_true_difference_95_percent_of_the_time() -> None:
    got = []
    for i, (probs, n) in enumerate(PAIRED):
        truth = probs[1] - probs[2]

        def ci(t: tuple[int, ...]) -> tuple[float, float]:
            return newcombe_paired(*t)[1:]

        cov = _coverage(100 + i, lambda rng, p=probs, n=n: _paired_sample(rng, p, n), truth, ci)
        got.append(cov)
        assert abs(cov - 0.95) <= TOL_ONE, (probs, n, cov)
    assert abs(sum(got) / len(got) - 0.95) <= TOL_MEAN, got


def test_newcombe_independent_interval_covers_95_percent() -> None:
    got = []
    for i, (p1, p2, n) in enumerate([(0.74, 0.0, 300), (0.5, 0.4, 200), (0.9, 0.85, 400)]):
        def draw(rng: random.Random, p1: float = p1, p2: float = p2, n: int = n) -> tuple[int, int]:
            return sum(rng.random() < p1 for _ in range(n)), sum(rng.random() < p2 for _ in range(n))

        def ci(s: tuple[int, int], n: int = n) -> tuple[float, float]:
            return newcombe_independent(s[0], n, s[1], n)[1:]

        got.append(_coverage(200 + i, draw, p1 - p2, ci))
    assert all(abs(c - 0.95) <= TOL_ONE for c in got), got
    # (p2 = 0 exactly: every sample has s2 = 0 and the interval still covers the truth)


def _hp_like(rng: random.Random) -> int:
    """A skewed integer difference, as HP left differs between two arms: mostly small, now and
    then a loss (a large negative) or a rescued battle (a large positive). Mean: 1.2."""
    u = rng.random()
    if u < 0.05:
        return -40
    if u < 0.12:
        return 30
    return rng.randint(-4, 6)


HP_MEAN = 0.05 * -40 + 0.07 * 30 + 0.88 * 1.0


def test_paired_t_interval_covers_the_true_mean_difference() -> None:
    got = []
    for i, n in enumerate((60, 200, 1000)):
        def draw(rng: random.Random, n: int = n) -> tuple[int, int, int]:
            ds = [_hp_like(rng) for _ in range(n)]
            return n, sum(ds), sum(d * d for d in ds)

        got.append(_coverage(300 + i, draw, HP_MEAN, lambda m: mean_interval(*m)[1:]))
    assert all(abs(c - 0.95) <= TOL_ONE for c in got), got
    assert abs(sum(got) / len(got) - 0.95) <= TOL_MEAN, got


def test_welch_interval_covers_the_true_difference_of_independent_means() -> None:
    def arm(rng: random.Random, n: int, shift: int) -> tuple[int, int, int]:
        xs = [rng.randint(0, 20) + shift for _ in range(n)]
        return n, sum(xs), sum(x * x for x in xs)

    cov = _coverage(400, lambda rng: (arm(rng, 80, 3), arm(rng, 120, 0)), 3.0,
                    lambda ab: welch_interval(*ab)[1:])
    assert abs(cov - 0.95) <= TOL_ONE, cov


def test_t_quantiles_match_the_tables() -> None:
    for df, want in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423),
                     (60, 2.0003), (120, 1.9799)):
        assert t_quantile(0.975, df) == pytest.approx(want, abs=2e-4), df
    assert t_quantile(0.975, 10**7) == pytest.approx(Z95, abs=1e-6)
    assert t_quantile(0.975, 4.7) == pytest.approx(t_quantile(0.975, 4))  # (rounded down)
    with pytest.raises(ValueError):
        t_quantile(0.975, 0.5)


def test_newcombe_paired_limits_and_symmetry() -> None:
    # swapping the arms negates the interval
    d, lo, hi = newcombe_paired(30, 20, 5, 45)
    d2, lo2, hi2 = newcombe_paired(30, 5, 20, 45)
    assert (d2, lo2, hi2) == pytest.approx((-d, -hi, -lo))
    assert lo < d < hi and lo > 0  # 20 vs 5 discordant of 100: significant
    assert newcombe_paired(30, 12, 5, 53)[1] < 0  # 12 vs 5: not (McNemar's p is about 0.09)
    # no discordant pairs: a difference of exactly 0, an interval around it that is not empty
    d, lo, hi = newcombe_paired(125, 0, 0, 125)
    assert d == 0 and -0.02 < lo < 0 < hi < 0.02
    # both arms always win: the interval is the Wilson interval's width at 100%
    d, lo, hi = newcombe_paired(250, 0, 0, 0)
    assert d == 0 and hi == pytest.approx(1 - wilson(250, 250)[0])
    # a regression value (Newcombe's method 10 on 14/5/0/22, computed by this code once)
    assert newcombe_paired(14, 5, 0, 22) == pytest.approx((5 / 41, 0.011483, 0.226493), abs=1e-6)
    assert newcombe_paired(0, 0, 0, 0) == (0.0, -1.0, 1.0)


def test_newcombe_paired_is_the_wald_interval_for_large_samples() -> None:
    both, v, b, neither = 400_000, 90_000, 60_000, 450_000
    n = both + v + b + neither
    d, lo, hi = newcombe_paired(both, v, b, neither)
    se = math.sqrt((v + b) - (v - b) ** 2 / n) / n
    assert d == pytest.approx((v - b) / n)
    assert (hi - lo) / 2 == pytest.approx(Z95 * se, rel=0.01)


def test_mean_intervals_of_constant_differences_are_exact() -> None:
    assert mean_interval(10, 0, 0) == (0.0, 0.0, 0.0)
    assert mean_interval(4, 8, 16) == (2.0, 2.0, 2.0)
    assert welch_interval((5, 10, 20), (5, 5, 5)) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        mean_interval(1, 3, 9)

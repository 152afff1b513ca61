"""Interval estimates for the report, the summaries and paired comparisons (standard library only).

Every interval is a 95% interval by default. The paired ones are what ``gcs compare`` reports:
a difference in win rate between two arms played on the same seeds (Newcombe's hybrid score
interval for paired proportions, his method 10), and a difference in a mean (a t interval of
the per-battle differences). The independent versions are for arms played on their own seeds.
"""

from __future__ import annotations

import math
from statistics import NormalDist

Z95 = 1.959963984540054
_EXACT_T_DF = 30  # up to here the t quantile is found on the exact distribution function


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


def _square_and_add(p1: float, ci1: tuple[float, float], p2: float, ci2: tuple[float, float],
                    phi: float) -> tuple[float, float, float]:
    """Newcombe's square-and-add of two Wilson intervals into one for ``p1 - p2``."""
    (l1, u1), (l2, u2) = ci1, ci2
    d = p1 - p2
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return d, max(-1.0, d - math.sqrt(max(0.0, below))), min(1.0, d + math.sqrt(max(0.0, above)))


def newcombe_paired(both: int, only_first: int, only_second: int, neither: int,
                    z: float = Z95) -> tuple[float, float, float]:
    """(difference, low, high) of ``p1 - p2`` for paired successes: ``both`` pairs where both
    succeeded, ``only_first``/``only_second`` where one did, ``neither`` where none did.

    Newcombe (1998), "Improved confidence intervals for the difference between binomial
    proportions based on paired data", method 10: the Wilson intervals of the two rates
    combined with the correlation phi of the pairs, phi's numerator moved n/2 towards 0 when
    positive (so that a table without discordant pairs does not give a zero-width interval)."""
    n = both + only_first + only_second + neither
    if n <= 0:
        return 0.0, -1.0, 1.0
    s1, s2 = both + only_first, both + only_second
    f1, f2 = n - s1, n - s2
    denom = s1 * f1 * s2 * f2
    num = float(both * neither - only_first * only_second)
    if num > 0:
        num = max(0.0, num - n / 2)
    phi = num / math.sqrt(denom) if denom > 0 else 0.0
    return _square_and_add(s1 / n, wilson(s1, n, z), s2 / n, wilson(s2, n, z), phi)


def newcombe_independent(s1: int, n1: int, s2: int, n2: int,
                         z: float = Z95) -> tuple[float, float, float]:
    """(difference, low, high) of ``p1 - p2`` for two independent samples (Newcombe 1998,
    method 10 for unpaired data: square-and-add of the Wilson intervals)."""
    p1, p2 = s1 / max(1, n1), s2 / max(1, n2)
    return _square_and_add(p1, wilson(s1, n1, z), p2, wilson(s2, n2, z), 0.0)


def _t_cdf(t: float, df: int) -> float:
    """The t distribution function for a whole number of degrees of freedom (the finite
    series of Abramowitz and Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:
        total = term = math.cos(theta) if df > 1 else 0.0
        for k in range(3, df - 1, 2):
            term *= (k - 1) / k * c2
            total += term
        a = 2 / math.pi * (theta + s * total)
    else:
        total = term = 1.0
        for k in range(2, df - 1, 2):
            term *= (k - 1) / k * c2
            total += term
        a = s * total
    return 0.5 + a / 2


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (``p`` >= 0.5) of Student's t with ``df`` degrees of freedom: exact
    up to 30 (a fractional ``df`` rounded down, which widens the interval), the Cornish-Fisher
    expansion above (within 1e-5 there)."""
    if df < 1:
        raise ValueError(f"a t quantile needs at least 1 degree of freedom, not {df}")
    if df <= _EXACT_T_DF:
        k = int(df)
        lo, hi = 0.0, 1.0
        while _t_cdf(hi, k) < p:
            hi *= 2
        for _ in range(100):
            mid = (lo + hi) / 2
            if _t_cdf(mid, k) < p:
                lo = mid
            else:
                hi = mid
        return hi
    z = NormalDist().inv_cdf(p)
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def _variance(n: int, total: float, squares: float) -> float:
    """The sample variance from the count, sum and sum of squares (never below 0)."""
    return max(0.0, (squares - total * total / n) / (n - 1))


def mean_interval(n: int, total: float, squares: float,
                  level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the t interval of a mean from ``n`` values' sum and sum of squares
    (for paired data: the values are the per-pair differences)."""
    if n < 2:
        raise ValueError(f"an interval of a mean needs at least 2 values, not {n}")
    mean = total / n
    half = t_quantile(0.5 + level / 2, n - 1) * math.sqrt(_variance(n, total, squares) / n)
    return mean, mean - half, mean + half


def welch_interval(first: tuple[int, float, float], second: tuple[int, float, float],
                   level: float = 0.95) -> tuple[float, float, float]:
    """(difference, low, high) of the means of two independent samples, each given as
    (n, sum, sum of squares): Welch's t interval."""
    (n1, t1, q1), (n2, t2, q2) = first, second
    if n1 < 2 or n2 < 2:
        raise ValueError("an interval of two means needs at least 2 values in each")
    a, b = _variance(n1, t1, q1) / n1, _variance(n2, t2, q2) / n2
    d = t1 / n1 - t2 / n2
    if a + b == 0:
        return d, d, d
    df = (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
    half = t_quantile(0.5 + level / 2, df) * math.sqrt(a + b)
    return d, d - half, d + half

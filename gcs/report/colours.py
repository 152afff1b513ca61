"""Distinct colours for a report's series, however many there are (standard library only).

plotly's default palette has ten colours and starts over at the eleventh series, so two series
of a twelve-group report looked identical. ``distinct(n)`` starts from that palette and adds,
one at a time, the colour of a grid over sRGB that is farthest (in CIELAB, where distance
follows what the eye sees) from every colour already picked, leaving out colours too pale to
see on the white page and too dark to read error bars and labels on. Every colour of
``distinct(n)`` differs from every other.
"""

from __future__ import annotations

import functools
import math

#: plotly's default qualitative palette: the first ten series keep their familiar colours.
PLOTLY = ("#636efa", "#ef553b", "#00cc96", "#ab63fa", "#ffa15a", "#19d3f3", "#ff6692",
          "#b6e880", "#ff97ff", "#fecb52")
_STEPS = (0, 51, 102, 153, 204, 255)  # the candidate grid: 6 levels per channel
_MAX_LIGHTNESS = 88.0  # CIELAB L* above this is too pale on white
_MIN_LIGHTNESS = 30.0  # ... and below this too dark for black error bars and labels on it
#: How many colours ``distinct`` has before it starts over.
MAX_DISTINCT = 160


def _lab(hex_colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an ``#rrggbb`` colour."""
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """The CIE76 colour difference of two ``#rrggbb`` colours (about 2.3: just noticeable)."""
    return math.dist(_lab(a), _lab(b))


@functools.cache
def _sequence(n: int) -> tuple[str, ...]:
    picked = list(PLOTLY[:n])
    if n <= len(PLOTLY):
        return tuple(picked)
    grid = [f"#{r:02x}{g:02x}{b:02x}" for r in _STEPS for g in _STEPS for b in _STEPS]
    labs = {c: _lab(c) for c in grid}
    pool = [c for c in grid if _MIN_LIGHTNESS <= labs[c][0] <= _MAX_LIGHTNESS and c not in picked]
    nearest = {c: min(math.dist(labs[c], _lab(p)) for p in picked) for c in pool}
    while len(picked) < n and pool:
        best = max(pool, key=lambda c: (nearest[c], c))  # (ties: the larger hex string)
        picked.append(best)
        pool.remove(best)
        for c in pool:
            nearest[c] = min(nearest[c], math.dist(labs[c], labs[best]))
    unique = len(picked)
    while len(picked) < n:  # (more series than the grid has colours: no chart is readable then)
        picked.append(picked[len(picked) % unique])
    return tuple(picked)


def distinct(n: int) -> tuple[str, ...]:
    """``n`` colours, the first ten plotly's own, all different up to ``MAX_DISTINCT``."""
    return _sequence(max(0, n))

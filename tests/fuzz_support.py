"""Shared helpers of the fuzz suites: outcome counters, a hang bound, random garbage values."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

# Not a speed test: a call that takes longer than this is a hang (the budgets are seeded).
HANG_S = 2.0

GARBAGE: list[Any] = [
    None, True, False, 0, 1, -1, 2, 7, -3, 10**6, 2**63, -(2**63), 10**400, 1.5, -0.5,
    float("nan"), float("inf"), "", "x", "strike", "0x10", [], [0], [None], {}, {"a": 1},
    [[1, 2], 3], "\x00", "é" * 3,
]


def garbage(rng: random.Random) -> Any:
    """A random value of a random type (fresh containers each time)."""
    v = rng.choice(GARBAGE)
    if isinstance(v, (list, dict)):
        return type(v)(v)
    return v


class Outcomes:
    """Counts by outcome; ``report`` prints them (run pytest with ``-s`` to see them)."""

    def __init__(self, name: str, hang_s: float = HANG_S) -> None:
        self.name = name
        self.counts: Counter[str] = Counter()
        self.slowest = 0.0
        self.hang_s = hang_s  # a call slower than this is a hang

    def add(self, outcome: str) -> None:
        self.counts[outcome] += 1

    def timed(self, started: float, what: str) -> None:
        took = time.perf_counter() - started
        self.slowest = max(self.slowest, took)
        assert took < self.hang_s, f"{what} took {took:.2f} s (a hang: over {self.hang_s:.1f} s)"

    def report(self) -> str:
        total = sum(self.counts.values())
        rows = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        text = f"[{self.name}] {total} cases: {rows}; slowest call {self.slowest * 1000:.0f} ms"
        print(text)
        return text


def data_paths(x: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indices) into nested JSON-like data, the root first, in order."""
    out = [prefix]
    if isinstance(x, dict):
        for k, v in x.items():
            out += data_paths(v, (*prefix, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += data_paths(v, (*prefix, i))
    return out

"""The sums of a comparison, row by row in constant memory, and the differences they give.

Every arm of a comparison plays battle k of an encounter on the same seeds (common random
numbers), so the baseline's battle k and a variant's battle k are a pair: a variant's win rate,
turns, HP left, damage taken and per-card plays and damage are compared pair by pair. A pair's
numbers are integers, so the sums are exact and do not depend on the order they are added in
(the same for any number of workers or chunk size).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..report.stats import (
    mean_interval,
    newcombe_independent,
    newcombe_paired,
    welch_interval,
    wilson,
)
from .results import Row

#: The per-battle numbers compared besides the win rate (hp_left is 0 in a battle not won).
METRICS = ("turns", "hp_left", "damage_taken")
#: +1 where more is better, -1 where less is (a ranking puts the best variant first).
BETTER = {"win_rate": 1, "turns": -1, "hp_left": 1, "damage_taken": -1}


def values(row: Row) -> dict[str, int]:
    """A battle's numbers by key: the metrics, then ``plays:<card>`` and ``damage:<card>``."""
    out = {m: int(row[m]) for m in METRICS}
    for c, n in row["plays"].items():
        out["plays:" + c] = n
    for c, n in row["damage"].items():
        out["damage:" + c] = n
    return out


def _add(sums: dict[str, list[int]], key: str, v: int) -> None:
    s = sums.get(key)
    if s is None:
        sums[key] = [v, v * v]
    else:
        s[0] += v
        s[1] += v * v


def _merge(sums: dict[str, list[int]], other: dict[str, list[int]]) -> None:
    """Add ``other``'s sums and sums of squares into ``sums``, key by key."""
    for k, (s, q) in other.items():
        mine = sums.setdefault(k, [0, 0])
        mine[0] += s
        mine[1] += q


@dataclass
class ArmSums:
    """One arm on one encounter: battles, wins, and each key's sum and sum of squares (a key a
    battle lacks counts as 0 there)."""

    battles: int = 0
    wins: int = 0
    unfinished: int = 0
    sums: dict[str, list[int]] = field(default_factory=dict)

    def add(self, row: Row, vals: dict[str, int]) -> None:
        """Count one battle."""
        self.battles += 1
        self.wins += bool(row["won"])
        self.unfinished += bool(row["unfinished"])
        for k, v in vals.items():
            _add(self.sums, k, v)

    def merge(self, other: ArmSums) -> None:
        """Add ``other``'s battles (another encounter's, for the all-encounters numbers)."""
        self.battles += other.battles
        self.wins += other.wins
        self.unfinished += other.unfinished
        _merge(self.sums, other.sums)

    def moments(self, key: str) -> tuple[int, float, float]:
        """(n, sum, sum of squares) of ``key``."""
        s, q = self.sums.get(key, (0, 0))
        return self.battles, s, q

    def mean(self, key: str) -> float:
        return self.sums.get(key, (0, 0))[0] / max(1, self.battles)

    def to_dict(self) -> dict[str, Any]:
        """The arm's own numbers: win rate (95% Wilson interval) and means."""
        lo, hi = wilson(self.wins, self.battles)
        return {"battles": self.battles, "wins": self.wins,
                "win_rate": _r(self.wins / max(1, self.battles)), "win_rate_ci95": [_r(lo), _r(hi)],
                "unfinished": self.unfinished,
                **{f"mean_{m}": _r(self.mean(m)) for m in METRICS}}


@dataclass
class PairSums:
    """A variant against the baseline on one encounter: the 2x2 table of wins (``both``,
    ``variant_only``, ``baseline_only``, ``neither``) and, per key, the sum and sum of squares
    of the per-pair differences (variant minus baseline)."""

    both: int = 0
    variant_only: int = 0
    baseline_only: int = 0
    neither: int = 0
    sums: dict[str, list[int]] = field(default_factory=dict)

    @property
    def pairs(self) -> int:
        return self.both + self.variant_only + self.baseline_only + self.neither

    def add(self, base: Row, base_vals: dict[str, int], row: Row, vals: dict[str, int]) -> None:
        """Count one pair: the baseline's battle and the variant's battle on the same seed."""
        w, b = bool(row["won"]), bool(base["won"])
        if w and b:
            self.both += 1
        elif w:
            self.variant_only += 1
        elif b:
            self.baseline_only += 1
        else:
            self.neither += 1
        for k, v in vals.items():
            _add(self.sums, k, v - base_vals.get(k, 0))
        for k, v in base_vals.items():
            if k not in vals:
                _add(self.sums, k, -v)

    def merge(self, other: PairSums) -> None:
        """Add ``other``'s pairs (another encounter's)."""
        self.both += other.both
        self.variant_only += other.variant_only
        self.baseline_only += other.baseline_only
        self.neither += other.neither
        _merge(self.sums, other.sums)


def _r(x: float) -> float:
    return round(x, 6)


def interval(diff: float, low: float, high: float) -> dict[str, Any]:
    """``{"diff", "low", "high", "significant"}``: significant when 0 is outside [low, high]."""
    return {"diff": _r(diff), "low": _r(low), "high": _r(high),
            "significant": low > 0 or high < 0}


def _key_delta(key: str, pair: PairSums | None, arm: ArmSums, base: ArmSums) -> dict[str, Any]:
    if pair is not None:
        s, q = pair.sums.get(key, (0, 0))
        return interval(*mean_interval(pair.pairs, s, q))
    return interval(*welch_interval(arm.moments(key), base.moments(key)))


def win_delta(arm: ArmSums, base: ArmSums, pair: PairSums | None) -> dict[str, Any]:
    """The win-rate difference and its interval: Newcombe's for paired proportions, or for
    independent ones when ``pair`` is None."""
    if pair is not None:
        win = newcombe_paired(pair.both, pair.variant_only, pair.baseline_only, pair.neither)
    else:
        win = newcombe_independent(arm.wins, arm.battles, base.wins, base.battles)
    return interval(*win)


def deltas(arm: ArmSums, base: ArmSums, pair: PairSums | None) -> dict[str, Any]:
    """A variant against the baseline: win rate, the metrics and each card's plays and damage
    per battle, each as an interval; ``pair`` None: the arms were played on their own seeds
    (independent samples)."""
    out: dict[str, Any] = {"win_rate": win_delta(arm, base, pair)}
    for m in METRICS:
        out[m] = _key_delta(m, pair, arm, base)
    cards = sorted({k.partition(":")[2] for k in (*arm.sums, *base.sums) if ":" in k})
    out["cards"] = {c: {"plays": _key_delta("plays:" + c, pair, arm, base),
                        "damage": _key_delta("damage:" + c, pair, arm, base)} for c in cards}
    if pair is not None:
        out["discordant"] = {"variant_only": pair.variant_only,
                             "baseline_only": pair.baseline_only}
    return out


def half_width(d: dict[str, Any]) -> float:
    """Half the width of an interval from ``interval``."""
    return (float(d["high"]) - float(d["low"])) / 2


def pooled(parts: Iterable[ArmSums]) -> ArmSums:
    """One arm's sums over several encounters."""
    total = ArmSums()
    for p in parts:
        total.merge(p)
    return total


def pooled_pairs(parts: Iterable[PairSums]) -> PairSums:
    """One variant's pairs over several encounters."""
    total = PairSums()
    for p in parts:
        total.merge(p)
    return total

"""Paired comparisons: a baseline and variants (another pack, an edited deck, another policy)
played on the same seeds, as one streamed, resumable sweep on any backend.

Battle k of an encounter uses the same game and policy seeds in every arm (common random
numbers), so most of the noise of a difference cancels. The sweep runs in blocks of ``chunk``
battles: block 0 (battles 0..chunk-1) of encounter 0 for every arm (the baseline first), then of
encounter 1, ..., then block 1. Rows stream to the results file in that order, so a file is a
prefix of the sweep (a resume counts its rows), and ``until`` can stop at the end of any block
once every win-rate interval is narrow enough: the same block for any number of workers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GameError
from ..rng import derive
from .backends import Backend, InProcess, Task
from .deckedit import Deck
from .jobs import Job, format_deck, play_chunk
from .paired import (
    BETTER,
    ArmSums,
    PairSums,
    deltas,
    half_width,
    pooled,
    pooled_pairs,
    values,
    win_delta,
)
from .results import ResultsError, Row, RowWriter, open_writer
from .runner import battle_seed
from .sweep import resume_from

#: The policy ``gcs compare`` plays with when none is given: the heuristic player
#: (``gcs.agents``), a player worth balancing for (it wins what a human wins with the starter
#: deck) and fast enough for sweeps; greedy plays a Defend into an Enrage.
DEFAULT_POLICY = "heuristic"

Progress = Callable[[int, int], None]


class CompareError(GameError):
    """A comparison that cannot be set up (nothing to compare, a bad target)."""


@dataclass(frozen=True)
class Arm:
    """One configuration: a pack (None: the bundled one), a deck (None: the character's
    starting deck in that pack) and a policy. ``kind`` says what a variant changes (``deck``,
    ``add``, ``remove``, ``upgrade``, ``pack``, ``policy``; the baseline's is ``baseline``) and
    ``card`` which card, for the edits of a card-value sweep; ``origin`` says where a pack read
    from git came from (``DIR@SHA``), its directory being a temporary one."""

    label: str
    kind: str
    pack: str | None
    deck: Deck | None
    policy: str
    card: str = ""
    origin: str = ""  # where the pack came from when its directory is a temporary copy

    def describe(self) -> dict[str, Any]:
        """What the arm is, for the JSON output and the report."""
        return {"label": self.label, "kind": self.kind, "card": self.card,
                "pack": self.origin or self.pack or "", "deck": format_deck(self.deck),
                "policy": self.policy}


@dataclass(frozen=True)
class Plan:
    """``battles`` battles (with ``until``: at most that many) of each encounter for every arm,
    ``arms[0]`` the baseline, in blocks of ``chunk``. ``until``: stop at the end of the first
    block after which every win-rate interval against the baseline is at most this wide on each
    side (a fraction: 0.01 is 1 percentage point). ``paired`` False plays each arm on its own
    seeds (to measure what the pairing saves)."""

    arms: tuple[Arm, ...]
    encounters: tuple[str, ...]
    seed: int
    battles: int
    chunk: int = 250
    until: float | None = None
    paired: bool = True
    character: str | None = None
    keyed_shuffle: bool = False  # every arm shuffles by keys (``BattleRules.keyed_shuffle``)
    start_hp: int = 0  # the player's HP at the start of each battle (0: full)

    def __post_init__(self) -> None:
        if len(self.arms) < 2:
            raise CompareError("a comparison needs a baseline and at least one variant")
        if not self.encounters:
            raise CompareError("a comparison needs at least one encounter")
        if self.battles < 2 or self.chunk < 1:
            raise CompareError("a comparison needs at least 2 battles per arm, chunks of 1 or more")
        if self.start_hp < 0:
            raise CompareError(f"start HP {self.start_hp}: 1 or more (0: full HP)")
        if self.until is not None and not 0 < self.until < 1:
            raise CompareError(f"until {self.until!r}: a half-width between 0 and 100 pp")

    def arm_seed(self, arm: int) -> int:
        """The sweep seed of an arm: the plan's own when paired, one per arm when not."""
        return self.seed if self.paired or arm == 0 else derive(self.seed, f"arm#{arm}")

    def job(self, enc: int, arm: int) -> Job:
        """The job of arm ``arm`` on encounter ``enc``."""
        a = self.arms[arm]
        return Job(a.pack, self.encounters[enc], a.policy, self.arm_seed(arm), a.deck,
                   self.character, self.keyed_shuffle, self.start_hp)

    @property
    def total(self) -> int:
        """Rows in the whole sweep (with ``until``: at most)."""
        return self.battles * len(self.encounters) * len(self.arms)

    def _block(self, start: int) -> int:
        """Battles in the block that starts at battle ``start``."""
        return min(self.chunk, self.battles - start)

    def place(self, n: int) -> tuple[int, int, int]:
        """(encounter, arm, battle) of row ``n`` of the sweep."""
        per_block = self.chunk * len(self.encounters) * len(self.arms)
        b, rest = divmod(n, per_block)
        size = self._block(b * self.chunk)
        enc, rest = divmod(rest, size * len(self.arms))
        arm, k = divmod(rest, size)
        return enc, arm, b * self.chunk + k

    def block_end(self, n: int) -> bool:
        """Whether row ``n`` is the last row of its block."""
        per_block = self.chunk * len(self.encounters) * len(self.arms)
        return (n + 1) % per_block == 0 or n + 1 == self.total

    def tasks(self, done: int = 0) -> Iterator[Task]:
        """The chunks still to run after the first ``done`` rows, in row order (the arguments
        of ``play_chunk``; a chunk half done in the file starts where the file stops)."""
        pos = 0
        for start in range(0, self.battles, self.chunk):
            size = self._block(start)
            for e in range(len(self.encounters)):
                for a in range(len(self.arms)):
                    skip = min(size, max(0, done - pos))
                    pos += size
                    if skip < size:
                        yield (self.job(e, a), start + skip, start + size,
                               e * len(self.arms) + a, None, True)

    @functools.cached_property
    def jobs(self) -> tuple[Job, ...]:
        """Every (encounter, arm) job, job ``e * arms + a`` at index ``e * arms + a``."""
        return tuple(self.job(e, a) for e in range(len(self.encounters))
                     for a in range(len(self.arms)))

    def job_of_row(self, n: int) -> int:
        """The job of row ``n`` (the last one for a row past the end)."""
        if n >= self.total:
            return len(self.encounters) * len(self.arms) - 1
        e, a, _ = self.place(n)
        return e * len(self.arms) + a

    def check_row(self, n: int, row: Row, where: str, pack_id: str) -> None:
        """Raise unless ``row`` is row ``n`` of this comparison on the pack ``pack_id`` (a
        resume's check of every column the comparison decides)."""
        if n >= self.total:
            raise ResultsError(f"{where}: more rows ({n + 1}+) than this comparison has "
                               f"({self.total})")
        e, a, k = self.place(n)
        job = self.job(e, a)
        want = {"job": e * len(self.arms) + a, "battle": k, "encounter": job.encounter,
                "deck": format_deck(job.deck), "policy": job.policy,
                "character": job.character or "", "pack": pack_id, "sweep_seed": job.seed,
                "seed": battle_seed(job.seed, k)}
        diff = [f"{c} {row[c]!r} != {v!r}" for c, v in want.items() if row[c] != v]
        if diff:
            raise ResultsError(f"{where} was written by another comparison (its arms, "
                               "encounters, seed or --chunk differ), cannot resume it: "
                               + "; ".join(diff))


@dataclass
class Tally:
    """The sums of a comparison so far, fed its rows in sweep order: per encounter, each arm's
    ``ArmSums`` and each variant's ``PairSums`` against the baseline. Holds one block's
    baseline rows of one encounter, to pair the variants' rows with, and nothing else per row."""

    plan: Plan
    rows: int = 0
    arms: list[list[ArmSums]] = field(default_factory=list)
    pairs: list[list[PairSums]] = field(default_factory=list)
    _base: dict[int, tuple[Row, dict[str, int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n_arms = len(self.plan.arms)
        self.arms = [[ArmSums() for _ in range(n_arms)] for _ in self.plan.encounters]
        self.pairs = [[PairSums() for _ in range(n_arms)] for _ in self.plan.encounters]

    def add(self, row: Row) -> None:
        """Count the next row of the sweep."""
        e, a, k = self.plan.place(self.rows)
        self.rows += 1
        vals = values(row)
        self.arms[e][a].add(row, vals)
        if not self.plan.paired:
            return
        if a == 0:
            if k % self.plan.chunk == 0:
                self._base.clear()  # a new block: the previous one's pairs are all counted
            self._base[k] = (row, vals)
        else:
            base, base_vals = self._base[k]
            self.pairs[e][a].add(base, base_vals, row, vals)

    @property
    def battles(self) -> int:
        """Battles counted per arm and encounter (the baseline's, on the last encounter)."""
        return self.arms[-1][-1].battles

    def widest(self) -> float:
        """The widest half-width of a variant's win-rate interval, on any encounter or over all
        of them (infinite before two battles)."""
        if self.battles < 2:
            return float("inf")
        worst = 0.0
        for a in range(1, len(self.plan.arms)):
            for e in (*range(len(self.plan.encounters)), None):
                worst = max(worst, half_width(win_delta(self.arm_sums(a, e), self.arm_sums(0, e),
                                                        self._pair(a, e))))
        return worst

    def arm_sums(self, arm: int, enc: int | None = None) -> ArmSums:
        """An arm's sums on encounter ``enc`` (None: all encounters)."""
        if enc is not None:
            return self.arms[enc][arm]
        return pooled(self.arms[e][arm] for e in range(len(self.plan.encounters)))

    def delta(self, arm: int, enc: int | None = None) -> dict[str, Any]:
        """Variant ``arm`` against the baseline on ``enc`` (None: all encounters, every pair
        of every encounter taken as one sample)."""
        return deltas(self.arm_sums(arm, enc), self.arm_sums(0, enc), self._pair(arm, enc))

    def _pair(self, arm: int, enc: int | None) -> PairSums | None:
        if not self.plan.paired:
            return None
        if enc is not None:
            return self.pairs[enc][arm]
        return pooled_pairs(self.pairs[e][arm] for e in range(len(self.plan.encounters)))


@dataclass
class Outcome:
    """A finished (or stopped) comparison: its tally, and whether ``until`` was reached."""

    tally: Tally
    reached: bool | None  # None: no target

    def to_dict(self, rank_by: str = "win_rate") -> dict[str, Any]:
        """The comparison as one JSON-ready object (see docs/simulation.md)."""
        t, plan = self.tally, self.tally.plan
        encs = plan.encounters

        def arm_numbers(a: int) -> dict[str, Any]:
            d = {**plan.arms[a].describe(), **t.arm_sums(a).to_dict()}
            d["encounters"] = {enc: t.arm_sums(a, e).to_dict() for e, enc in enumerate(encs)}
            return d

        variants = []
        for a in range(1, len(plan.arms)):
            v = arm_numbers(a)
            v["vs_baseline"] = t.delta(a)
            for e, enc in enumerate(encs):
                v["encounters"][enc]["vs_baseline"] = t.delta(a, e)
            variants.append(v)
        order = ranking(variants, rank_by)
        for rank, i in enumerate(order, 1):
            variants[i]["rank"] = rank
        return {
            "policy": plan.arms[0].policy, "seed": plan.seed, "paired": plan.paired,
            "shuffle": "keyed" if plan.keyed_shuffle else "fisher-yates",
            "start_hp": plan.start_hp,
            "encounters": list(encs), "character": plan.character or "",
            "battles": t.battles,
            "until": None if plan.until is None else {
                "half_width": plan.until, "reached": bool(self.reached), "battles": t.battles,
                "widest": round(t.widest(), 6)},
            "ranked_by": rank_by,
            "baseline": arm_numbers(0),
            "variants": variants,
            "changes": changes(variants),
        }


def ranking(variants: list[dict[str, Any]], by: str) -> list[int]:
    """Indexes of ``variants`` best first by their difference in ``by`` over all encounters
    (ties: the better HP left, then the order given)."""
    if by not in BETTER:
        raise CompareError(f"cannot rank by {by!r} (one of {', '.join(BETTER)})")
    sign = BETTER[by]

    def key(i: int) -> tuple[float, float, int]:
        vs = variants[i]["vs_baseline"]
        return (-sign * vs[by]["diff"], -vs["hp_left"]["diff"], i)

    return sorted(range(len(variants)), key=key)


def changes(variants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every significant difference: per variant, over all encounters and per encounter, the
    win rate, the metrics and each card's plays and damage per battle that moved."""
    out: list[dict[str, Any]] = []
    for v in variants:
        scopes = [("all", v["vs_baseline"])]
        scopes += [(enc, d["vs_baseline"]) for enc, d in v["encounters"].items()]
        for enc, vs in scopes:
            for metric in ("win_rate", "turns", "hp_left", "damage_taken"):
                if vs[metric]["significant"]:
                    out.append({"variant": v["label"], "encounter": enc, "what": metric,
                                **vs[metric]})
            for card, d in vs["cards"].items():
                for what in ("plays", "damage"):
                    if d[what]["significant"]:
                        out.append({"variant": v["label"], "encounter": enc,
                                    "what": f"{what}:{card}", **d[what]})
    return out


def run_compare(plan: Plan, backend: Backend | None = None, *, out: str | Path | None = None,
                resume: bool = False, progress: Progress | None = None) -> Outcome:
    """Run ``plan`` (resuming ``out``'s rows when ``resume``) and return its outcome.

    Memory does not grow with the sweep: a few chunks in flight, the sums, and one block's
    baseline rows of one encounter."""
    backend = backend if backend is not None else InProcess()
    tally = Tally(plan)
    if out is not None and resume:
        resume_from(plan, out, each=tally.add)
    if plan.until is not None and tally.rows and plan.block_end(tally.rows - 1) \
            and tally.widest() <= plan.until:
        return Outcome(tally, True)
    writer: RowWriter | None = open_writer(out, resume=resume) if out is not None else None
    reached: bool | None = None if plan.until is None else False
    try:
        if progress and tally.rows:
            progress(tally.rows, plan.total)
        for chunk in backend.map(play_chunk, plan.tasks(tally.rows)):
            if writer is not None:
                writer.write(chunk.rows)
            for row in chunk.rows:
                tally.add(row)
            if progress:
                progress(tally.rows, plan.total)
            if plan.until is not None and plan.block_end(tally.rows - 1) \
                    and tally.widest() <= plan.until:
                reached = True
                break
    finally:
        if writer is not None:
            writer.close()
    return Outcome(tally, reached)

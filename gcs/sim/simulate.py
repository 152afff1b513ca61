"""Many seeded battles on local processes; results do not depend on the number of workers."""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..content.db import Content
from .policies import make_policy
from .runner import battle_seed, new_game, play_battle, policy_seed


@dataclass
class Summary:
    """Aggregates of a simulation (sums, so chunk order does not matter)."""

    battles: int = 0
    wins: int = 0
    unfinished: int = 0
    turns: int = 0
    hp_left_won: int = 0
    decisions: int = 0
    turn_hist: dict[int, int] = field(default_factory=dict)
    plays: dict[str, int] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)

    def add(self, other: Summary) -> None:
        self.battles += other.battles
        self.wins += other.wins
        self.unfinished += other.unfinished
        self.turns += other.turns
        self.hp_left_won += other.hp_left_won
        self.decisions += other.decisions
        for t, v in other.turn_hist.items():
            self.turn_hist[t] = self.turn_hist.get(t, 0) + v
        for d, o in ((self.plays, other.plays), (self.damage, other.damage)):
            for k, v in o.items():
                d[k] = d.get(k, 0) + v

    def to_dict(self) -> dict[str, Any]:
        n = max(1, self.battles)
        return {
            "battles": self.battles,
            "wins": self.wins,
            "win_rate": round(self.wins / n, 4),
            "unfinished": self.unfinished,
            "mean_turns": round(self.turns / n, 3),
            "mean_hp_left_when_won": round(self.hp_left_won / max(1, self.wins), 3),
            "mean_decisions": round(self.decisions / n, 3),
            "turns_histogram": {str(k): v for k, v in sorted(self.turn_hist.items())},
            "plays_by_card": dict(sorted(self.plays.items())),
            "damage_by_card": dict(sorted(self.damage.items())),
        }


@dataclass(frozen=True)
class Job:
    pack: str | None  # a pack directory, or None for the bundled pack
    encounter: str
    policy: str
    seed: int
    deck: tuple[str, ...] | None
    character: str | None


def _content(pack: str | None) -> Content:
    from ..content.loader import pack_content

    return pack_content(pack)


def run_chunk(job: Job, start: int, stop: int, content: Content | None = None) -> Summary:
    """Battles ``start..stop-1`` of a simulation, aggregated."""
    c = content if content is not None else _content(job.pack)
    out = Summary()
    for i in range(start, stop):
        g = new_game(c, battle_seed(job.seed, i), job.deck, job.character)
        r = play_battle(g, job.encounter, make_policy(job.policy, policy_seed(job.seed, i)),
                        take_rewards=False)
        out.battles += 1
        out.wins += r.won
        out.unfinished += r.unfinished
        out.turns += r.turns
        out.decisions += r.decisions
        if r.won:
            out.hp_left_won += r.hp_left
        out.turn_hist[r.turns] = out.turn_hist.get(r.turns, 0) + 1
        for k, v in r.plays.items():
            out.plays[k] = out.plays.get(k, 0) + v
        for k, v in r.damage.items():
            out.damage[k] = out.damage.get(k, 0) + v
    return out


def _chunks(n: int, size: int) -> list[tuple[int, int]]:
    return [(i, min(n, i + size)) for i in range(0, n, size)]


def simulate(job: Job, battles: int, workers: int = 1, chunk: int = 250,
             progress: Callable[[int, int], None] | None = None,
             content: Content | None = None) -> Summary:
    """Run ``battles`` seeded battles on ``workers`` processes (1: in this process)."""
    total = Summary()
    done = 0
    parts = _chunks(battles, chunk)
    if workers <= 1:
        c = content if content is not None else _content(job.pack)
        for a, b in parts:
            total.add(run_chunk(job, a, b, c))
            done += b - a
            if progress:
                progress(done, battles)
        return total
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_chunk, job, a, b) for a, b in parts]
        for f, (a, b) in zip(futures, parts, strict=True):
            total.add(f.result())
            done += b - a
            if progress:
                progress(done, battles)
    return total


class ProgressBar:
    """A one-line progress bar on stderr, redrawn per finished chunk."""

    def __init__(self, label: str, width: int = 30, stream: Any = None) -> None:
        self.label = label
        self.width = width
        self.stream = stream or sys.stderr

    def __call__(self, done: int, total: int) -> None:
        frac = done / max(1, total)
        filled = int(frac * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        end = "\n" if done >= total else ""
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}{end}")
        self.stream.flush()


def format_summary(job: Job, s: Summary, workers: int) -> str:
    d = s.to_dict()
    lines = [
        f"encounter      {job.encounter}",
        f"policy         {job.policy}  seed {job.seed}  workers {workers}",
        f"battles        {d['battles']}",
        f"win rate       {d['win_rate'] * 100:.2f}%  ({d['wins']} won"
        + (f", {d['unfinished']} unfinished: stalemates at the turn cap)" if d["unfinished"]
           else ")"),
        f"turns          mean {d['mean_turns']:.2f}",
        f"hp left (won)  mean {d['mean_hp_left_when_won']:.2f}",
        f"decisions      mean {d['mean_decisions']:.2f} per battle",
        "card             plays/battle   damage/battle",
    ]
    n = max(1, s.battles)
    for card in sorted(set(s.plays) | set(s.damage)):
        lines.append(f"  {card:<16} {s.plays.get(card, 0) / n:>10.2f}   "
                     f"{s.damage.get(card, 0) / n:>12.2f}")
    return "\n".join(lines)


def parse_deck(text: str | None) -> tuple[str, ...] | None:
    """``strike*5,defend*4,bash`` -> card ids (``+`` suffix not supported here)."""
    if not text:
        return None
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, count = part.partition("*")
        out.extend([name.strip()] * (int(count) if count else 1))
    return tuple(out)


"""One simulation job (encounter, deck, policy, seed), its battles as result rows, and the
aggregate ``Summary``; a battle's numbers depend on the job and its index only."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from ..content.db import Content
from ..content.limits import MAX_DECK
from ..errors import BattleError, GameError, PolicyError
from ..rules import BattleRules
from .policies import make_policy
from .results import Row
from .runner import battle_seed, new_game, play_battle, policy_seed

KEYED_RULES = BattleRules(keyed_shuffle=True)


@dataclass
class Summary:
    """Aggregates of a simulation (sums, so chunk order does not matter)."""

    battles: int = 0
    wins: int = 0
    unfinished: int = 0
    turns: int = 0
    hp_left_won: int = 0
    decisions: int = 0
    damage_taken: int = 0
    turn_hist: dict[int, int] = field(default_factory=dict)
    plays: dict[str, int] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    block: dict[str, int] = field(default_factory=dict)

    def add(self, other: Summary) -> None:
        self.battles += other.battles
        self.wins += other.wins
        self.unfinished += other.unfinished
        self.turns += other.turns
        self.hp_left_won += other.hp_left_won
        self.decisions += other.decisions
        self.damage_taken += other.damage_taken
        for t, v in other.turn_hist.items():
            self.turn_hist[t] = self.turn_hist.get(t, 0) + v
        for d, o in ((self.plays, other.plays), (self.damage, other.damage),
                     (self.block, other.block)):
            for k, v in o.items():
                d[k] = d.get(k, 0) + v

    def add_row(self, row: Row) -> None:
        """Count one battle's result row."""
        self.battles += 1
        self.wins += row["won"]
        self.unfinished += row["unfinished"]
        self.turns += row["turns"]
        self.decisions += row["actions"]
        self.damage_taken += row["damage_taken"]
        if row["won"]:
            self.hp_left_won += row["hp_left"]
        t = row["turns"]
        self.turn_hist[t] = self.turn_hist.get(t, 0) + 1
        for d, o in ((self.plays, row["plays"]), (self.damage, row["damage"]),
                     (self.block, row["block"])):
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
            "mean_damage_taken": round(self.damage_taken / n, 3),
            "turns_histogram": {str(k): v for k, v in sorted(self.turn_hist.items())},
            "plays_by_card": dict(sorted(self.plays.items())),
            # the HP the enemies lost, in all battles; damage_by_card shares it out exactly
            # (docs/simulation.md, "Damage credit")
            "damage_dealt": sum(self.damage.values()),
            "damage_by_card": dict(sorted(self.damage.items())),
            # the block the player gained, in all battles; block_by_card shares it out exactly
            # (docs/simulation.md, "Block credit")
            "block_gained": sum(self.block.values()),
            "block_by_card": dict(sorted(self.block.items())),
        }


@dataclass(frozen=True)
class Job:
    """What a simulation plays: battles of ``encounter`` with ``deck`` (None: the character's
    starting deck), decided by the named ``policy``, seeded from ``seed``."""

    pack: str | None  # a pack directory, or None for the bundled pack
    encounter: str
    policy: str
    seed: int
    deck: tuple[str, ...] | None
    character: str | None
    # ``BattleRules.keyed_shuffle`` (``gcs compare --keyed-shuffle``: the arms' shared cards
    # keep one order) and the player's HP at the start (0: the character's full HP)
    keyed_shuffle: bool = False
    start_hp: int = 0


@functools.cache
def pack_of(pack: str | None) -> Content:
    """The pack of a job, loaded once per process (None: the bundled one)."""
    from ..content.loader import pack_content

    return pack_content(pack)


def play_row(job: Job, index: int, content: Content, job_index: int = 0,
             record: bool = False) -> tuple[Row, list[str]]:
    """Battle ``index`` of ``job`` as a result row (and its actions when ``record``)."""
    seed = battle_seed(job.seed, index)
    where = (f"battle {index} of {job.encounter!r} (job {job_index}, game seed {seed}, policy "
             f"{job.policy!r})")
    # (a worker sends the error back pickled: each is made again from its text, ``from None``)
    try:
        policy = make_policy(job.policy, policy_seed(job.seed, index))
    except ValueError as exc:
        raise PolicyError(f"{where}: {exc}") from None
    try:
        g = new_game(content, seed, job.deck, job.character,
                     rules=KEYED_RULES if job.keyed_shuffle else None)
        if job.start_hp:
            g._e.s.hp = min(job.start_hp, g._e.s.max_hp)  # (the run's HP, as an act arrives)
        r = play_battle(g, job.encounter, policy, take_rewards=False, record=record)
    except PolicyError as exc:
        raise PolicyError(f"{where}: {exc}") from None
    except GameError as exc:
        raise BattleError(f"{where}: {type(exc).__name__}: {exc}") from None
    row: Row = {
        "job": job_index, "encounter": job.encounter, "deck": format_deck(job.deck),
        "policy": job.policy, "character": job.character or "", "pack": content.pack_id,
        "sweep_seed": job.seed, "battle": index, "seed": seed, "won": r.won,
        "unfinished": r.unfinished, "turns": r.turns, "hp_left": r.hp_left,
        "damage_taken": r.damage_taken, "actions": r.decisions,
        "plays": dict(sorted(r.plays.items())), "damage": dict(sorted(r.damage.items())),
        "block": dict(sorted(r.block.items())),
    }
    return row, r.actions


def run_rows(job: Job, start: int, stop: int, job_index: int = 0,
             content: Content | None = None) -> list[Row]:
    """Battles ``start..stop-1`` of ``job``, one result row each (a chunk of a sweep)."""
    return play_chunk(job, start, stop, job_index, content).rows


def run_chunk(job: Job, start: int, stop: int, content: Content | None = None) -> Summary:
    """Battles ``start..stop-1`` of a simulation, aggregated."""
    return play_chunk(job, start, stop, 0, content, keep_rows=False).summary


@dataclass
class Chunk:
    """What a worker sends back for one chunk of a sweep: the chunk's ``Summary`` and, only
    when the driver writes or forwards rows, the rows themselves (else an empty list, so a
    plain summary sends a few hundred bytes per chunk, not one dict per battle)."""

    job: int
    summary: Summary
    rows: list[Row]


def play_chunk(job: Job, start: int, stop: int, job_index: int = 0,
               content: Content | None = None, keep_rows: bool = True) -> Chunk:
    """Battles ``start..stop-1`` of ``job``, summed on the spot; their rows kept if ``keep_rows``.

    The summary is the same as adding every row in order on the driver (``Summary.add`` of
    per-chunk sums, in chunk order, gives the same numbers and the same first-seen key order
    as ``add_row`` of every row), so where the sums are made does not change any output."""
    c = content if content is not None else pack_of(job.pack)
    summary = Summary()
    rows: list[Row] = []
    for i in range(start, stop):
        row = play_row(job, i, c, job_index)[0]
        summary.add_row(row)
        if keep_rows:
            rows.append(row)
    return Chunk(job_index, summary, rows)


def parse_deck(text: str | None) -> tuple[str, ...] | None:
    """``strike*5,defend*4,bash+`` -> card ids, ``id+`` for an upgraded copy (as pack YAML
    writes ``card+``)."""
    if not text:
        return None
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, count = part.partition("*")
        if count and not count.strip().isdigit():
            raise ValueError(f"bad deck entry {part!r}: the count after '*' is a whole number")
        n = int(count) if count else 1
        if len(out) + n > MAX_DECK:  # (checked before the list is made: strike*10**9 is refused)
            raise ValueError(f"bad deck {text[:80]!r}: more than {MAX_DECK} cards")
        out.extend([name.strip()] * n)
    return tuple(out)



def format_deck(deck: tuple[str, ...] | None) -> str:
    """The inverse of ``parse_deck``: ``strike*5,defend*4,bash`` ("" for None)."""
    if not deck:
        return ""
    parts: list[str] = []
    i = 0
    while i < len(deck):
        j = i
        while j < len(deck) and deck[j] == deck[i]:
            j += 1
        parts.append(deck[i] if j - i == 1 else f"{deck[i]}*{j - i}")
        i = j
    return ",".join(parts)

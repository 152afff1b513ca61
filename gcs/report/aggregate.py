"""The report's numbers, summed row by row in constant memory (standard library only)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .stats import wilson

Row = dict[str, Any]


@dataclass
class CardStats:
    """One card in one group: plays, damage, block, and the battles it was played in."""

    plays: int = 0
    damage: int = 0
    block: int = 0
    battles_played: int = 0
    wins_played: int = 0


@dataclass
class GroupStats:
    """All battles of one encounter and deck."""

    encounter: str
    deck: str
    battles: int = 0
    wins: int = 0
    unfinished: int = 0
    turns: dict[int, int] = field(default_factory=dict)
    hp_left_won: dict[int, int] = field(default_factory=dict)
    damage_taken: int = 0
    policies: dict[str, int] = field(default_factory=dict)  # policy -> battles it played
    cards: dict[str, CardStats] = field(default_factory=dict)
    # the battles worth a look (``NOTABLE``): why -> (sort key, the row's number and summary)
    notable: dict[str, tuple[tuple[int, int], dict[str, Any]]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``encounter`` or ``encounter | deck``."""
        return self.encounter if not self.deck else f"{self.encounter} | {self.deck}"

    def add(self, row: Row, number: int = -1) -> None:
        """Count one battle (``number``: its row in the results file, from 0)."""
        won = bool(row["won"])
        for why, wanted, key in NOTABLE:
            if wanted is None or wanted == won:
                k = (key(row), number)  # (the first such row wins a tie)
                if why not in self.notable or k < self.notable[why][0]:
                    self.notable[why] = (k, {"why": why, "row": number, "battle": row["battle"],
                                             "won": won, "turns": row["turns"],
                                             "hp_left": row["hp_left"]})
        self.battles += 1
        self.wins += won
        self.unfinished += bool(row["unfinished"])
        self.turns[row["turns"]] = self.turns.get(row["turns"], 0) + 1
        if won:
            self.hp_left_won[row["hp_left"]] = self.hp_left_won.get(row["hp_left"], 0) + 1
        self.damage_taken += row["damage_taken"]
        self.policies[row["policy"]] = self.policies.get(row["policy"], 0) + 1
        block = row["block"]
        for cid in sorted(set(row["plays"]) | set(row["damage"]) | set(block)):
            cs = self.cards.setdefault(cid, CardStats())
            n = row["plays"].get(cid, 0)
            cs.plays += n
            cs.damage += row["damage"].get(cid, 0)
            cs.block += block.get(cid, 0)
            if n:
                cs.battles_played += 1
                cs.wins_played += won

    def win_rate(self) -> tuple[float, float, float]:
        """Win rate and its 95% Wilson interval."""
        return (self.wins / max(1, self.battles), *wilson(self.wins, self.battles))

    def card_rows(self) -> list[dict[str, Any]]:
        """Per card: plays, damage and block per battle, win rate when played and when not."""
        out = []
        for cid in sorted(self.cards):
            c = self.cards[cid]
            n_not, w_not = self.battles - c.battles_played, self.wins - c.wins_played
            out.append({
                "card": cid, "plays": c.plays, "damage": c.damage,
                "plays_per_battle": c.plays / max(1, self.battles),
                "damage_per_battle": c.damage / max(1, self.battles),
                "block": c.block, "block_per_battle": c.block / max(1, self.battles),
                "battles_played": c.battles_played,
                "win_rate_played": c.wins_played / c.battles_played if c.battles_played else None,
                "ci_played": wilson(c.wins_played, c.battles_played),
                "battles_not_played": n_not,
                "win_rate_not_played": w_not / n_not if n_not else None,
                "ci_not_played": wilson(w_not, n_not),
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        """Everything the report shows, as JSON-ready data (embedded in the HTML)."""
        rate, lo, hi = self.win_rate()
        return {"encounter": self.encounter, "deck": self.deck, "battles": self.battles,
                "wins": self.wins, "unfinished": self.unfinished, "win_rate": rate,
                "win_rate_ci95": [lo, hi],
                "turns_histogram": {str(k): v for k, v in sorted(self.turns.items())},
                "hp_left_won_histogram": {str(k): v for k, v in sorted(self.hp_left_won.items())},
                "mean_damage_taken": self.damage_taken / max(1, self.battles),
                "cards": self.card_rows(), "notable": self.notable_rows()}

    def notable_rows(self) -> list[dict[str, Any]]:
        """The battles worth a look, in ``NOTABLE`` order (each with its row number)."""
        return [self.notable[why][1] for why, _, _ in NOTABLE if why in self.notable]


# The battles of a group the report points to, to open in the monitor: (why, won or lost or
# either, the key the row with the smallest wins).
NOTABLE: tuple[tuple[str, bool | None, Callable[[Row], int]], ...] = (
    ("longest battle", None, lambda r: -int(r["turns"])),
    ("quickest win", True, lambda r: int(r["turns"])),
    ("closest win (least HP left)", True, lambda r: int(r["hp_left"])),
    ("quickest loss", False, lambda r: int(r["turns"])),
)


class Aggregate:
    """The groups (encounter, deck) of a sweep, in the order they first appear."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], GroupStats] = {}
        self.rows = 0  # rows counted: the next row's number in the file

    def add_row(self, row: Row) -> None:
        """Count one results row."""
        key = (row["encounter"], row["deck"])
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = GroupStats(*key)
        g.add(row, self.rows)
        self.rows += 1

    def add_rows(self, rows: Iterable[Row]) -> None:
        """Count several rows (a sweep's sink)."""
        for r in rows:
            self.add_row(r)

    @property
    def battles(self) -> int:
        """All battles counted."""
        return sum(g.battles for g in self.groups.values())

    @property
    def policies(self) -> list[str]:
        """The policies that played the battles, in the order first seen."""
        return list(dict.fromkeys(p for g in self.groups.values() for p in g.policies))

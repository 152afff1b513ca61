"""One Act 1 run as the game plays it: the map, the fights drawn at the start, the rooms.

An :class:`ActRun` wraps a :class:`gcs.Game` (the master deck, the run's HP and gold, the
battles and their reward screen) and adds what lies between battles. Every decision is an
``Action`` from :meth:`ActRun.legal_actions`, answered with :meth:`ActRun.apply`:

- ``path``: ``choose i`` moves to the ``i``-th room of the next floor the player can reach
  (left to right; the start is any room of floor 1);
- ``rest``: ``choose 0`` rests (heal 30% of max HP, rounded down as the game), ``choose k``
  (k >= 1) smiths: upgrades the first not-upgraded copy of the ``k``-th upgradable card of
  the master deck (in deck order of first copies);
- ``battle``: the Game's own actions, its reward screen included: after a won hallway or
  elite fight the screen offers the run's three card rewards (``reward i``) or ``skip``.

A decision with a single answer is taken for the player. Everything is seeded from the run's
seed; :meth:`to_json` / :meth:`from_json` save and restore a run at any decision.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Final

from ..agent import CHOOSE, Action
from ..battle import rewards as _rewards
from ..battle import run as _run
from ..content.db import Content
from ..errors import GameError, IllegalActionError
from ..game import Game
from ..rng import Rng, derive
from . import draws, mapgen

PATH: Final = "path"
REST: Final = "rest"
BATTLE: Final = "battle"
OVER: Final = "over"
BOSS_FLOOR: Final = mapgen.HEIGHT + 1
REST_HEAL_TENTHS: Final = 3  # 30% of max HP, rounded down
MAX_TURNS: Final = 300  # a battle still going after this many turns is a stalemate: lost
MAX_DECISIONS: Final = 20_000  # the same per battle, counted in decisions
SAVE_FORMAT: Final = 1


@dataclass
class Fight:
    """One battle of the run: where, what, and how it went."""

    floor: int
    encounter: str
    kind: str  # normal, elite or boss
    hp_before: int
    deck: str = ""  # the master deck at the start, ``id`` / ``id+`` comma-separated
    won: bool = False
    hp_after: int = 0  # at the battle's end (its on_battle_end heals, Burning Blood's, done)
    turns: int = 0
    decisions: int = 0
    unfinished: bool = False
    plays: dict[str, int] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    block: dict[str, int] = field(default_factory=dict)  # block the player gained, per card


def rest_heal(max_hp: int) -> int:
    """What resting heals: 30% of max HP, rounded down (the game's ``(int)(maxHealth * 0.3f)``;
    exact in integers for any HP a run reaches)."""
    return max_hp * REST_HEAL_TENTHS // 10


class ActRun:
    """An Act 1 run (A0) for ``content``'s character, seeded by ``seed``."""

    def __init__(self, content: Content, seed: int, *, character: str | None = None,
                 log_events: bool = False) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameError(f"ActRun: seed must be an int, got {seed!r}")
        self.content = content
        self.seed = seed
        self.character = character
        self.game = Game(content, seed=derive(seed, "act:game"), character=character,
                         log_events=log_events)
        self._draw_act()
        self.card_rng = Rng(derive(seed, "act:cards"))
        self.event_rng = Rng(derive(seed, "act:unknown"))
        self.rarity_factor = draws.RARITY_START
        self.unknown_chances = dict(draws.UNKNOWN_START)
        self.x = -1
        self.y = -1  # the floor is y + 1; BOSS_FLOOR - 1 at the boss
        self.path: list[str] = []  # the rooms entered, one letter each (B: the boss)
        self.after_shop = False
        self.monster_i = 0
        self.elite_i = 0
        self.phase = PATH
        self.offered = False  # has the current battle's reward screen been filled?
        self.fights: list[Fight] = []
        self.won: bool | None = None
        self.cause = ""  # the encounter that ended the run lost
        self._advance()

    def _draw_act(self) -> None:
        """The map and the fight lists (from the seed alone: a load draws them again)."""
        c = self.content
        self.map = mapgen.generate(Rng(derive(self.seed, "act:map")))
        fights = Rng(derive(self.seed, "act:monsters"))
        self.monsters = draws.monster_list(c, fights)
        self.elites = draws.elite_list(c, fights)
        self.boss = draws.boss(c, fights)
        self.cards = draws.card_pool(c)

    # ------------------------------------------------------------ what the player sees
    @property
    def floor(self) -> int:
        """The floor the player is on (0 before the first room, 16 at the boss)."""
        return self.y + 1

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def path_options(self) -> list[int]:
        """The columns of the next floor the player can move to (left to right)."""
        if self.y < 0:
            return self.map.starts()
        if self.y >= mapgen.HEIGHT - 1:
            return [mapgen.BOSS_X]
        return list(self.map.node(self.x, self.y).edges)

    def smith_options(self) -> list[str]:
        """The card ids a smith can upgrade (deck order of their first not-upgraded copy)."""
        cards = self.content.cards
        out: list[str] = []
        for m in self.game.get_master_deck():
            if not m.upgraded and cards[m.card_id].upgrade is not None and m.card_id not in out:
                out.append(m.card_id)
        return out

    def room_ahead(self, x: int) -> str:
        """The room letter at column ``x`` of the next floor (B: the boss)."""
        if self.y >= mapgen.HEIGHT - 1:
            return "B"
        return self.map.node(x, self.y + 1).room

    def options(self) -> list[str]:
        """The current decision's answers as text, in ``choose`` index order."""
        if self.phase == PATH:
            return [f"{mapgen.ROOM_NAMES.get(self.room_ahead(x), 'boss')} (column {x})"
                    for x in self.path_options()]
        if self.phase == REST:
            return ["rest"] + [f"smith {cid}" for cid in self.smith_options()]
        return []

    def legal_actions(self) -> list[Action]:
        """Every legal input now (empty once the run is over)."""
        if self.phase == BATTLE:
            return self.game.legal_actions()
        if self.phase == OVER:
            return []
        return [Action(CHOOSE, choice=(i,)) for i in range(len(self.options()))]

    # ------------------------------------------------------------ moving on
    def apply(self, action: Action | str) -> None:
        """Apply one legal action (an IllegalActionError, and no change, when it is not)."""
        a = Action.parse(action) if isinstance(action, str) else action
        if self.phase == BATTLE:
            self.game.apply(a)
            self._battle_step()
            return
        if a not in self.legal_actions():
            raise IllegalActionError(f"{a} is not legal now ({self.phase}: "
                                     f"{', '.join(self.options()) or 'the run is over'})")
        i = a.choice[0]
        if self.phase == PATH:
            self._enter(self.path_options()[i])
        else:
            self._rest(i)
        self._advance()

    def _advance(self) -> None:
        """Take every decision that has one answer."""
        while self.phase in (PATH, REST) and len(self.options()) == 1:
            if self.phase == PATH:
                self._enter(self.path_options()[0])
            else:
                self._rest(0)

    def _rest(self, i: int) -> None:
        if i == 0:
            _run.heal_run(self.game._e, rest_heal(self.game.run_hp[1]))
        else:
            self.game.upgrade_card_in_master_deck(self.smith_options()[i - 1])
        self.phase = PATH

    def _enter(self, x: int) -> None:
        self.x = x
        self.y += 1
        if self.y >= mapgen.HEIGHT:
            self.path.append("B")
            self._fight(self.boss, "boss")
            return
        room = self.map.node(x, self.y).room
        self.path.append(room)
        shop = room == mapgen.SHOP
        if room == mapgen.EVENT:
            got = draws.unknown_room(self.event_rng, self.unknown_chances, self.after_shop)
            room = mapgen.MONSTER if got == "monster" else ""
            shop = got == "shop"
        self.after_shop = shop
        if room == mapgen.MONSTER:
            self._fight(self.monsters[self.monster_i % len(self.monsters)], "normal")
            self.monster_i += 1
        elif room == mapgen.ELITE:
            self._fight(self.elites[self.elite_i % len(self.elites)], "elite")
            self.elite_i += 1
        elif room == mapgen.REST:
            self.phase = REST
        # a treasure room, a shop and an event change nothing (docs/run.md says why)

    def _fight(self, encounter: str, kind: str) -> None:
        hp, _ = self.game.run_hp
        self.fights.append(Fight(self.floor, encounter, kind, hp, ",".join(self.deck())))
        self.phase = BATTLE
        self.offered = False
        self.game.start_battle(encounter)
        if self.game.is_waiting:
            self.game.settle()
        self._battle_step()

    def _battle_step(self) -> None:
        g = self.game
        f = self.fights[-1]
        f.decisions += 1
        if g.is_waiting_for_reward and not self.offered:
            self.offered = True
            if f.kind == "boss":
                g.skip_reward()  # (the act ends with the boss: its reward would go unused)
            else:
                cards, self.rarity_factor = draws.card_reward(
                    self.card_rng, self.cards, self.rarity_factor, f.kind)
                _rewards.replace_offers(g._e, [_rewards.card_offer(c) for c in cards])
        if g.is_battle_active:
            if g.turn_number > MAX_TURNS or f.decisions > MAX_DECISIONS:
                f.unfinished = True
                f.turns = g.turn_number
                self._end(False, f.encounter)
            return
        f.turns = g.turn_number
        f.won = bool(g.last_result)
        f.hp_after = g.run_hp[0]
        stats = g.stats
        f.plays, f.damage = dict(sorted(stats["plays"].items())), dict(
            sorted(stats["damage"].items()))
        f.block = dict(sorted(stats["block"].items()))
        if not f.won:
            self._end(False, f.encounter)
            return
        if f.kind == "boss":
            self._end(True, "")
            return
        self.phase = PATH
        self._advance()

    def _end(self, won: bool, cause: str) -> None:
        self.phase = OVER
        self.won = won
        self.cause = cause

    # ------------------------------------------------------------ results and saves
    def deck(self) -> list[str]:
        """The master deck as card ids (``id+`` for an upgraded copy)."""
        return [m.card_id + ("+" if m.upgraded else "") for m in self.game.get_master_deck()]

    def summary(self) -> dict[str, Any]:
        """The run's result: won, floor reached, HP, max HP, gold, deck, cause of death."""
        hp, max_hp = self.game.run_hp
        return {"won": bool(self.won), "floor": self.floor, "hp": hp if self.won is not False
                else 0, "max_hp": max_hp, "gold": self.game.gold, "deck": self.deck(),
                "cause": self.cause, "boss": self.boss, "path": "".join(self.path),
                "fights": len(self.fights),
                "unfinished": bool(self.fights and self.fights[-1].unfinished)}

    def to_json(self) -> dict[str, Any]:
        """The whole run as JSON-ready data (the Game through its own save)."""
        return {"format": SAVE_FORMAT, "seed": self.seed, "character": self.character,
                "game": self.game.to_json(),
                "card_rng": self.card_rng.state, "event_rng": self.event_rng.state,
                "rarity_factor": self.rarity_factor, "unknown": dict(self.unknown_chances),
                "x": self.x, "y": self.y, "path": "".join(self.path),
                "after_shop": self.after_shop, "monster_i": self.monster_i,
                "elite_i": self.elite_i, "phase": self.phase, "offered": self.offered,
                "fights": [asdict(f) for f in self.fights], "won": self.won,
                "cause": self.cause}

    @classmethod
    def from_json(cls, content: Content, data: dict[str, Any]) -> ActRun:
        """The run ``to_json`` saved (a GameError when the data is not such a save)."""
        try:
            if data["format"] != SAVE_FORMAT:
                raise GameError(f"an act save of format {data['format']!r}, not "
                                f"{SAVE_FORMAT}")
            r = cls.__new__(cls)
            r.content = content
            r.seed = int(data["seed"])
            r.character = data["character"]
            r.game = Game.from_json(content, data["game"])
            r._draw_act()
            r.card_rng = Rng(int(data["card_rng"]))
            r.event_rng = Rng(int(data["event_rng"]))
            r.rarity_factor = int(data["rarity_factor"])
            r.unknown_chances = {k: int(data["unknown"][k]) for k in draws.UNKNOWN_START}
            r.x, r.y = int(data["x"]), int(data["y"])
            r.path = list(str(data["path"]))
            r.after_shop = bool(data["after_shop"])
            r.monster_i, r.elite_i = int(data["monster_i"]), int(data["elite_i"])
            r.phase = str(data["phase"])
            r.offered = bool(data["offered"])
            r.fights = [Fight(**f) for f in data["fights"]]
            r.won = data["won"]
            r.cause = str(data["cause"])
        except GameError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"not an act save: {type(exc).__name__}: {exc}") from None
        if r.phase not in (PATH, REST, BATTLE, OVER):
            raise GameError(f"not an act save: phase {r.phase!r}")
        return r

    def clone(self) -> ActRun:
        """An independent copy (through the save)."""
        return ActRun.from_json(self.content, self.to_json())

    def __reduce__(self) -> tuple[Any, tuple[Content, dict[str, Any]]]:
        return ActRun.from_json, (self.content, self.to_json())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActRun) and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        hp, max_hp = self.game.run_hp
        return (f"<ActRun seed={self.seed} floor {self.floor} {self.phase} HP {hp}/{max_hp} "
                f"gold {self.game.gold} path {''.join(self.path) or '-'}>")

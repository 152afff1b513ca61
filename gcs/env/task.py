"""What an episode is: one fight, or a run of fights with HP carried over and reward choices.

A :class:`Task` is the frozen description (encounters, deck, caps, reward); an
:class:`Episode` plays one task on one ``Game`` at a time, one action index per step. The
randomness of a task (which encounter, the run's order, a random deck, the game seed) comes
from the numpy ``Generator`` handed to :meth:`Episode.reset`, so a seeded reset replays the
same episode exactly.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..act.draft import drafted_deck
from ..act.run import ActRun
from ..agent import Action
from ..content.db import Content
from ..enums import CardType, Rarity
from ..errors import GameError
from ..game import Game
from ..rng import Rng, derive
from . import args
from ._extra import missing_gym_extra
from .actions import ActionLayout, act_slots
from .enemies import EnemySlots

try:
    import numpy as np
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc

if TYPE_CHECKING:
    Generator = np.random.Generator

RANDOM_DECK = "random"
DRAFTED_DECK = "drafted"
ACT_FLOORS = 16


@dataclass(frozen=True)
class Task:
    """One task: the encounters, how an episode uses them, the deck, the caps and the reward.

    ``run`` False: each episode is one fight, of ``encounters[0]`` or of one drawn uniformly
    from ``encounters``. ``run`` True: each episode fights every encounter in order (``shuffle``:
    a seeded random order per episode) on one master deck, HP carried over, and after each win
    but the last the agent chooses the reward; a loss ends the run. ``deck``: None for the
    character's starter deck, card ids, ``"random"`` (the starter deck plus ``random_cards``
    cards drawn uniformly from the pack's reward pools) or ``"drafted"`` (a deck drawn as an
    Act 1 run draws it: ``random_cards`` card rewards, one card taken at random from each, and
    ``random_cards // 4`` upgrades; gcs/act/draft.py). ``deck_rewards`` (runs) also offers
    "upgrade a card" and "remove a card" after each win, as StS's rest sites and shops would.
    ``card_split`` ``"train"`` or ``"test"``: random decks and card rewards draw only from that
    side of the pack's held-out split (:func:`card_split`, by ``split_seed`` and ``holdout``).
    ``act`` 1: each episode is an Act 1 run as the game plays it (gcs/act, docs/run.md): the
    map, rest sites and the act's card rewards are the agent's decisions too (``encounters``,
    ``shuffle``, ``deck`` and ``deck_rewards`` are not used). ``start_hp``: HP percentages
    of max HP, one drawn uniformly per episode as the HP the player starts with (a run's HP
    on arrival: the ``-v1`` elite tasks draw from the arrival table of gcs/env/registry.py;
    () for full HP; rounded down, at least 1).
    Reward: +1 a won episode, -1 a lost one, 0 a truncated one; ``shaping`` w adds, at each won
    battle, ``w * (1 + hp / max_hp) / n_battles`` (the floor reached and the HP kept; an act
    counts 16 battles' worth, one per floor).
    """

    encounters: tuple[str, ...] = ("jaw_worm",)
    run: bool = False
    shuffle: bool = False
    deck: tuple[str, ...] | str | None = None
    random_cards: int = 5
    deck_rewards: bool = True
    take_rewards: bool = False
    max_turns: int = 100
    max_steps: int = 20_000
    illegal_penalty: float = -0.01
    shaping: float = 0.0
    card_split: str | None = None
    split_seed: int = 0
    holdout: float = 0.25
    act: int = 0
    start_hp: tuple[int, ...] = ()

    @property
    def battles(self) -> int:
        """Battles in one episode (an act: its 16 floors)."""
        if self.act:
            return ACT_FLOORS
        return len(self.encounters) if self.run else 1


_TASK_FIELDS = ("random_cards", "deck_rewards", "take_rewards", "max_turns", "max_steps",
                "illegal_penalty", "shaping", "card_split", "split_seed", "holdout", "act",
                "start_hp")


def make_task(encounter: object, *, run: object = False, shuffle: object = False,
              deck: object = None, call: str = "GcsEnv", **kwargs: Any) -> Task:
    """A checked :class:`Task` from user arguments (ArgumentError naming a bad one)."""
    return Task(encounters=args.encounters(call, encounter), run=args.boolean(call, "run", run),
                shuffle=args.boolean(call, "shuffle", shuffle),
                deck=args.deck(call, deck, RANDOM_DECK, DRAFTED_DECK),
                **args.task_fields(call, kwargs, _TASK_FIELDS))


def task_content(content: Content, task: Task) -> Content:
    """The content an episode plays: ``content`` checked against the task; for a run with
    ``deck_rewards``, a copy whose reward tables also offer upgrades and removals."""
    if not isinstance(content, Content):
        raise args.bad("GcsEnv", "content", "a gcs.Content (or None: the bundled pack)", content)
    for enc in task.encounters:
        content.encounter(enc)
    if isinstance(task.deck, tuple):
        for cid in task.deck:
            content.card(cid)
    tables = list(content.reward_tables.values())
    digest = content.digest
    if task.card_split is not None:
        train, test = card_split(content, task.split_seed, task.holdout)
        if not train or not test:
            raise args.bad("GcsEnv", "holdout", f"a fraction that leaves cards on both sides "
                           f"of the split of this pack's {len(train) + len(test)} pool cards "
                           f"(with split_seed {task.split_seed}: {len(train)} train, "
                           f"{len(test)} test)", task.holdout)
        side = set(train if task.card_split == "train" else test)
        tables = [replace(t, pool=tuple(c for c in t.pool if c in side)) for t in tables]
        digest += f"+cards:{task.card_split}:{task.split_seed}:{task.holdout!r}"
    if task.run and task.deck_rewards and not task.act:
        tables = [replace(t, upgrade=True, remove=True) for t in tables]
        digest += "+deck-rewards"
    if digest == content.digest:
        return content
    return Content(pack_id=content.pack_id, cards=content.cards.values(),
                   statuses=content.statuses.values(), enemies=content.enemies.values(),
                   encounters=content.encounters.values(),
                   characters=content.characters.values(), reward_tables=tables,
                   graphs=content.graphs, digest=digest)


def held_out(card_id: str, split_seed: int, holdout: float) -> bool:
    """Whether a card is on the test side of a split: the first 8 bytes of
    ``sha256("{split_seed}:{card_id}")``, as a fraction of 2**64, are below ``holdout``. A
    card's side depends on its id and the seed alone, so a growing pack keeps every card's."""
    h = hashlib.sha256(f"{split_seed}:{card_id}".encode()).digest()
    return int.from_bytes(h[:8], "big") < holdout * 2**64


def card_split(content: Content, split_seed: int = 0,
               holdout: float = 0.25) -> tuple[list[str], list[str]]:
    """The held-out split of the cards random decks and rewards draw from (:func:`deck_pool`):
    (train, test), each sorted; each card is held out (test) by :func:`held_out`."""
    train: list[str] = []
    test: list[str] = []
    for c in deck_pool(content):
        (test if held_out(c, split_seed, holdout) else train).append(c)
    return train, test


def deck_pool(content: Content) -> list[str]:
    """The cards a random deck draws from: every reward pool of the pack (sorted), or else
    every common, uncommon or rare attack, skill or power."""
    pool = sorted({c for t in content.reward_tables.values() for c in t.pool
                   if c in content.cards})
    if pool:
        return pool
    kinds = (CardType.ATTACK, CardType.SKILL, CardType.POWER)
    rarities = (Rarity.COMMON, Rarity.UNCOMMON, Rarity.RARE)
    return sorted(c.id for c in content.cards.values()
                  if c.type in kinds and c.rarity in rarities)


def with_hp(g: Game, percent: int) -> Game:
    """``g`` (between battles) with its run HP at ``percent`` of max HP (rounded down, at least
    1), through its save: the HP a run arrives with, as a loaded save would have it."""
    data = g.to_json()
    st = data["state"]
    st["hp"] = max(1, st["max_hp"] * percent // 100)
    return Game.from_json(g.content, data)


class Episode:
    """One task played on one game at a time: reset, then one action index per step.

    ``content`` is what :func:`task_content` made for the task."""

    def __init__(self, content: Content, task: Task, layout: ActionLayout) -> None:
        self.task = task
        self.content = content
        self.layout = layout
        pool = deck_pool(self.content)
        if task.card_split is not None:  # (a pack without reward pools: its cards, split)
            test = task.card_split == "test"
            pool = [c for c in pool if held_out(c, task.split_seed, task.holdout) == test]
        self.pool = pool
        self.game: Game | None = None
        self.run: ActRun | None = None  # an act task's run (its ``game`` is ``self.game``)
        self.slots: dict[int, Action] = {}
        self.enemies = EnemySlots()  # the current battle's enemy slots
        self.act_battle = 0  # an act: the fights its slot map belongs to (a new one clears it)
        self.fights: list[str] = []
        self.won_battles = 0
        self.steps = 0
        self.result: bool | None = None  # True won, False lost, None running or truncated
        self.done = True

    # A pickle or copy leaves out the legal mapping (``gcs.Action`` values) and makes it again
    # from the game, as ``set_state`` does: none once the episode ended.
    # (An act's game is its run's: pickled with the run only, and taken from it again.)
    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()
                if k != "slots" and not (k == "game" and self.run is not None)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.run is not None:
            self.game = self.run.game
        self.slots = self.legal_slots()

    def legal_slots(self) -> dict[int, Action]:
        """The legal mapping of the game as the last step left it (none once it ended)."""
        g = self.game
        if g is None or self.result is not None:
            return {}
        run = self.run
        if run is not None and len(run.fights) != self.act_battle:
            self.act_battle = len(run.fights)
            self.enemies.clear()
        if g.is_battle_active:
            self.enemies.update(g)
        return act_slots(run, self.layout, self.enemies) if run is not None \
            else self.layout.slots(g, self.enemies)

    @property
    def encounter(self) -> str | None:
        """The encounter being fought (None before the first reset; an act: the last one)."""
        if self.run is not None:
            return self.run.fights[-1].encounter if self.run.fights else None
        return self.fights[min(self.won_battles, len(self.fights) - 1)] if self.fights else None

    def reset(self, rng: Generator) -> None:
        """Start a new episode with randomness from ``rng``."""
        t = self.task
        encs = list(t.encounters)
        if t.run:
            fights = [encs[i] for i in rng.permutation(len(encs))] if t.shuffle else encs
        else:
            fights = [encs[int(rng.integers(len(encs)))] if len(encs) > 1 else encs[0]]
        seed = int(rng.integers(0, 2**63 - 1))
        if t.act:
            self._reset_act(seed)
            return
        self.run = None
        g = Game(self.content, seed=seed, log_events=False)
        if t.deck == DRAFTED_DECK:  # (from the 'normal' table's pool: split, with card_split)
            g.set_master_deck(drafted_deck(self.content, None, Rng(derive(seed, "drafted")),
                                           t.random_cards))
        elif t.deck == RANDOM_DECK:
            extra = [self.pool[int(i)] for i in rng.integers(0, len(self.pool), t.random_cards)]
            g.set_master_deck([m.card_id for m in g.get_master_deck()] + extra)
        elif t.deck is not None:
            g.set_master_deck(list(t.deck))
        if t.start_hp:
            g = with_hp(g, t.start_hp[int(rng.integers(len(t.start_hp)))])
        self.game = g
        self.fights = fights
        self.won_battles = 0
        self.steps = 0
        self.result = None
        self.done = False
        self._start()

    def _reset_act(self, seed: int) -> None:
        self.run = ActRun(self.content, seed)
        self.game = self.run.game
        self.fights = []
        self.won_battles = 0
        self.steps = 0
        self.result = None
        self.done = False
        self.act_battle = 0
        self.enemies.clear()
        self.slots = self.legal_slots()

    def _step_act(self, run: ActRun, a: Action) -> tuple[float, bool, bool, bool]:
        t = self.task
        before = sum(1 for f in run.fights if f.won)
        run.apply(a)
        reward = 0.0
        won = sum(1 for f in run.fights if f.won)
        for _ in range(won - before):
            reward += self._won()
        terminated = run.over
        if terminated:
            self.result = bool(run.won)
            reward += 1.0 if self.result else -1.0
            self.slots = {}
        else:
            self.slots = self.legal_slots()
        truncated = not terminated and self.steps >= t.max_steps
        self.done = terminated or truncated
        return reward, terminated, truncated, False

    def _start(self) -> None:
        g = self.game
        assert g is not None
        g.start_battle(self.fights[self.won_battles])
        g.settle()
        self.enemies.clear()
        self.slots = self.legal_slots()

    def step(self, index: int) -> tuple[float, bool, bool, bool]:
        """Apply the action at ``index``: (reward, terminated, truncated, illegal)."""
        g = self.game
        if g is None or self.done:
            raise GameError("the episode is over: call reset() before step()")
        t = self.task
        self.steps += 1
        a = self.slots.get(index)
        if a is None:
            truncated = self.steps >= t.max_steps
            self.done = truncated
            return t.illegal_penalty, False, truncated, True
        if self.run is not None:
            return self._step_act(self.run, a)
        reward = 0.0
        g.apply(a)
        terminated = False
        if g.is_waiting_for_reward and not self._choosing_reward():
            reward += self._won()
            g.skip_reward()
            terminated = self.won_battles >= len(self.fights) or not t.run
        elif not g.is_battle_active:
            if g.last_result:  # a reward was just taken or skipped
                if self.won_battles >= len(self.fights) or not t.run:
                    terminated = True
                else:
                    self._start()
            else:
                terminated = True
        elif g.is_waiting_for_reward:  # a win whose reward the agent chooses next
            reward += self._won()
        if terminated:
            self.result = self.won_battles >= len(self.fights)
            reward += 1.0 if self.result else -1.0
            self.slots = {}
        elif g.is_battle_active:
            self.slots = self.legal_slots()
        truncated = not terminated and (g.turn_number > t.max_turns
                                        or self.steps >= t.max_steps)
        self.done = terminated or truncated
        return reward, terminated, truncated, False

    def _choosing_reward(self) -> bool:
        """Does the agent choose this reward? Yes in a run (but after the last fight), and in a
        fight with ``take_rewards``."""
        t = self.task
        if t.run:
            return self.won_battles + 1 < len(self.fights)
        return t.take_rewards

    def _won(self) -> float:
        """Count a won battle; its shaping reward."""
        g = self.game
        assert g is not None
        self.won_battles += 1
        w = self.task.shaping
        if not w:
            return 0.0
        p = g.player
        frac = p.hp / max(1, p.max_hp) if p is not None else 0.0
        return w * (1.0 + frac) / self.task.battles

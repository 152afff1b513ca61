"""The search agent: information-set Monte Carlo tree search over sampled worlds.

Each iteration plays in a world drawn from what the player knows (``Game.determinize``: the
draw order, the random streams and the enemies' future moves drawn afresh): it walks one tree
of the player's decisions (UCB1, each option counting the iterations in which it was
available, as single-observer ISMCTS does), adds one node, lets the heuristic play the battle
out and backs up ``outcome`` (0.5 + 0.5 x HP / max HP for a win, at most 0.25 for a loss).
A decision samples ``worlds`` worlds once and cycles through them, so the options are
compared on the same draws (common random numbers). The tree's options are keyed by what an
action does (the same card at the same target is one option), so worlds with other cards in
hand share the statistics of the options they have. The action taken is the root option
visited most. With the same seed and iteration budget a decision is the same on every run; a
budget in milliseconds depends on the machine. docs/agents.md argues the design.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Final

from ..agent import PLAY, Action, apply, legal_actions
from ..battle.state import CHOICE
from ..errors import GameError
from ..rng import Rng, mix
from .assess import battle_hp, outcome
from .deck import pick_reward
from .heuristic import action_key, best_play, distinct

if TYPE_CHECKING:
    from ..game import Game

EXPLORE: Final = 0.1  # UCB1's exploration constant (values are in [0, 1], options differ by ~0.05)
DEFAULT_ITERS: Final = 200  # (about 20-60 ms a decision on the compiled engine: docs/agents.md)
WORLDS: Final = 16  # worlds sampled per decision, cycled by the iterations
MAX_ROLLOUT_TURNS: Final = 60  # a playout stops after this many more player turns
_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


class Node:
    """One option in the tree: visits, summed value, iterations it was available in."""

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[tuple[int, ...], Node] = {}


class Stats:
    """A finished search: per root option (the first legal action of each key), its visits and
    mean value, and the work done (iterations, decisions played out by the heuristic)."""

    def __init__(self, options: list[Action], visits: list[int], values: list[float],
                 iterations: int, rollout_steps: int) -> None:
        self.options = options
        self.visits = visits
        self.values = values
        self.iterations = iterations
        self.rollout_steps = rollout_steps

    def best(self) -> Action:
        """The option visited most (ties: the higher mean value, then legal order); while the
        visits are still even (within one: the paired rounds of the root), the higher mean."""
        even = max(self.visits) - min(self.visits) <= 1
        best = 0
        for i in range(1, len(self.options)):
            if even:
                better = self.values[i] > self.values[best]
            else:
                better = (self.visits[i], self.values[i]) > (self.visits[best], self.values[best])
            if better:
                best = i
        return self.options[best]


def search(game: Game, legal: list[Action], seed: int, iterations: int,
           deadline: float = 0.0, explore: float = EXPLORE, worlds: int = WORLDS,
           rollout_turns: int = MAX_ROLLOUT_TURNS) -> Stats:
    """Search the decision ``legal`` of ``game``: ``iterations`` iterations, or, when
    ``deadline`` (a ``time.perf_counter()`` value) is not 0, until then (at least one).
    The first rounds are paired: each round plays every root option once on the same sampled
    world (one world a round, ``worlds`` rounds at most, whole rounds only when the budget is
    in iterations), so the root's values compare the options on the same draws (the rollout
    algorithm); then UCB1 picks at the root too, and iteration ``i`` plays on a copy of world
    ``i mod worlds``."""
    s = game._e.s
    options = distinct(s, legal)
    keys = [action_key(s, a) for a in options]
    root = Node()
    for k in keys:
        root.children[k] = Node()
    rng = Rng(seed)
    last_turn = s.player_turns + 1 + rollout_turns
    enemy_hp = battle_hp(game._e)
    pool: list[Game] = []
    steps = 0
    done = 0
    n_opts = len(options)
    paired = n_opts * worlds
    if not deadline:
        paired = min(paired, iterations - iterations % n_opts)
    while (done < iterations) if not deadline else (
            done == 0 or time.perf_counter() < deadline):
        i = done
        done += 1
        w = i // n_opts if i < paired else i % worlds
        while w >= len(pool):  # (world k is drawn from the seed and k alone)
            pool.append(game.determinize(mix(seed ^ ((len(pool) + 1) * _GOLDEN & _MASK))))
        world = pool[w].clone()
        path = [root]
        node = root
        expanded = False
        broken = False
        if i < paired:  # a paired round: the root option in turn, on this round's world
            first = root.children[keys[i % n_opts]]
            first.avail += 1
            path.append(first)
            node = first
            expanded = first.visits == 0
            try:
                apply(world._e, options[i % n_opts])
            except GameError:
                broken = True
                expanded = True
        while not expanded:
            ws = world._e.s
            if not ws.active or ws.rewards is not None:
                break
            wl = legal_actions(world._e)
            if not wl:
                break
            fresh: list[tuple[Action, Node]] = []
            best_a: Action | None = None
            best_n: Node | None = None
            best_u = -1.0
            children = node.children
            for a in distinct(ws, wl):
                k = action_key(ws, a)
                child = children.get(k)
                if child is None:
                    child = children[k] = Node()
                child.avail += 1
                if child.visits == 0:
                    fresh.append((a, child))
                elif not fresh:
                    u = child.total / child.visits + explore * math.sqrt(
                        math.log(child.avail) / child.visits)
                    if u > best_u:
                        best_u, best_a, best_n = u, a, child
            if fresh:
                a, child = fresh[rng.below(len(fresh))] if len(fresh) > 1 else fresh[0]
                expanded = True
            else:
                assert best_a is not None and best_n is not None
                a, child = best_a, best_n
            path.append(child)
            node = child
            try:
                apply(world._e, a)
            except GameError:  # (the content failed on this option: it is worth nothing)
                broken = True
                break
        if broken:
            v = 0.0
        else:
            try:
                steps += rollout(world, last_turn)
                v = outcome(world._e, enemy_hp)
            except GameError:
                v = 0.0
        for n in path:
            n.visits += 1
            n.total += v
    visits = []
    values = []
    for k in keys:
        ch = root.children[k]
        visits.append(ch.visits)
        values.append(ch.total / ch.visits if ch.visits else 0.0)
    return Stats(options, visits, values, done, steps)


def rollout(world: Game, last_turn: int) -> int:
    """Play ``world`` on with the heuristic until the battle ends or player turn ``last_turn``
    begins; returns the decisions made."""
    s = world._e.s
    n = 0
    while s.active and s.rewards is None and s.player_turns < last_turn:
        legal = legal_actions(world._e)
        if not legal:
            break
        a = legal[0]
        if len(legal) > 1:
            if s.pause == CHOICE:
                a = best_play(world, legal)
            else:
                for x in legal:
                    if x.kind == PLAY:
                        a = best_play(world, legal)
                        break
        apply(world._e, a)
        n += 1
    return n


class SearchAgent:
    """The built-in search agent (``--policy search``, ``search:iters=N``, ``search:ms=M``):
    ISMCTS over sampled worlds with heuristic playouts (see the module). ``iters`` iterations
    a decision (default ``DEFAULT_ITERS``), or ``ms`` milliseconds when given; ``worlds``
    sampled worlds a decision; ``seed`` seeds the worlds and the order nodes are added in.
    Rewards are picked as the heuristic picks them (``gcs.agents.deck``)."""

    def __init__(self, seed: int = 0, iters: int | None = None, ms: float | None = None,
                 worlds: int | None = None, explore: float = EXPLORE,
                 rollout_turns: int = MAX_ROLLOUT_TURNS) -> None:
        self.seed = seed & _MASK
        self.iters = iters if iters is not None else DEFAULT_ITERS
        self.ms = ms
        self.worlds = worlds if worlds is not None else WORLDS
        self.explore = explore
        self.rollout_turns = rollout_turns
        self.decisions = 0
        self.searched = 0  # decisions that needed a search (more than one distinct option)
        self.iterations = 0
        self.rollout_steps = 0

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        try:
            s = game._e.s
            if s.rewards is not None:
                return pick_reward(game, legal)
            options = distinct(s, legal)
            if len(options) == 1:
                return options[0]
            st = self.search(game, legal)
        except GameError:
            raise
        except Exception as exc:
            raise GameError(f"internal error in SearchAgent: {type(exc).__name__}: {exc} "
                            "(please report this)") from exc
        self.searched += 1
        self.iterations += st.iterations
        self.rollout_steps += st.rollout_steps
        return st.best()

    def search(self, game: Game, legal: list[Action]) -> Stats:
        """This agent's search of the decision ``legal`` of ``game`` (its next seed)."""
        deadline = time.perf_counter() + self.ms / 1000.0 if self.ms is not None else 0.0
        return search(game, legal, mix(self.seed ^ (self.decisions * _GOLDEN & _MASK)),
                      self.iters, deadline, self.explore, self.worlds, self.rollout_turns)

"""How well and how fast the built-in players play: the table of issue 24.

    .venv/compiled/bin/python -P benchmarks/agents.py --workers 2            # everything
    .venv/compiled/bin/python -P benchmarks/agents.py --quick                # a smoke run
    .venv/compiled/bin/python -P benchmarks/agents.py --only fights --battles 2000 \\
        --policies heuristic --encounters gremlin_nob

Sections (``--only`` picks some, comma-separated):

- ``speed``: clone vs ``determinize`` (CPU us, the best of 40 interleaved rounds of 500 calls),
  the heuristic's decisions/s, the search's decisions/s and playout decisions/s at each budget.
- ``fights``: every policy x every bundled encounter, starter deck, A0, full HP: battle ``i`` is
  game seed ``battle_seed(seed, i)`` and policy seed ``policy_seed(seed, i)`` (what ``gcs
  simulate --seed`` plays), so every policy meets the same battles. ``--battles`` per cell
  for random, greedy and heuristic; ``--search-battles`` for the search budgets (default:
  the same), ``--nob-battles`` for Gremlin Nob (default: the same).
- ``random``: ``gcs/FightRandomDeck-v0``-style fights: battle ``i`` fights an encounter drawn
  uniformly from the pack with the starter deck plus 5 cards drawn uniformly from the reward
  pools (seeded from ``i``), each policy on the same battles.
- ``runs``: ``gcs/Act1-v0`` as registered (the gym extra), episode seeds ``seed + i``.
- ``hard``: Gremlin Nob with the player starting at 35 of 80 HP (``--hard-battles``): no policy
  wins it always, so the win rates tell the players apart.
- ``fairness``: the search on sampled worlds (``determinize``) and on plain copies of the real
  game (``clone``: it sees the draw order and the enemies' future moves), same seeds: Gremlin
  Nob at 35 HP and at full HP, Large Slime.

Each row: win rate with its 95% Wilson interval, mean turns, mean HP left (won battles),
and the policy's CPU milliseconds per decision (``time.process_time`` around each call: the
other processes on a shared machine do not inflate it). Results are exact for a seed and a
budget (the search's ``ms`` budgets are not used here); the line formats are stable.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import gcs
from gcs import Game
from gcs.agents import SearchAgent
from gcs.report.stats import wilson
from gcs.rng import Rng, derive
from gcs.sim.policies import make_policy
from gcs.sim.runner import BattleResult, battle_seed, new_game, play_battle, policy_seed

SECTIONS = ("speed", "fights", "hard", "random", "runs", "fairness")
HARD = "gremlin_nob@35"


@dataclass
class Cell:
    """Sums over the battles (or runs) of one policy x one row."""

    n: int = 0
    wins: int = 0
    turns: int = 0
    hp_won: int = 0
    decisions: int = 0
    cpu: float = 0.0
    battles_won: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def add(self, other: Cell) -> None:
        self.n += other.n
        self.wins += other.wins
        self.turns += other.turns
        self.hp_won += other.hp_won
        self.decisions += other.decisions
        self.cpu += other.cpu
        self.battles_won += other.battles_won

    def count(self, r: BattleResult, pol: Timed) -> None:
        """Add one battle and the time its policy took."""
        self.n += 1
        self.wins += r.won
        self.turns += r.turns
        self.hp_won += r.hp_left if r.won else 0
        self.decisions += pol.calls
        self.cpu += pol.cpu

    def row(self, label: str, policy: str, runs: bool = False) -> str:
        lo, hi = wilson(self.wins, self.n)
        rate = 100.0 * self.wins / max(1, self.n)
        ms = 1000.0 * self.cpu / max(1, self.decisions)
        mid = (f"{self.battles_won / max(1, self.n):5.2f} fights" if runs
               else f"{self.turns / max(1, self.n):5.2f} turns")
        return (f"| {label:<18} | {policy:<22} | {self.n:>5} | {rate:6.2f}% "
                f"| {100 * lo:5.1f}-{100 * hi:5.1f}% | {mid} "
                f"| {self.hp_won / max(1, self.wins):5.1f} | {ms:8.3f} |")


class Timed:
    """A policy whose calls are timed in CPU seconds of this process."""

    def __init__(self, policy: Callable[[Game, list[gcs.Action]], gcs.Action]) -> None:
        self.policy = policy
        self.cpu = 0.0
        self.calls = 0

    def __call__(self, game: Game, legal: list[gcs.Action]) -> gcs.Action:
        t = time.process_time()
        a = self.policy(game, legal)
        self.cpu += time.process_time() - t
        self.calls += 1
        return a


class _CloningGame(Game):
    """A game whose ``determinize`` is a plain clone: the real draw order and streams."""

    def determinize(self, seed: int) -> Game:
        return self.clone()


class CheatingSearch:
    """The search agent on plain copies of the real game (it sees what the player cannot)."""

    def __init__(self, seed: int, iters: int, worlds: int) -> None:
        self.agent = SearchAgent(seed, iters=iters, worlds=worlds)

    def __call__(self, game: Game, legal: list[gcs.Action]) -> gcs.Action:
        cls = game.__class__
        game.__class__ = _CloningGame
        try:
            return self.agent(game, legal)
        finally:
            game.__class__ = cls


def agent(policy: str, seed: int) -> Callable[[Game, list[gcs.Action]], gcs.Action]:
    if policy.startswith("cheat:"):
        fair = make_policy(policy[len("cheat:"):], seed)
        assert isinstance(fair, SearchAgent)
        return CheatingSearch(seed, iters=fair.iters, worlds=fair.worlds)
    return make_policy(policy, seed)


# ---------------------------------------------------------------- jobs (run in the workers)
def fight_job(policy: str, encounter: str, seed: int, lo: int, hi: int) -> Cell:
    """Battles ``lo``..``hi`` of ``encounter`` (``id@HP``: starting at that HP)."""
    c = gcs.builtin_content()
    cell = Cell()
    enc, _, hp = encounter.partition("@")
    for i in range(lo, hi):
        g = new_game(c, battle_seed(seed, i))
        if hp:
            g._e.s.hp = int(hp)  # (the run's HP, which the battle starts with)
        pol = Timed(agent(policy, policy_seed(seed, i)))
        cell.count(play_battle(g, enc, pol, take_rewards=False), pol)
    return cell


def random_deck(c: gcs.Content, seed: int, i: int) -> tuple[str, list[str]]:
    """Battle ``i``'s encounter and deck: starter deck + 5 cards of the reward pools."""
    rng = Rng(derive(seed, f"random-deck#{i}"))
    encounters = sorted(c.encounters)
    pool = sorted({cid for t in c.reward_tables.values() for cid in t.pool if cid in c.cards})
    ch = c.characters[min(c.characters)]
    deck = [d.card for d in ch.starting_deck for _ in range(d.count)]
    deck += [pool[rng.below(len(pool))] for _ in range(5)]
    return encounters[rng.below(len(encounters))], deck


def random_job(policy: str, encounter: str, seed: int, lo: int, hi: int) -> Cell:
    c = gcs.builtin_content()
    cell = Cell()
    for i in range(lo, hi):
        enc, deck = random_deck(c, seed, i)
        g = new_game(c, battle_seed(seed, i), deck)
        pol = Timed(agent(policy, policy_seed(seed, i)))
        cell.count(play_battle(g, enc, pol, take_rewards=False), pol)
    return cell


def run_job(policy: str, task: str, seed: int, lo: int, hi: int) -> Cell:
    import gymnasium

    import gcs.env  # noqa: F401  (registers the tasks)

    env = gymnasium.make(task).unwrapped
    cell = Cell()
    for i in range(lo, hi):
        env.reset(seed=seed + i)
        pol = Timed(agent(policy, policy_seed(seed, i)))
        done = False
        info: dict[str, Any] = {}
        while not done:
            a = pol(env.game, env.legal_actions())
            _, _, te, tr, info = env.step(env.encode(a))
            done = te or tr
        cell.n += 1
        cell.wins += bool(info["won"])
        cell.battles_won += int(info["battles_won"])
        cell.hp_won += env.game.run_hp[0] if info["won"] else 0
        cell.decisions += pol.calls
        cell.cpu += pol.cpu
    return cell


JOBS: dict[str, Callable[[str, str, int, int, int], Cell]] = {
    "fights": fight_job, "hard": fight_job, "random": random_job, "runs": run_job,
    "fairness": fight_job}


def run_cells(section: str, cells: list[tuple[str, str, int]], seed: int, workers: int,
              chunk: int) -> dict[tuple[str, str], Cell]:
    """Every (policy, row, count) cell in chunks, on ``workers`` processes; the sums."""
    tasks = [(section, p, row, seed, lo, min(n, lo + chunk))
             for p, row, n in cells for lo in range(0, n, chunk)]
    out = {(p, row): Cell() for p, row, _ in cells}
    if workers <= 1:
        for sec, p, row, sd, lo, hi in tasks:
            out[(p, row)].add(JOBS[sec](p, row, sd, lo, hi))
        return out
    with ProcessPoolExecutor(workers) as pool:
        futures = [(p, row, pool.submit(JOBS[sec], p, row, sd, lo, hi))
                   for sec, p, row, sd, lo, hi in tasks]
        for p, row, fut in futures:
            out[(p, row)].add(fut.result())
    return out


HEADER = ("| row                | policy                 |     n |     win | 95% CI        "
          "|  mean        | HP left | ms/decision |\n"
          "|---|---|---:|---:|---|---:|---:|---:|")


def table(title: str, results: dict[tuple[str, str], Cell], rows: Iterable[str],
          policies: list[str], runs: bool = False) -> None:
    print(f"\n{title}\n")
    print(HEADER)
    for row in rows:
        for p in policies:
            if (p, row) in results:
                print(results[(p, row)].row(row, p, runs))
    sys.stdout.flush()


# ---------------------------------------------------------------- speed
def speed(budgets: list[int], rounds: int = 5) -> None:
    c = gcs.builtin_content()
    g = Game(c, seed=5, log_events=False)
    g.start_battle("gremlin_nob")
    n = 500
    clone_us = []
    det_us = []
    # interleaved rounds, CPU time of this process (as ms/decision: the other processes on a
    # shared machine do not inflate it), the best round of each (what load elsewhere adds is
    # never less than nothing)
    for _ in range(rounds):
        t = time.process_time()
        for _ in range(n):
            g.clone()
        clone_us.append((time.process_time() - t) / n * 1e6)
        t = time.process_time()
        for i in range(n):
            g.determinize(i)
        det_us.append((time.process_time() - t) / n * 1e6)
    cl = min(clone_us)
    de = min(det_us)
    print(f"clone         {cl:.2f} us  (CPU, best of {rounds} rounds of {n}, Gremlin Nob turn 1; "
          f"median {statistics.median(clone_us):.2f})")
    print(f"determinize   {de:.2f} us  ({de / cl:.2f}x clone; median "
          f"{statistics.median(det_us):.2f})")
    cell = fight_job("heuristic", "gremlin_nob", 1, 0, 40)
    print(f"heuristic     {cell.decisions / max(cell.cpu, 1e-9):,.0f} decisions/s  "
          f"({40} Gremlin Nob battles, CPU time)")
    for b in budgets:
        searched = iterations = steps = decisions = 0
        cpu = 0.0
        for i in range(6):
            game = new_game(c, battle_seed(1, i))
            ag = SearchAgent(policy_seed(1, i), iters=b)
            pol = Timed(ag)
            play_battle(game, "gremlin_nob", pol, take_rewards=False)
            searched += ag.searched
            iterations += ag.iterations
            steps += ag.rollout_steps
            decisions += pol.calls
            cpu += pol.cpu
        print(f"search {b:<6} {decisions / cpu:,.1f} decisions/s, {searched / cpu:,.1f} "
              f"searches/s, {iterations / cpu:,.0f} iterations/s, {steps / cpu:,.0f} playout "
              f"decisions/s ({1000 * cpu / max(1, searched):.1f} ms a search)")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    ap.add_argument("--battles", type=int, default=2000, help="battles per cell (fights)")
    ap.add_argument("--search-battles", type=int, default=None,
                    help="battles per cell for the search budgets (default --battles)")
    ap.add_argument("--nob-battles", type=int, default=None,
                    help="battles per cell against Gremlin Nob (default: as the others)")
    ap.add_argument("--random-battles", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=500, help="Act 1 runs per policy")
    ap.add_argument("--fair-battles", type=int, default=500)
    ap.add_argument("--hard-battles", type=int, default=1000)
    ap.add_argument("--budgets", default="50,200", help="search iterations, comma-separated")
    ap.add_argument("--policies", default=None,
                    help="fight policies (default: random,greedy,heuristic,search budgets)")
    ap.add_argument("--encounters", default=None, help="default: every bundled encounter")
    ap.add_argument("--task", default="gcs/Act1-v0")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--quick", action="store_true", help="a smoke run: a few of everything")
    a = ap.parse_args()
    if a.quick:
        a.battles, a.random_battles, a.runs, a.fair_battles, a.hard_battles = 3, 3, 1, 2, 2
        a.budgets = "4"
    budgets = [int(x) for x in a.budgets.split(",") if x]
    searches = [f"search:iters={b}" for b in budgets]
    policies = a.policies.split(",") if a.policies else ["random", "greedy", "heuristic",
                                                         *searches]
    only = set(a.only.split(","))
    c = gcs.builtin_content()
    encounters = a.encounters.split(",") if a.encounters else sorted(c.encounters)
    print(f"workload      agents: {', '.join(policies)}; seed {a.seed}")
    print(f"engine        {gcs.engine_kind()}  (Python {sys.version.split()[0]}, workers "
          f"{a.workers})")
    t0 = time.perf_counter()
    if "speed" in only:
        speed(budgets if not a.quick else [4], rounds=40 if not a.quick else 1)
    if "fights" in only:
        cells = []
        for enc in encounters:
            for p in policies:
                n = a.search_battles if (p.startswith("search") and a.search_battles) \
                    else a.battles
                if enc == "gremlin_nob" and a.nob_battles:
                    n = a.nob_battles
                cells.append((p, enc, n))
        res = run_cells("fights", cells, a.seed, a.workers, a.chunk)
        table("Starter deck, A0, full HP: one fight per encounter", res, encounters, policies)
    if "hard" in only:
        res = run_cells("hard", [(p, HARD, a.hard_battles) for p in policies], a.seed,
                        a.workers, a.chunk)
        table("Gremlin Nob, the player starting at 35 of 80 HP (gremlin_nob@35)", res, [HARD],
              policies)
    if "random" in only:
        rp = [p for p in policies if p not in ("random", "greedy")] or policies
        res = run_cells("random", [(p, "random deck", a.random_battles) for p in rp],
                        a.seed, a.workers, a.chunk)
        table("Starter deck + 5 random pack cards, a random bundled encounter", res,
              ["random deck"], rp)
    if "runs" in only:
        rp = [p for p in policies if p != "random"]
        res = run_cells("runs", [(p, a.task, a.runs) for p in rp], a.seed + 1000, a.workers,
                        max(1, min(a.chunk, 5)))
        table(f"{a.task}: runs won, fights won per run, HP left at the end of won runs", res,
              [a.task], rp, runs=True)
    if "fairness" in only:
        fp = [x for s in searches for x in (s, f"cheat:{s}")]
        rows = [HARD, "gremlin_nob", "large_slime"]
        res = run_cells("fairness", [(p, r, a.fair_battles) for r in rows for p in fp],
                        a.seed, a.workers, a.chunk)
        table("Fairness: the search on sampled worlds vs on copies of the real game (cheat:)",
              res, rows, fp)
    print(f"\nelapsed       {time.perf_counter() - t0:.0f} s")
    _ = math


if __name__ == "__main__":
    main()

"""Speed of the fixed workload: Ironclad starter deck vs one Jaw Worm, uniform random legal
actions, a fresh battle each time, one process.

    .venv/bin/python benchmarks/bench_battle.py              # pure Python (the source tree)
    .venv/compiled/bin/python benchmarks/bench_battle.py     # compiled (the installed wheel)

Prints battles/s (with ``log_events=False`` and with a default ``Game()``), decisions/s,
apply/s, the clone time and the size in bytes of a mid-battle state, and last the clone time of
a default game 1,000 calls in. Battles/s, decisions/s and apply/s are the median of ``--repeat``
rounds (default 5; each round runs the three measurements one after the other, so a burst of
load elsewhere hits one round, not one number); the spread of battles/s over the rounds follows
them. The numbers are wall-clock measurements of this machine; the wording and order of the
lines are stable (new lines are added at the end).

``--pack DIR`` plays a content pack directory instead of the bundled one (it must have the
Ironclad and the Jaw Worm), so that two versions of the engine can be timed on one workload:
an older commit's pack, ``git archive COMMIT gcs/data/ironclad | tar -x -C DIR``, run by this
script under each tree's interpreter.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import gcs
from gcs import Content, Game, builtin_content, load_content
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import battle_seed, play_battle, policy_seed

PACK: str | None = None  # ``--pack``: a content pack directory (None: the bundled pack)


def content_of() -> Content:
    """The workload's content: ``--pack``'s directory, or the bundled pack."""
    return builtin_content() if PACK is None else load_content(PACK)


def bench_battles(n: int, seed: int, log_events: bool = False) -> tuple[float, int, int]:
    content = content_of()
    decisions = wins = 0
    t0 = time.perf_counter()
    for i in range(n):
        g = Game(content, seed=battle_seed(seed, i), log_events=log_events)
        r = play_battle(g, "jaw_worm", RandomPolicy(policy_seed(seed, i)), take_rewards=False)
        decisions += r.decisions
        wins += r.won
    return time.perf_counter() - t0, decisions, wins


def bench_apply(n_battles: int, seed: int) -> tuple[float, int]:
    """Time spent inside ``apply`` alone (legal actions and policy excluded)."""
    content = content_of()
    spent = 0.0
    applies = 0
    for i in range(n_battles):
        g = Game(content, seed=battle_seed(seed, i), log_events=False)
        g.start_battle("jaw_worm")
        pol = RandomPolicy(policy_seed(seed, i))
        while not g.is_waiting_for_reward and g.is_battle_active:
            a = pol(g, g.legal_actions())
            t = time.perf_counter()
            g.apply(a)
            spent += time.perf_counter() - t
            applies += 1
    return spent, applies


def mid_battle(seed: int) -> Game:
    """A few decisions into a battle: the state that clone and state size measure."""
    g = Game(content_of(), seed=seed, log_events=False)
    g.start_battle("jaw_worm")
    pol = RandomPolicy(seed)
    for _ in range(4):
        legal = g.legal_actions()
        if not legal:
            break
        g.apply(pol(g, legal))
    return g


def state_bytes(g: Game) -> int:
    """The mid-battle state's size in bytes (``gcs.battle.state.state_size``: what the state
    owns; content, strings and enum members left out)."""
    from gcs.battle.state import state_size

    return state_size(g)


def long_game(seed: int, calls: int = 1_000) -> Game:
    """A default ``Game()`` (its event log deferred, never read) after ``calls`` calls: battles
    one after another, each reward skipped; once a battle is lost (the run is over: no battle
    starts), the calls left add cards to the master deck."""
    g = Game(content_of(), seed=seed)
    pol = RandomPolicy(seed)
    for _ in range(calls):
        if not g.is_battle_active and g.last_result is False:
            g.add_card_to_master_deck("strike")
        elif not g.is_battle_active:
            g.start_battle("jaw_worm")
        elif g.is_waiting_for_reward:
            g.skip_reward()
        else:
            g.apply(pol(g, g.legal_actions()))
    return g


def bench_clone(reps: int, seed: int, g: Game | None = None) -> float:
    """The best time of ``g.clone()`` (default: the mid-battle state) over 5 rounds."""
    if g is None:
        g = mid_battle(seed)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(reps):
            g.clone()
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the median is printed")
    ap.add_argument("--pack", help="a content pack directory (default: the bundled pack)")
    a = ap.parse_args()
    global PACK
    PACK = a.pack
    bench_battles(50, a.seed)  # warm-up
    rates: list[float] = []
    decision_rates: list[float] = []
    log_rates: list[float] = []
    apply_rates: list[float] = []
    for _ in range(max(1, a.repeat)):
        dt, decisions, wins = bench_battles(a.battles, a.seed)
        dt_log, _, _ = bench_battles(a.battles, a.seed, log_events=True)
        spent, applies = bench_apply(max(1, a.battles // 5), a.seed)
        rates.append(a.battles / dt)
        decision_rates.append(decisions / dt)
        log_rates.append(a.battles / dt_log)
        apply_rates.append(applies / spent)
    clone = bench_clone(2000, a.seed)
    size = state_bytes(mid_battle(a.seed))
    med = statistics.median
    kind = ("compiled (mypyc, installed wheel)" if gcs.engine_kind() == "compiled"
            else "pure Python")
    print(f"workload      ironclad starter vs jaw_worm, random policy, 1 process, "
          f"python {platform.python_version()}" + ("" if PACK is None else f", pack {PACK}"))
    print(f"engine        {kind}")
    print(f"battles       {a.battles} ({wins} won)")
    print(f"battles/s     {med(rates):,.0f}")
    print(f"decisions/s   {med(decision_rates):,.0f}")
    print(f"battles/s     {med(log_rates):,.0f} (default Game: event log on)")
    print(f"apply/s       {med(apply_rates):,.0f}")
    print(f"clone         {clone * 1e6:.2f} us (mid-battle state)")
    print(f"state size    {size:,} bytes (mid-battle state: what it owns, content left out)")
    print(f"rounds        {len(rates)}: battles/s, decisions/s, apply/s are medians; battles/s "
          f"ranged {min(rates):,.0f}-{max(rates):,.0f}")
    long = bench_clone(2000, a.seed, long_game(a.seed))
    print(f"clone         {long * 1e6:.2f} us (default Game after 1,000 calls: its deferred "
          f"calls are shared)")


if __name__ == "__main__":
    main()

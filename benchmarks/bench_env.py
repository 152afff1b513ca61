"""Steps per second of the Gymnasium environments, 1 and 16 games, one process.

    .venv/bin/python benchmarks/bench_env.py                              # pure Python engine
    PYTHONPATH=build/fast .venv/bin/python -P benchmarks/bench_env.py     # compiled engine

Workload: a task (default ``gcs/Fight-v0``), masked uniform random actions from a seeded
generator (the choice is included in the time), a fixed number of steps per line, episodes
reset automatically. Lines, in this order: ``GcsEnv`` alone, ``SyncVectorEnv`` of 16
``GcsEnv``, the native ``GcsVectorEnv`` with 1 and 16 games; each gives steps per wall-clock
second and per CPU second of this process (steadier on a shared machine). The numbers are
measurements of this machine; the wording and order of the lines are stable.

``--encoder`` times the observation encoder alone instead: the states of seeded masked random
episodes of the task are recorded first (copies of the games with their legal mappings), then
each is encoded into one buffer row (``Observer.write``) ``--repeat`` times; the line gives
encodings per second and per CPU second. It reads only ``GcsEnv``'s ``episode`` and
``observer``, so the same script times an older tree's encoder (``PYTHONPATH=that/tree``):
compare two trees as interleaved pairs.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import gcs
import gcs.env  # registers the tasks
from gcs.env.gym import GcsEnv
from gcs.env.vector import GcsVectorEnv


def _pick(rng: np.random.Generator, masks: Any) -> np.ndarray[Any, Any]:
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])


def bench_single(task: str, steps: int, seed: int) -> tuple[float, float]:
    env = gymnasium.make(task).unwrapped
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        a = int(_pick(rng, [info["action_mask"]])[0])
        _, _, te, tr, info = env.step(a)
        if te or tr:
            _, info = env.reset()
    return steps / (time.perf_counter() - t0), steps / (time.process_time() - c0)


def bench_vector(envs: Any, steps: int, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    _, info = envs.reset(seed=seed)
    n = envs.num_envs
    t0, c0 = time.perf_counter(), time.process_time()
    rounds = max(1, steps // n)
    for _ in range(rounds):
        _, _, _, _, info = envs.step(_pick(rng, info["action_mask"]))
    return rounds * n / (time.perf_counter() - t0), rounds * n / (time.process_time() - c0)


def record_states(task: str, n: int, seed: int) -> tuple[Any, list[tuple[Any, Any, float]]]:
    """``n`` states of seeded masked random episodes: (game copy, legal mapping, floor)."""
    env = gymnasium.make(task).unwrapped
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    states = []
    while len(states) < n:
        ep = env.episode
        states.append((ep.game.clone(), dict(ep.slots), ep.won_battles / env.task.battles))
        a = int(_pick(rng, [info["action_mask"]])[0])
        _, _, te, tr, info = env.step(a)
        if te or tr:
            _, info = env.reset()
    return env, states


def bench_encoder(task: str, n: int, repeat: int, seed: int) -> tuple[float, float]:
    env, states = record_states(task, n, seed)
    obs, buf, run = env.observer, env.observer.buffers(1), env.task.run
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(repeat):
        for game, slots, floor in states:
            obs.write(game, slots, buf, 0, floor=floor, is_run=run)
    k = n * repeat
    return k / (time.perf_counter() - t0), k / (time.process_time() - c0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", default="gcs/Fight-v0")
    ap.add_argument("--steps", type=int, default=20_000, help="steps per line")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--encoder", action="store_true",
                    help="time the observation encoder alone on recorded states")
    ap.add_argument("--states", type=int, default=2_000, help="recorded states (--encoder)")
    ap.add_argument("--repeat", type=int, default=5, help="passes over them (--encoder)")
    args = ap.parse_args()
    kwargs = dict(gymnasium.spec(args.task).kwargs)
    if args.encoder:
        print(f"gcs {gcs.__version__} ({gcs.engine_kind()} engine), Python "
              f"{platform.python_version()}, task {args.task}, observation encoder, "
              f"{args.states} states x {args.repeat}")
        wall, cpu = bench_encoder(args.task, args.states, args.repeat, args.seed)
        print(f"{'Observer.write':<26} {wall:>9,.0f} encodings/s {cpu:>9,.0f} per CPU second")
        return
    print(f"gcs {gcs.__version__} ({gcs.engine_kind()} engine), Python "
          f"{platform.python_version()}, task {args.task}, {args.steps} steps per line")
    rows: list[tuple[str, Callable[[], tuple[float, float]]]] = [
        ("GcsEnv, 1 game", lambda: bench_single(args.task, args.steps, args.seed)),
        ("SyncVectorEnv, 16 games", lambda: bench_vector(
            gymnasium.vector.SyncVectorEnv([lambda: GcsEnv(**kwargs) for _ in range(16)]),
            args.steps, args.seed)),
        ("GcsVectorEnv, 1 game", lambda: bench_vector(GcsVectorEnv(1, **kwargs), args.steps,
                                                      args.seed)),
        ("GcsVectorEnv, 16 games", lambda: bench_vector(GcsVectorEnv(16, **kwargs), args.steps,
                                                        args.seed)),
    ]
    for name, fn in rows:
        wall, cpu = fn()
        print(f"{name:<26} {wall:>9,.0f} steps/s   {cpu:>9,.0f} steps per CPU second")


if __name__ == "__main__":
    main()

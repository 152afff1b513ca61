"""How hard is each registered task? Win rates of simple baselines after a fixed budget.

    .venv/bin/python benchmarks/rl_baselines.py                      # random and greedy
    .venv/bin/python benchmarks/rl_baselines.py --ppo-steps 50000    # + MaskablePPO, 3 seeds

Policies: ``random`` (uniform over the legal indices), ``greedy`` (gcs.sim.policies.GreedyPolicy
through decode/encode: it takes the first offered reward), ``heuristic`` and ``search`` (the
built-in agents of gcs.agents, ``--search-iters`` iterations a decision), ``two-rule``
(benchmarks/two_rules.py: greedy, no Skills into Enrage, always the upgrade; ``--agents``
picks which run) and, when sb3-contrib (and torch)
are installed, ``MaskablePPO`` (``MultiInputPolicy`` on the Dict observation, 4 envs, default
hyper-parameters but ``--ppo-n-steps``, one torch thread) trained for ``--ppo-steps`` steps on each of
``--ppo-seeds`` seeds (training seed ``seed + k``), then played deterministically with its
mask; its learning curves (each seed's win rate over its last 100 training episodes against
the training steps, one panel per task) go to ``--curves`` as a PNG (matplotlib). Each
policy plays the same ``--episodes`` evaluation episodes (seeds ``seed + i``).
Prints one Markdown table: win rate with its 95% Wilson interval, mean battles won, mean
return. Results are exact for a
seed (PPO: up to torch's own nondeterminism); the output format is stable.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import gcs.env
from gcs.act import run_rule
from gcs.agent import Action
from gcs.agents import HeuristicAgent, SearchAgent
from gcs.env.gym import GcsEnv
from gcs.report.stats import wilson
from gcs.sim.policies import GreedyPolicy

sys.path.insert(0, str(Path(__file__).parent))  # (with -P too: the two-rule policy's module)
from two_rules import TwoRules

Chooser = Callable[[GcsEnv, Any], int]
TRAIN_SEEDS = 1_000_000  # PPO trains on seeds from seed + this


def random_chooser(seed: int) -> Chooser:
    rng = np.random.default_rng(seed)

    def choose(env: GcsEnv, obs: Any) -> int:
        return int(rng.choice(np.flatnonzero(env.action_masks())))

    return choose


def greedy_chooser() -> Chooser:
    return agent_chooser(lambda episode: GreedyPolicy(), "greedy")


def agent_chooser(make: Callable[[int], Any], name: str) -> Chooser:
    """A gcs agent through decode/encode, made afresh (seeded) for every episode; an act's map
    and rest decisions go to its run rule (gcs.act.run_rule: the heuristic's for heuristic and
    search, the agent's own ``run_choice``, else the agent itself)."""
    state: dict[str, Any] = {"game": None, "agent": None, "rule": None, "episodes": 0}

    def choose(env: GcsEnv, obs: Any) -> int:
        g = env.game
        assert g is not None
        if state["game"] is not g:  # a new episode (reset makes a new Game)
            state["game"] = g
            state["agent"] = make(state["episodes"])
            state["rule"] = run_rule(name, state["agent"])
            state["episodes"] += 1
        run = env.episode.run
        if run is not None and run.phase in ("path", "rest") and state["rule"] is not None:
            return env.encode(state["rule"](run, env.legal_actions()))
        return env.encode(state["agent"](g, game_order(env)))

    return choose


def game_order(env: GcsEnv) -> list[Action]:
    """The legal actions that have an index, in the game's own order (``env.legal_actions()``
    lists them in index order): agents break ties by the first, and the run layer hands them
    the game's list, so the same agent makes the same choices through either."""
    offered = set(env.legal_actions())
    run = env.episode.run
    g = env.game
    assert g is not None
    return [a for a in (run or g).legal_actions() if a in offered]


def evaluate(task: str, choose: Chooser, episodes: int, seed: int) -> tuple[float, float, float]:
    """(win rate, mean battles won, mean return) over ``episodes`` seeded episodes."""
    env = gymnasium.make(task).unwrapped
    assert isinstance(env, GcsEnv)
    wins = battles = 0
    total = 0.0
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            obs, r, te, tr, info = env.step(choose(env, obs))
            total += float(r)
            done = te or tr
        wins += bool(info["won"])
        battles += int(info["battles_won"])
    return wins / episodes, battles / episodes, total / episodes


Curve = list[tuple[int, bool]]  # (training steps so far, won) at each training episode's end


def ppo_chooser(task: str, steps: int, seed: int,
                n_steps: int = 2048) -> tuple[Chooser, Curve] | None:
    """A MaskablePPO policy trained for ``steps`` steps and its learning curve, or None
    without sb3-contrib."""
    try:
        import torch  # type: ignore[import-not-found,unused-ignore]
        from sb3_contrib import MaskablePPO  # type: ignore[import-not-found,unused-ignore]
        from stable_baselines3.common.callbacks import (  # type: ignore[import-not-found,unused-ignore]
            BaseCallback,
        )
        from stable_baselines3.common.env_util import (  # type: ignore[import-not-found,unused-ignore]
            make_vec_env,
        )
    except ImportError:
        return None
    torch.set_num_threads(1)  # small networks: threads only contend (and vary the results)
    curve: Curve = []

    class Record(BaseCallback):  # type: ignore[misc,unused-ignore]
        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
                if done:
                    curve.append((int(self.num_timesteps), bool(info.get("won"))))
            return True

    venv = make_vec_env(task, n_envs=4, seed=seed + TRAIN_SEEDS)  # apart from the evaluation
    model = MaskablePPO("MultiInputPolicy", venv, seed=seed, verbose=0, device="cpu",
                        n_steps=n_steps)
    model.learn(total_timesteps=steps, callback=Record())

    def choose(env: GcsEnv, obs: Any) -> int:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    return choose, curve


def plot_curves(curves: dict[str, list[Curve]], steps: int, path: Path,
                window: int = 100) -> None:
    """One panel per task: each seed's win rate over its last ``window`` training episodes
    against the training steps (matplotlib, imported only here)."""
    import matplotlib  # type: ignore[import-not-found,unused-ignore]

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    n = len(curves)
    cols = min(3, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(max(5.5, 4.2 * cols), 3.2 * rows),
                             squeeze=False)
    for ax, (task, runs) in zip(axes.flat, curves.items(), strict=False):
        for k, curve in enumerate(runs):
            xs, ys = [], []
            for i in range(len(curve)):
                last = curve[max(0, i - window + 1):i + 1]
                xs.append(curve[i][0])
                ys.append(sum(w for _, w in last) / len(last))
            ax.plot(xs, ys, label=f"seed {k}", linewidth=1.2)
        ax.set_title(task.removeprefix("gcs/"), fontsize=10)
        ax.set_xlim(0, steps)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("training steps")
        ax.set_ylabel(f"win rate (last {window} episodes)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.suptitle(f"MaskablePPO, {steps:,} steps per seed (training episodes)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", default=",".join(t.id for t in gcs.env.TASKS))
    ap.add_argument("--episodes", type=int, default=200, help="evaluation episodes (fights)")
    ap.add_argument("--run-episodes", type=int, default=50, help="evaluation episodes (runs)")
    ap.add_argument("--ppo-steps", type=int, default=0, help="MaskablePPO training steps (0: off)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--agents", default="random,greedy,heuristic,search,two-rule",
                    help="the baselines to evaluate, comma-separated")
    ap.add_argument("--search-iters", type=int, default=200)
    ap.add_argument("--ppo-seeds", type=int, default=3, help="MaskablePPO training seeds")
    ap.add_argument("--ppo-n-steps", type=int, default=2048,
                    help="MaskablePPO steps per env between updates (2048: its default)")
    ap.add_argument("--curves", default="docs/img/ppo_curves.png",
                    help="where to write the learning curves (PNG; with --ppo-steps)")
    args = ap.parse_args()
    agents = set(args.agents.split(","))
    curves: dict[str, list[Curve]] = {}
    print("| task | policy | budget | win rate | battles won | return |")
    print("| --- | --- | --- | --- | --- | --- |")
    for task in args.tasks.split(","):
        is_run = bool(gymnasium.spec(task).kwargs.get("run"))
        n = args.run_episodes if is_run else args.episodes
        rows: list[tuple[str, str, Chooser | None]] = [
            ("random", "-", random_chooser(args.seed)), ("greedy", "-", greedy_chooser()),
            ("heuristic", "-", agent_chooser(lambda i: HeuristicAgent(args.seed + i),
                                             "heuristic")),
            ("search", f"{args.search_iters} iterations a decision", agent_chooser(
                lambda i: SearchAgent(args.seed + i, iters=args.search_iters), "search")),
            ("two-rule", "-", agent_chooser(lambda i: TwoRules(), "two-rule"))]
        rows = [r for r in rows if r[0] in agents]
        for k in range(args.ppo_seeds if args.ppo_steps else 0):
            t0 = time.perf_counter()
            got = ppo_chooser(task, args.ppo_steps, args.seed + k, args.ppo_n_steps)
            spent = time.perf_counter() - t0
            ppo = None
            if got is not None:
                ppo, curve = got
                curves.setdefault(task, []).append(curve)
            rows.append((f"MaskablePPO (seed {k})", f"{args.ppo_steps:,} steps ({spent:.0f} s)",
                         ppo))
        for name, budget, choose in rows:
            if choose is None:
                print(f"| `{task}` | {name} | not installed | - | - | - |")
                continue
            win, battles, ret = evaluate(task, choose, n, args.seed)
            lo, hi = wilson(round(win * n), n)
            print(f"| `{task}` | {name} | {budget} | {win:.1%} [{lo:.1%}, {hi:.1%}] ({n} "
                  f"episodes) | {battles:.2f} | {ret:+.2f} |", flush=True)
        if curves:  # (after each task: a long job leaves the curves of the tasks done)
            plot_curves(curves, args.ppo_steps, Path(args.curves))


if __name__ == "__main__":
    main()

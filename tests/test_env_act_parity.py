"""The env plays the run layer's runs: for an env seed, ``gcs/Act1-v1`` is the ``ActRun`` of
the episode's run seed, and an agent through encode/decode (the baselines' chooser) makes the
same decisions as ``gcs.act`` asks of it directly: the same map, rest and smith answers, card
picks and battle actions, the Slime Boss's last splits (enemies 5 and 6) included."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import pytest

import gcs.env  # noqa: F401  (registers the tasks)
from gcs import builtin_content
from gcs.act import ActRun
from gcs.act.play import heuristic_choice
from gcs.agent import Action
from gcs.agents import HeuristicAgent
from gcs.env.gym import GcsEnv

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def baselines() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_baselines", BENCH / "rl_baselines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rl_baselines", module)
    spec.loader.exec_module(module)
    return module


def direct(seed: int, agent: Any, rule: Any) -> tuple[list[Action], ActRun, int]:
    """The run of ``seed`` as ``play_act`` plays it with the heuristic and its run rule; and
    how often it smiths (the rule's answer checked not to depend on the order of ``legal``:
    the env lists a rest site's answers in index order, rest then smiths by card id)."""
    run = ActRun(builtin_content(), seed)
    out: list[Action] = []
    smiths = 0
    while not run.over:
        legal = run.legal_actions()
        if run.phase in ("path", "rest"):
            a = rule(run, legal)
            assert rule(run, list(reversed(legal))) == a
            smiths += run.phase == "rest" and a.choice[0] > 0
        else:
            a = agent(run.game, legal)
        out.append(a)
        run.apply(a)
    return out, run, smiths


def through_env(env_seed: int, make: Any, name: str) -> tuple[list[Action], int, GcsEnv]:
    env = gymnasium.make("gcs/Act1-v1").unwrapped
    assert isinstance(env, GcsEnv)
    choose = baselines().agent_chooser(lambda i: make(), name)
    obs, _ = env.reset(seed=env_seed)
    run = env.episode.run
    assert run is not None
    seed = run.seed
    out: list[Action] = []
    done = False
    while not done:
        k = choose(env, obs)
        out.append(env.decode(k))
        obs, _, te, tr, _ = env.step(k)
        done = te or tr
    return out, seed, env


@pytest.mark.parametrize("env_seed", [10, 3])
def test_the_env_plays_the_run_layers_run_with_the_same_decisions(env_seed: int) -> None:
    got, run_seed, env = through_env(env_seed, lambda: HeuristicAgent(env_seed), "heuristic")
    want, run, smiths = direct(run_seed, HeuristicAgent(env_seed), heuristic_choice)
    assert [str(a) for a in got] == [str(a) for a in want]
    assert env.episode.result == run.won
    if env_seed == 10:  # (the two gaps the env had: a smith, and the boss's last splits)
        assert run.won and smiths > 0
        assert any(a.kind == "play" and a.target >= 5 for a in want)


@pytest.mark.parametrize("env_seed", [1, 2])
def test_the_two_rule_baseline_plays_the_same_run_through_the_env(env_seed: int) -> None:
    two_rules = baselines().TwoRules
    got, run_seed, env = through_env(env_seed, two_rules, "two-rule")
    agent = two_rules()
    want, run, smiths = direct(run_seed, agent, agent.run_choice)
    assert [str(a) for a in got] == [str(a) for a in want]
    assert env.episode.result == run.won
    assert smiths > 0

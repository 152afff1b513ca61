"""The environments as a careless agent drives them (issue 30): garbage actions, constructor
arguments and seeds. Every call either works (the observation stays in its space, the mask is
the legal actions) or raises ``ArgumentError`` naming the parameter and changes nothing; no
value is truncated into an action, no other exception type comes out, nothing hangs.

The fuzz budget is fixed and seeded (``STEPS`` per engine run of the suite; run with ``-s`` for
the counts). A bigger run by hand: ``GCS_FUZZ_ENV=10 .venv/bin/python -m pytest
tests/test_fuzz_env.py -s`` multiplies every budget by 10.
"""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any

import gymnasium
import numpy as np
import pytest
from fuzz_support import Outcomes

import gcs.env  # noqa: F401  (registers the tasks)
from gcs import GameError, builtin_content
from gcs.env.gym import GcsEnv
from gcs.env.vector import GcsVectorEnv
from gcs.errors import ArgumentError

SCALE = int(os.environ.get("GCS_FUZZ_ENV", "1"))
STEPS = 3_000 * SCALE  # GcsEnv steps, a third of them with a garbage action
VECTOR_STEPS = 600 * SCALE
CONSTRUCTORS = 400 * SCALE
RESETS = 300 * SCALE
HANG_S = 5.0  # (a constructor loads nothing big: a slower call is a hang)

# values that are not an action index of any Discrete space (nothing may turn them into one)
NOT_INDICES: list[Any] = [
    1.5, 0.0, -0.0, 2.9, float("nan"), float("inf"), -float("inf"), "3", "0", "", "end", None,
    True, False, [0], [1, 2], (0,), {}, {"a": 1}, b"\x00", 1 + 2j, object(), np.float32(1.0),
    np.float64(2.0), np.array(2.9), np.array([1]), np.array([[0]]), np.array(1.0),
    np.bool_(True), np.array(True), np.array("1"), -1, -(2**70), 2**70, 10**400,
    np.int64(-1), np.uint64(2**63),
]
# valid index types (an int in range): Python's, numpy's, a 0-d integer array
INDEX_TYPES = (int, np.int64, np.int32, np.uint16, lambda i: np.array(i, dtype=np.int64))


def snap(env: GcsEnv) -> str:
    g = env.game
    assert g is not None
    return json.dumps([g.to_json(), env.episode.steps, env.episode.won_battles,
                       sorted(env.episode.slots)], sort_keys=True, default=str)


def refused(out: Outcomes, call: Any, *, before: Any = None, after: Any = None) -> bool:
    """Run ``call``; True if it raised ArgumentError (and ``after()`` == ``before``)."""
    started = time.perf_counter()
    try:
        call()
    except ArgumentError as exc:
        out.timed(started, str(exc))
        assert "parameter" in str(exc) or "unknown argument" in str(exc), exc
        if after is not None:
            assert after() == before, "a refused call changed the environment"
        out.add("refused")
        return True
    out.timed(started, "call")
    out.add("accepted")
    return False


def test_fuzz_env_garbage_actions_are_refused_and_change_nothing() -> None:
    rng = random.Random(1)
    out = Outcomes("env actions")
    tasks = ["gcs/JawWorm-v0", "gcs/Fight-v0", "gcs/Act1Short-v0", "gcs/FightRandomDeck-v0"]
    env = gymnasium.make(rng.choice(tasks)).unwrapped
    assert isinstance(env, GcsEnv)
    obs, info = env.reset(seed=rng.randrange(2**32))
    for step in range(STEPS):
        if step % 400 == 0:  # another task now and then (the garbage is the same)
            env = gymnasium.make(rng.choice(tasks), flat=rng.random() < 0.3).unwrapped
            obs, info = env.reset(seed=rng.randrange(2**32))
        if rng.random() < 0.34:
            bad = rng.choice(NOT_INDICES)
            before = snap(env)
            assert refused(out, lambda b=bad, e=env: e.step(b), before=before,
                           after=lambda e=env: snap(e)), bad
            assert refused(out, lambda b=bad, e=env: e.decode(b)), bad
            continue
        legal = np.flatnonzero(info["action_mask"])
        index = int(rng.choice(legal)) if rng.random() < 0.9 else rng.randrange(env.action_space.n)
        obs, reward, terminated, truncated, info = env.step(rng.choice(INDEX_TYPES)(index))
        out.add("stepped")
        assert env.observation_space.contains(obs) and np.isfinite(reward)
        assert info["illegal_action"] == (index not in legal)
        if terminated or truncated:
            obs, info = env.reset(seed=rng.randrange(2**32))
    out.report()
    assert out.counts["refused"] >= STEPS // 2 and out.counts["stepped"] >= STEPS // 2


def test_fuzz_env_vector_actions_and_seeds() -> None:
    rng = random.Random(2)
    out = Outcomes("vector env")
    env = GcsVectorEnv(4, encounter="*")
    obs, info = env.reset(seed=3)
    bad_batches: list[Any] = [
        np.zeros(4), np.zeros(4, dtype=np.float32) + 1.0, [0, 0, 0], [0, 0, 0, 0, 0],
        [0, 0, 0, None], [0.5, 0, 0, 0], ["1", 0, 0, 0], np.zeros(4, dtype=bool),
        [[0, 0], [0, 0, 0]], np.array([0, 0, 0, 10**6]), [-1, 0, 0, 0], "0000", None, 5,
        np.full(4, np.nan), {"a": 1},
    ]
    for _ in range(VECTOR_STEPS):
        if rng.random() < 0.3:
            bad = rng.choice(bad_batches)
            before = [snap_episode(e) for e in env.episodes]
            assert refused(out, lambda b=bad: env.step(b), before=before,
                           after=lambda: [snap_episode(e) for e in env.episodes]), bad
            continue
        acts = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0  # (ended: it resets)
                for m in info["action_mask"]]
        kind = rng.random()
        batch: Any = acts if kind < 0.4 else np.array(acts, dtype=rng.choice(
            [np.int64, np.int32, np.uint8, np.int16]))
        obs, _, _, _, info = env.step(batch)
        out.add("stepped")
        assert env.observation_space.contains(obs)
    for seed in (np.int64(3), np.uint32(3), 3, [3, 4, 5, 6], np.arange(3, 7)):
        a = env.reset(seed=seed)[0]
        b = env.reset(seed=3)[0]
        assert all((a[k] == b[k]).all() for k in a)
        out.add("seeded")
    for bad in (-1, 1.5, "3", [1, 2], [1, 2, 3, "x"], True, np.float64(3.0), 2**200,
                np.array([[1, 2], [3, 4]])):
        assert refused(out, lambda b=bad: env.reset(seed=b)), bad
    assert refused(out, lambda: env.reset(options={"encounter": "cultist"}))
    out.report()


def snap_episode(ep: Any) -> str:
    return json.dumps([ep.game.to_json() if ep.game else None, ep.steps], default=str)


# constructor arguments: each name with values that must be refused, and values that work
KWARGS_BAD: dict[str, list[Any]] = {
    "encounter": [5, None, [], ["jaw_worm", 5], {"jaw_worm": 1}, b"jaw_worm", [[]]],
    "content": ["x", 5, {}, builtin_content],
    "deck": [5, [5], "strike*5", ["strike", None], {"strike": 5}, [b"strike"]],
    "random_cards": [10**9, -1, 1.5, "5", True, None, float("nan")],
    "max_turns": [0, -5, 1.5, "100", True, None, 10**12],
    "max_steps": [0, 2.5, "x", False, 10**30],
    "illegal_penalty": ["x", float("nan"), float("inf"), None, True, [1.0], 1 + 1j],
    "shaping": ["x", float("nan"), -float("inf"), None, False],
    "run": ["yes", 1, None, np.bool_(True)],
    "shuffle": ["no", 0, 2.0],
    "deck_rewards": ["x", 1],
    "take_rewards": [None, 0],
    "flat": ["x", 1, None],
    "render_mode": ["human", 5, "rgb_array"],
    "bogus": [1, None],
}
KWARGS_GOOD: dict[str, list[Any]] = {
    "encounter": ["cultist", ["jaw_worm", "cultist"], ("cultist",), "*"],
    "deck": [None, "random", ["strike"] * 5 + ["defend"] * 4, ("bash", "strike")],
    "random_cards": [0, 3, np.int64(2)],
    "max_turns": [1, 50, np.int32(7)],
    "illegal_penalty": [-1, 0.0, np.float32(-0.5), -2.5],
    "shaping": [0, 0.5, np.float64(1.0)],
    "run": [True, False], "flat": [True, False], "render_mode": [None, "ansi"],
}


@pytest.mark.parametrize("cls", ["GcsEnv", "GcsVectorEnv"])
def test_fuzz_env_constructor_arguments(cls: str) -> None:
    rng = random.Random(3 if cls == "GcsEnv" else 4)
    out = Outcomes(f"{cls} arguments")
    for _ in range(CONSTRUCTORS // 2):
        kwargs = {k: rng.choice(v) for k, v in KWARGS_GOOD.items() if rng.random() < 0.4}
        if cls == "GcsVectorEnv":
            kwargs.pop("render_mode", None)
        name = rng.choice([k for k in sorted(KWARGS_BAD)
                           if cls == "GcsEnv" or k != "render_mode"])  # (a vector env: None)
        kwargs[name] = rng.choice(KWARGS_BAD[name])

        def make(kw: dict[str, Any] = kwargs) -> Any:
            return GcsEnv(**kw) if cls == "GcsEnv" else GcsVectorEnv(2, **kw)

        assert refused(out, make), kwargs
        kwargs.pop(name)
        started = time.perf_counter()
        env = make(kwargs)
        obs = env.reset(seed=rng.randrange(1000))[0]
        assert env.observation_space.contains(obs)
        out.timed(started, str(kwargs))
        out.add("made")
    if cls == "GcsVectorEnv":
        for n in (0, -1, 1.5, "4", None, True, 10**6):
            assert refused(out, lambda n=n: GcsVectorEnv(n)), n
    out.report()
    assert out.counts["refused"] >= CONSTRUCTORS // 2 and out.counts["made"] == CONSTRUCTORS // 2


def test_fuzz_env_resets_seeds_and_options() -> None:
    rng = random.Random(5)
    out = Outcomes("env resets")
    env = GcsEnv(encounter="*", deck="random")
    env.reset(seed=1)
    for _ in range(RESETS):
        r = rng.random()
        if r < 0.3:
            bad = rng.choice([-1, -(2**70), 1.5, "7", True, [1], np.float32(2), 2**200,
                              np.array([1, 2]), object()])
            before = snap(env)
            assert refused(out, lambda b=bad: env.reset(seed=b), before=before,
                           after=lambda: snap(env)), bad
        elif r < 0.45:
            before = snap(env)
            opt = rng.choice([{"encounter": "cultist"}, {"x": 1}, "opts", [1], 5])
            assert refused(out, lambda o=opt: env.reset(options=o), before=before,
                           after=lambda: snap(env)), opt
        else:
            s = rng.randrange(2**40)
            kind = rng.choice([int, np.int64, np.uint64])
            a = env.reset(seed=kind(s), options=rng.choice([None, {}]))[0]
            b = GcsEnv(encounter="*", deck="random").reset(seed=s)[0]
            assert all((a[k] == b[k]).all() for k in a)  # a numpy seed is the same seed
            out.add("seeded")
    out.report()


def test_env_pinned_cases_from_the_issue() -> None:
    """Issue 30's cases, one by one: each refused with the parameter named."""
    env = GcsEnv()
    env.reset(seed=1)
    for bad in (1.5, "3", np.float32(1.0), np.array(2.9), float("nan"), float("inf"), None,
                "x", np.array([1, 2])):
        with pytest.raises(ArgumentError, match=r"step: parameter 'action' must be an int in "
                           rf"0\.\.{env.action_space.n - 1}"):
            env.step(bad)
    with pytest.raises(ArgumentError, match="decode: parameter 'action'"):
        env.decode(1.5)  # (it returned an action)
    with pytest.raises(ArgumentError, match="parameter 'illegal_penalty' must be a finite"):
        GcsEnv(illegal_penalty="x")
    with pytest.raises(ArgumentError, match="parameter 'shaping' must be a finite"):
        GcsEnv(shaping=float("nan"))
    with pytest.raises(ArgumentError, match=r"parameter 'random_cards' must be an int in "
                       r"0\.\.10000"):
        GcsEnv(deck="random", random_cards=10**9)  # (reset tried to allocate 7.45 GiB)
    with pytest.raises(ArgumentError, match="parameter 'encounter'"):
        GcsEnv(encounter=5)
    with pytest.raises(ArgumentError, match="parameter 'content'"):
        GcsEnv(content="x")
    with pytest.raises(ArgumentError, match="parameter 'deck'"):
        GcsEnv(deck=[5])
    with pytest.raises(ArgumentError, match="reset: parameter 'options' must be None"):
        env.reset(options={"encounter": "cultist"})
    vec = GcsVectorEnv(2)
    vec.reset(seed=np.int64(3))  # (a TypeError before)
    with pytest.raises(ArgumentError, match="step: parameter 'actions'"):
        vec.step(np.array([0.0, 1.9]))  # (truncated to actions before)
    with pytest.raises(GameError):
        vec.step([0, env.action_space.n])

"""Copies of environments: pickle, deepcopy and get_state/set_state mid-episode reproduce the
rest of the episode exactly (observations, rewards, ends, infos), for every task, on the single
and the native vector env; a bad state is refused and changes nothing. The vector env's info
has the single env's keys."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest

import gcs.env  # noqa: F401  (registers the tasks)
from gcs import GameError
from gcs.env.gym import GcsEnv
from gcs.env.registry import TASKS
from gcs.env.vector import GcsVectorEnv
from gcs.errors import ArgumentError, SaveError

TASK_IDS = [t.id for t in TASKS]


def _key(x: Any) -> Any:
    """A comparable form of an observation or info value."""
    if isinstance(x, dict):
        return {k: _key(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_key(v) for v in x)
    if isinstance(x, np.ndarray):
        return (x.dtype.str, x.shape, x.tobytes() if x.dtype != object else repr(x.tolist()))
    return x


def play(env: Any, steps: int, seed: int) -> list[Any]:
    """``steps`` masked random steps (actions from ``seed``), resetting after an end: every
    observation, reward, end and info."""
    rng = np.random.default_rng(seed)
    info = env.unwrapped._info()
    out = []
    for _ in range(steps):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, te, tr, info = env.step(a)
        out.append(_key((obs, r, te, tr, info)))
        if te or tr:
            obs, info = env.reset()
            out.append(_key((obs, info)))
    return out


def _midway(task_id: str, **kw: Any) -> Any:
    env = gymnasium.make(task_id, **kw)
    env.reset(seed=11)
    play(env, 25, 3)
    return env


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_pickle_deepcopy_and_set_state_replay_the_rest_of_the_episode(task_id: str) -> None:
    env = _midway(task_id)
    pickled = pickle.loads(pickle.dumps(env))
    deep = copy.deepcopy(env.unwrapped)
    state = json.loads(json.dumps(env.unwrapped.get_state()))  # plain JSON data
    fresh = gymnasium.make(task_id)
    fresh.reset(seed=99)  # another episode, replaced by the state
    fresh.unwrapped.set_state(state)
    rest = play(env, 120, 4)
    assert any(x[2] or x[3] for x in rest if len(x) == 5), "no episode ended"
    assert play(pickled, 120, 4) == rest
    assert play(deep, 120, 4) == rest
    assert play(fresh, 120, 4) == rest


def test_a_copy_is_independent_of_its_original() -> None:
    env = _midway("gcs/Fight-v0").unwrapped
    before = env.get_state()
    deep = copy.deepcopy(env)
    play(deep, 30, 1)
    assert env.get_state() == before
    assert deep.game is not env.game and deep.content is env.content


def test_set_state_returns_the_states_observation_and_info() -> None:
    env = _midway("gcs/Act1Short-v0").unwrapped
    state = env.get_state()
    obs, info = env._observe(), env._info()
    other = GcsEnv(**gymnasium.spec("gcs/Act1Short-v0").kwargs)
    got_obs, got_info = other.set_state(state)
    assert _key(got_obs) == _key(obs) and _key(got_info) == _key(info)
    assert other.get_state() == state


def test_a_flat_env_pickles_and_keeps_its_options() -> None:
    env = _midway("gcs/Fight-v0", flat=True)
    copied = pickle.loads(pickle.dumps(env))
    assert copied.unwrapped.flat and play(copied, 40, 2) == play(env, 40, 2)


@pytest.mark.parametrize("bad, message", [
    (None, "a dict made by get_state"),
    ({}, "state['format']"),
    ("text", "a dict made by get_state"),
])
def test_set_state_refuses_what_is_no_state(bad: Any, message: str) -> None:
    env = _midway("gcs/JawWorm-v0").unwrapped
    before = env.get_state()
    with pytest.raises(ArgumentError, match=message.replace("[", r"\[").replace("]", r"\]")):
        env.set_state(bad)
    assert env.get_state() == before


def _broken(state: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    s = copy.deepcopy(state)
    d = s
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    return s


@pytest.mark.parametrize("path, value, error, message", [
    (("task", "max_turns"), 7, ArgumentError, "another task .'max_turns'"),
    (("content",), "abc", ArgumentError, "content digest"),
    (("rng",), {"bit_generator": "MT19937"}, ArgumentError, "PCG64"),
    (("rng", "state", "state"), "x", ArgumentError, "not a PCG64 state"),
    (("episode", "fights"), ["cultist"], ArgumentError, "encounters"),
    (("episode", "won_battles"), 5, ArgumentError, "won_battles"),
    (("episode", "steps"), -1, ArgumentError, "steps"),
    (("episode", "result"), "yes", ArgumentError, "result"),
    (("episode", "done"), 1, ArgumentError, "done"),
    (("episode", "illegal"), None, ArgumentError, "illegal"),
    (("episode", "game"), [], ArgumentError, "Game.to_json"),
    (("episode", "game", "state", "hp"), "many", SaveError, "hp"),
])
def test_set_state_names_what_is_wrong_and_changes_nothing(
        path: tuple[str, ...], value: Any, error: type[Exception], message: str) -> None:
    env = _midway("gcs/JawWorm-v0").unwrapped
    before = env.get_state()
    obs = _key(env._observe())
    with pytest.raises(error, match=message):
        env.set_state(_broken(before, path, value))
    assert env.get_state() == before and _key(env._observe()) == obs


def test_get_state_before_reset_is_refused() -> None:
    with pytest.raises(GameError, match="reset"):
        GcsEnv().get_state()
    with pytest.raises(GameError, match="reset"):
        GcsVectorEnv(2).get_state(0)


# ---------------------------------------------------------------- the vector env

def _vplay(env: GcsVectorEnv, rounds: int, seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    masks = env.action_masks()
    out = []
    for _ in range(rounds):
        acts = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])
        obs, r, te, tr, info = env.step(acts)
        masks = info["action_mask"]
        out.append(_key((obs, r, te, tr, info)))
    return out


def test_the_vector_env_pickles_deep_copies_and_moves_states() -> None:
    kw = dict(gymnasium.spec("gcs/Act1Short-v0").kwargs)
    env = GcsVectorEnv(3, **kw)
    env.reset(seed=5)
    _vplay(env, 30, 1)
    pickled = pickle.loads(pickle.dumps(env))
    deep = copy.deepcopy(env)
    other = GcsVectorEnv(3, **kw)
    other.reset(seed=70)
    for i in range(3):
        other.set_state(i, json.loads(json.dumps(env.get_state(i))))
    rest = _vplay(env, 80, 2)
    assert any(b"\x01" in x[2][2] for x in rest), "no episode ended"
    assert _vplay(pickled, 80, 2) == rest
    assert _vplay(deep, 80, 2) == rest
    assert _vplay(other, 80, 2) == rest


def test_a_state_moves_between_the_single_and_the_vector_env() -> None:
    kw = dict(gymnasium.spec("gcs/Fight-v0").kwargs)
    single = GcsEnv(**kw)
    single.reset(seed=4)
    play(single, 10, 1)
    vec = GcsVectorEnv(2, **kw)
    vec.reset(seed=0)
    vec.set_state(1, single.get_state())
    assert vec.get_state(1) == single.get_state()
    with pytest.raises(ArgumentError, match="index"):
        vec.set_state(2, single.get_state())
    wrong = GcsEnv(encounter="cultist")
    wrong.reset(seed=1)
    with pytest.raises(ArgumentError, match="another task"):
        vec.set_state(0, wrong.get_state())


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_the_vector_env_info_has_the_single_env_keys(task_id: str) -> None:
    kw = dict(gymnasium.spec(task_id).kwargs)
    single = GcsEnv(**kw)
    _, single_info = single.reset(seed=3)
    keys = set(single_info)
    sync = gymnasium.vector.SyncVectorEnv([lambda: GcsEnv(**kw) for _ in range(2)])
    native = GcsVectorEnv(2, **kw)
    for infos in (sync.reset(seed=3)[1], native.reset(seed=3)[1]):
        assert set(infos) == keys | {"_" + k for k in keys}
    # ... and each episode's values are the single env's
    _, _, _, _, info = native.step(np.array([0, 0]))
    single.reset(seed=3)
    _, _, _, _, one = single.step(0)
    for k, v in one.items():
        assert _key(np.asarray(info[k][0]) if isinstance(v, np.ndarray) else info[k][0]) == \
            _key(v), k

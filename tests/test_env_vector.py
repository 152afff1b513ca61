"""Vector environments: gymnasium's Sync/Async vector envs over GcsEnv, and the native batched
GcsVectorEnv, which must give the same observations, rewards and ends for the same seeds."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import gcs.env  # noqa: F401  (registers the tasks)
from gcs import GameError
from gcs.env.gym import GcsEnv
from gcs.env.vector import GcsVectorEnv


def _drive(envs: Any, seed: int, steps: int) -> list[Any]:
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        acts = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                         for m in info["action_mask"]])
        obs, r, te, tr, info = envs.step(acts)
        assert envs.observation_space.contains(obs)
        out.append((acts.tobytes(), r.tolist(), te.tolist(), tr.tolist(),
                    {k: v.tobytes() for k, v in obs.items()} if isinstance(obs, dict)
                    else obs.tobytes()))
    return out


@pytest.mark.parametrize("task_id", ["gcs/Fight-v0", "gcs/Act1Short-v0"])
def test_the_native_vector_env_equals_sync_vector_env(task_id: str) -> None:
    kwargs = dict(gymnasium.spec(task_id).kwargs)
    sync = gymnasium.vector.SyncVectorEnv([lambda: GcsEnv(**kwargs) for _ in range(4)])
    native = gymnasium.make_vec(task_id, num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(native, GcsVectorEnv)
    assert native.single_observation_space == sync.single_observation_space
    a, b = _drive(sync, 7, 800), _drive(native, 7, 800)
    assert a == b
    assert any(any(x[2]) for x in a), "no episode ended"


def test_the_native_vector_env_flat_and_masks() -> None:
    env = GcsVectorEnv(3, flat=True)
    obs, info = env.reset(seed=[1, 2, 3])
    assert obs.shape == (3, env.observer.flat_size) and obs.dtype == np.float32
    assert (env.action_masks() == info["action_mask"]).all()
    single = GcsEnv(flat=True)
    assert (single.reset(seed=2)[0] == obs[1]).all()
    with pytest.raises(GameError):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(GameError):
        GcsVectorEnv(0)


def test_async_vector_env_runs_gcs_envs_in_subprocesses() -> None:
    fns = [lambda: GcsEnv(encounter="cultist") for _ in range(2)]
    sync = gymnasium.vector.SyncVectorEnv(fns)
    asyn = gymnasium.vector.AsyncVectorEnv(fns)
    try:
        assert _drive(sync, 3, 60) == _drive(asyn, 3, 60)
    finally:
        asyn.close()

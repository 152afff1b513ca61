"""The observation encoder: the default observation is pinned (sha256 of every observation of
seeded episodes of every task, recorded before the encoder was rewritten for speed), and the
information-state and privileged options add parts without changing the default ones."""

from __future__ import annotations

import hashlib
from typing import Any

import gymnasium
import numpy as np
import pytest

import gcs.env  # noqa: F401  (registers the tasks)
from gcs.env.gym import GcsEnv
from gcs.env.registry import TASKS

# sha256 over every step's observation parts (Dict, in part order), reward and ends of 400
# masked random steps per task (seed 5, episodes reset as they end): the encoder before its
# rewrite for speed gave these, and so must every encoder after it
GOLDEN = {
    "gcs/JawWorm-v0": "e67c74843035185324dfca86f16303366c9ba7d7f46a313d64be1baaedcda7f7",
    "gcs/GremlinNob-v0": "e1fafac2e653cb36e59ab08601b36673a237802eb97bf6710f8258a852ce65ac",
    "gcs/Fight-v0": "62d68bed883ac1cc80ff06658ddaf7ac2f1acef655cc0f8e9471fc4ee933815f",
    "gcs/FightRandomDeck-v0": "bc2c7d9671d47dfaaa1aa901b72a2767b7f45f472f5f6d93db6176d87f23e38b",
    "gcs/Act1-v0": "f6cdc118edea7232d75b1cd1414fdac22fa5448377d4ba0379a8f171cff7959e",
    "gcs/Act1Short-v0": "41ed4e81550532e2bea41417c3769ca6af1f1c4b5f698d9aed72f86aad197732",
    "flat": "939efe88887bfab069d41e6cac81aa2c44de42fabc416dd4da418bd552f8f9c9",
}


def trajectory_digest(env: GcsEnv, steps: int, seed: int) -> str:
    """The sha256 of ``steps`` masked random steps from ``reset(seed)`` (resets included)."""
    h = hashlib.sha256()
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)

    def feed(o: Any) -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                h.update(k.encode())
                h.update(np.ascontiguousarray(v).tobytes())
        else:
            h.update(np.ascontiguousarray(o).tobytes())

    feed(obs)
    for _ in range(steps):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, te, tr, info = env.step(a)
        feed(obs)
        h.update(repr((r, te, tr)).encode())
        if te or tr:
            obs, info = env.reset()
            feed(obs)
    return h.hexdigest()


@pytest.mark.parametrize("task_id", [t.id for t in TASKS])
def test_the_default_observation_is_unchanged(task_id: str) -> None:
    env = gymnasium.make(task_id).unwrapped
    assert trajectory_digest(env, 400, 5) == GOLDEN[task_id]


def test_the_default_flat_observation_is_unchanged() -> None:
    env = gymnasium.make("gcs/Act1Short-v0", flat=True).unwrapped
    assert trajectory_digest(env, 200, 6) == GOLDEN["flat"]

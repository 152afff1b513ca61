"""The ``-v1`` elite tasks: the player arrives with the HP an Act 1 run arrives with (a table
measured from seeded runs, one entry drawn per episode), the rest as in ``-v0``."""

from __future__ import annotations

from collections import Counter

import gymnasium
import pytest

import gcs.env  # noqa: F401  (registers the tasks)
from gcs.env.gym import GcsEnv
from gcs.env.registry import ELITE_ARRIVAL_HP, TASKS
from gcs.errors import ArgumentError


def make(task_id: str, **kwargs: object) -> GcsEnv:
    env = gymnasium.make(task_id, **kwargs).unwrapped
    assert isinstance(env, GcsEnv)
    return env


def start_hp(env: GcsEnv, seed: int) -> int:
    env.reset(seed=seed)
    g = env.game
    assert g is not None
    return g.player.hp


@pytest.mark.parametrize("task_id", ["gcs/ThreeSentries-v1", "gcs/EliteDrafted-v1"])
def test_each_episode_starts_with_an_arrival_hp_of_the_table(task_id: str) -> None:
    env = make(task_id)
    want = {max(1, 80 * p // 100) for p in ELITE_ARRIVAL_HP}
    got = Counter(start_hp(env, s) for s in range(200))
    assert set(got) <= want
    # 20 equally likely entries: 200 draws leave none of them out with probability
    # 20 * 0.95**200 < 1e-3 (the seeds are fixed: this is exact for them)
    assert set(got) == want
    assert start_hp(env, 7) == start_hp(env, 7)  # a seed replays its episode
    v0 = {"gcs/ThreeSentries-v1": "gcs/ThreeSentries-v0",
          "gcs/EliteDrafted-v1": "gcs/EliteDrafted-v0"}[task_id]
    assert start_hp(make(v0), 7) == 80


def test_the_table_is_a_run_arrival_table() -> None:
    assert len(ELITE_ARRIVAL_HP) == 20
    assert list(ELITE_ARRIVAL_HP) == sorted(ELITE_ARRIVAL_HP)
    assert all(1 <= p <= 100 for p in ELITE_ARRIVAL_HP)
    ids = {t.id for t in TASKS}
    assert {"gcs/ThreeSentries-v1", "gcs/EliteDrafted-v1"} <= ids


def test_start_hp_is_checked_and_plays_any_task() -> None:
    env = make("gcs/JawWorm-v0", start_hp=[50])
    assert start_hp(env, 1) == 40
    env = make("gcs/JawWorm-v0", start_hp=[1])
    assert start_hp(env, 1) == 1
    for bad in ([0], [101], "50", [True], [50.0], 50):
        with pytest.raises(ArgumentError, match="start_hp"):
            make("gcs/JawWorm-v0", start_hp=bad)

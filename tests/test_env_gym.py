"""The Gymnasium tasks (the ``gym`` extra): the checker, masks, decode/encode, determinism."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gcs.env
from gcs import Action, IllegalActionError
from gcs.env.actions import MAX_ENEMIES, MAX_HAND
from gcs.env.gym import GcsEnv

TASK_IDS = [t.id for t in gcs.env.TASKS]


def make(task_id: str, **kwargs: Any) -> GcsEnv:
    env = gymnasium.make(task_id, **kwargs).unwrapped
    assert isinstance(env, GcsEnv)
    return env


@pytest.mark.parametrize("task_id", TASK_IDS)
@pytest.mark.parametrize("flat", [False, True])
def test_every_registered_task_passes_the_env_checker_without_warnings(task_id: str,
                                                                        flat: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if task_id.endswith("-v0") and task_id[:-1] + "1" in TASK_IDS:
            # (kept for comparison: gymnasium says v1 is newer)
            warnings.filterwarnings("ignore", f".*{task_id} is out of date", DeprecationWarning)
        env = gymnasium.make(task_id, flat=flat)
        assert env.spec is not None and env.spec.id == task_id
        check_env(env.unwrapped)


def _check_state(env: GcsEnv, obs: dict[str, Any], info: dict[str, Any]) -> np.ndarray[Any, Any]:
    """Every invariant of one state; returns the mask."""
    assert env.observation_space.contains(obs)
    mask = info["action_mask"]
    assert mask.dtype == np.int8
    assert (mask == obs["action_mask"]).all() and (mask == env.action_masks()).all()
    legal_idx = [int(i) for i in np.flatnonzero(mask)]
    g = env.game
    assert g is not None
    run = env.episode.run  # (an act: its map and rest decisions are the run's)
    legal = run.legal_actions() if run is not None else g.legal_actions()
    # (beyond the hand cap a play has no index; every living enemy has a slot, the Slime
    # Boss's last splits, enemies 5 and 6, too: at most MAX_ENEMIES live at once)
    legal = [a for a in legal if a.kind != "play" or a.card < MAX_HAND]
    assert len(env.episode.enemies.slot_of) <= MAX_ENEMIES
    # the mask is exactly the indices of the game's legal actions
    assert sorted({env.encode(a) for a in legal}) == legal_idx
    # decode/encode round-trip, and info["legal_actions"] in mask order
    decoded = [env.decode(i) for i in legal_idx]
    assert [env.encode(a) for a in decoded] == legal_idx
    assert info["legal_actions"] == [str(a) for a in decoded]
    assert all(a in legal for a in decoded)
    return mask


def _rollout(env: GcsEnv, seed: int, steps: int, check: bool = True) -> list[Any]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    for _ in range(steps):
        mask = _check_state(env, obs, info) if check else info["action_mask"]
        if not mask.any():
            raise AssertionError("no legal action in a running episode")
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, r, terminated, truncated, info = env.step(a)
        assert not info["illegal_action"]
        trace.append((a, r, terminated, truncated, env.flatten(obs).tobytes()))
        if terminated or truncated:
            assert terminated != truncated
            assert not obs["action_mask"].any() or truncated
            obs, info = env.reset()
    return trace


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_masked_random_play_keeps_masks_legal_actions_and_codes_in_step(task_id: str) -> None:
    env = make(task_id)
    trace = _rollout(env, seed=3, steps=3000)
    assert any(t[2] for t in trace), "no episode ended in 3000 steps"


@pytest.mark.parametrize("task_id", ["gcs/FightRandomDeck-v0", "gcs/Act1-v0"])
def test_seeded_resets_reproduce_episodes_exactly(task_id: str) -> None:
    a = _rollout(make(task_id), seed=11, steps=600, check=False)
    b = _rollout(make(task_id), seed=11, steps=600, check=False)
    assert a == b
    env = make(task_id)
    first = env.reset(seed=4)[0]
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    again = env.reset(seed=4)[0]
    assert all((first[k] == again[k]).all() for k in first)


def test_different_seeds_give_different_episodes() -> None:
    assert _rollout(make("gcs/Fight-v0"), 1, 300, False) != _rollout(make("gcs/Fight-v0"), 2, 300,
                                                                       False)


def test_an_illegal_action_changes_nothing_and_is_reported() -> None:
    env = make("gcs/JawWorm-v0")
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.to_json()  # type: ignore[union-attr]
    obs2, r, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and r == env.illegal_penalty < 0
    assert not terminated and not truncated
    assert env.game.to_json() == before  # type: ignore[union-attr]
    assert all((obs2[k] == obs[k]).all() for k in obs)
    with pytest.raises(IllegalActionError, match="not legal now"):
        env.decode(illegal)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.encode(Action.choose(0))


def test_decode_gives_engine_actions_and_encode_takes_their_text() -> None:
    env = make("gcs/JawWorm-v0")
    env.reset(seed=1)
    assert env.decode(0) == Action.end()
    assert env.encode("end") == 0
    g = env.game
    assert g is not None
    for a in g.legal_actions():
        assert env.decode(env.encode(str(a))) == a
    assert env.legal_actions() == [env.decode(i) for i in np.flatnonzero(env.action_masks())]


def test_the_same_layout_whatever_the_encounter() -> None:
    spaces = [make("gcs/Fight-v0", encounter=e).observation_space
              for e in ("jaw_worm", "two_louses", "gremlin_nob")]
    spaces.append(make("gcs/Act1-v0").observation_space)
    assert all(s == spaces[0] for s in spaces)
    assert make("gcs/Act1-v0").action_space == make("gcs/JawWorm-v0").action_space


def test_flat_observations_are_the_flattened_dict() -> None:
    d, f = make("gcs/Act1Short-v0"), make("gcs/Act1Short-v0", flat=True)
    od, _ = d.reset(seed=2)
    of, info = f.reset(seed=2)
    assert f.observation_space.shape == (d.observer.flat_size,)
    assert (d.flatten(od) == of).all() and f.observation_space.contains(of)
    assert (info["action_mask"] == od["action_mask"]).all()


def test_render_shows_the_monitor() -> None:
    env = make("gcs/JawWorm-v0", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("Phase  PLAYER_PHASE")
    assert make("gcs/JawWorm-v0").render() is None

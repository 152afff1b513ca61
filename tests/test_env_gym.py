"""The Gymnasium environment (the ``gym`` extra): API conformance, masks, determinism."""

from __future__ import annotations

import numpy as np
from gymnasium.utils.env_checker import check_env

from gcs.env.gym import N_ACTIONS, GcsEnv


def test_env_passes_the_gymnasium_checker() -> None:
    check_env(GcsEnv(), skip_render_check=True)


def _rollout(env: GcsEnv, seed: int, steps: int = 3000) -> tuple[list[float], float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, trace = 0.0, []
    for n in range(steps):
        mask = info["action_mask"]
        assert (mask == obs["action_mask"]).all() and (mask == env.action_masks()).all()
        assert mask.dtype == np.int8 and mask.sum() >= 1
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, r, terminated, truncated, info = env.step(a)
        assert not info.get("illegal_action")
        total += r
        trace.append(float(obs["observation"].sum()))
        if terminated or truncated:
            return trace, total, n
    raise AssertionError("episode did not end")


def test_masked_random_episodes_end_with_a_win_or_a_loss() -> None:
    env = GcsEnv()
    for seed in range(8):
        _, total, _ = _rollout(env, seed)
        assert total in (1.0, -1.0)
        assert env.game is not None and env.game.last_result == (total == 1.0)


def test_same_seed_same_episode() -> None:
    a = _rollout(GcsEnv(), 11)
    b = _rollout(GcsEnv(), 11)
    assert a == b


def test_an_illegal_action_changes_nothing_and_is_reported() -> None:
    env = GcsEnv()
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.to_json()  # type: ignore[union-attr]
    obs2, r, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal_action"] and r == env.illegal_penalty
    assert not terminated and not truncated
    assert env.game.to_json() == before  # type: ignore[union-attr]
    assert (obs2["observation"] == obs["observation"]).all()


def test_observation_has_no_draw_order() -> None:
    env = GcsEnv()
    obs, _ = env.reset(seed=5)
    g = env.game
    assert g is not None
    g._e.s.draw.reverse()  # a different draw order, same public information
    assert (env._observe()["observation"] == obs["observation"]).all()
    assert obs["action_mask"].shape == (N_ACTIONS,)


def test_render_shows_the_monitor() -> None:
    env = GcsEnv(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("Phase  PLAYER_PHASE")

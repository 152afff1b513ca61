"""Held-out card splits (``card_split="train"``/``"test"``): the two sides are disjoint and
cover the pool, are deterministic, and an env of one side never deals a card of the other
(random decks, card rewards of runs and of fights)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import gcs.env  # noqa: F401  (registers the tasks)
from gcs.content.loader import builtin_content
from gcs.env.gym import GcsEnv
from gcs.env.task import card_split, deck_pool, held_out
from gcs.errors import ArgumentError


@pytest.mark.parametrize("seed, holdout", [(0, 0.25), (1, 0.25), (7, 0.5), (3, 0.1)])
def test_the_sides_are_disjoint_cover_the_pool_and_are_deterministic(
        seed: int, holdout: float) -> None:
    content = builtin_content()
    train, test = card_split(content, seed, holdout)
    pool = deck_pool(content)
    assert train and test
    assert not set(train) & set(test)
    assert sorted(train + test) == pool
    assert card_split(content, seed, holdout) == (train, test)
    # each card's side is its own (a growing pack keeps every card where it was)
    assert all(held_out(c, seed, holdout) for c in test)
    assert not any(held_out(c, seed, holdout) for c in train)


def test_the_held_out_fraction_is_near_holdout() -> None:
    """Over 40 seeds of the 25% split, the held-out share of the pool is 25% +- 3 points."""
    content = builtin_content()
    pool = len(deck_pool(content))
    shares = [len(card_split(content, s)[1]) / pool for s in range(40)]
    assert 0.22 <= float(np.mean(shares)) <= 0.28


def _dealt(env: GcsEnv, episodes: int, seed: int) -> set[str]:
    """Every card the env put into a master deck beyond the starter deck, or offered as a card
    reward, over ``episodes`` masked random episodes."""
    rng = np.random.default_rng(seed)
    starter = {d.card for ch in env.content.characters.values() for d in ch.starting_deck}
    seen: set[str] = set()
    for ep in range(episodes):
        _, info = env.reset(seed=seed + ep)
        while True:
            g = env.game
            assert g is not None
            seen |= {m.card_id for m in g.get_master_deck()} - starter
            seen |= {r.card_id for r in g.offered_rewards if r.kind == "card"
                     and r.card_id is not None}
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, te, tr, info = env.step(a)
            if te or tr:
                break
    return seen


@pytest.mark.parametrize("side", ["train", "test"])
@pytest.mark.parametrize("task_id, kw, episodes", [
    ("gcs/FightRandomDeck-v0", {"random_cards": 10}, 30),
    ("gcs/Act1Short-v0", {}, 25),
    ("gcs/Fight-v0", {"take_rewards": True}, 25),
])
def test_an_env_deals_only_cards_of_its_side(side: str, task_id: str, kw: dict[str, Any],
                                             episodes: int) -> None:
    env = gymnasium.make(task_id, card_split=side, **kw).unwrapped
    train, test = card_split(env.content)
    mine, other = (train, test) if side == "train" else (test, train)
    dealt = _dealt(env, episodes, 100)
    assert dealt, "no card was dealt"
    assert dealt <= set(mine)
    assert not dealt & set(other)


def test_the_split_options_are_part_of_the_task_and_its_state() -> None:
    env = gymnasium.make("gcs/Act1Short-v0", card_split="test", split_seed=4,
                         holdout=0.5).unwrapped
    env.reset(seed=1)
    state = env.get_state()
    assert state["task"]["card_split"] == "test" and state["task"]["split_seed"] == 4
    other = gymnasium.make("gcs/Act1Short-v0", card_split="train", split_seed=4,
                           holdout=0.5).unwrapped
    with pytest.raises(ArgumentError, match="another task"):
        other.set_state(state)


@pytest.mark.parametrize("kw, name", [
    ({"card_split": "eval"}, "card_split"),
    ({"card_split": True}, "card_split"),
    ({"card_split": "train", "holdout": 0.0}, "holdout"),
    ({"card_split": "train", "holdout": 1.0}, "holdout"),
    ({"card_split": "test", "holdout": 1e-9}, "holdout"),  # leaves no card on the test side
    ({"split_seed": -1}, "split_seed"),
    ({"split_seed": 1.5}, "split_seed"),
])
def test_bad_split_options_are_refused_by_name(kw: dict[str, Any], name: str) -> None:
    with pytest.raises(ArgumentError, match=name):
        GcsEnv(encounter="jaw_worm", deck="random", **kw)

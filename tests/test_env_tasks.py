"""What the tasks mean: fights from a list, random decks, runs with HP carried over and reward
choices through the action space, outcome rewards and their optional shaping, truncation, and
observations that never reveal the draw order."""

from __future__ import annotations

from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest

import gcs.env
from gcs import GameError, builtin_content
from gcs.env.gym import GcsEnv
from gcs.env.observe import Observer
from gcs.env.task import deck_pool
from gcs.sim.policies import GreedyPolicy


def make(task_id: str, **kwargs: Any) -> GcsEnv:
    env = gymnasium.make(task_id, **kwargs).unwrapped
    assert isinstance(env, GcsEnv)
    return env


def greedy_step(env: GcsEnv) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
    """One step of the simulator's greedy policy, through the action index."""
    g = env.game
    assert g is not None
    legal = env.legal_actions()
    return env.step(env.encode(GreedyPolicy()(g, legal)))


def play_until(env: GcsEnv, stop: Any, seed: int, limit: int = 3000) -> tuple[Any, ...]:
    obs, info = env.reset(seed=seed)
    for _ in range(limit):
        if stop(obs, info):
            return obs, info
        obs, _r, te, tr, info = greedy_step(env)
        if te or tr:
            obs, info = env.reset()
    raise AssertionError("the state never came")


def test_a_fight_from_a_list_draws_its_encounter_per_episode() -> None:
    env = make("gcs/Fight-v0", encounter=["cultist", "looter", "jaw_worm"])
    seen = Counter()
    env.reset(seed=0)
    for _ in range(30):
        info = env.reset()[1]
        seen[info["encounter"]] += 1
    assert set(seen) == {"cultist", "looter", "jaw_worm"}
    every = make("gcs/Fight-v0", encounter="*")  # "*": every encounter of the pack
    assert set(every.task.encounters) == set(builtin_content().encounters)


def test_a_random_deck_is_the_starter_deck_plus_cards_of_the_pack() -> None:
    env = make("gcs/FightRandomDeck-v0")
    pool = set(deck_pool(env.content))
    decks = set()
    for seed in range(5):
        env.reset(seed=seed)
        g = env.game
        assert g is not None
        ids = [m.card_id for m in g.get_master_deck()]
        assert Counter(ids[:10]) == Counter({"strike": 5, "defend": 4, "bash": 1})
        assert len(ids) == 15 and set(ids[10:]) <= pool
        decks.add(tuple(ids))
    assert len(decks) == 5


def test_a_fixed_deck_and_bad_arguments() -> None:
    env = make("gcs/JawWorm-v0", deck=["strike"] * 8)
    env.reset(seed=1)
    assert [m.card_id for m in env.game.get_master_deck()] == ["strike"] * 8  # type: ignore[union-attr]
    with pytest.raises(GameError):
        make("gcs/JawWorm-v0", encounter="no_such_fight")
    with pytest.raises(GameError):
        make("gcs/JawWorm-v0", deck="lucky")
    with pytest.raises(GameError):
        make("gcs/JawWorm-v0", max_turns=0)


def test_the_reward_is_the_outcome_by_default() -> None:
    env = make("gcs/JawWorm-v0")
    for seed in range(6):
        env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, r, te, tr, info = greedy_step(env)
            total += r
            done = te or tr
        assert total == (1.0 if info["won"] else -1.0)
        assert env.game.last_result == info["won"]  # type: ignore[union-attr]


def test_shaping_adds_the_floor_reached_and_the_hp_kept() -> None:
    env = make("gcs/JawWorm-v0", shaping=0.5)
    env.reset(seed=2)
    total, done = 0.0, False
    while not done:
        _, r, te, tr, info = greedy_step(env)
        total += r
        done = te or tr
    assert info["won"]
    hp, max_hp = env.game.run_hp  # type: ignore[union-attr]
    assert total == pytest.approx(1.0 + 0.5 * (1 + hp / max_hp))


def test_a_battle_past_max_turns_is_truncated() -> None:
    env = make("gcs/JawWorm-v0", max_turns=3, deck=["defend"] * 10)
    env.reset(seed=1)
    steps = 0
    while True:
        _obs, r, te, tr, info = env.step(env.encode("end"))
        steps += 1
        if te or tr:
            break
    assert tr and not te and r == 0.0 and steps == 3
    assert info["won"] is None


def _first_reward(env: GcsEnv, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    return play_until(env, lambda o, i: o["status"][16] == 1.0, seed)


def test_a_run_offers_its_reward_through_the_action_space() -> None:
    env = make("gcs/Act1Short-v0")
    obs, info = _first_reward(env, seed=1)
    lay = env.layout
    legal = np.flatnonzero(info["action_mask"])
    assert all(lay.card0 <= k <= lay.skip for k in legal) and lay.skip in legal
    g = env.game
    assert g is not None and g.is_waiting_for_reward
    kinds = {r.kind for r in g.offered_rewards}
    assert kinds == {"card", "upgrade", "remove"}
    # the rewards part of the observation is the mask's reward block
    rows = obs["rewards"]
    assert rows.sum() == len(legal) - 1
    offered = [k for k in legal if lay.card0 <= k < lay.upgrade0]
    cid = env.observer.vocab.cards[offered[0] - lay.card0]
    assert rows[0, offered[0] - lay.card0] == 1.0
    before = [m.card_id for m in g.get_master_deck()]
    hp_in_battle = g.player.hp  # type: ignore[union-attr]
    assert hp_in_battle < g.player.max_hp  # type: ignore[union-attr]
    obs, _r, te, tr, info = env.step(int(offered[0]))
    assert not te and not tr and info["battles_won"] == 1
    g = env.game
    assert g is not None and g.is_battle_active and g.turn_number == 1
    assert [m.card_id for m in g.get_master_deck()] == [*before, cid]
    assert g.player.hp == hp_in_battle  # type: ignore[union-attr]
    assert obs["status"][11] == pytest.approx(1 / 3)


def test_a_run_removes_a_plain_card_and_upgrades_through_indices() -> None:
    env = make("gcs/Act1Short-v0")
    _first_reward(env, seed=4)
    lay, g = env.layout, env.game
    assert g is not None
    strike = lay.card_index["strike"]
    a = env.decode(lay.remove0 + strike)
    r = g.offered_rewards[a.reward]
    assert r.kind == "remove" and r.card_id == "strike"
    deck = Counter(m.card_id for m in g.get_master_deck())
    env.step(lay.remove0 + strike)
    assert Counter(m.card_id for m in env.game.get_master_deck()) == deck - Counter(["strike"])  # type: ignore[union-attr]
    env2 = make("gcs/Act1Short-v0")
    _first_reward(env2, seed=4)
    env2.step(lay.upgrade0 + lay.card_index["bash"])
    assert [m.upgraded for m in env2.game.get_master_deck() if m.card_id == "bash"] == [True]  # type: ignore[union-attr]


def test_a_run_with_the_pack_rewards_only_offers_cards() -> None:
    env = make("gcs/Act1Short-v0", deck_rewards=False)
    _first_reward(env, seed=1)
    assert {r.kind for r in env.game.offered_rewards} == {"card"}  # type: ignore[union-attr]


def test_a_run_ends_with_the_last_fight_or_the_first_loss() -> None:
    env = make("gcs/Act1Short-v0")
    orders = set()
    for seed in range(8):
        env.reset(seed=seed)
        orders.add(tuple(env.episode.fights))
        total, done = 0.0, False
        while not done:
            _, r, te, tr, info = greedy_step(env)
            total += r
            done = te or tr
        assert te
        assert info["won"] == (info["battles_won"] == 3)
        assert total == (1.0 if info["won"] else -1.0)
    assert len(orders) > 1 and all(sorted(o) == ["cultist", "jaw_worm", "two_louses"]
                                   for o in orders)


def test_observations_never_change_when_only_the_draw_order_changes() -> None:
    env = make("gcs/FightRandomDeck-v0")
    _obs, info = env.reset(seed=9)
    rng = np.random.default_rng(9)
    ob: Observer = env.observer
    compared = 0
    for _ in range(1500):
        g = env.game
        assert g is not None
        if g.is_battle_active and not g.is_waiting and len(g.draw_pile()) > 1:
            other = g.clone()
            order = [c.instance_id for c in other.draw_pile()]
            other.shuffle_draw_pile()
            if [c.instance_id for c in other.draw_pile()] != order:
                a, b = ob.buffers(1), ob.buffers(1)
                slots = env.layout.slots(g)
                ob.write(g, slots, a, 0, floor=0.0, is_run=False)
                ob.write(other, env.layout.slots(other), b, 0, floor=0.0, is_run=False)
                assert all((a[k] == b[k]).all() for k in a)
                compared += 1
        mask = info["action_mask"]
        _, _, te, tr, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if te or tr:
            info = env.reset()[1]
    assert compared > 200


def test_every_task_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "env.md").read_text()
    for t in gcs.env.TASKS:
        assert f"`{t.id}`" in doc


def test_a_fight_with_take_rewards_ends_after_the_reward_choice() -> None:
    env = make("gcs/JawWorm-v0", take_rewards=True)
    obs, info = _first_reward(env, seed=3)
    assert info["battles_won"] == 1 and info["won"] is None
    assert {r.kind for r in env.game.offered_rewards} == {"card"}  # type: ignore[union-attr]
    deck = len(env.game.get_master_deck())  # type: ignore[union-attr]
    card = int(np.flatnonzero(obs["rewards"][0])[0])
    _, r, te, tr, info = env.step(env.layout.card0 + card)
    assert te and not tr and r == 1.0 and info["won"]
    assert len(env.game.get_master_deck()) == deck + 1  # type: ignore[union-attr]


def test_an_open_choice_is_observed_with_its_candidates_and_answers() -> None:
    env = make("gcs/JawWorm-v0", deck=["armaments", "burning_pact", "headbutt"] * 4)
    vocab = env.observer.vocab
    seen = 0
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(600):
        g = env.game
        assert g is not None
        pc = g.pending_choice
        if pc is not None:
            seen += 1
            assert obs["status"][13] == 1.0
            for i, c in enumerate(pc.candidates[:16]):
                assert obs["choice_ids"][i] == vocab.card_id[c.card_id]
            for k in np.flatnonzero(obs["action_mask"]):
                answer = env.decode(int(k))
                row = obs["choice_answers"][int(k) - env.layout.choice0]
                assert answer.kind == "choose"
                assert [int(i) for i in np.flatnonzero(row)] == list(answer.choice)
        else:
            assert obs["status"][13] == 0.0 and not obs["choice_answers"].any()
        obs, _, te, tr, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if te or tr:
            obs, info = env.reset()
    assert seen >= 10


def test_an_episode_of_only_illegal_actions_is_truncated_at_max_steps() -> None:
    env = make("gcs/JawWorm-v0", max_steps=5)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    ends = [env.step(illegal)[2:4] for _ in range(5)]
    assert ends == [(False, False)] * 4 + [(False, True)]
    with pytest.raises(GameError, match="reset"):
        env.step(0)


def test_the_v0_tasks_keep_their_ten_fights_as_the_pack_grows() -> None:
    from gcs.env.registry import V0_FIGHTS

    pack = builtin_content().encounters
    assert len(V0_FIGHTS) == 10 and set(V0_FIGHTS) < set(pack)  # the pack holds more now
    for task_id in ("gcs/Fight-v0", "gcs/FightRandomDeck-v0", "gcs/Act1-v0"):
        env = make(task_id)
        assert env.task.encounters == V0_FIGHTS, task_id
    env = make("gcs/Act1-v0")
    env.reset(seed=3)
    seen: set[str] = set()
    for _ in range(3000):  # every fight a run meets is one of the ten
        if env.episode.encounter is not None:
            seen.add(env.episode.encounter)
        _obs, _r, te, tr, _info = greedy_step(env)
        if te or tr:
            break
    assert seen and seen <= set(V0_FIGHTS)


def test_a_drafted_deck_is_the_starter_deck_plus_rewards_and_upgrades() -> None:
    from gcs.act import draws
    from gcs.act.draft import drafted_deck
    from gcs.content.loader import builtin_content
    from gcs.rng import Rng

    c = builtin_content()
    pool = {cid for ids in draws.card_pool(c).values() for cid in ids}
    for seed in range(20):
        deck = drafted_deck(c, None, Rng(seed), 12)
        assert [cid for cid, _ in deck[:10]] == ["strike"] * 5 + ["defend"] * 4 + ["bash"]
        assert len(deck) == 22 and {cid for cid, _ in deck[10:]} <= pool
        assert sum(up for _, up in deck) == 3  # 12 // 4 smiths
        assert deck == drafted_deck(c, None, Rng(seed), 12)
    env = make("gcs/BossDrafted-v0")
    env.reset(seed=4)
    assert env.game is not None and len(env.game.get_master_deck()) == 22
    assert env.episode.encounter in ("hexaghost", "slime_boss", "the_guardian")

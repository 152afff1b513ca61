"""The fixed costs of a battle (setup, rewards, teardown) take shortcuts that must play the same
game as the step-by-step code they replace: the same ids, the same draws in the same order."""

from __future__ import annotations

import random

import pytest

import gcs
from gcs.battle.rewards import card_choices
from gcs.content.defs import RewardTable
from gcs.engine import Engine
from gcs.rng import Rng


def _pick_rarity(rng: Rng, rarities: list[str], weights: dict[str, int]) -> str:
    """A rarity by weight (uniform when every weight is 0)."""
    w = [weights.get(r, 0) for r in rarities]
    total = sum(w)
    if total <= 0:
        return rarities[rng.below(len(rarities))]
    k = rng.below(total)
    for r, x in zip(rarities, w, strict=True):
        if k < x:
            return r
        k -= x
    return rarities[-1]  # unreachable: k < total


def card_choices_reference(e: Engine, table: RewardTable) -> list[str]:
    """``card_choices`` as the rule reads, one pick at a time (what the engine ran before)."""
    rng = e.s.run_rng
    groups = {r: list(cs) for r, cs in e.c.reward_pool(table).items()}
    weights = dict(table.rarity_weights)
    picked: list[str] = []
    while groups and len(picked) < table.cards:
        rarities = sorted(groups)
        if not any(weights.get(r, 0) > 0 for r in rarities) and any(weights.values()):
            break  # only unweighted rarities are left
        rarity = _pick_rarity(rng, rarities, weights)
        of_rarity = groups[rarity]
        card = of_rarity.pop(rng.below(len(of_rarity)))
        if not of_rarity:
            del groups[rarity]
        picked.append(card.id)
    return picked


RARITIES = ("common", "uncommon", "rare", "special", "basic", "curse")


def _random_table(r: random.Random, ids: list[str], n: int) -> RewardTable:
    pool = tuple(r.choice(ids) for _ in range(r.randrange(0, 12)))
    if r.random() < 0.2:
        pool += ("no_such_card",)  # unknown ids are dropped from the pool
    weights = {k: r.choice((0, 0, 1, 3, 60)) for k in RARITIES if r.random() < 0.6}
    if r.random() < 0.1:
        weights = {k: -v for k, v in weights.items()}  # not what content allows, same rule
    return RewardTable(f"t{n}", cards=r.randrange(0, 7), rarity_weights=weights, pool=pool)


@pytest.mark.parametrize("seed", range(4))
def test_card_choices_draws_as_the_step_by_step_loop(seed: int) -> None:
    c = gcs.builtin_content()
    ids = sorted(c.cards)
    r = random.Random(seed)
    g = gcs.Game(c, seed=seed)
    e = g._e
    offered = 0
    for n in range(300):
        table = _random_table(r, ids, n)
        start = r.randrange(2**64)
        e.s.run_rng = Rng(start)
        fast = card_choices(e, table)
        fast_state = e.s.run_rng.state
        e.s.run_rng = Rng(start)
        slow = card_choices_reference(e, table)
        assert fast == slow, table
        assert fast_state == e.s.run_rng.state, table  # the same number of draws
        offered += len(fast)
    assert offered > 300  # the tables did offer cards (not only empty pools)


def test_card_rewards_are_shared_frozen_values_equal_to_new_ones() -> None:
    import dataclasses

    from gcs.battle.state import Reward
    from gcs.sim.policies import RandomPolicy

    c = gcs.builtin_content()
    offered: list[list[Reward]] = []
    for seed in range(40):
        g2 = gcs.Game(c, seed=seed)
        g2.start_battle("jaw_worm")
        pol = RandomPolicy(seed)
        while not g2.is_waiting_for_reward and g2.is_battle_active:
            g2.apply(pol(g2, g2.legal_actions()))
        if g2.is_waiting_for_reward:
            offered.append(g2.offered_rewards)
            g2.apply_reward(0)
            assert g2._e.s.master[-1].card_id == offered[-1][0].card_id
    assert len(offered) > 5
    for rewards in offered:
        for r in rewards:
            assert r == Reward("card", card_id=r.card_id) and hash(r) == hash(Reward("card", r.card_id))
            with pytest.raises(dataclasses.FrozenInstanceError):
                r.card_id = "strike"  # type: ignore[misc]

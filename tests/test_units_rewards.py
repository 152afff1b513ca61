"""Rewards: gold on victory, card choices by rarity weight, upgrade and remove; the run."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from test_units_support import autoplay, encounter, enemy, game, hit, pack, trace

import gcs
from gcs.content.defs import DeckEntry, GameCard, RewardTable
from gcs.enums import Rarity
from gcs.errors import GameError, RewardError

POOL = [GameCard(f"c{r.value}{i}", f"C{r.value}{i}", 1, rarity=r)
        for r in (Rarity.COMMON, Rarity.UNCOMMON, Rarity.RARE) for i in range(4)]


def reward_pack(**table: Any) -> gcs.Content:
    t = RewardTable("t", **table)
    return pack(cards=POOL, enemies=[enemy("wisp", 1, [hit("zap", 3)])],
                encounters=[encounter("wisp", rewards="t"), encounter("free", "wisp")],
                reward_tables=[t], deck=[DeckEntry("strike", count=5), DeckEntry("defend", count=4),
                                         DeckEntry("bash")])


def won(c: gcs.Content, seed: int = 1, enc: str = "wisp") -> gcs.Game:
    g = game(c, enc, seed=seed)
    strike = next(i for i in g.hand() if i.card_id == "strike")
    assert g.try_play_card(strike, g.enemies[0])
    assert g.is_waiting_for_reward
    return g


@pytest.fixture
def deck_game() -> gcs.Game:
    c = reward_pack(cards=0, upgrade=True, remove=True)
    g = gcs.Game(c, seed=5)
    g.set_master_deck(["strike", "defend", "strike", "bash"])
    g.upgrade_card_in_master_deck("defend")
    g.start_battle("wisp")
    assert g.try_play_card(next(i for i in g.hand() if i.card_id == "strike"), g.enemies[0])
    return g


def test_reward_gold_is_granted_automatically_on_victory() -> None:
    g = won(reward_pack(gold_min=10, gold_max=20))
    gold = [t for t in trace(g) if t[0] == "gold"]
    assert len(gold) == 1 and 10 <= gold[0][1] <= 20 and g.gold == gold[0][1]
    assert all(r.kind != "gold" for r in g.offered_rewards)  # gold is not an alternative
    g.skip_reward()
    assert g.gold == gold[0][1]  # skipping keeps the gold


def test_reward_card_choices_are_distinct_cards_from_the_pool() -> None:
    pool = tuple(c.id for c in POOL)
    g = won(reward_pack(cards=3, pool=pool, rarity_weights={"common": 1, "uncommon": 1,
                                                            "rare": 1}))
    offered = [r.card_id for r in g.offered_rewards]
    assert len(offered) == 3 == len(set(offered)) and set(offered) <= set(pool)


def test_reward_card_rarity_follows_the_table_weights() -> None:
    pool = tuple(c.id for c in POOL)
    seen: Counter[str] = Counter()
    for seed in range(60):
        g = won(reward_pack(cards=1, pool=pool, rarity_weights={"common": 6, "rare": 1,
                                                                "uncommon": 0}), seed=seed)
        seen[str(g.offered_rewards[0].card_id)[1:-1]] += 1
    assert seen["uncommon"] == 0  # weight 0: never offered
    assert seen["common"] > seen["rare"] > 0


def test_reward_unweighted_rarities_are_not_offered_even_if_choices_run_short() -> None:
    pool = ("ccommon0", "crare0", "crare1")
    g = won(reward_pack(cards=3, pool=pool, rarity_weights={"common": 1}))
    assert [r.card_id for r in g.offered_rewards] == ["ccommon0"]


def test_reward_card_choice_is_uniform_when_no_weights_given() -> None:
    pool = ("ccommon0", "crare0")
    g = won(reward_pack(cards=2, pool=pool))
    assert sorted(str(r.card_id) for r in g.offered_rewards) == ["ccommon0", "crare0"]


def test_reward_apply_card_adds_it_to_the_master_deck() -> None:
    g = won(reward_pack(cards=3, pool=("crare0",), rarity_weights={"rare": 1}))
    before = len(g.get_master_deck())
    n = len(g.event_log)
    g.apply_reward(g.offered_rewards[0])
    assert trace(g, n)[:2] == [("CardAddedToDeck",), ("RewardApplied",)]
    deck = g.get_master_deck()
    assert len(deck) == before + 1 and deck[-1].card_id == "crare0"
    assert trace(g, n)[-2:] == [("BattleEnded", True), ("phase", "NONE")]


def test_reward_upgrade_offers_each_upgradable_entry_and_upgrades_exactly_that_one(
        deck_game: gcs.Game) -> None:
    g = deck_game
    ups = [r for r in g.offered_rewards if r.kind == "upgrade"]
    assert [(r.card_id, r.deck_index) for r in ups] == [("strike", 0), ("strike", 2), ("bash", 3)]
    n = len(g.event_log)
    g.apply_reward(ups[1])  # the second strike
    assert [m.upgraded for m in g.get_master_deck()] == [False, True, True, False]
    assert ("CardModified",) in trace(g, n)


def test_reward_remove_removes_exactly_that_entry(deck_game: gcs.Game) -> None:
    g = deck_game
    rm = [r for r in g.offered_rewards if r.kind == "remove"]
    assert [r.deck_index for r in rm] == [0, 1, 2, 3]
    uids = [m.uid for m in g.get_master_deck()]
    n = len(g.event_log)
    g.apply_reward(rm[2])
    assert [m.uid for m in g.get_master_deck()] == [uids[0], uids[1], uids[3]]
    assert ("CardRemovedFromDeck",) in trace(g, n)


def test_reward_a_stale_deck_index_is_refused_and_changes_nothing(deck_game: gcs.Game) -> None:
    g = deck_game
    up = next(r for r in g.offered_rewards if r.kind == "upgrade" and r.card_id == "bash")
    g.remove_card_from_master_deck("strike")  # the run deck changed while the reward waits
    deck = g.get_master_deck()
    with pytest.raises(RewardError, match="no longer names"):
        g.apply_reward(up)
    assert g.get_master_deck() == deck and g.is_waiting_for_reward


def test_reward_exactly_one_offered_reward_can_be_applied(deck_game: gcs.Game) -> None:
    g = deck_game
    offers = g.offered_rewards
    g.apply_reward(offers[0])
    with pytest.raises(GameError):
        g.apply_reward(offers[1])


def test_reward_that_was_not_offered_is_refused() -> None:
    g = won(reward_pack(cards=1, pool=("crare0",), rarity_weights={"rare": 1}))
    with pytest.raises(RewardError, match="not offered"):
        g.apply_reward(gcs.Reward("card", card_id="crare1"))
    with pytest.raises(RewardError, match="out of range"):
        g.apply_reward(5)
    assert g.is_waiting_for_reward


def test_reward_offers_are_seeded_and_survive_save_and_load() -> None:
    pool = tuple(c.id for c in POOL)
    c = reward_pack(cards=3, pool=pool, rarity_weights={"common": 3, "uncommon": 2, "rare": 1},
                    gold_min=5, gold_max=50)
    a, b = won(c, seed=11), won(c, seed=11)
    assert a.offered_rewards == b.offered_rewards and a.gold == b.gold
    loaded = gcs.Game.from_json(c, a.to_json())
    assert loaded.is_waiting_for_reward and loaded.offered_rewards == a.offered_rewards
    loaded.apply_reward(0)
    a.apply_reward(0)
    assert loaded.get_master_deck() == a.get_master_deck()


# ---------------------------------------------------------------- the run
def test_run_hp_carries_over_between_battles() -> None:
    c = pack(enemies=[enemy("biter", 12, [hit("bite", 7)])], encounters=[encounter("biter")],
             deck=[DeckEntry("strike", count=10)])
    g = gcs.Game(c, seed=2)
    assert g.run_hp == (80, 80)
    g.start_battle("biter")
    g.end_player_turn()  # takes 7
    autoplay(g)
    hp = g.run_hp[0]
    assert g.last_result is True and hp == 73
    g.start_battle("biter")
    assert g.player is not None and (g.player.hp, g.player.max_hp) == (73, 80)


def test_run_three_encounters_in_a_row_on_one_master_deck() -> None:
    c = reward_pack(cards=1, pool=("crare0",), rarity_weights={"rare": 1})
    g = gcs.Game(c, seed=4)
    for i in range(3):
        g.start_battle("wisp")
        cards = g.hand() + g.draw_pile()
        assert len(cards) == 10 + i  # new instances from the master deck
        assert sum(x.card_id == "crare0" for x in cards) == i
        assert g.try_play_card(next(x for x in g.hand() if x.card_id == "strike"), g.enemies[0])
        g.apply_reward(0)
        assert g.last_result is True and not g.is_battle_active
    assert [m.card_id for m in g.get_master_deck()].count("crare0") == 3

"""The act's draws (docs/run.md): fight lists with the game's no-repeat rules, card rewards by
the game's rarity odds and rarity factor, unknown rooms, the rest site's heal."""

from __future__ import annotations

import itertools
import math

import pytest

import gcs
from gcs.act import draws
from gcs.act.run import rest_heal
from gcs.content.loader import builtin_content
from gcs.rng import Rng, derive


@pytest.fixture(scope="module")
def content() -> gcs.Content:
    return builtin_content()


def test_three_weak_fights_then_twelve_strong_none_repeating_the_two_before(
        content: gcs.Content) -> None:
    for seed in range(300):
        rng = Rng(derive(seed, "act:monsters"))
        fights = draws.monster_list(content, rng)
        assert len(fights) == 15
        assert all(content.encounters[f].pool == "weak" for f in fights[:3])
        assert all(content.encounters[f].pool == "strong" for f in fights[3:])
        for i in range(1, 15):
            assert fights[i] != fights[i - 1]
            if i >= 2:
                assert fights[i] != fights[i - 2]
        assert fights[3] not in content.encounters[fights[2]].exclusions
        elites = draws.elite_list(content, rng)
        assert len(elites) == 10 and all(content.encounters[e].pool == "elite" for e in elites)
        assert all(a != b for a, b in itertools.pairwise(elites))
        assert content.encounters[draws.boss(content, rng)].pool == "boss"


def test_the_first_strong_fight_follows_the_exclusions_of_the_last_weak_one(
        content: gcs.Content) -> None:
    # Small Slimes excludes Large Slime and Lots of Slimes: over the seeds where it is the third
    # weak fight, neither ever comes next, while both come next in other lists
    after: dict[str, set[str]] = {"small_slimes": set(), "other": set()}
    for seed in range(600):
        fights = draws.monster_list(content, Rng(derive(seed, "act:monsters")))
        after["small_slimes" if fights[2] == "small_slimes" else "other"].add(fights[3])
    assert after["small_slimes"] and not after["small_slimes"] & {"large_slime", "lots_of_slimes"}
    assert {"large_slime", "lots_of_slimes"} <= after["other"]


@pytest.mark.parametrize(("room", "edges"), [
    ("normal", {2: "rare", 3: "uncommon", 39: "uncommon", 40: "common", 140: "common",
                -30: "rare"}),
    ("elite", {9: "rare", 10: "uncommon", 49: "uncommon", 50: "common"}),
    ("boss", {0: "rare", 99: "rare"}),
])
def test_rarity_of_a_roll(room: str, edges: dict[int, str]) -> None:
    for roll, rarity in edges.items():
        assert draws.rarity(roll, room) == rarity


def test_the_rarity_factor_follows_every_card_shown(content: gcs.Content) -> None:
    # per card: a rare sets it back to 5, a common lowers it by 1 (never below -40), an
    # uncommon leaves it; checked against the rarities of the cards each reward shows
    cards = draws.card_pool(content)
    rarity_of = {c: r for r, ids in cards.items() for c in ids}
    rng = Rng(derive(1, "test:cards"))
    factor = draws.RARITY_START
    seen = set()
    for i in range(400):
        room = "elite" if i % 5 == 0 else "normal"
        offer, after = draws.card_reward(rng, cards, factor, room)
        assert len(offer) == 3 and len(set(offer)) == 3  # no duplicate in one reward
        expect = factor
        for c in offer:
            r = rarity_of[c]
            expect = draws.RARITY_START if r == "rare" else (
                max(-40, expect - 1) if r == "common" else expect)
        assert after == expect
        seen.add(after)
        factor = after
    assert min(seen) < 0  # commons shown without a rare lower it: it moved
    floors = 0
    for _ in range(200):  # at the floor, commons leave it at -40
        offer, after = draws.card_reward(rng, cards, -40, "normal")
        if all(rarity_of[c] == "common" for c in offer):
            assert after == -40
            floors += 1
    assert floors > 0


@pytest.mark.parametrize(("factor", "room"), [(5, "normal"), (0, "normal"), (-20, "normal"),
                                              (-40, "normal"), (5, "elite"), (-10, "elite")])
def test_rare_odds_of_the_first_card_over_seeded_draws(content: gcs.Content, factor: int,
                                                       room: str) -> None:
    # P(rare) = max(0, rare chance - factor) / 100 (3 normal, 10 elite). 4,000 seeded rewards:
    # the count is within 4.5 standard errors of n*p (a false failure under 1e-5; 0 exactly
    # when p is 0, as the game: no rare first card while the factor is 3 or more)
    cards = draws.card_pool(content)
    rare = set(cards["rare"])
    rng = Rng(derive(factor + 100, f"test:rarity:{room}"))
    n = 4000
    hits = sum(draws.card_reward(rng, cards, factor, room, n=1)[0][0] in rare for _ in range(n))
    p = max(0, draws.CHANCES[room][0] - factor) / 100
    if p == 0:
        assert hits == 0
    else:
        assert abs(hits - n * p) <= 4.5 * math.sqrt(n * p * (1 - p)), (hits, n * p)


def test_a_boss_reward_is_three_rares(content: gcs.Content) -> None:
    cards = draws.card_pool(content)
    offer, factor = draws.card_reward(Rng(5), cards, -7, "boss")
    assert set(offer) <= set(cards["rare"]) and len(set(offer)) == 3 and factor == 5


def test_unknown_room_bands_and_chances() -> None:
    chances = dict(draws.UNKNOWN_START)
    rng = Rng(derive(3, "test:unknown"))
    for _ in range(300):
        before = dict(chances)
        got = draws.unknown_room(rng, chances, after_shop=False)
        for kind, start in draws.UNKNOWN_START.items():
            assert chances[kind] == (start if kind == got else before[kind] + start)
    # right after a shop, the shop band is gone: its share falls to what follows
    only_shop = {"monster": 0, "shop": 100, "treasure": 0}
    assert draws.unknown_room(Rng(1), dict(only_shop), after_shop=True) == "event"
    assert draws.unknown_room(Rng(1), dict(only_shop), after_shop=False) == "shop"


@pytest.mark.parametrize(("max_hp", "heal"), [(80, 24), (83, 24), (84, 25), (75, 22), (10, 3),
                                              (1, 0)])
def test_rest_heals_30_percent_of_max_hp_rounded_down(max_hp: int, heal: int) -> None:
    assert rest_heal(max_hp) == heal

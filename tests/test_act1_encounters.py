"""The Act 1 hallway fights added after the first ten, and the act's encounter pools as data:
Three Louses, Lots of Slimes, Exordium Thugs and Exordium Wildlife roll the game's
compositions with the game's odds (MonsterHelper at A0), and every bundled encounter sits in
the weak, strong, elite or boss pool with the game's weight and exclusions (Exordium.java).

Statistical checks use the bound of tests/test_act1_enemies.py: N = 20,000 seeded rolls and a
frequency within 4 binomial sigmas of the game's probability (p = 1/2 is the worst case: 0.014);
a correct roll fails with probability < 1e-4 per check and the seeds are fixed, while every
wrong odds guarded against here (a slot rolled 1/4 instead of 1/6 or 1/3, a weighted id listed
once instead of twice) is off by >= 0.08.
"""

from __future__ import annotations

from collections import Counter

from act1_support import near as bound

import gcs
from gcs.rng import Rng, derive
from gcs.steps.start import roll_enemies

C = gcs.builtin_content()
N = 20_000


def near(count: int, p: float) -> bool:
    """``count`` of the ``N`` rolls are within the 4-sigma bound of probability ``p``."""
    return bound(count, p, N)


def rolls(encounter: str, n: int = N) -> Counter[tuple[str, ...]]:
    enc = C.encounter(encounter)
    return Counter(roll_enemies(enc, Rng(derive(i, "encounter"))) for i in range(n))


def slot(got: Counter[tuple[str, ...]], i: int) -> Counter[str]:
    """How often each enemy id filled slot ``i``."""
    out: Counter[str] = Counter()
    for combo, n in got.items():
        out[combo[i]] += n
    return out


# game: bottomGetWeakWildlife() picks getLouse() (red or green, 50/50), Spike Slime (M) or
# Acid Slime (M), one in three each
WEAK_WILDLIFE = {"louse_red": 1 / 6, "louse_green": 1 / 6, "spike_slime_m": 1 / 3,
                 "acid_slime_m": 1 / 3}


# ---------------------------------------------------------------- compositions
def test_three_louses_roll_each_louse_colour_per_slot_independently() -> None:
    got = rolls("three_louses")
    kinds = ("louse_red", "louse_green")
    assert set(got) == {(a, b_, c) for a in kinds for b_ in kinds for c in kinds}
    for combo, n in got.items():
        assert near(n, 1 / 8), (combo, n)


def test_lots_of_slimes_is_three_spike_and_two_acid_small_slimes_in_any_of_ten_orders() -> None:
    got = rolls("lots_of_slimes")
    assert len(got) == 10  # 5! / (3! 2!) distinct orders, drawn without replacement
    for combo, n in got.items():
        assert sorted(combo) == ["acid_slime_s"] * 2 + ["spike_slime_s"] * 3
        assert near(n, 1 / 10), (combo, n)
    # drawn one by one without replacement: the first slime is a Spike Slime 3 times in 5
    assert near(slot(got, 0)["spike_slime_s"], 3 / 5)


def test_exordium_thugs_pair_weak_wildlife_left_with_a_strong_humanoid_right() -> None:
    got = rolls("exordium_thugs")
    left, right = slot(got, 0), slot(got, 1)
    assert set(left) == set(WEAK_WILDLIFE)
    for enemy, p in WEAK_WILDLIFE.items():
        assert near(left[enemy], p), enemy
    # game: bottomGetStrongHumanoid() picks Cultist, getSlaver() (red or blue, 50/50) or Looter
    humanoid = {"cultist": 1 / 3, "red_slaver": 1 / 6, "blue_slaver": 1 / 6, "looter": 1 / 3}
    assert set(right) == set(humanoid)
    for enemy, p in humanoid.items():
        assert near(right[enemy], p), enemy
    # the two slots roll independently
    assert near(got["louse_red", "looter"], 1 / 18)
    assert near(got["spike_slime_m", "cultist"], 1 / 9)


def test_exordium_wildlife_pairs_a_strong_beast_left_with_weak_wildlife_right() -> None:
    got = rolls("exordium_wildlife")
    left, right = slot(got, 0), slot(got, 1)
    assert set(left) == {"fungi_beast", "jaw_worm"} and near(left["jaw_worm"], 1 / 2)
    assert set(right) == set(WEAK_WILDLIFE)
    for enemy, p in WEAK_WILDLIFE.items():
        assert near(right[enemy], p), enemy
    assert near(got["jaw_worm", "acid_slime_m"], 1 / 6)


def test_new_hallway_fights_field_their_rolled_enemies_with_their_own_hp_and_intents() -> None:
    for enc in ("three_louses", "lots_of_slimes", "exordium_thugs", "exordium_wildlife"):
        for seed in range(1, 16):
            g = gcs.Game(C, seed=seed)
            g.start_battle(enc)
            ids = tuple(u.def_id for u in g.enemies)
            x = C.encounter(enc)
            assert any(len(grp) == len(ids) and all(i in sl for i, sl in zip(ids, grp, strict=True))
                       for grp in x.groups), (enc, ids)
            for u in g.enemies:
                d = C.enemies[u.def_id]
                assert d.hp_min <= u.hp == u.max_hp <= d.hp_max
                assert u.intent is not None


# ---------------------------------------------------------------- the act's pools (data)
# game: Exordium.java. MonsterInfo weights doubled (2.0 -> 4, 1.5 -> 3, 1.0 -> 2).
GAME_POOLS = {
    "weak": {"cultist": 4, "jaw_worm": 4, "two_louses": 4, "small_slimes": 4},
    "strong": {"blue_slaver": 4, "gremlin_gang": 2, "looter": 4, "large_slime": 4,
               "lots_of_slimes": 2, "exordium_thugs": 3, "exordium_wildlife": 3,
               "red_slaver": 2, "three_louses": 4, "two_fungi_beasts": 4},
    "elite": {"gremlin_nob": 2, "lagavulin": 2, "three_sentries": 2},
    "boss": {"the_guardian": 1, "hexaghost": 1, "slime_boss": 1},
}
# game: generateExclusions(), read after the last weak fight (its Looter / Blue Slaver cases
# name strong fights, which never end the weak list)
GAME_EXCLUSIONS = {"two_louses": ("three_louses",),
                   "small_slimes": ("large_slime", "lots_of_slimes")}
# encounters of the game's pools that need engine features (docs/content.md, "Planned")
PLANNED: set[str] = set()


def test_every_bundled_encounter_is_in_its_game_pool_with_the_game_weight() -> None:
    for x in C.encounters.values():
        assert x.pool is not None, x.id
        assert GAME_POOLS[x.pool].get(x.id) == x.weight, (x.id, x.pool, x.weight)
        assert x.exclusions == GAME_EXCLUSIONS.get(x.id, ())


def test_the_pools_hold_every_game_encounter_but_the_planned_ones() -> None:
    pools: dict[str, set[str]] = {}
    for x in C.encounters.values():
        pools.setdefault(x.pool or "", set()).add(x.id)
    for name, game in GAME_POOLS.items():
        assert pools.get(name, set()) == set(game) - PLANNED, name
    assert set(C.encounters) | PLANNED == {i for p in GAME_POOLS.values() for i in p}


def test_pool_kinds_follow_the_encounter_kind() -> None:
    kinds = {"weak": "normal", "strong": "normal", "elite": "elite", "boss": "boss"}
    for x in C.encounters.values():
        assert x.kind == kinds[x.pool or ""], x.id
    assert C.encounter("slime_boss").rewards == "boss"

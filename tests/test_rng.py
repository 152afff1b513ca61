"""The random streams give the same numbers on both engines: pure Python computes SplitMix64 on
unbounded ints, the compiled engine on wrapping i64 (gcs/rng.py). The reference values below
were made by the unbounded-int code; 0xe220a8397b1dcdaf is SplitMix64's well-known first output
from state 0. ``./scripts/test`` runs this file on each engine."""

from __future__ import annotations

import copy
import os
import pickle
import random

import pytest

from gcs import rng
from gcs.rng import Rng, derive, derive_each, mix

ENGINE = os.environ.get("GCS_ENGINE", "pure")
EDGES = [0, 1, 2**62 - 1, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15]


def test_the_native_branch_runs_exactly_on_the_compiled_engine() -> None:
    assert rng._NATIVE is (ENGINE == "compiled")


def test_mix_matches_splitmix64_on_the_edges_of_the_64_bit_range() -> None:
    assert [mix(s) for s in EDGES] == [
        0xE220A8397B1DCDAF, 0x910A2DEC89025CC1, 0x43DF0885536978A6, 0xAA50EA8E0FA9EB,
        0x2A67D7552E039EA7, 0x481EC0A212A9F3DB, 0xE4D971771B652C20, 0x6E789E6AA1B965F4]


def test_derive_is_stable_for_any_name_and_seed() -> None:
    got = [derive(s, n) for s, n in [(0, "run"), (12345, "battle#0"), (2**64 - 1, "policy#7"),
                                      (7, "é∂"), (2**63, "")]]
    assert got == [0x832E68502A58C2F6, 0x46ABA1F0DDC1B192, 0x266213ECC74B61D0,
                   0xD45FF9A43D93CCDF, 0xEAC073FA13289E23]
    assert derive(-1, "run") == derive(2**64 - 1, "run")  # a seed counts by its low 64 bits


def test_derive_each_is_derive_of_every_name() -> None:
    names = ("shuffle", "ai", "cards", "", "é∂")
    for seed in (0, 1, 12345, 2**63, 2**64 - 1, -1, 2**70 + 3):
        assert derive_each(seed, names) == [derive(seed, n) for n in names]
    assert derive_each(12345, ("battle#0",)) == [0x46ABA1F0DDC1B192]
    assert derive_each(5, ()) == []


@pytest.mark.parametrize(("seed", "draws", "state", "next64", "order", "after"), [
    (1, [0, 1, 2, 4, 444, 409575807, 942045978, 561639107, 313920118325, 14646652180046636950],
     0x2E2AC13EF8E8D8D3, 0x6775DC7701564F61, [11, 2, 0, 9, 8, 6, 4, 1, 3, 10, 5, 7],
     0x98C475F0F066A9CF),
    (2**63 + 5, [0, 0, 0, 2, 985, 180636257, 543580569, 991401010, 281348049834,
                 2284125107949243505],
     0xAE2AC13EF8E8D8D7, 0x6AB26EA6F3001078, [10, 0, 7, 4, 11, 6, 3, 2, 8, 1, 5, 9],
     0x18C475F0F066A9D3),
])
def test_a_stream_draws_the_reference_numbers(seed: int, draws: list[int], state: int, next64: int,
                                              order: list[int], after: int) -> None:
    g = Rng(seed)
    # small bounds take the i64 path when compiled; 2**30 and up the unbounded multiply
    assert [g.below(n) for n in (1, 2, 3, 10, 1000, 2**29, 2**30 - 1, 2**30, 2**40, 2**64)] == draws
    assert g.state == state
    assert g.next64() == next64
    items = list(range(12))
    g.shuffle(items)
    assert items == order and g.state == after


def test_below_agrees_with_the_unbounded_formula_everywhere() -> None:
    """below(n) is the high word of next64() * n, for states on either side of 2**63."""
    pick = random.Random(99)
    for _ in range(3000):
        seed = pick.getrandbits(64)
        n = pick.choice([1, 2, 3, 5, 6, 10, 52, 1 << pick.randrange(1, 31), pick.randrange(1, 2**30)])
        a, b = Rng(seed), Rng(seed)
        assert a.below(n) == (b.next64() * n) >> 64
        assert a.state == b.state == (seed + 0x9E3779B97F4A7C15) % 2**64
        assert 0 <= a.between(3, 7) - 3 < 5


def test_state_copy_pickle_and_equality_use_the_unsigned_state() -> None:
    g = Rng(2**64 - 2)
    g.below(10)
    assert 0 <= g.state < 2**64
    assert repr(g) == f"Rng({g.state:#x})"
    for twin in (g.copy(), Rng(g.state), pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert twin == g and hash(twin) == hash(g)
        assert twin.below(1000) == Rng(g.state).below(1000)
    assert pickle.dumps(g) == pickle.dumps(Rng(g.state))  # the same bytes on either engine
    c = g.copy()
    c.below(5)
    assert c != g  # independent


@pytest.mark.parametrize(("seed", "n", "order", "after"), [
    (1, 12, [3, 1, 5, 4, 2, 10, 0, 11, 9, 7, 8, 6], 0x9E3779B97F4A7C16),
    (2**63 + 5, 12, [5, 11, 8, 7, 0, 9, 1, 2, 4, 6, 10, 3], 0x1E3779B97F4A7C1A),
    # 40 cards: 40 x 39 x ... outgrows one draw's 2**32 several times (five draws)
    (1, 40, [36, 19, 23, 15, 8, 4, 14, 35, 13, 33, 39, 10, 3, 21, 6, 7, 32, 12, 20, 26, 34, 9,
             1, 18, 0, 2, 5, 27, 37, 29, 16, 24, 11, 38, 30, 17, 28, 31, 25, 22],
     0xB54CDA58FBBEE87F),
])
def test_shuffle_short_gives_the_reference_order_on_both_engines(seed: int, n: int,
                                                                  order: list[int],
                                                                  after: int) -> None:
    """One draw serves every index while the ranges multiply to at most 2**32 (12 cards: 12!
    is under it, so the stream moves one step); the i64 branch gives the unbounded one's."""
    g = Rng(seed)
    items = list(range(n))
    g.shuffle_short(items)
    assert items == order and g.state == after
    assert sorted(items) == list(range(n))
    one: list[int] = [7]
    g.shuffle_short(one)
    assert one == [7] and g.state == after  # (nothing to shuffle: no draw)


def test_shuffle_short_is_uniform() -> None:
    """24,000 seeded shuffles of 4 items: each of the 24 orders 1,000 times expected (binomial
    sd 31); and where the first of 20 items lands (1,200 expected at each place, sd 34), across
    the draws' boundaries. A bound of 5 sd: these seeded counts are fixed, the bound says how
    far from uniform they may be."""
    orders: dict[tuple[int, ...], int] = {}
    places = [0] * 20
    for s in range(24000):
        items = [0, 1, 2, 3]
        Rng(s * 0x9E3779B97F4A7C15).shuffle_short(items)
        orders[tuple(items)] = orders.get(tuple(items), 0) + 1
        long = list(range(20))
        Rng(mix(s)).shuffle_short(long)
        places[long.index(0)] += 1
    assert len(orders) == 24 and all(abs(k - 1000) <= 5 * 31 for k in orders.values())
    assert all(abs(k - 1200) <= 5 * 34 for k in places)

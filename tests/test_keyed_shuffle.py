"""The keyed shuffle (``BattleRules.keyed_shuffle``, docs/simulation.md "What pairing saves"):
opt-in, the cards two decks share keep one relative order, every order is as likely, the rule
is saved and cloned with the game, ``Game.determinize`` still hides the draw order, and with the
rule off the game shuffles by Fisher-Yates as before."""

from __future__ import annotations

import pytest

import gcs
from gcs import BattleRules, Game
from gcs.battle.cards import keyed_order
from gcs.errors import ArgumentError
from gcs.rng import Rng, mix

C = gcs.builtin_content()
KEYED = BattleRules(keyed_shuffle=True)
STARTER = ["strike"] * 5 + ["defend"] * 4 + ["bash"]


def opening(deck: list[str], seed: int, rules: BattleRules | None = KEYED) -> list[str]:
    """The cards of the battle's first shuffle in draw order (the hand, then Draw's top down),
    each as ``id#k``: the k-th instance of its id made (the identity the keyed shuffle uses)."""
    g = Game(C, seed=seed, rules=rules, log_events=False)
    g.set_master_deck(deck)
    g.start_battle("jaw_worm")
    s = g._e.s
    seen: dict[str, int] = {}
    name: dict[int, str] = {}
    for uid in sorted(s.cards):
        cid = s.cards[uid].card_id
        name[uid] = f"{cid}#{seen.get(cid, 0)}"
        seen[cid] = seen.get(cid, 0) + 1
    return [name[u] for u in [*s.hand, *reversed(s.draw)]]


@pytest.mark.parametrize("added", [["carnage"], ["carnage", "inflame"], ["strike"]])
def test_the_cards_both_decks_hold_keep_their_order(added: list[str]) -> None:
    """Starter vs starter plus cards, 40 seeds: the first shuffle of the bigger deck, its added
    cards taken out, is the smaller deck's (a Strike added is the sixth Strike, ``strike#5``:
    the first five keep their keys)."""
    extra = {"carnage#0", "inflame#0", "strike#5"}
    for seed in range(40):
        small = opening(STARTER, seed)
        big = opening([*STARTER, *added], seed)
        assert len(big) == len(small) + len(added)
        assert [c for c in big if c not in extra] == small, seed


def test_with_fisher_yates_an_added_card_changes_the_order() -> None:
    """Why the keyed shuffle exists: by Fisher-Yates, one more card reorders the shared ones
    in almost every battle (the coupling the keyed shuffle keeps)."""
    differ = sum(opening(STARTER, s, None) != [c for c in opening([*STARTER, "carnage"], s, None)
                                              if c != "carnage#0"] for s in range(40))
    assert differ >= 35


def test_a_shared_strike_keeps_its_place_by_occurrence_not_by_uid() -> None:
    """The identity is the card id and its occurrence: with a card added in front of the deck
    (every uid moves by one) the shared cards still keep their order."""
    for seed in range(20):
        small = opening(STARTER, seed)
        big = [c for c in opening(["carnage", *STARTER], seed) if c != "carnage#0"]
        assert big == small


def _state() -> tuple[gcs.Game, list[int]]:
    g = Game(C, seed=1, rules=KEYED, log_events=False)
    g.set_master_deck(STARTER * 2)
    g.start_battle("jaw_worm")
    return g, sorted(g._e.s.cards)


def test_the_keyed_shuffle_is_uniform() -> None:
    """24,000 seeded shuffles of 4 instances (three Strikes and a Defend): each of the 24
    orders 1,000 times expected; a chi-square statistic (23 degrees of freedom) under 49.7, its
    0.1% critical value; and where the first of 20 instances lands (1,200 expected at each
    place, binomial sd 34, within 5 sd). The counts are seeded, so fixed: the bounds say how
    far from uniform they may be."""
    g, uids = _state()
    s = g._e.s
    four = [uids[0], uids[1], uids[2], uids[5]]
    orders: dict[tuple[int, ...], int] = {}
    places = [0] * 20
    for k in range(24000):
        s.rng_shuffle = Rng(k * 0x9E3779B97F4A7C15)
        items = list(four)
        keyed_order(s, items)
        orders[tuple(items)] = orders.get(tuple(items), 0) + 1
        s.rng_shuffle = Rng(mix(k))
        long = list(uids[:20])
        keyed_order(s, long)
        places[long.index(uids[0])] += 1
    assert len(orders) == 24
    chi2 = sum((n - 1000) ** 2 / 1000 for n in orders.values())
    assert chi2 < 49.7
    assert all(abs(n - 1200) <= 5 * 34 for n in places)


def test_one_draw_per_shuffle_whatever_the_size() -> None:
    """The stream moves one step per keyed shuffle (Fisher-Yates: one per card but the first),
    so two arms of different deck sizes stay on the same numbers."""
    g, uids = _state()
    s = g._e.s
    for n in (2, 10, 20):
        s.rng_shuffle = Rng(7)
        keyed_order(s, list(uids[:n]))
        assert s.rng_shuffle.state == Rng(7 + 0x9E3779B97F4A7C15).state


def test_off_by_default_and_fisher_yates_as_before() -> None:
    """The default rules shuffle by Fisher-Yates from the battle's shuffle stream: the first
    hands of these seeds are the ones the engine dealt before the keyed shuffle existed."""
    assert BattleRules().keyed_shuffle is False
    assert opening(STARTER, 3, None)[:5] == opening(STARTER, 3, BattleRules())[:5]
    got = [opening(STARTER, s, None)[:5] for s in range(3)]
    assert got == FISHER_YATES_HANDS
    assert got != [opening(STARTER, s)[:5] for s in range(3)]


# the first hands of seeds 0-2 (jaw_worm, the starter deck) with the default rules, taken
# before the keyed shuffle was added
FISHER_YATES_HANDS = [
    ["bash#0", "strike#2", "defend#2", "strike#1", "strike#4"],
    ["strike#3", "defend#2", "defend#3", "strike#2", "defend#0"],
    ["strike#3", "strike#2", "strike#4", "defend#0", "strike#1"],
]


def test_the_rule_is_checked_saved_and_cloned() -> None:
    with pytest.raises(ArgumentError, match="keyed_shuffle"):
        BattleRules(keyed_shuffle=1)  # type: ignore[arg-type]
    g = Game(C, seed=5, rules=KEYED, log_events=False)
    g.start_battle("cultist")
    g.apply("end")
    data = g.to_json()
    assert data["rules"]["keyed_shuffle"] is True
    loaded = Game.from_json(C, data)
    assert loaded.rules.keyed_shuffle and g.clone().rules.keyed_shuffle
    for x in (g, loaded):
        for _ in range(6):  # (reshuffles under the keyed rule: the two stay one game)
            if x.is_waiting_for_reward or not x.legal_actions():
                break
            x.apply("end")
    assert loaded.to_json() == g.to_json()


def test_determinize_still_hides_the_draw_order() -> None:
    """Under the keyed rule the unknown part of Draw is redrawn, and so is every later
    shuffle (the streams are replaced): seeds give different orders, the same seed the same."""
    g = Game(C, seed=9, rules=KEYED, log_events=False)
    g.set_master_deck(STARTER * 2)
    g.start_battle("jaw_worm")
    orders = {tuple(g.determinize(k)._e.s.draw) for k in range(10)}
    assert len(orders) > 5
    assert g.determinize(3).to_json() == g.determinize(3).to_json()
    assert g.determinize(3).rules.keyed_shuffle

"""SPEC 2.1 (definitions vs instances) and 2.8 (the run master deck)."""

from __future__ import annotations

import pytest
from core_support import pack, snapshot, start

import gcs
from gcs import MasterEntry, PileScope
from gcs import events as ev
from gcs.errors import NotInBattleError, UnknownCardError


def game() -> gcs.Game:
    g = gcs.Game(pack(), seed=1)
    g.clear_master_deck()
    return g


def ids(g: gcs.Game) -> list[tuple[str, bool]]:
    return [(m.card_id, m.upgraded) for m in g.get_master_deck()]


# ---------------------------------------------------------------- 2.1
def test_instance_points_at_its_definition_with_id_upgrade_and_cost_delta() -> None:
    g = game()
    g.set_master_deck([MasterEntry("strike", True, -1), "defend"])
    g.start_battle("dummy")
    s = next(c for c in g.pile(PileScope.ALL) if c.card_id == "strike")
    d = next(c for c in g.pile(PileScope.ALL) if c.card_id == "defend")
    strike = g.content.card("strike")
    assert s.base is strike and s.upgraded and s.cost_delta == -1
    assert g.get_active_card(s) is strike.upgrade and s.get_active_card() is strike.upgrade
    assert g.get_active_card(d) is g.content.card("defend") and not d.upgraded
    assert s.uid != d.uid and s.instance_id == s.uid
    assert g.get_effective_energy_cost(s) == 0


def test_instance_ids_are_unique_within_a_battle() -> None:
    g = start(pack(), ["zero"] * 10)
    for _ in range(3):
        g.add_card_to_hand("zero")
        g.add_card_to_pile("zero", PileScope.DISCARD)
    all_ids = [c.uid for c in g.pile(PileScope.ALL)]
    assert len(all_ids) == len(set(all_ids)) == 16


def test_new_battle_creates_new_instances_from_the_master_deck() -> None:
    g = start(pack(), ["nuke"] * 3 + ["zero"] * 3, hand=6)
    first = g.pile(PileScope.ALL)
    g.try_play_card(next(c for c in g.hand() if c.card_id == "nuke"))
    g.skip_reward()
    g.start_battle("dummy")
    second = g.pile(PileScope.ALL)
    assert len(second) == 6
    assert all(a is not b for a in first for b in second)
    # ids are unique in the game: an earlier battle's card has left the battle (a refusal),
    # it is not taken for another game's instance (issue 30)
    assert not {a.uid for a in first} & {b.uid for b in second}
    assert g.try_play_card(first[0]) is False
    assert g.play_refusal(first[0]) == "the card has left this battle"
    with pytest.raises(NotInBattleError):
        g.move_card_to_pile(first[0], PileScope.DISCARD)


# ---------------------------------------------------------------- 2.8 the six calls
def test_master_get_master_deck_returns_a_copy() -> None:
    g = game()
    g.set_master_deck(["strike"])
    deck = g.get_master_deck()
    deck.clear()
    assert ids(g) == [("strike", False)]


def test_master_set_master_deck_replaces_and_publishes_card_added_to_deck() -> None:
    g = game()
    g.set_master_deck(["strike"])
    n = len(g.event_log)
    g.set_master_deck(["defend", ("bash", True), MasterEntry("strike", False, 2)])
    assert ids(g) == [("defend", False), ("bash", True), ("strike", False)]
    assert g.get_master_deck()[2].cost_delta == 2
    assert g.event_log[n:] == [ev.CardAddedToDeck(-1, "defend", None, PileScope.MASTER, False, 1),
                               ev.CardAddedToDeck(-1, "bash", None, PileScope.MASTER, True, 2),
                               ev.CardAddedToDeck(-1, "strike", None, PileScope.MASTER, False, 3)]


def test_master_set_master_deck_validates_everything_first() -> None:
    g = game()
    g.set_master_deck(["strike"])
    snap = snapshot(g)
    with pytest.raises(UnknownCardError, match="nope"):
        g.set_master_deck(["defend", "nope"])
    with pytest.raises(gcs.GameError, match="master deck entry"):
        g.set_master_deck(["defend", 3])  # type: ignore[list-item]
    assert snapshot(g) == snap


def test_master_add_card_to_master_deck_appends_and_publishes() -> None:
    g = game()
    n = len(g.event_log)
    e1 = g.add_card_to_master_deck("strike")
    e2 = g.add_card_to_master_deck(g.content.card("bash"), is_upgraded=True)
    assert ids(g) == [("strike", False), ("bash", True)]
    assert g.get_master_deck() == [e1, e2] and e1.uid != e2.uid
    assert g.event_log[n:] == [ev.CardAddedToDeck(-1, "strike", None, PileScope.MASTER, False, 1),
                               ev.CardAddedToDeck(-1, "bash", None, PileScope.MASTER, True, 2)]
    with pytest.raises(UnknownCardError):
        g.add_card_to_master_deck("nope")
    assert len(g.get_master_deck()) == 2


def test_master_remove_card_from_master_deck_first_only_or_all() -> None:
    g = game()
    g.set_master_deck(["strike", "defend", "strike", "strike"])
    n = len(g.event_log)
    assert g.remove_card_from_master_deck("strike") == 1
    assert ids(g) == [("defend", False), ("strike", False), ("strike", False)]
    assert g.remove_card_from_master_deck("strike", remove_first_only=False) == 2
    assert ids(g) == [("defend", False)]
    assert g.remove_card_from_master_deck("bash") == 0
    assert g.event_log[n:] == [ev.CardRemovedFromDeck("strike", 1),
                               ev.CardRemovedFromDeck("strike", 2)]


def test_master_remove_unknown_card_id_raises() -> None:
    g = game()
    g.set_master_deck(["strike"])
    snap = snapshot(g)
    with pytest.raises(UnknownCardError, match="nope"):
        g.remove_card_from_master_deck("nope")
    assert snapshot(g) == snap


def test_master_upgrade_card_in_master_deck_upgrades_the_first_not_upgraded() -> None:
    g = game()
    g.set_master_deck([("strike", True), "defend", "strike", "strike"])
    n = len(g.event_log)
    assert g.upgrade_card_in_master_deck("strike")
    assert ids(g) == [("strike", True), ("defend", False), ("strike", True), ("strike", False)]
    assert g.event_log[n:] == [ev.CardModified(-1, "strike", "upgrade", True)]
    assert g.upgrade_card_in_master_deck("strike")
    assert not g.upgrade_card_in_master_deck("strike")  # none left to upgrade
    assert not g.upgrade_card_in_master_deck("bash")  # not in the deck
    with pytest.raises(UnknownCardError):
        g.upgrade_card_in_master_deck("nope")


def test_master_clear_master_deck_empties_it() -> None:
    g = gcs.Game(pack(), seed=1)
    assert g.get_master_deck()
    g.clear_master_deck()
    assert g.get_master_deck() == []


# ---------------------------------------------------------------- persistence
def test_master_deck_persists_across_battles() -> None:
    g = start(pack(), ["nuke"] * 5, hand=5)
    g.add_card_to_master_deck("two")
    g.upgrade_card_in_master_deck("nuke")
    g.try_play_card(g.hand()[0])
    g.skip_reward()
    assert len(g.get_master_deck()) == 6
    g.start_battle("dummy")
    all_cards = g.pile(PileScope.ALL)
    assert sorted((c.card_id, c.upgraded) for c in all_cards) == sorted(
        [("nuke", True)] + [("nuke", False)] * 4 + [("two", False)])


def test_master_deck_changes_are_never_retroactive_to_a_live_battle() -> None:
    g = start(pack(), ["strike"] * 6 + ["defend"] * 4, hand=5)
    before = [(c.uid, c.card_id, c.upgraded) for c in g.pile(PileScope.ALL)]
    piles = (g.hand(), g.draw_pile())
    g.add_card_to_master_deck("bash")
    g.upgrade_card_in_master_deck("strike")
    g.remove_card_from_master_deck("defend", remove_first_only=False)
    g.set_master_deck(["zero"])
    g.clear_master_deck()
    assert [(c.uid, c.card_id, c.upgraded) for c in g.pile(PileScope.ALL)] == before
    assert (g.hand(), g.draw_pile()) == piles


def test_master_deck_calls_work_without_a_battle() -> None:
    g = game()
    assert not g.is_battle_active
    g.add_card_to_master_deck("strike")
    g.upgrade_card_in_master_deck("strike")
    assert g.remove_card_from_master_deck("strike") == 1
    g.set_master_deck(["defend"])
    g.clear_master_deck()
    assert g.get_master_deck() == []

"""SPEC 2.2 (piles and ordering) and 2.7 (moving and creating cards)."""

from __future__ import annotations

import pytest
from core_support import (
    THIS,
    mark,
    new_events,
    only,
    pack,
    snapshot,
    start,
    trace,
    uids,
    watch_tag,
    watcher,
)
from minipack import card

import gcs
from gcs import DrawPilePosition as Pos
from gcs import PileScope
from gcs import events as ev
from gcs.errors import NotInBattleError
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel

WATCHED = card("watched", 1, on_discard=mark(22), on_exhaust=mark(23), on_drawn=mark(21))


def content() -> gcs.Content:
    return pack(WATCHED, statuses=[watcher("eye", 100)], player_statuses={"eye": 1})


# ---------------------------------------------------------------- 2.2 accessors
def test_piles_accessors_never_none_and_empty_outside_battle() -> None:
    g = gcs.Game(pack(), seed=1)
    for f in (g.hand, g.draw_pile, g.discard_pile, g.exhaust_pile, g.played_this_turn,
              g.drawn_this_turn):
        assert f() == []
    assert g.current_hand is None
    g.start_battle("dummy")
    assert g.current_hand == g.hand() and len(g.hand()) == 5
    assert g.current_hand is not g.current_hand  # a new list each time


def test_piles_accessors_return_new_lists_not_the_live_piles() -> None:
    g = start(pack(), ["zero"] * 10, hand=5)
    h = g.hand()
    h.clear()
    assert len(g.hand()) == 5
    d = g.draw_pile()
    d.append(d[0])
    assert len(g.draw_pile()) == 5


def test_piles_current_hand_is_none_after_the_battle() -> None:
    g = start(pack(), ["nuke"] * 6, hand=5)
    assert g.try_play_card(g.hand()[0])
    g.skip_reward()
    assert g.current_hand is None
    assert g.hand() == g.draw_pile() == g.discard_pile() == g.exhaust_pile() == []
    assert g.played_this_turn() == g.drawn_this_turn() == []


def test_piles_draw_pile_last_element_is_top() -> None:
    g = start(pack(), ["zero"] * 10, hand=3)
    top = g.draw_pile()[-1]
    before = len(g.event_log)
    assert g.draw_cards(1) == 1
    assert g.hand()[-1] is top
    assert trace(new_events(g, before)) == [("CardDrawn", top.uid)]
    assert top not in g.draw_pile()


def test_piles_draws_take_the_draw_pile_from_the_end() -> None:
    g = start(pack(), ["zero"] * 10, hand=2)
    expected = g.draw_pile()[::-1][:4]
    before = len(g.event_log)
    g.draw_cards(4)
    assert g.hand()[2:] == expected
    assert only(trace(new_events(g, before)), "CardDrawn") == [("CardDrawn", c.uid)
                                                                 for c in expected]
    assert g.drawn_this_turn()[-4:] == expected


def test_piles_position_top_is_drawn_before_everything() -> None:
    g = start(pack(), ["zero"] * 10, hand=3)
    new = g.add_card_to_pile("two", PileScope.DRAW, Pos.TOP)
    assert g.draw_pile()[-1] is new
    g.draw_cards(1)
    assert g.hand()[-1] is new


def test_piles_position_bottom_is_drawn_after_everything() -> None:
    g = start(pack(), ["zero"] * 8, hand=3)
    new = g.add_card_to_pile("two", PileScope.DRAW, Pos.BOTTOM)
    assert g.draw_pile()[0] is new
    g.draw_cards(len(g.draw_pile()) - 1)
    assert g.draw_pile() == [new]
    g.draw_cards(1)
    assert g.hand()[-1] is new


def test_piles_position_random_inserts_at_a_seeded_random_position() -> None:
    def index_for(seed: int) -> int:
        g = start(pack(), ["zero"] * 10, hand=3, seed=seed)
        new = g.add_card_to_pile("two", PileScope.DRAW, Pos.RANDOM)
        pile = g.draw_pile()
        assert len(pile) == 8 and pile.count(new) == 1
        assert [c.card_id for c in pile].count("zero") == 7
        return pile.index(new)

    seen = [index_for(seed) for seed in range(40)]
    assert all(0 <= i <= 7 for i in seen)
    assert len(set(seen)) >= 5  # not a fixed position
    assert seen == [index_for(seed) for seed in range(40)]  # reproducible


def test_piles_move_to_draw_uses_position_default_top() -> None:
    g = start(pack(), ["zero"] * 10, hand=5)
    a, b = g.hand()[:2]
    g.move_card_to_pile(a, PileScope.DRAW)
    assert g.draw_pile()[-1] is a
    g.move_card_to_pile(b, PileScope.DRAW, Pos.BOTTOM)
    assert g.draw_pile()[0] is b


# ---------------------------------------------------------------- 2.2 reshuffle
def test_piles_reshuffle_only_when_a_draw_finds_draw_empty() -> None:
    g = start(pack(), ["zero"] * 8, hand=5)
    a, b = g.hand()[:2]
    g.move_card_to_pile(a, PileScope.DISCARD)
    g.move_card_to_pile(b, PileScope.DISCARD)
    before = len(g.event_log)
    assert g.draw_cards(3) == 3  # empties Draw exactly: no shuffle yet ("never early")
    assert g.draw_pile() == [] and g.discard_pile() == [a, b]
    assert only(trace(new_events(g, before)), "DrawPileShuffled") == []
    before = len(g.event_log)
    assert g.draw_cards(1) == 1
    tr = trace(new_events(g, before))
    drawn = g.hand()[-1]
    assert tr == [("DrawPileShuffled",), ("CardDrawn", drawn.uid)]
    assert drawn in (a, b)
    assert g.discard_pile() == []
    assert g.draw_pile() == [b if drawn is a else a]


def test_piles_reshuffle_event_comes_between_draws_of_one_operation() -> None:
    g = start(pack(), ["zero"] * 8, hand=4)
    old_draw = g.draw_pile()[::-1]
    d = g.hand()[0]
    g.move_card_to_pile(d, PileScope.DISCARD)
    before = len(g.event_log)
    assert g.draw_cards(6) == 5  # 4 from Draw, the shuffle, then the 1 reshuffled card
    tr = trace(new_events(g, before))
    assert tr == ([("CardDrawn", c.uid) for c in old_draw]
                  + [("DrawPileShuffled",), ("CardDrawn", d.uid)])


def test_piles_reshuffle_leaves_exhaust_hand_and_played_alone() -> None:
    g = start(pack(), ["zero"] * 10, hand=5, seed=3)
    hand = g.hand()
    played = hand[0]
    assert g.try_play_card(played)  # -> Discard
    g.move_card_to_pile(hand[1], PileScope.EXHAUST)
    g.move_card_to_pile(hand[2], PileScope.DISCARD)
    assert g.discard_pile() == [played, hand[2]]
    g.draw_cards(5)  # Draw had 5: no reshuffle yet
    hand_now = g.hand()
    assert hand_now[:2] == hand[3:] and g.draw_pile() == []
    before = len(g.event_log)
    g.draw_cards(1)  # now the reshuffle: only Discard's two cards go back
    assert only(trace(new_events(g, before)), "DrawPileShuffled") == [("DrawPileShuffled",)]
    assert sorted(uids(g.draw_pile() + g.hand()[-1:])) == sorted([played.uid, hand[2].uid])
    assert g.exhaust_pile() == [hand[1]]
    assert g.hand()[:-1] == hand_now
    assert g.played_this_turn() == [played]


def test_piles_draws_stop_when_both_piles_are_empty() -> None:
    g = start(pack(), ["zero"] * 3, hand=5)
    assert len(g.hand()) == 3 and g.draw_pile() == [] and g.discard_pile() == []
    before = len(g.event_log)
    hand = g.hand()
    assert g.draw_cards(4) == 0
    assert new_events(g, before) == []  # no draw, no shuffle
    assert g.hand() == hand and g.drawn_this_turn() == hand


def test_piles_draw_reshuffles_once_then_stops_when_everything_is_drawn() -> None:
    g = start(pack(), ["zero"] * 4, hand=2)
    g.move_card_to_pile(g.hand()[0], PileScope.DISCARD)
    before = len(g.event_log)
    assert g.draw_cards(10) == 3
    tr = trace(new_events(g, before))
    assert only(tr, "DrawPileShuffled") == [("DrawPileShuffled",)]
    assert len(g.hand()) == 4 and g.draw_pile() == g.discard_pile() == []


def test_piles_drawn_this_turn_lists_only_the_current_turn() -> None:
    g = start(pack(), ["retain"] * 2 + ["zero"] * 10, hand=5, seed=2)
    kept = [c for c in g.hand() if c.card_id == "retain"]
    assert g.drawn_this_turn() == g.hand()
    g.end_player_turn()
    assert g.turn_number == 2
    for c in kept:
        assert c in g.hand() and c not in g.drawn_this_turn()
    assert g.drawn_this_turn() == [c for c in g.hand() if c not in kept]


def test_piles_played_this_turn_in_play_order() -> None:
    g = start(pack(), ["zero"] * 10, hand=5)
    a, b, c = g.hand()[2], g.hand()[0], g.hand()[4]
    for x in (a, b, c):
        assert g.try_play_card(x)
    assert g.played_this_turn() == [a, b, c]
    g.end_player_turn()
    assert g.played_this_turn() == []


# ---------------------------------------------------------------- 2.7 create and move
def test_move_add_card_to_hand_creates_a_new_instance_with_card_added_to_hand() -> None:
    g = start(content(), ["zero"] * 10, hand=3)
    before = len(g.event_log)
    new = g.add_card_to_hand("watched")
    assert isinstance(new, gcs.CardInstance) and new.card_id == "watched"
    assert g.hand()[-1] is new and new.uid not in uids(g.draw_pile())
    evs = new_events(g, before)
    assert evs == [ev.CardAddedToHand(new.uid, "watched", None, PileScope.HAND)]


def test_move_add_card_to_hand_upgraded_instance() -> None:
    g = start(pack(), ["zero"] * 10, hand=3)
    new = g.add_card_to_hand("strike", upgraded=True)
    assert new.upgraded and g.get_active_card(new).numbers["damage"] == 9


@pytest.mark.parametrize("scope", [PileScope.DISCARD, PileScope.EXHAUST, PileScope.DRAW])
def test_move_create_in_place_has_no_lifecycle(scope: PileScope) -> None:
    g = start(content(), ["zero"] * 10, hand=3)
    before = len(g.event_log)
    new = g.add_card_to_pile("watched", scope, Pos.TOP)
    assert g.pile(scope)[-1] is new
    assert new_events(g, before) == [ev.CardCreated(new.uid, "watched", None, scope)]


def test_move_create_in_hand_with_add_card_to_pile_is_add_card_to_hand() -> None:
    g = start(content(), ["zero"] * 10, hand=3)
    before = len(g.event_log)
    new = g.add_card_to_pile("watched", PileScope.HAND)
    assert g.hand()[-1] is new
    assert trace(new_events(g, before)) == [("CardAddedToHand", new.uid)]


def test_move_explicit_move_to_discard_runs_the_discard_lifecycle() -> None:
    g = start(content(), ["watched"] * 6, hand=3)
    c = g.hand()[1]
    before = len(g.event_log)
    g.move_card_to_pile(c, PileScope.DISCARD)
    evs = new_events(g, before)
    assert evs[0] == ev.CardDiscarded(c.uid, "watched", PileScope.HAND, PileScope.DISCARD)
    # the status On Discard branch, then the card's own, before the call returns
    assert trace(evs)[1:] == [("mark", watch_tag(100, "on_discard")), ("mark", 22000)]
    assert g.discard_pile() == [c] and c not in g.hand()


def test_move_explicit_move_to_exhaust_runs_the_exhaust_lifecycle() -> None:
    g = start(content(), ["watched"] * 6, hand=3)
    c = g.draw_pile()[0]
    before = len(g.event_log)
    g.move_card_to_pile(c, PileScope.EXHAUST)
    evs = new_events(g, before)
    assert evs[0] == ev.CardExhausted(c.uid, "watched", PileScope.DRAW, PileScope.EXHAUST)
    assert trace(evs)[1:] == [("mark", watch_tag(100, "on_exhaust")), ("mark", 23000)]
    assert g.exhaust_pile() == [c]


def test_move_into_hand_publishes_card_added_to_hand() -> None:
    g = start(content(), ["watched"] * 6, hand=3)
    c = g.draw_pile()[0]
    before = len(g.event_log)
    g.move_card_to_pile(c, PileScope.HAND)
    # not a draw: no CardDrawn, no On Drawn branches
    assert new_events(g, before) == [
        ev.CardAddedToHand(c.uid, "watched", PileScope.DRAW, PileScope.HAND)]
    assert g.hand()[-1] is c and c not in g.drawn_this_turn()


def test_move_into_draw_publishes_card_moved() -> None:
    g = start(content(), ["watched"] * 6, hand=3)
    c = g.hand()[0]
    before = len(g.event_log)
    g.move_card_to_pile(c, PileScope.DRAW, Pos.TOP)
    assert new_events(g, before) == [
        ev.CardMoved(c.uid, "watched", PileScope.HAND, PileScope.DRAW)]


@pytest.mark.parametrize("scope", [PileScope.HAND, PileScope.DRAW, PileScope.DISCARD,
                                   PileScope.EXHAUST])
def test_move_to_the_pile_it_is_in_is_a_no_op(scope: PileScope) -> None:
    g = start(content(), ["watched"] * 8, hand=3)
    c = g.hand()[0]
    if scope is not PileScope.HAND:
        g.move_card_to_pile(c, scope, Pos.BOTTOM)
    snap = snapshot(g)
    pile = g.pile(scope)
    before = len(g.event_log)
    g.move_card_to_pile(c, scope, Pos.TOP)
    assert new_events(g, before) == []
    assert snapshot(g) == snap and g.pile(scope) == pile


@pytest.mark.parametrize("scope", [PileScope.MASTER, PileScope.ALL])
def test_move_to_master_or_all_removes_from_all_battle_piles(scope: PileScope) -> None:
    g = start(content(), ["watched"] * 8, hand=3)
    master = g.get_master_deck()
    c = g.hand()[0]
    d = g.discard_pile()
    before = len(g.event_log)
    g.move_card_to_pile(c, scope)
    assert new_events(g, before) == [ev.CardMoved(c.uid, "watched", PileScope.HAND, None)]
    assert c not in g.pile(PileScope.ALL)
    assert g.get_master_deck() == master  # the Master Deck is not changed
    assert len(g.pile(PileScope.ALL)) == 7 and g.discard_pile() == d
    assert c in g.drawn_this_turn()  # it was drawn this turn
    with pytest.raises(NotInBattleError, match="left"):
        g.move_card_to_pile(c, PileScope.HAND)


def test_move_pile_scope_master_reads_temporary_instances_of_the_master_deck() -> None:
    g = gcs.Game(pack(), seed=1)
    g.set_master_deck(["strike", ("bash", True), "defend"])
    outside = g.pile(PileScope.MASTER)
    assert [(c.card_id, c.upgraded) for c in outside] == [("strike", False), ("bash", True),
                                                          ("defend", False)]
    g.start_battle("dummy")
    inside = g.pile(PileScope.MASTER)
    assert [(c.card_id, c.upgraded) for c in inside] == [("strike", False), ("bash", True),
                                                         ("defend", False)]
    battle_ids = set(uids(g.pile(PileScope.ALL)))
    assert not battle_ids & set(uids(inside))  # temporary: not battle instances
    with pytest.raises(NotInBattleError):
        g.move_card_to_pile(inside[0], PileScope.HAND)
    assert g.get_effective_energy_cost(inside[1]) == 2


def test_move_pile_scope_all_reads_the_four_battle_piles_without_master() -> None:
    g = start(pack(), ["zero"] * 8 + ["burn"], hand=5, seed=4)
    g.move_card_to_pile(g.hand()[0], PileScope.DISCARD)
    g.move_card_to_pile(g.hand()[0], PileScope.EXHAUST)
    everything = g.pile(PileScope.ALL)
    assert everything == g.hand() + g.draw_pile() + g.discard_pile() + g.exhaust_pile()
    assert len(everything) == 9


@pytest.mark.parametrize("scope", [PileScope.HAND, PileScope.DRAW, PileScope.DISCARD,
                                   PileScope.EXHAUST])
def test_move_pile_scope_reads_match_the_pile_accessors(scope: PileScope) -> None:
    g = start(pack(), ["zero"] * 9, hand=5)
    g.move_card_to_pile(g.hand()[0], PileScope.DISCARD)
    g.move_card_to_pile(g.hand()[0], PileScope.EXHAUST)
    acc = {PileScope.HAND: g.hand, PileScope.DRAW: g.draw_pile,
           PileScope.DISCARD: g.discard_pile, PileScope.EXHAUST: g.exhaust_pile}[scope]
    assert g.pile(scope) == acc()


def test_move_shuffle_draw_pile_permutes_draw_only_and_publishes_shuffled() -> None:
    g = start(pack(), ["zero"] * 20, hand=5, seed=9)
    g.move_card_to_pile(g.hand()[0], PileScope.DISCARD)
    hand, discard, draw = g.hand(), g.discard_pile(), g.draw_pile()
    before = len(g.event_log)
    g.shuffle_draw_pile()
    assert trace(new_events(g, before)) == [("DrawPileShuffled",)]
    assert sorted(uids(g.draw_pile())) == sorted(uids(draw))
    assert g.draw_pile() != draw  # 15 cards: some other order (seeded)
    assert g.hand() == hand and g.discard_pile() == discard


def test_move_shuffle_draw_pile_is_seeded() -> None:
    def order(seed: int) -> list[int]:
        g = start(pack(), ["zero"] * 20, hand=5, seed=seed)
        g.shuffle_draw_pile()
        return uids(g.draw_pile())

    assert order(5) == order(5)
    assert order(5) != order(6)


def test_move_during_on_play_moves_the_in_flight_card() -> None:
    boomerang = card("boomerang", 0, on_play=N.MoveCard(THIS, PileScope.HAND))
    g = start(pack(boomerang), ["zero"] * 6, hand=4, seed=1)
    b = g.add_card_to_hand("boomerang")
    before = len(g.event_log)
    assert g.try_play_card(b)
    tr = trace(new_events(g, before))
    assert tr == [("CardPlayed", b.uid), ("CardAddedToHand", b.uid)]
    assert g.hand()[-1] is b and g.discard_pile() == []


# ---------------------------------------------------------------- waves started by facade calls
BOMB = card("bomb", 0, on_discard=N.DealDamage(99, UnitSel("all_enemies")),
            on_drawn=N.DealDamage(99, UnitSel("all_enemies")))
ALARM = card("alarm", 0, on_drawn=N.EndTurn())


def test_move_lifecycle_that_decides_the_battle_is_committed_after_the_call() -> None:
    g = start(pack(BOMB), ["zero"] * 8, hand=3)
    b = g.add_card_to_hand("bomb")
    g.move_card_to_pile(b, PileScope.DISCARD)
    assert g.phase is gcs.BattlePhase.BATTLE_WON and g.is_waiting_for_reward


def test_draw_lifecycle_that_decides_the_battle_is_committed_after_the_call() -> None:
    g = start(pack(BOMB), ["zero"] * 8, hand=3)
    g.add_card_to_pile("bomb", PileScope.DRAW, Pos.TOP)
    assert g.draw_cards(1) == 1
    assert g.phase is gcs.BattlePhase.BATTLE_WON


def test_overflow_lifecycle_that_decides_the_battle_is_committed_after_the_call() -> None:
    g = start(pack(BOMB), ["zero"] * 12, hand=10)
    g.add_card_to_hand("bomb")  # a full hand: Discard with the lifecycle
    assert g.phase is gcs.BattlePhase.BATTLE_WON


def test_end_turn_asked_by_an_on_drawn_outside_a_play_ends_the_turn_after_the_wave() -> None:
    g = start(pack(ALARM), ["zero"] * 8, hand=3)
    g.add_card_to_pile("alarm", PileScope.DRAW, Pos.TOP)
    before = len(g.event_log)
    assert g.draw_cards(2) == 2  # the whole DrawCards wave first, then the turn ends
    tr = trace(new_events(g, before))
    end = tr.index(("phase", "PLAYER_TURN_END"))
    assert len(only(tr[:end], "CardDrawn")) == 2  # both draws, then the requested turn end
    assert g.turn_number == 2 and g.phase is gcs.BattlePhase.PLAYER_PHASE

"""SPEC 2.3 (opening hand and turn draws) and 2.4 (hand limit and overflow)."""

from __future__ import annotations

import pytest
from core_support import (
    mark,
    new_events,
    only,
    pack,
    probe,
    start,
    trace,
    uids,
    watch_tag,
    watcher,
)
from minipack import card

import gcs
from gcs import PileScope
from gcs import events as ev
from gcs.content.defs import StatusDef
from gcs.enums import Keyword
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel, CountOf

WATCHED = card("watched", 0, on_drawn=mark(21), on_discard=mark(22))
W_INNATE = card("w_innate", 1, keywords=(Keyword.INNATE,), on_discard=mark(32))
DRAW_NODE = card("draw_two", 0, on_play=N.DrawCards(2))


def watched_pack(**kw: object) -> gcs.Content:
    return pack(WATCHED, W_INNATE, DRAW_NODE,
                statuses=[watcher("eye", 100), watcher("ear", 200)],
                player_statuses={"eye": 1, "ear": 1}, **kw)  # type: ignore[arg-type]


def drawn_uids(events: list[ev.Event]) -> list[int]:
    return [x.instance_id for x in events if isinstance(x, ev.CardDrawn)]


# ---------------------------------------------------------------- 2.3 opening hand
def test_opening_step1_draw_pile_built_from_the_master_deck() -> None:
    g = start(pack(), ["strike", "defend", "bash", "zero", "two", "burn"], hand=0)
    assert sorted(c.card_id for c in g.draw_pile()) == sorted(
        ["strike", "defend", "bash", "zero", "two", "burn"])


def test_opening_step2_draw_pile_is_shuffled_by_seed() -> None:
    deck = [f"{x}" for x in ("strike", "defend", "bash", "zero", "two", "burn")] * 3
    orders = {tuple(c.card_id for c in start(pack(), deck, hand=0, seed=s).draw_pile())
              for s in range(10)}
    assert len(orders) > 5
    a = [c.card_id for c in start(pack(), deck, hand=0, seed=3).draw_pile()]
    assert a == [c.card_id for c in start(pack(), deck, hand=0, seed=3).draw_pile()]


@pytest.mark.parametrize("seed", range(12))
def test_opening_step3_innate_cards_go_to_the_opening_hand_first(seed: int) -> None:
    g = start(pack(), ["zero"] * 20 + ["innate", "innate_b"], seed=seed)
    hand = g.hand()
    assert [c.card_id for c in hand[:2]] == ["innate", "innate_b"]
    assert len(hand) == 5


def test_opening_step3_innate_cards_drawn_in_master_deck_order() -> None:
    deck = ["innate_c"] + ["zero"] * 8 + ["innate"] + ["zero"] * 8 + ["innate_b"]
    for seed in range(8):
        g = gcs.Game(pack(), seed=seed)
        g.set_master_deck(deck)
        g.start_battle("dummy")
        first = drawn_uids(g.event_log)[:3]
        assert [g._e.s.cards[u].card_id for u in first] == ["innate_c", "innate", "innate_b"]


def test_opening_step4_fills_the_hand_up_to_starting_hand_size() -> None:
    for size in (0, 3, 5, 7):
        g = start(pack(), ["zero"] * 12 + ["innate"] * 2,
                  rules=gcs.BattleRules(starting_hand_size=size))
        assert len(g.hand()) == max(size, 2)  # Innate cards count towards the size
        assert len(g.draw_pile()) == 14 - max(size, 2)


def test_opening_step4_more_innate_than_starting_hand_size_draws_every_innate() -> None:
    g = start(pack(), ["zero"] * 5 + ["innate"] * 7, seed=2)
    assert [c.card_id for c in g.hand()] == ["innate"] * 7
    assert len(g.draw_pile()) == 5


def test_opening_innate_beyond_max_hand_size_overflow_to_discard_with_lifecycle() -> None:
    g = start(watched_pack(), ["zero"] * 3 + ["w_innate"] * 12,
              rules=gcs.BattleRules(max_hand_size=10))
    assert [c.card_id for c in g.hand()] == ["w_innate"] * 10
    assert [c.card_id for c in g.discard_pile()] == ["w_innate"] * 2
    tr = trace(g.event_log)
    for c in g.discard_pile():
        i = tr.index(("CardDiscarded", c.uid))
        assert tr[i + 1:i + 4] == [("mark", watch_tag(100, "on_discard")),
                                   ("mark", watch_tag(200, "on_discard")), ("mark", 32000)]
        assert ("CardDrawn", c.uid) not in tr
    assert g.drawn_this_turn() == g.hand()


def test_opening_hand_is_recorded_in_drawn_this_turn_for_turn_1() -> None:
    g = start(pack(), ["zero"] * 10 + ["innate"], hand=5)
    assert g.turn_number == 1
    assert g.drawn_this_turn() == g.hand()
    assert drawn_uids(g.event_log) == uids(g.hand())


def test_opening_draws_follow_the_per_draw_sequence() -> None:
    g = start(watched_pack(), ["watched"] * 6, hand=2)
    tr = trace(g.event_log)
    a, b = g.hand()
    i = tr.index(("CardDrawn", a.uid))
    assert tr[i:i + 5] == [("CardDrawn", a.uid), ("mark", watch_tag(100, "on_drawn")),
                           ("mark", watch_tag(200, "on_drawn")), ("mark", 21000),
                           ("CardDrawn", b.uid)]


# ---------------------------------------------------------------- 2.3 turn draws
def test_turn1_skips_the_draw_phase() -> None:
    g = start(watched_pack(), ["zero"] * 12, hand=5)
    tr = trace(g.event_log)
    assert ("DrawPhase",) not in tr
    assert ("mark", watch_tag(100, "on_draw_phase")) not in tr
    # the only draws of turn 1 are the opening hand, drawn during INITIALIZE
    assert tr.index(("phase", "PLAYER_TURN_START")) > max(
        i for i, t in enumerate(tr) if t[0] == "CardDrawn")


def test_turn2_draw_step_order_clear_drawn_draw_phase_behaviours_then_draws() -> None:
    seen = StatusDef("seen", "Seen", entries={
        "on_draw_phase": probe(7, CountOf(CardSel("drawn")))})
    g = start(pack(statuses=[seen], player_statuses={"seen": 1}), ["zero"] * 15, hand=5)
    before = len(g.event_log)
    g.end_player_turn()
    evs = new_events(g, before)
    tr = trace(evs)
    turn2 = tr[tr.index(("phase", "PLAYER_TURN_START")):]
    draws = only(turn2, "CardDrawn")
    assert len(draws) == 5
    assert turn2[turn2.index(("DrawPhase",)) + 1] == ("mark", 7000)  # drawn was cleared
    assert turn2.index(("DrawPhase",)) < turn2.index(draws[0])
    assert turn2[-2:] == [("TurnStarted",), ("phase", "PLAYER_PHASE")]
    assert turn2.index(draws[-1]) < turn2.index(("TurnStarted",))
    assert uids(g.drawn_this_turn()) == [d[1] for d in draws]


def test_turn2_draws_draw_per_turn_cards() -> None:
    for n in (0, 1, 3, 6):
        g = start(pack(), ["zero"] * 20, rules=gcs.BattleRules(starting_hand_size=2,
                                                                draw_per_turn=n))
        g.end_player_turn()
        assert len(g.hand()) == n and len(g.drawn_this_turn()) == n


def test_turn_draw_count_goes_through_draw_hooks() -> None:
    more = StatusDef("more", "More", hooks=(N.HookDef("draw", "add", 2),))
    g = start(pack(statuses=[more], player_statuses={"more": 1}), ["zero"] * 20, hand=4)
    assert len(g.hand()) == 4  # the opening hand is starting_hand_size: no draw hooks
    g.end_player_turn()
    assert len(g.hand()) == 6


def test_turn_draws_follow_the_per_draw_sequence() -> None:
    g = start(watched_pack(), ["watched"] * 12, hand=2)
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    first = only(tr, "CardDrawn")[0]
    i = tr.index(first)
    assert tr[i + 1:i + 4] == [("mark", watch_tag(100, "on_drawn")),
                               ("mark", watch_tag(200, "on_drawn")), ("mark", 21000)]
    assert tr[i + 4][0] == "CardDrawn"


def test_draw_sequence_draw_cards_status_branches_in_snapshot_order_then_card() -> None:
    g = start(watched_pack(), ["watched"] * 8, hand=2)
    top2 = g.draw_pile()[::-1][:2]
    before = len(g.event_log)
    assert g.draw_cards(2) == 2
    assert trace(new_events(g, before)) == [
        ("CardDrawn", top2[0].uid), ("mark", watch_tag(100, "on_drawn")),
        ("mark", watch_tag(200, "on_drawn")), ("mark", 21000),
        ("CardDrawn", top2[1].uid), ("mark", watch_tag(100, "on_drawn")),
        ("mark", watch_tag(200, "on_drawn")), ("mark", 21000)]


def test_draw_sequence_snapshot_order_is_the_status_application_order() -> None:
    c = pack(WATCHED, statuses=[watcher("eye", 100), watcher("ear", 200)],
             player_statuses={"ear": 1, "eye": 1})
    g = start(c, ["watched"] * 8, hand=1)
    before = len(g.event_log)
    g.draw_cards(1)
    assert trace(new_events(g, before))[1:] == [
        ("mark", watch_tag(200, "on_drawn")), ("mark", watch_tag(100, "on_drawn")),
        ("mark", 21000)]


def test_draw_sequence_draw_cards_node_is_the_same_as_draw_cards() -> None:
    g = start(watched_pack(), ["watched"] * 8, hand=2)
    d = g.add_card_to_hand("draw_two")
    top2 = g.draw_pile()[::-1][:2]
    before = len(g.event_log)
    assert g.try_play_card(d)
    tr = trace(new_events(g, before))
    i = tr.index(("CardDrawn", top2[0].uid))
    assert tr[i:i + 5] == [("CardDrawn", top2[0].uid), ("mark", watch_tag(100, "on_drawn")),
                           ("mark", watch_tag(200, "on_drawn")), ("mark", 21000),
                           ("CardDrawn", top2[1].uid)]


def test_draw_sequence_on_drawn_draw_finishes_before_the_next_card() -> None:
    chain = card("chain", 0, on_drawn=N.DrawCards(1))
    g = start(pack(chain), ["zero"] * 8, hand=2)
    g.move_card_to_pile(g.add_card_to_hand("chain"), PileScope.DRAW)
    top = g.draw_pile()[::-1][:3]  # chain, then two zeros
    before = len(g.event_log)
    assert g.draw_cards(2) == 3
    assert only(trace(new_events(g, before)), "CardDrawn") == [
        ("CardDrawn", top[0].uid), ("CardDrawn", top[1].uid), ("CardDrawn", top[2].uid)]


# ---------------------------------------------------------------- 2.4 hand limit
def test_hand_limit_default_max_hand_size_is_10() -> None:
    assert gcs.BattleRules().max_hand_size == 10
    g = start(pack(), ["zero"] * 20, hand=5)
    assert g.draw_cards(20) == 5 and len(g.hand()) == 10


def test_hand_limit_turn_draw_overflow_goes_to_discard_with_lifecycle_not_drawn() -> None:
    g = start(watched_pack(), ["retain"] * 8 + ["watched"] * 10, seed=5,
              rules=gcs.BattleRules(starting_hand_size=8))
    # put the 8 retain cards in hand whatever the shuffle did
    for c in g.hand():
        if c.card_id != "retain":
            g.move_card_to_pile(c, PileScope.DRAW)
    for c in g.draw_pile():
        if c.card_id == "retain":
            g.move_card_to_pile(c, PileScope.HAND)
    assert len(g.hand()) == 8
    top5 = g.draw_pile()[::-1][:5]
    before = len(g.event_log)
    g.end_player_turn()
    evs = new_events(g, before)
    tr = trace(evs)
    turn2 = tr[tr.index(("DrawPhase",)):]
    assert only(turn2, "CardDrawn") == [("CardDrawn", top5[0].uid), ("CardDrawn", top5[1].uid)]
    assert only(turn2, "CardDiscarded") == [("CardDiscarded", c.uid) for c in top5[2:]]
    for c in top5[2:]:
        i = turn2.index(("CardDiscarded", c.uid))
        assert turn2[i + 1:i + 4] == [("mark", watch_tag(100, "on_discard")),
                                      ("mark", watch_tag(200, "on_discard")), ("mark", 22000)]
        d = next(x for x in evs if isinstance(x, ev.CardDiscarded) and x.instance_id == c.uid)
        assert d.from_pile is PileScope.DRAW
    assert g.drawn_this_turn() == top5[:2]
    assert g.discard_pile()[-3:] == top5[2:]
    assert len(g.draw_pile()) == 10 - 5  # the overflow used up the draw count


def test_hand_limit_turn_draw_overflow_can_trigger_the_reshuffle() -> None:
    keep = card("keep", 0, keywords=(Keyword.INNATE, Keyword.RETAIN))
    g = start(pack(keep), ["keep"] * 10 + ["zero"] * 3, seed=1, hand=10)
    assert [c.card_id for c in g.hand()] == ["keep"] * 10
    for c in g.draw_pile():
        g.move_card_to_pile(c, PileScope.DISCARD)
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    turn2 = tr[tr.index(("DrawPhase",)):]
    # Draw is empty: each overflowing draw may reshuffle Discard back first
    assert only(turn2, "DrawPileShuffled", "CardDiscarded", "CardDrawn")[:4] == [
        ("DrawPileShuffled",), ("CardDiscarded", turn2[2][1]), ("CardDiscarded", turn2[3][1]),
        ("CardDiscarded", turn2[4][1])]
    assert len(only(turn2, "CardDiscarded")) == 10  # 10 automatic draws all overflowed
    assert only(turn2, "CardDrawn") == []


def test_hand_limit_draw_cards_stops_early_at_a_full_hand() -> None:
    g = start(watched_pack(), ["zero"] * 20, rules=gcs.BattleRules(starting_hand_size=9))
    draw = g.draw_pile()
    before = len(g.event_log)
    assert g.draw_cards(3) == 1
    assert only(trace(new_events(g, before)), "CardDiscarded") == []
    assert g.draw_pile() == draw[:-1] and len(g.hand()) == 10
    assert g.draw_cards(1) == 0 and g.draw_pile() == draw[:-1]


def test_hand_limit_draw_cards_node_stops_early_at_a_full_hand() -> None:
    g = start(watched_pack(), ["zero"] * 20, rules=gcs.BattleRules(starting_hand_size=9))
    d = g.add_card_to_hand("draw_two")
    draw = g.draw_pile()
    before = len(g.event_log)
    assert g.try_play_card(d)  # hand 9 after it leaves: draws 1, then stops
    tr = trace(new_events(g, before))
    assert len(only(tr, "CardDrawn")) == 1 and only(tr, "CardDiscarded") == []
    assert g.draw_pile() == draw[:-1] and len(g.hand()) == 10


def test_hand_limit_add_card_to_full_hand_goes_to_discard_with_lifecycle() -> None:
    g = start(watched_pack(), ["zero"] * 20, rules=gcs.BattleRules(starting_hand_size=10))
    before = len(g.event_log)
    new = g.add_card_to_hand("watched")
    evs = new_events(g, before)
    assert evs[0] == ev.CardDiscarded(new.uid, "watched", None, PileScope.DISCARD)
    assert trace(evs)[1:] == [("mark", watch_tag(100, "on_discard")),
                              ("mark", watch_tag(200, "on_discard")), ("mark", 22000)]
    assert not any(isinstance(x, ev.CardAddedToHand) for x in evs)
    assert g.discard_pile() == [new] and new not in g.hand()


def test_hand_limit_move_into_full_hand_goes_to_discard_with_lifecycle() -> None:
    g = start(watched_pack(), ["watched"] * 20, rules=gcs.BattleRules(starting_hand_size=10))
    c = g.draw_pile()[0]
    before = len(g.event_log)
    g.move_card_to_pile(c, PileScope.HAND)
    evs = new_events(g, before)
    assert evs[0] == ev.CardDiscarded(c.uid, "watched", PileScope.DRAW, PileScope.DISCARD)
    assert trace(evs)[1:] == [("mark", watch_tag(100, "on_discard")),
                              ("mark", watch_tag(200, "on_discard")), ("mark", 22000)]
    assert g.discard_pile() == [c]


def test_hand_limit_add_cards_node_into_full_hand_goes_to_discard_with_lifecycle() -> None:
    maker = card("maker", 0, on_play=N.AddCards("watched", PileScope.HAND, count=2))
    g = start(pack(maker, WATCHED), ["zero"] * 20, rules=gcs.BattleRules(starting_hand_size=9))
    m = g.hand()[0]
    g.move_card_to_pile(m, PileScope.EXHAUST)
    m = g.add_card_to_hand("maker")
    before = len(g.event_log)
    assert g.try_play_card(m)  # hand 8 during On Play: both fit
    assert len(only(trace(new_events(g, before)), "CardAddedToHand")) == 2
    m2 = g.add_card_to_hand("maker")  # hand is now 10 -> it overflows itself
    assert m2 in g.discard_pile()
    g.move_card_to_pile(g.hand()[0], PileScope.EXHAUST)
    m3 = g.add_card_to_hand("maker")
    before = len(g.event_log)
    assert g.try_play_card(m3)  # hand 9: one fits, one overflows with the lifecycle
    tr = trace(new_events(g, before))
    assert len(only(tr, "CardAddedToHand")) == 1
    assert len(only(tr, "CardDiscarded")) == 1
    assert ("mark", 22000) in tr


def test_hand_limit_hand_size_hook_changes_the_limit() -> None:
    small = StatusDef("small", "Small", hooks=(N.HookDef("hand_size", "add", -7),))
    g = start(pack(statuses=[small], player_statuses={"small": 1}), ["zero"] * 10, hand=5)
    assert len(g.hand()) == 3 and len(g.discard_pile()) == 2
    assert g.draw_cards(1) == 0

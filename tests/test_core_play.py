"""SPEC 2.5 (playing a card: the commit order of seed 004), effective cost, X cost, targets
and card-face text."""

from __future__ import annotations

from typing import Any

import pytest
from core_support import (
    HAND,
    TARGET,
    THIS,
    hand_count,
    mark,
    new_events,
    only,
    pack,
    probe,
    seq,
    snapshot,
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
from gcs.content.defs import EncounterDef, StatusDef
from gcs.enums import CardType, Keyword, TargetMode
from gcs.errors import TargetError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardFilter, CardSel, CountOf, UnitStat

PROBE = card("probe", 1, on_play=seq(probe(1, hand_count()), probe(2, CountOf(CardSel("played"))),
                                     probe(3, UnitStat("energy")), mark(4)))
W_BURN = card("w_burn", 1, keywords=(Keyword.EXHAUST,), on_play=mark(4),
              on_exhaust=mark(23), on_discard=mark(22))
W_PLAIN = card("w_plain", 1, on_play=mark(4), on_discard=mark(22))
TOPDECK = card("topdeck", 0, on_play=N.MoveCard(THIS, PileScope.DRAW))
BURN_BACK = card("burn_back", 0, keywords=(Keyword.EXHAUST,), on_play=N.DiscardCard(THIS),
                 on_discard=mark(22), on_exhaust=mark(23))
SELF_DISCARD = card("self_discard", 0, on_play=N.DiscardCard(THIS), on_discard=mark(22))
HOOKER = card("hooker", 0, on_play=seq(
    N.RegisterCardHook(N.HookDef("cost", "add", -1, CardFilter(card="two"))), N.Wait(1.0)))
HOOK_ONLY = card("hook_only", 0, on_play=N.RegisterCardHook(
    N.HookDef("cost", "add", -1, CardFilter(card="two"))))
PICK = card("pick", 0, on_play=N.Choice(HAND, "c", then=N.ExhaustCard(CardSel("var", var="c"))))
ENDER = card("ender", 0, on_play=seq(N.EndTurn(), mark(5), N.DrawCards(1), mark(6)))
KILL1 = card("kill1", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
             on_play=N.DealDamage(99, TARGET))


def c_pack(**kw: Any) -> gcs.Content:
    return pack(PROBE, W_BURN, W_PLAIN, TOPDECK, BURN_BACK, SELF_DISCARD, HOOKER, HOOK_ONLY, PICK,
                ENDER, KILL1, statuses=[watcher("eye", 100), watcher("ear", 200),
                                        *kw.pop("statuses", [])],
                player_statuses=kw.pop("player_statuses", {"eye": 1, "ear": 1}), **kw)


def game(deck: list[str] | None = None, **kw: Any) -> gcs.Game:
    return start(c_pack(**kw.pop("pack", {})), deck or ["zero"] * 12, hand=kw.pop("hand", 4),
                 **kw)


ON_PLAY = [("mark", watch_tag(100, "on_play")), ("mark", watch_tag(200, "on_play"))]


# ---------------------------------------------------------------- the whole commit order
def test_play_commit_order_of_seed_004_for_an_exhaust_card() -> None:
    g = game()
    c = g.add_card_to_hand("w_burn")
    before = len(g.event_log)
    assert g.try_play_card(c)
    assert trace(new_events(g, before)) == [
        ("EnergySpent", 1), ("CardPlayed", c.uid), ("mark", 4000), *ON_PLAY,
        ("CardExhausted", c.uid), ("mark", watch_tag(100, "on_exhaust")),
        ("mark", watch_tag(200, "on_exhaust")), ("mark", 23000)]
    assert g.exhaust_pile() == [c] and g.played_this_turn() == [c]


def test_play_commit_order_of_seed_004_for_a_normal_card() -> None:
    g = game()
    c = g.add_card_to_hand("w_plain")
    before = len(g.event_log)
    assert g.try_play_card(c)
    assert trace(new_events(g, before)) == [
        ("EnergySpent", 1), ("CardPlayed", c.uid), ("mark", 4000), *ON_PLAY]
    assert g.discard_pile()[-1] is c


# ---------------------------------------------------------------- step 1
def test_play_step1_nothing_is_committed_when_the_play_is_refused() -> None:
    g = game(["two"] * 12)
    g.try_play_card(g.hand()[0])
    snap = snapshot(g)
    before = len(g.event_log)
    assert not g.can_play_card(g.hand()[0])  # 1 energy left, cost 2
    assert not g.try_play_card(g.hand()[0])
    assert snapshot(g) == snap and len(g.event_log) == before


def test_play_step1_refused_outside_player_phase() -> None:
    g = game(["nuke"] * 12)
    assert g.try_play_card(g.hand()[0])
    assert g.phase is gcs.BattlePhase.BATTLE_WON and g.is_waiting_for_reward
    c = g.hand()[0]
    assert not g.can_play_card(c) and not g.try_play_card(c)


def test_play_step1_refused_when_the_card_is_not_in_hand() -> None:
    g = game()
    c = g.draw_pile()[0]
    snap = snapshot(g)
    assert not g.can_play_card(c) and not g.try_play_card(c)
    assert g.play_refusal(c) == "the card is not in hand"
    assert snapshot(g) == snap


def test_play_step1_refused_without_enough_energy() -> None:
    g = game(["two"] * 12)
    assert g.try_play_card(g.hand()[0])
    assert g.energy == 1
    assert g.play_refusal(g.hand()[0]) == "not enough energy"
    assert not g.try_play_card(g.hand()[0])


def test_play_step1_unplayable_is_refused() -> None:
    g = game()
    c = g.add_card_to_hand("curse")
    assert not g.can_play_card(c) and not g.try_play_card(c)
    assert g.play_refusal(c) == "unplayable"


def test_play_step1_playable_hook_can_forbid() -> None:
    calm = StatusDef("calm", "Calm", hooks=(
        N.HookDef("playable", "forbid", where=CardFilter(type=CardType.ATTACK)),))
    g = game(pack={"statuses": [calm], "player_statuses": {"calm": 1}})
    s = g.add_card_to_hand("strike")
    d = g.add_card_to_hand("defend")
    assert not g.try_play_card(s, 0)
    assert g.play_refusal(s, 0) == "a hook forbids it"
    assert g.try_play_card(d)


def test_play_step1_refused_while_a_choice_is_pending() -> None:
    g = game()
    p = g.add_card_to_hand("pick")
    assert g.try_play_card(p)
    assert g.is_waiting_for_choice
    other = g.hand()[0]
    snap = snapshot(g)
    assert not g.can_play_card(other) and not g.try_play_card(other)
    assert snapshot(g) == snap


def test_play_step1_target_validated_before_commit() -> None:
    g = game(encounter="two_dummies")
    s = g.add_card_to_hand("strike")
    snap = snapshot(g)
    with pytest.raises(TargetError):
        g.try_play_card(s, "enemy")  # a programming error: not a target at all
    assert g.try_play_card(s, g.player) is False  # an ally does not fit
    assert g.try_play_card(s, 5) is False  # no such enemy
    assert not g.try_play_card(s)  # a single-enemy card without a target
    assert snapshot(g) == snap


# ---------------------------------------------------------------- step 2
def test_play_step2_card_leaves_hand_before_on_play() -> None:
    g = game()
    c = g.add_card_to_hand("probe")
    assert len(g.hand()) == 5
    before = len(g.event_log)
    assert g.try_play_card(c)
    # On Play saw: hand 4 (post-play), played 1, energy 2 (already spent)
    assert only(trace(new_events(g, before)), "mark")[:4] == [
        ("mark", 1004), ("mark", 2001), ("mark", 3002), ("mark", 4000)]


def test_play_step2_state_at_card_played_is_post_commit() -> None:
    g = game()
    c = g.add_card_to_hand("probe")
    seen: list[Any] = []

    def on_played(x: ev.CardPlayed) -> None:
        seen.append((c in g.hand(), g.energy, g.played_this_turn(), c in g.pile(PileScope.ALL)))

    g.subscribe(ev.CardPlayed, on_played)
    assert g.try_play_card(c)
    assert seen == [(False, 2, [c], False)]  # in flight: in no pile


def test_play_step2_energy_spent_only_for_positive_cost() -> None:
    g = game(["zero"] * 6 + ["two"] * 6, hand=12)
    z = next(c for c in g.hand() if c.card_id == "zero")
    t = next(c for c in g.hand() if c.card_id == "two")
    before = len(g.event_log)
    assert g.try_play_card(z)
    evs = new_events(g, before)
    assert not any(isinstance(x, ev.EnergySpent) for x in evs)
    assert next(x for x in evs if isinstance(x, ev.CardPlayed)).cost == 0
    before = len(g.event_log)
    assert g.try_play_card(t)
    evs = new_events(g, before)
    assert evs[0] == ev.EnergySpent(2, 1)
    assert isinstance(evs[1], ev.CardPlayed) and evs[1].cost == 2


def test_play_step2_played_this_turn_records_the_instance() -> None:
    g = game()
    a, b = g.hand()[:2]
    g.try_play_card(b)
    g.try_play_card(a)
    assert g.played_this_turn() == [b, a]


def test_play_step2_card_played_payload() -> None:
    g = game(encounter="two_dummies")
    s = g.add_card_to_hand("strike", upgraded=True)
    before = len(g.event_log)
    assert g.try_play_card(s, g.enemies[1])
    played = [x for x in new_events(g, before) if isinstance(x, ev.CardPlayed)]
    assert played == [ev.CardPlayed(s.uid, "strike", True, 1, g.enemies[1].uid)]
    assert g.enemies[1].hp == 1 and g.enemies[0].hp == 10


# ---------------------------------------------------------------- step 3
def test_play_step3_card_played_then_on_play_then_status_on_play_in_snapshot_order() -> None:
    g = game(pack={"player_statuses": {"ear": 1, "eye": 1}})
    c = g.add_card_to_hand("w_plain")
    before = len(g.event_log)
    g.try_play_card(c)
    assert trace(new_events(g, before))[1:] == [
        ("CardPlayed", c.uid), ("mark", 4000), ("mark", watch_tag(200, "on_play")),
        ("mark", watch_tag(100, "on_play"))]


def test_play_step3_on_play_choice_sees_the_post_play_hand() -> None:
    g = game()
    p = g.add_card_to_hand("pick")
    hand_after = [c for c in g.hand() if c is not p]
    assert g.try_play_card(p)
    choice = g.pending_choice
    assert choice is not None and choice.candidates == hand_after
    g.choose(0)
    assert g.exhaust_pile() == [hand_after[0]]
    assert g.discard_pile()[-1] is p


def test_play_step3_on_play_draw_sees_the_post_play_hand() -> None:
    g = game(hand=9)
    d = g.add_card_to_hand("drawer")  # hand 10 (full); after it leaves: 9, so one fits
    assert g.try_play_card(d)
    assert len(g.hand()) == 10


# ---------------------------------------------------------------- step 4
def test_play_step4_hooks_registered_after_deferred_branches() -> None:
    g = game(["two"] * 12)
    h = g.add_card_to_hand("hooker")
    t = g.hand()[0]
    assert g.try_play_card(h)
    assert g.waiting_kind == "wait"
    assert g.get_effective_energy_cost(t) == 2  # not yet registered
    assert g.advance_time(1.0)
    assert g.get_effective_energy_cost(t) == 1


def test_play_step4_hooks_registered_after_status_on_play_deferred_branches() -> None:
    slow = StatusDef("slow", "Slow", entries={"on_play": N.Wait(2.0)})
    g = game(["two"] * 12, pack={"statuses": [slow], "player_statuses": {"slow": 1}})
    h = g.add_card_to_hand("hook_only")
    t = g.hand()[0]
    assert g.try_play_card(h)
    assert g.is_waiting and g.get_effective_energy_cost(t) == 2
    assert not g.advance_time(1.0)
    assert g.get_effective_energy_cost(t) == 2
    assert g.advance_time(1.0)
    assert g.get_effective_energy_cost(t) == 1


def test_play_step4_destination_waits_for_deferred_branches() -> None:
    g = game()
    p = g.add_card_to_hand("pick")
    assert g.try_play_card(p)
    assert p not in g.pile(PileScope.ALL)  # still in flight while the Choice is open
    g.choose(0)
    assert g.discard_pile()[-1] is p


# ---------------------------------------------------------------- step 5
def test_play_step5_authored_destination_is_kept() -> None:
    g = game()
    c = g.add_card_to_hand("topdeck")
    before = len(g.event_log)
    assert g.try_play_card(c)
    assert trace(new_events(g, before)) == [("CardPlayed", c.uid), ("CardMoved", c.uid),
                                            *ON_PLAY]
    assert g.draw_pile()[-1] is c and c not in g.discard_pile()


def test_play_step5_authored_destination_beats_exhaust() -> None:
    g = game()
    c = g.add_card_to_hand("burn_back")
    before = len(g.event_log)
    assert g.try_play_card(c)
    tr = trace(new_events(g, before))
    assert tr[:2] == [("CardPlayed", c.uid), ("CardDiscarded", c.uid)]
    assert ("CardExhausted", c.uid) not in tr and ("mark", 23000) not in tr
    assert g.discard_pile()[-1] is c and g.exhaust_pile() == []


def test_play_step5_explicit_discard_during_on_play_runs_the_lifecycle() -> None:
    g = game()
    c = g.add_card_to_hand("self_discard")
    before = len(g.event_log)
    assert g.try_play_card(c)
    evs = new_events(g, before)
    assert evs[1] == ev.CardDiscarded(c.uid, "self_discard", None, PileScope.DISCARD)
    assert trace(evs)[2:] == [("mark", watch_tag(100, "on_discard")),
                              ("mark", watch_tag(200, "on_discard")), ("mark", 22000), *ON_PLAY]


def test_play_step5_exhaust_card_goes_through_the_exhaust_lifecycle() -> None:
    g = game()
    c = g.add_card_to_hand("w_burn")
    before = len(g.event_log)
    g.try_play_card(c)
    evs = new_events(g, before)
    ex = [x for x in evs if isinstance(x, ev.CardExhausted)]
    assert ex == [ev.CardExhausted(c.uid, "w_burn", None, PileScope.EXHAUST)]
    assert not any(isinstance(x, ev.CardDiscarded) for x in evs)


def test_play_step5_default_discard_without_card_discarded() -> None:
    g = game()
    c = g.add_card_to_hand("w_plain")
    before = len(g.event_log)
    g.try_play_card(c)
    evs = new_events(g, before)
    assert not any(isinstance(x, ev.CardDiscarded) for x in evs)
    assert ("mark", 22000) not in trace(evs)
    assert ("mark", watch_tag(100, "on_discard")) not in trace(evs)
    assert g.discard_pile() == [c]


def test_play_step5_a_power_that_authors_its_destination_leaves_the_battle() -> None:
    g = game()
    p = g.add_card_to_hand("power")  # on_play: apply strength, then remove_from_battle this
    before = len(g.event_log)
    assert g.try_play_card(p)
    evs = new_events(g, before)
    kinds = [type(x).__name__ for x in evs]
    assert kinds.index("CardPlayed") < kinds.index("StatusApplied") < kinds.index("CardMoved")
    assert ev.CardMoved(p.uid, "power", None, None) in evs
    assert p not in g.pile(PileScope.ALL)
    assert g.played_this_turn() == [p]
    assert g.player is not None and g.player.stacks("strength") == 1
    assert g.try_play_card(p) is False  # it left the battle: a refusal


def test_play_step5_card_type_never_decides_the_destination() -> None:
    g = game()
    p = g.add_card_to_hand("plain_power")  # a POWER with no authored destination
    before = len(g.event_log)
    assert g.try_play_card(p)
    evs = new_events(g, before)
    assert g.discard_pile() == [p]  # Discard, silently, like any other card
    assert not any(isinstance(x, (ev.CardDiscarded, ev.CardMoved)) for x in evs)


def test_play_end_turn_request_waits_for_the_whole_wave() -> None:
    g = game()
    c = g.add_card_to_hand("ender")
    before = len(g.event_log)
    assert g.try_play_card(c)
    tr = trace(new_events(g, before))
    turn_end = tr.index(("phase", "PLAYER_TURN_END"))
    assert tr.index(("mark", 6000)) < turn_end
    assert tr.index(("mark", watch_tag(200, "on_play"))) < turn_end
    assert g.turn_number == 2 and g.phase is gcs.BattlePhase.PLAYER_PHASE
    assert c in g.discard_pile() or c in g.draw_pile() or c in g.hand()


# ---------------------------------------------------------------- targets
def test_play_requires_target_only_for_single_enemy_cards() -> None:
    g = game()
    c = g.content
    assert g.requires_target(c.card("strike"))
    for cid in ("defend", "nuke", "randy", "zero"):
        assert not g.requires_target(c.card(cid))
    s = g.add_card_to_hand("strike")
    assert g.requires_target(g.get_active_card(s)) and g.requires_target(s)


def test_play_target_by_unit_or_enemy_index() -> None:
    g = game(["zap"] * 12, encounter="two_dummies")
    a, b = g.enemies
    assert g.try_play_card(g.hand()[0], 1) and b.hp == 7 and a.hp == 10
    assert g.try_play_card(g.hand()[0], a) and a.hp == 7


def test_play_dead_target_returns_false() -> None:
    g = game(["zap"] * 12, encounter="two_dummies")
    k = g.add_card_to_hand("kill1")
    a, b = g.enemies
    assert g.try_play_card(k, a) and not a.alive
    z = g.hand()[0]
    snap = snapshot(g)
    assert not g.try_play_card(z, a)
    assert g.play_refusal(z, a) == "the target is dead"
    assert snapshot(g) == snap
    assert g.try_play_card(z, b)


def test_play_target_for_an_untargeted_card_is_refused() -> None:
    g = game(encounter="two_dummies")
    c = g.hand()[0]
    snap = snapshot(g)
    assert g.try_play_card(c, 0) is False  # the UI passed the hovered enemy: no crash
    assert g.play_refusal(c, 0) == f"{c.name} (NONE) takes no target"
    n = g.add_card_to_hand("nuke")
    assert g.try_play_card(n, g.enemies[0]) is False
    assert snapshot(g) != snap and g.try_play_card(n)


def test_play_target_unit_of_another_game_raises() -> None:
    g = game(["zap"] * 12)
    other = game(["zap"] * 12)
    with pytest.raises(TargetError, match="not an enemy in this battle"):
        g.try_play_card(g.hand()[0], other.enemies[0])


def test_play_random_enemy_target_is_a_living_enemy() -> None:
    enc = EncounterDef("three", "Three", ("dummy", "dummy", "dummy"))
    targets = set()
    for seed in range(12):
        g = game(["randy"] * 12, pack={"encounters": [enc]}, encounter="three", seed=seed)
        k = g.add_card_to_hand("kill1")
        g.try_play_card(k, 1)
        before = len(g.event_log)
        assert g.try_play_card(g.hand()[0])
        played = next(x for x in new_events(g, before) if isinstance(x, ev.CardPlayed))
        assert played.target in (1, 3)
        targets.add(played.target)
    assert targets == {1, 3}


# ---------------------------------------------------------------- effective cost
@pytest.mark.parametrize("fields,expected", [
    ({}, 2),
    ({"cost_delta": -1}, 1),
    ({"cost_delta": 1, "battle_delta": 1}, 4),
    ({"cost_delta": 3, "battle_set": 0}, 0),
    ({"battle_set": 0, "battle_delta": 1}, 1),
    ({"battle_set": 5, "turn_set": 1}, 1),
    ({"battle_set": 5, "turn_set": 1, "turn_delta": 1}, 2),
    ({"cost_delta": -1, "battle_delta": -1, "turn_delta": 1}, 1),
    ({"cost_delta": -5}, 0),
    ({"turn_set": 0, "turn_delta": -2}, 0),
])
def test_cost_combination_definition_master_battle_turn(fields: dict[str, Any],
                                                        expected: int) -> None:
    g = game(["two"] * 12)
    c = g.hand()[0]
    for k, v in fields.items():
        setattr(c, k, v)
    assert g.get_effective_energy_cost(c) == expected


def test_cost_master_deck_delta_comes_from_the_master_entry() -> None:
    g = gcs.Game(c_pack(), seed=1)
    g.set_master_deck([gcs.MasterEntry("two", cost_delta=-1)] * 6)
    g.start_battle("dummy")
    assert [g.get_effective_energy_cost(c) for c in g.hand()] == [1] * 5


def hooks_pack(*hooks: N.HookDef, card_hooks: tuple[N.HookDef, ...] = ()) -> gcs.Content:
    st = StatusDef("rule", "Rule", hooks=hooks)
    relic = card("relic", 0, type=CardType.CURSE, keywords=(Keyword.UNPLAYABLE,),
                 hooks=card_hooks)
    reg = card("reg", 0, on_play=N.RegisterCardHook(N.HookDef("cost", "add", 1)))
    reg_set = card("reg_set", 0, on_play=N.RegisterCardHook(N.HookDef("cost", "set", 0)))
    return pack(relic, reg, reg_set, statuses=[st], player_statuses={"rule": 1})


@pytest.mark.parametrize("status_hook,registered,hand_hook,expected", [
    (N.HookDef("cost", "add", -1), None, None, 1),
    (N.HookDef("cost", "set", 5), None, None, 5),
    (N.HookDef("cost", "set", 3), "reg", None, 4),      # status set, then card hook adds
    (N.HookDef("cost", "add", 2), "reg_set", None, 0),  # card hook set comes after status
    (N.HookDef("cost", "add", 2), "reg_set", N.HookDef("cost", "add", 1), 1),  # hand card last
    (N.HookDef("cost", "add", -9), "reg", N.HookDef("cost", "add", 1), 0),  # clamp at the end
    (N.HookDef("cost", "add", -1, CardFilter(card="zero")), None, None, 2),  # filter
])
def test_cost_hooks_in_order_statuses_registered_hand_cards(
        status_hook: N.HookDef, registered: str | None, hand_hook: N.HookDef | None,
        expected: int) -> None:
    g = start(hooks_pack(status_hook, card_hooks=(hand_hook,) if hand_hook else ()),
              ["two"] * 6, hand=3)
    if registered:
        assert g.try_play_card(g.add_card_to_hand(registered))
    if hand_hook:
        g.add_card_to_hand("relic")
    assert g.get_effective_energy_cost(g.hand()[0]) == expected


def test_cost_clamped_at_zero_only_after_every_step() -> None:
    g = game(["two"] * 12)
    c = g.hand()[0]
    c.cost_delta = -5  # 2 - 5 = -3, then a turn delta +2: -1 -> 0 (clamped at the end)
    c.turn_delta = 2
    assert g.get_effective_energy_cost(c) == 0
    c.turn_delta = 4
    assert g.get_effective_energy_cost(c) == 1


def test_cost_modify_cost_durations_turn_battle_run() -> None:
    sel = CardSel("hand", where=CardFilter(card="two"))
    cards = (card("t_turn", 0, on_play=N.ModifyCost(sel, -1, duration="turn")),
             card("t_battle", 0, on_play=N.ModifyCost(sel, -1, duration="battle")),
             card("t_run", 0, on_play=N.ModifyCost(sel, -1, duration="run")),
             card("t_set", 0, on_play=N.ModifyCost(sel, set_to=0, duration="turn")))
    keep = card("keep2", 2, keywords=(Keyword.RETAIN,))
    g = gcs.Game(pack(*cards, keep), seed=1)
    g.set_master_deck(["two"] + ["zero"] * 20)
    g.start_battle("dummy")
    t = next(c for c in g.pile(PileScope.ALL) if c.card_id == "two")
    g.move_card_to_pile(t, PileScope.HAND)
    for cid in ("t_turn", "t_battle", "t_run"):
        assert g.try_play_card(g.add_card_to_hand(cid))
    assert g.get_effective_energy_cost(t) == 0  # 2 - 1 - 1 - 1
    before = len(g.event_log)
    assert g.try_play_card(g.add_card_to_hand("t_set"))
    assert ev.CardModified(t.uid, "two", "cost", False) in new_events(g, before)
    g.move_card_to_pile(t, PileScope.DRAW)
    g.end_player_turn()  # turn modifiers end at PlayerTurnEnd step 4
    assert g.get_effective_energy_cost(t) == 0  # 2 - 1 (battle) - 1 (run)
    assert g.get_master_deck()[0].cost_delta == -1
    g.move_card_to_pile(g.add_card_to_hand("nuke"), PileScope.HAND)
    assert g.try_play_card(next(c for c in g.hand() if c.card_id == "nuke"))
    g.skip_reward()
    g.start_battle("dummy")  # the run delta persists, the battle delta does not
    t2 = next(c for c in g.pile(PileScope.ALL) if c.card_id == "two")
    assert g.get_effective_energy_cost(t2) == 1


def test_cost_x_cost_spends_all_energy() -> None:
    g = game()
    x = g.add_card_to_hand("xburst")
    assert g.get_effective_energy_cost(x) == 3
    before = len(g.event_log)
    assert g.try_play_card(x)
    tr = trace(new_events(g, before))
    assert tr[:3] == [("EnergySpent", 3), ("CardPlayed", x.uid), ("mark", 90003)]
    assert g.energy == 0


def test_cost_x_cost_is_playable_at_zero_energy() -> None:
    g = game(["two"] * 12)
    g.try_play_card(g.hand()[0])
    g.try_play_card(g.add_card_to_hand("zero"))
    x = g.add_card_to_hand("xburst")
    g._e.s.energy = 0
    assert g.get_effective_energy_cost(x) == 0 and g.can_play_card(x)
    before = len(g.event_log)
    assert g.try_play_card(x)
    tr = trace(new_events(g, before))
    assert tr[:2] == [("CardPlayed", x.uid), ("mark", 90000)]


def test_cost_energy_never_negative_after_plays() -> None:
    g = game(["zero", "two", "probe"] * 5, hand=10)
    for c in g.hand():
        g.try_play_card(c)
        assert g.energy >= 0


# ---------------------------------------------------------------- card-face text
def test_format_description_shows_the_active_card_numbers() -> None:
    g = game()
    s = g.add_card_to_hand("strike")
    up = g.add_card_to_hand("strike", upgraded=True)
    base_def = g.content.card("strike")
    assert g.format_description(s) == "Deal 6 damage."
    assert g.format_description(up) == "Deal 9 damage."
    assert g.format_description(base_def, up) == "Deal 9 damage."
    assert g.format_description(base_def) == "Deal 6 damage."
    assert g.get_active_card(up) is base_def.upgrade and g.get_active_card(s) is base_def
    assert up.get_active_card() is base_def.upgrade


def test_format_description_cost_placeholder_is_the_effective_cost() -> None:
    c = card("costly", 2, text="Costs {cost}. {unknown} stays.")
    g = start(pack(c), ["zero"] * 6, hand=3)
    inst = g.add_card_to_hand("costly")
    inst.battle_delta = -1
    assert g.format_description(inst) == "Costs 1. {unknown} stays."
    assert g.format_description(g.content.card("costly")) == "Costs 2. {unknown} stays."


# ---------------------------------------------------------------- can_play_card
def test_play_can_play_card_agrees_with_try_play_card() -> None:
    g = game(["zero", "two", "curse", "strike", "probe", "xburst"] * 2, hand=12,
             encounter="two_dummies")
    for c in list(g.hand()):
        can = g.can_play_card(c)
        target = 0 if g.requires_target(c) else None
        assert g.try_play_card(c, target) == can
    assert uids(g.played_this_turn())

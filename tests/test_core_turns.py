"""SPEC 2.6 (turn-end hand processing), 2.9 (phases), 2.12 (PlayerTurnStart),
2.13 (EndPlayerTurn), 2.14 (EnemyPhase) and extra turns."""

from __future__ import annotations

from typing import Any

from core_support import (
    SELF_UNIT,
    THIS,
    idle_enemy,
    mark,
    new_events,
    only,
    pack,
    probe,
    seq,
    snapshot,
    start,
    trace,
    watch_tag,
    watcher,
)
from minipack import card

import gcs
from gcs import BattlePhase as P
from gcs import HandDiscardRule, PileScope
from gcs import events as ev
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import Decay, IntentKind, Keyword
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel, Compare, CountOf, UnitSel, UnitStat

DUSK = card("dusk", 0, on_turn_end=mark(26))
W_PLAIN = card("w_plain", 0, on_discard=mark(22), on_exhaust=mark(23))
W_ETHEREAL = card("w_ethereal", 0, keywords=(Keyword.ETHEREAL,), on_exhaust=mark(23),
                  on_discard=mark(22))
W_RETAIN = card("w_retain", 0, keywords=(Keyword.RETAIN,), on_discard=mark(22))
SUNRISE = card("sunrise", 0, keywords=(Keyword.RETAIN,), on_turn_start=mark(25))
HOMING = card("homing", 0, on_turn_end=N.MoveCard(THIS, PileScope.DRAW), on_discard=mark(22))
SELF_BURN = card("self_burn", 0, keywords=(Keyword.RETAIN,), on_turn_end=N.ExhaustCard(THIS))
LATER = card("later", 0, on_play=seq(N.WaitUntil("player_turn_start"),
                                     probe(41, CountOf(CardSel("played"))),
                                     probe(42, UnitStat("energy"))))
EOT = card("eot", 0, on_play=seq(N.WaitUntil("player_turn_end"), mark(43)))
EOP = card("eop", 0, on_play=seq(N.WaitUntil("enemy_phase_end"), mark(44)))
CHARGE1 = card("charge1", 0, on_play=N.RegisterCardHook(N.HookDef("energy", "add", 1), turns=1))
CHARGE2 = card("charge2", 0, on_play=N.RegisterCardHook(N.HookDef("energy", "add", 1), turns=2))
PICK = card("pick", 0, on_play=N.Choice(CardSel("hand"), "c"))
TICK = StatusDef("tick", "Tick", entries={"on_turn_start": probe(61, CountOf(CardSel("played")))})
FADE = StatusDef("fade", "Fade", decay=Decay.MINUS_ONE)

CARDS = (DUSK, W_PLAIN, W_ETHEREAL, W_RETAIN, SUNRISE, HOMING, SELF_BURN, LATER, EOT, EOP,
         CHARGE1, CHARGE2, PICK)


def t_pack(**kw: Any) -> gcs.Content:
    return pack(*CARDS, *kw.pop("cards", ()),
                statuses=[watcher("eye", 100), TICK, FADE, *kw.pop("statuses", ())],
                player_statuses=kw.pop("player_statuses", {"eye": 1, "tick": 1}), **kw)


def empty_hand_game(**kw: Any) -> gcs.Game:
    """A battle whose opening hand is empty and whose turns draw nothing."""
    return start(t_pack(**kw.pop("pack", {})), ["zero"] * 10, hand=0, **kw)


# ---------------------------------------------------------------- 2.12 PlayerTurnStart
def test_turn_start_eight_steps_in_order() -> None:
    g = start(t_pack(), ["zero"] * 10, hand=2)
    g.add_card_to_hand("sunrise")
    assert g.try_play_card(g.add_card_to_hand("later"))
    assert g.try_play_card(g.add_card_to_hand("defend"))  # block 5, to decay at step 2
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    start2 = tr.index(("phase", "PLAYER_TURN_START"))
    draws = [t for t in tr[start2:] if t[0] == "CardDrawn"]
    assert len(draws) == 2
    assert tr[start2:] == [
        ("phase", "PLAYER_TURN_START"),
        ("BlockChanged",),                       # 2. armor decay
        ("mark", 41002), ("mark", 42003),         # 4. delayed: played not cleared, energy 3
        ("mark", watch_tag(100, "on_turn_start")),  # 6. statuses in snapshot order
        ("mark", 61000),                          #    (played was cleared at 5.)
        ("mark", 25000),                          # 6. then cards in hand
        ("DrawPhase",),                           # 7. draw phase (turn 2)
        ("mark", watch_tag(100, "on_draw_phase")),
        draws[0], ("mark", watch_tag(100, "on_drawn")),
        draws[1], ("mark", watch_tag(100, "on_drawn")),
        ("TurnStarted",), ("phase", "PLAYER_PHASE")]  # 8.


def test_turn_start_step1_expired_card_hooks_removed_before_energy_step3() -> None:
    g = empty_hand_game()
    assert g.try_play_card(g.add_card_to_hand("charge1"))
    assert g.try_play_card(g.add_card_to_hand("charge2"))
    g.end_player_turn()
    assert g.energy == 4  # charge1 expired at step 1; charge2 lasts one more turn
    g.end_player_turn()
    assert g.energy == 3


def test_turn_start_step2_armor_decay_rule() -> None:
    for rule, left in ((gcs.ArmorDecayRule.RESET, 0), (gcs.ArmorDecayRule.KEEP, 5),
                       (gcs.ArmorDecayRule.HALVE, 2)):
        g = start(t_pack(), ["zero"] * 10, rules=gcs.BattleRules(armor_decay=rule,
                                                                  starting_hand_size=0,
                                                                  draw_per_turn=0))
        assert g.try_play_card(g.add_card_to_hand("defend"))
        g.end_player_turn()
        assert g.player is not None and g.player.block == left


def test_turn_start_step3_energy_refilled_not_added() -> None:
    g = empty_hand_game()
    assert g.energy == 3
    g.end_player_turn()
    assert g.energy == 3  # 3 unspent: no carry-over
    g.try_play_card(g.add_card_to_hand("two"))
    g.end_player_turn()
    assert g.energy == 3
    g2 = start(t_pack(), ["zero"] * 10, rules=gcs.BattleRules(energy_per_turn=5,
                                                               starting_hand_size=0))
    assert g2.energy == 5


def test_turn_start_step3_energy_goes_through_energy_hooks() -> None:
    boost = StatusDef("boost", "Boost", hooks=(N.HookDef("energy", "add", 2),))
    g = empty_hand_game(pack={"statuses": [boost], "player_statuses": {"boost": 1}})
    assert g.energy == 5


def test_turn_start_step5_played_this_turn_cleared_before_step6() -> None:
    g = empty_hand_game()
    g.try_play_card(g.add_card_to_hand("zero"))
    assert len(g.played_this_turn()) == 1
    before = len(g.event_log)
    g.end_player_turn()
    assert ("mark", 61000) in trace(new_events(g, before))
    assert g.played_this_turn() == []


def test_turn_start_step6_turn_one_runs_statuses_and_hand_cards_too() -> None:
    g = start(t_pack(), ["sunrise"] * 3, hand=3)
    tr = trace(g.event_log)
    i = tr.index(("phase", "PLAYER_TURN_START"))
    assert tr[i:] == [("phase", "PLAYER_TURN_START"), ("mark", watch_tag(100, "on_turn_start")),
                      ("mark", 61000),
                      ("mark", 25000), ("mark", 25000), ("mark", 25000),
                      ("TurnStarted",), ("phase", "PLAYER_PHASE")]


def test_turn_start_step8_turn_started_then_player_phase() -> None:
    g = empty_hand_game()
    seen: list[Any] = []
    g.subscribe(ev.TurnStarted, lambda x: seen.append((x.turn, g.phase)))
    g.end_player_turn()
    assert seen == [(2, P.PLAYER_TURN_START)]
    assert g.phase is P.PLAYER_PHASE


# ---------------------------------------------------------------- 2.13 EndPlayerTurn
def test_end_turn_six_steps_in_order() -> None:
    g = empty_hand_game(pack={"player_statuses": {"eye": 1, "fade": 2}})
    assert g.try_play_card(g.add_card_to_hand("eot"))
    a = g.add_card_to_hand("dusk")
    b = g.add_card_to_hand("w_plain")
    c = g.add_card_to_hand("dusk")
    before = len(g.event_log)
    assert g.end_player_turn()
    tr = trace(new_events(g, before))
    end = tr.index(("phase", "ENEMY_PHASE"))
    assert tr[:end + 1] == [
        ("phase", "PLAYER_TURN_END"),
        ("DiscardPhase",), ("mark", watch_tag(100, "on_discard_phase")),  # 1.
        ("mark", 26000), ("mark", 26000),                                   # 2. card On Turn End
        ("CardDiscarded", a.uid), ("mark", watch_tag(100, "on_discard")),  # 2. hand rule
        ("CardDiscarded", b.uid), ("mark", watch_tag(100, "on_discard")), ("mark", 22000),
        ("CardDiscarded", c.uid), ("mark", watch_tag(100, "on_discard")),
        ("mark", watch_tag(100, "on_turn_end")),                            # 3.
        ("StatusApplied",),                                                  # 4. decay
        ("mark", 43000),                                                     # 4. delayed
        ("TurnEnded",),                                                      # 5.
        ("phase", "ENEMY_PHASE")]                                            # 6.
    assert g.player is not None and g.player.stacks("fade") == 1


def test_end_turn_step4_temporary_cost_rules_end() -> None:
    g = empty_hand_game()
    t = g.add_card_to_hand("two")
    g.move_card_to_pile(t, PileScope.DRAW)
    t.turn_delta = -2
    t.battle_delta = -1
    assert g.get_effective_energy_cost(t) == 0
    before = len(g.event_log)
    g.end_player_turn()
    assert g.get_effective_energy_cost(t) == 1
    tr = trace(new_events(g, before))
    # the cost refresh is published at step 4, after decay and before TurnEnded
    assert [x for x in new_events(g, before) if isinstance(x, ev.CardModified)] == [
        ev.CardModified(t.uid, "two", "cost", False)]
    assert tr.index(("CardModified",)) < tr.index(("TurnEnded",))


def test_end_turn_hand_rule_discard_regular_retain_ethereal() -> None:
    g = empty_hand_game()
    a = g.add_card_to_hand("w_plain")
    r = g.add_card_to_hand("w_retain")
    x = g.add_card_to_hand("w_ethereal")
    before = len(g.event_log)
    g.end_player_turn()
    evs = new_events(g, before)
    life = [e for e in evs if isinstance(e, (ev.CardDiscarded, ev.CardRetained,
                                             ev.CardExhausted))]
    assert life == [ev.CardDiscarded(a.uid, "w_plain", PileScope.HAND, PileScope.DISCARD),
                    ev.CardRetained(r.uid, "w_retain", PileScope.HAND, PileScope.HAND),
                    ev.CardExhausted(x.uid, "w_ethereal", PileScope.HAND, PileScope.EXHAUST)]
    tr = trace(evs)
    i = tr.index(("CardDiscarded", a.uid))
    assert tr[i + 1:i + 3] == [("mark", watch_tag(100, "on_discard")), ("mark", 22000)]
    i = tr.index(("CardExhausted", x.uid))
    assert tr[i + 1:i + 3] == [("mark", watch_tag(100, "on_exhaust")), ("mark", 23000)]
    assert g.hand() == [r] and g.discard_pile() == [a] and g.exhaust_pile() == [x]


def test_end_turn_played_exhaust_card_was_exhausted_when_played() -> None:
    g = empty_hand_game()
    b = g.add_card_to_hand("burn")
    assert g.try_play_card(b)
    assert g.exhaust_pile() == [b]
    before = len(g.event_log)
    g.end_player_turn()
    assert not [t for t in trace(new_events(g, before)) if len(t) > 1 and t[1] == b.uid]
    assert g.exhaust_pile() == [b]


def test_end_turn_hand_rule_persist_keeps_every_card_and_exhausts_ethereal() -> None:
    enc = EncounterDef("keep", "Keep", ("dummy",), hand_discard=HandDiscardRule.PERSIST)
    g = empty_hand_game(pack={"encounters": [enc]}, encounter="keep")
    a = g.add_card_to_hand("w_plain")
    r = g.add_card_to_hand("w_retain")
    x = g.add_card_to_hand("w_ethereal")
    before = len(g.event_log)
    g.end_player_turn()
    evs = new_events(g, before)
    life = [e for e in evs if isinstance(e, (ev.CardDiscarded, ev.CardRetained,
                                             ev.CardExhausted))]
    assert life == [ev.CardRetained(a.uid, "w_plain", PileScope.HAND, PileScope.HAND),
                    ev.CardRetained(r.uid, "w_retain", PileScope.HAND, PileScope.HAND),
                    ev.CardExhausted(x.uid, "w_ethereal", PileScope.HAND, PileScope.EXHAUST)]
    assert g.hand() == [a, r] and g.discard_pile() == []


def _kept_after_end_turn(rule: HandDiscardRule | None, game_rule: HandDiscardRule) -> bool:
    """Whether a plain card stays in hand over End Turn, for an encounter's and the game's rule."""
    enc = EncounterDef("enc", "Enc", ("dummy",), hand_discard=rule)
    rules = gcs.BattleRules(starting_hand_size=0, draw_per_turn=0, hand_discard=game_rule)
    g = start(t_pack(encounters=[enc]), ["zero"] * 10, encounter="enc", rules=rules)
    a = g.add_card_to_hand("w_plain")
    g.end_player_turn()
    return g.hand() == [a]


def test_end_turn_hand_rule_is_the_encounters_own_else_the_games() -> None:
    # issue 30: the Game's BattleRules.hand_discard applies when the encounter sets none
    assert _kept_after_end_turn(None, HandDiscardRule.PERSIST)
    assert not _kept_after_end_turn(None, HandDiscardRule.DISCARD_ON_TURN_END)
    # an encounter's own rule wins over the Game's, both ways
    assert not _kept_after_end_turn(HandDiscardRule.DISCARD_ON_TURN_END, HandDiscardRule.PERSIST)
    assert _kept_after_end_turn(HandDiscardRule.PERSIST, HandDiscardRule.DISCARD_ON_TURN_END)


def test_end_turn_ethereal_wins_over_retain() -> None:
    g = empty_hand_game()
    s = g.add_card_to_hand("spectral")
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    assert ("CardExhausted", s.uid) in tr and ("CardRetained", s.uid) not in tr
    assert g.exhaust_pile() == [s]


def test_end_turn_hand_processed_in_hand_order() -> None:
    g = empty_hand_game()
    cards = [g.add_card_to_hand(cid) for cid in ("w_ethereal", "w_plain", "w_retain",
                                                 "w_plain", "w_ethereal")]
    before = len(g.event_log)
    g.end_player_turn()
    tr = only(trace(new_events(g, before)), "CardDiscarded", "CardRetained", "CardExhausted")
    assert [t[1] for t in tr] == [c.uid for c in cards]


def test_end_turn_on_turn_end_behaviours_run_before_the_hand_rule_in_hand_order() -> None:
    first = card("first", 0, on_turn_end=mark(1))
    second = card("second", 0, on_turn_end=mark(2))
    g = empty_hand_game(pack={"cards": (first, second)})
    a = g.add_card_to_hand("second")
    b = g.add_card_to_hand("first")
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    assert tr.index(("mark", 2000)) < tr.index(("mark", 1000)) < tr.index(("CardDiscarded",
                                                                             a.uid))
    assert tr.index(("CardDiscarded", a.uid)) < tr.index(("CardDiscarded", b.uid))


def test_end_turn_on_turn_end_authored_destination_is_kept() -> None:
    g = empty_hand_game()
    h = g.add_card_to_hand("homing")
    s = g.add_card_to_hand("self_burn")
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    assert ("CardMoved", h.uid) in tr and ("CardDiscarded", h.uid) not in tr
    assert ("CardExhausted", s.uid) in tr and ("CardRetained", s.uid) not in tr
    assert g.draw_pile()[-1] is h and g.exhaust_pile() == [s]


def test_end_turn_instance_is_only_ever_in_one_pile() -> None:
    g = empty_hand_game()
    g.add_card_to_hand("homing")
    g.add_card_to_hand("self_burn")
    g.add_card_to_hand("w_plain")
    g.end_player_turn()
    ids = [c.uid for c in g.pile(PileScope.ALL)]
    assert len(ids) == len(set(ids)) == 13


def test_end_turn_outside_player_phase_returns_false_and_changes_nothing() -> None:
    g = start(t_pack(), ["nuke"] * 6, hand=5)
    g.try_play_card(g.hand()[0])
    assert g.phase is P.BATTLE_WON
    snap = snapshot(g)
    before = len(g.event_log)
    assert g.end_player_turn() is False
    assert snapshot(g) == snap and len(g.event_log) == before


def test_end_turn_while_waiting_returns_false_and_is_not_queued() -> None:
    g = start(t_pack(), ["zero"] * 6, hand=3)
    assert g.try_play_card(g.add_card_to_hand("pick"))
    assert g.is_waiting_for_choice
    snap = snapshot(g)
    assert g.end_player_turn() is False
    assert snapshot(g) == snap
    g.choose(0)
    assert g.phase is P.PLAYER_PHASE and g.turn_number == 1


def test_end_turn_without_a_battle_returns_false() -> None:
    g = gcs.Game(t_pack(), seed=1)
    assert g.end_player_turn() is False
    assert g.phase is P.NONE and g.event_log == []


# ---------------------------------------------------------------- extra turns
def test_extra_turn_goes_back_to_player_turn_start() -> None:
    g = start(t_pack(), ["zero"] * 20, hand=3)
    g.try_play_card(g.hand()[0])
    g._e.s.extra_turns = 1  # as the ExtraTurn node does (tests/test_flow_nodes.py)
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    i = tr.index(("TurnEnded",))
    assert tr[i + 1] == ("phase", "PLAYER_TURN_START")
    assert ("phase", "ENEMY_PHASE") not in tr
    assert ("DrawPhase",) in tr[i:]  # the draw step runs: not the battle's first turn
    assert g.turn_number == 1  # TurnNumber does not change
    assert g.played_this_turn() == []
    assert len(g.drawn_this_turn()) == 3 and g.drawn_this_turn() == g.hand()
    assert g.phase_history[-3:] == [(P.PLAYER_TURN_END, 1), (P.PLAYER_TURN_START, 1),
                                    (P.PLAYER_PHASE, 1)]
    g.end_player_turn()
    assert g.turn_number == 2 and (P.ENEMY_PHASE, 1) in g.phase_history


# ---------------------------------------------------------------- 2.9 phases
def test_phases_main_loop_order_with_turn_numbers() -> None:
    g = empty_hand_game()
    assert g.phase_history == [(P.INITIALIZE, 0), (P.PLAYER_TURN_START, 1), (P.PLAYER_PHASE, 1)]
    g.end_player_turn()
    assert g.phase_history[3:] == [(P.PLAYER_TURN_END, 1), (P.ENEMY_PHASE, 1),
                                   (P.PLAYER_TURN_START, 2), (P.PLAYER_PHASE, 2)]
    changes = [x for x in g.event_log if isinstance(x, ev.PhaseChanged)]
    assert [(x.new, x.turn) for x in changes] == g.phase_history
    assert [x.old for x in changes] == [P.NONE] + [x.new for x in changes[:-1]]


def test_phases_player_input_only_in_player_phase() -> None:
    g = gcs.Game(t_pack(), seed=1)
    g.set_master_deck(["retain"] * 5 + ["nuke"])
    seen: list[tuple[P, bool]] = []

    def probe_input(x: ev.Event) -> None:
        if g.hand():
            seen.append((g.phase, g.can_play_card(g.hand()[0])))

    g.subscribe(ev.PhaseChanged, probe_input)
    g.subscribe(ev.BattleStarted, probe_input)
    g.subscribe(ev.TurnEnded, probe_input)
    g.start_battle("dummy")
    after = [g.can_play_card(g.hand()[0])]  # outside every handler, in PlayerPhase
    g.end_player_turn()
    after.append(g.can_play_card(g.hand()[0]))
    n = next(c for c in g.pile(PileScope.ALL) if c.card_id == "nuke")
    g.move_card_to_pile(n, PileScope.HAND)
    g.try_play_card(n)
    phases = {ph for ph, _ in seen}
    assert {P.INITIALIZE, P.PLAYER_TURN_START, P.PLAYER_PHASE, P.PLAYER_TURN_END,
            P.ENEMY_PHASE, P.BATTLE_WON} <= phases
    # inside a handler the wave is still running: every answer is a refusal
    assert all(not ok for _, ok in seen)
    assert after == [True, True]


# ---------------------------------------------------------------- 2.14 EnemyPhase
E_WATCH = StatusDef("e_watch", "Watch", decay=Decay.MINUS_ONE, entries={
    "on_turn_start": mark(72), "on_turn_end": seq(mark(73), N.GainBlock(4, SELF_UNIT))})
STUN = StatusDef("stun", "Stun", skip_turn=True, decay=Decay.MINUS_ONE)
ACTOR = EnemyDef("actor", "Actor", 20, 20, moves=(MoveDef("act", "Act", IntentKind.BUFF,
                                                           behaviour=mark(71)),),
                 ai=AiDef(cycle=("act",)), statuses={"e_watch": 5})
ACTOR2 = EnemyDef("actor2", "Actor2", 20, 20, moves=(MoveDef("act", "Act", IntentKind.BUFF,
                                                              behaviour=mark(81)),),
                  ai=AiDef(cycle=("act",)))
STUNNED = EnemyDef("stunned", "Stunned", 20, 20, moves=(
    MoveDef("act", "Act", IntentKind.BUFF, behaviour=mark(91)),), ai=AiDef(cycle=("act",)),
    statuses={"stun": 1, "e_watch": 1})
BOMBER = EnemyDef("bomber", "Bomber", 50, 50, moves=(MoveDef("bomb", "Bomb", IntentKind.ATTACK,
    behaviour=N.Foreach(UnitSel("all_enemies"), "u", N.Branch(
        Compare("eq", UnitStat("max_hp", UnitSel("var", "u")), 10),
        N.Kill(UnitSel("var", "u"))))),), ai=AiDef(cycle=("bomb",)))
MARKED = EnemyDef("marked", "Marked", 10, 10, moves=(MoveDef("m", "M", IntentKind.BUFF,
                                                              behaviour=mark(99)),),
                  ai=AiDef(cycle=("m",)))
ENCS = [EncounterDef("actors", "Actors", ("actor", "actor2")),
        EncounterDef("stun", "Stun", ("stunned", "actor2")),
        EncounterDef("bomb", "Bomb", ("bomber", "marked", "marked")),
        EncounterDef("dead_first", "Dead first", ("marked", "actor2"))]


def e_game(encounter: str, **kw: Any) -> gcs.Game:
    return empty_hand_game(pack={"statuses": [E_WATCH, STUN],
                                 "enemies": [ACTOR, ACTOR2, STUNNED, BOMBER, MARKED,
                                             idle_enemy("idle")],
                                 "encounters": ENCS}, encounter=encounter, **kw)


def test_enemy_phase_each_living_enemy_steps_1_to_4_then_5_and_6() -> None:
    g = e_game("actors")
    g.end_player_turn()  # round 1 gives the actor block for round 2
    g.try_play_card(g.add_card_to_hand("eop"))
    before = len(g.event_log)
    g.end_player_turn()
    evs = new_events(g, before)
    tr = trace(evs)
    i = tr.index(("phase", "ENEMY_PHASE"))
    j = tr.index(("phase", "PLAYER_TURN_START"))
    assert tr[i:j + 1] == [
        ("phase", "ENEMY_PHASE"),
        ("BlockChanged",), ("mark", 72000),           # 1. armor, turn-start statuses
        ("mark", 71000),                              # 3. intent behaviour
        ("mark", 73000), ("BlockGained",),            # 4. turn-end statuses
        ("StatusApplied",),                           # 4. decay
        ("mark", 81000),                              # the second enemy, encounter order
        ("mark", 44000),                              # 5. delayed end of EnemyPhase
        ("EnemyUnitIntentChanged",), ("EnemyUnitIntentChanged",),  # 6. plan
        ("phase", "PLAYER_TURN_START")]
    change = evs[j]
    assert isinstance(change, ev.PhaseChanged) and change.turn == 3
    assert g.turn_number == 3 and g.enemies[0].stacks("e_watch") == 3


def test_enemy_phase_step2_control_status_skips_the_intent() -> None:
    g = e_game("stun")
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    assert ("mark", 91000) not in tr
    assert tr.index(("mark", 72000)) < tr.index(("mark", 73000)) < tr.index(("mark", 81000))
    before = len(g.event_log)
    g.end_player_turn()  # the stun decayed: the enemy acts
    assert ("mark", 91000) in trace(new_events(g, before))


def test_enemy_phase_dead_enemies_are_skipped() -> None:
    g = e_game("dead_first")
    g.try_play_card(g.add_card_to_hand("zap"), 0)
    g.try_play_card(g.add_card_to_hand("zap"), 0)
    g.try_play_card(g.add_card_to_hand("zap"), 0)
    g.try_play_card(g.add_card_to_hand("zap"), 0)
    assert not g.enemies[0].alive
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    assert ("mark", 99000) not in tr and ("mark", 81000) in tr


def test_enemy_phase_living_is_rechecked_for_each_enemy() -> None:
    g = e_game("bomb")
    before = len(g.event_log)
    g.end_player_turn()
    tr = trace(new_events(g, before))
    assert ("mark", 99000) not in tr  # killed by the bomber earlier in the phase
    assert g.phase is P.BATTLE_WON or not any(u.alive for u in g.enemies[1:])


def test_enemy_phase_step6_plans_intents_then_increments_the_turn() -> None:
    g = e_game("actors")
    seen: list[int] = []
    g.subscribe(ev.EnemyUnitIntentChanged, lambda x: seen.append(g.turn_number))
    g.end_player_turn()
    assert seen == [1, 1] and g.turn_number == 2

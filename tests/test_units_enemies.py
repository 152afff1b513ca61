"""Enemies: move selection, intents (planning, display, re-resolution), summons, EnemyPhase."""

from __future__ import annotations

from itertools import pairwise

from test_units_support import (
    ALL_ENEMIES,
    SELF,
    TARGET,
    card,
    encounter,
    enemy,
    game,
    hit,
    idle,
    in_order,
    mark,
    marks,
    pack,
    seq,
    status,
    trace,
)

from gcs.battle.intents import plan_intent
from gcs.content.db import Content
from gcs.content.defs import AiDef, DeckEntry, HpRule, WeightedMove
from gcs.enums import Decay, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel


def ai_pack(ai: AiDef, hp: int = 100) -> Content:
    moves = [idle(m) for m in ("a", "b", "c", "rage", "calm")]
    return pack(enemies=[enemy("bot", hp, moves, ai)], encounters=[encounter("bot")],
                cards=[card("smack", 0, target=TargetMode.SINGLE_ENEMY,
                            on_play=N.DealDamage(30, TARGET))],
                deck=[DeckEntry("smack", count=10)])


def plans(ai: AiDef, n: int, seed: int = 1) -> list[str]:
    """The first ``n`` planned moves of a 'bot' with this AI (planned directly)."""
    g = game(ai_pack(ai), "bot", seed=seed)
    u = g.enemies[0]
    for _ in range(n - 1):
        plan_intent(g._e, u)
    return list(u.history)


# ---------------------------------------------------------------- move selection
def test_enemy_ai_opener_then_cycle() -> None:
    assert plans(AiDef(opener=("c", "a"), cycle=("a", "b")), 7) == [
        "c", "a", "a", "b", "a", "b", "a"]


def test_enemy_ai_weighted_random_respects_max_in_row() -> None:
    ai = AiDef(opener=("c",), weighted=(WeightedMove("a", 45, 1), WeightedMove("b", 30, 2),
                                        WeightedMove("c", 25, 1)))
    for seed in range(5):
        h = plans(ai, 300, seed)
        assert h[0] == "c"
        for i in range(1, len(h)):
            assert not (h[i] == h[i - 1] and h[i] in ("a", "c")), (seed, i, h[i - 3:i + 1])
            assert not (i >= 2 and h[i] == h[i - 1] == h[i - 2] == "b"), (seed, i)
        assert {"a", "b", "c"} <= set(h)


def test_enemy_ai_weighted_random_is_seeded() -> None:
    ai = AiDef(weighted=(WeightedMove("a", 1), WeightedMove("b", 1), WeightedMove("c", 1)))
    assert plans(ai, 40, seed=7) == plans(ai, 40, seed=7)
    assert plans(ai, 40, seed=7) != plans(ai, 40, seed=8)


def test_enemy_jaw_worm_opens_with_chomp_and_never_bellows_twice_in_a_row() -> None:
    g = game(pack(), "jaw_worm", seed=3)
    u = g.enemies[0]
    assert u.pending_intents[0].move == "chomp" and u.pending_intents[0].damage == 11
    for _ in range(200):
        plan_intent(g._e, u)
    h = u.history
    assert all(not (x == y == "bellow") for x, y in pairwise(h))
    assert all(not (x == y == "chomp") for x, y in pairwise(h))
    assert all(not (x == y == z == "thrash") for x, y, z in zip(h, h[1:], h[2:], strict=False))


def test_enemy_hp_threshold_move_once_then_the_cycle_resumes_where_it_was() -> None:
    ai = AiDef(cycle=("a", "b", "c"), hp_rules=(HpRule(50, "rage"),))
    g = game(ai_pack(ai), "bot")
    u = g.enemies[0]
    assert u.pending_intents[0].move == "a"
    g.end_player_turn()
    assert u.pending_intents[0].move == "b"
    assert g.try_play_card(g.hand()[0], u) and g.try_play_card(g.hand()[0], u)  # 40/100 HP
    g.end_player_turn()
    assert u.pending_intents[0].move == "rage"  # planned at EnemyPhase step 6
    g.end_player_turn()
    assert u.pending_intents[0].move == "c"  # the rule fired once; the cycle goes on
    g.end_player_turn()
    assert u.history == ["a", "b", "rage", "c", "a"]


def test_enemy_hp_threshold_rule_without_once_repeats_while_below() -> None:
    ai = AiDef(cycle=("a",), hp_rules=(HpRule(100, "calm", once=False),))
    assert plans(ai, 4) == ["calm"] * 4


def test_enemy_hp_rules_come_before_the_opener() -> None:
    ai = AiDef(opener=("a", "b"), cycle=("c",), hp_rules=(HpRule(100, "rage"),))
    assert plans(ai, 4) == ["rage", "a", "b", "c"]


# ---------------------------------------------------------------- intents
def intent_pack() -> Content:
    return pack(
        statuses=[status("mark_status")],
        enemies=[enemy("brute", 60, [hit("smash", 10)]),
                 enemy("caster", 60, [idle("chant", N.ApplyStatus("strength", 2, SELF))]),
                 enemy("minion", 5, [hit("nip", 2), hit("bite", 4)], AiDef(cycle=("nip", "bite"))),
                 enemy("caller", 60, [idle("call", N.SpawnEnemy("minion")), hit("claw", 3)],
                       AiDef(cycle=("call", "claw")))],
        encounters=[encounter("duo", "brute", "brute"), encounter("caller"),
                    encounter("brute_caster", "brute", "caster")],
        cards=[card("sap", 0, target=TargetMode.SINGLE_ENEMY,
                    on_play=N.ApplyStatus("weak", 1, TARGET)),
               card("expose", 0, on_play=N.ApplyStatus("vulnerable", 1, UnitSel("player"))),
               card("tag", 0, target=TargetMode.SINGLE_ENEMY,
                    on_play=N.ApplyStatus("mark_status", 1, TARGET)),
               card("pump", 0, target=TargetMode.SINGLE_ENEMY,
                    on_play=N.ApplyStatus("strength", 1, TARGET)),
               card("slay", 0, target=TargetMode.SINGLE_ENEMY, on_play=N.Kill(TARGET))],
        deck=[DeckEntry("strike", count=10)],
    )


def test_enemy_intents_planned_at_start_battle_step_6_before_battle_start_statuses() -> None:
    g = game(intent_pack(), "duo")
    tr = trace(g)
    assert in_order(tr, ("BattleStarted",), ("intent", 1, "smash", 10), ("intent", 2, "smash", 10),
                    ("phase", "PLAYER_TURN_START"))
    assert tr.index(("BattleStarted",)) < tr.index(("intent", 1, "smash", 10))


def test_enemy_pending_intents_show_damage_after_strength_weak_vulnerable() -> None:
    g = game(intent_pack(), "duo")
    b1, b2 = g.enemies
    assert g.try_play_card(g.add_card_to_hand("pump"), b1)
    assert b1.pending_intents[0].damage == 11
    assert g.try_play_card(g.add_card_to_hand("sap"), b1)
    assert b1.pending_intents[0].damage == 8  # 11 * 0.75 = 8.25
    assert g.try_play_card(g.add_card_to_hand("expose"))
    assert b1.pending_intents[0].damage == 12  # 11 * 0.75 * 1.5 = 12.375
    assert b2.pending_intents[0].damage == 15


def test_enemy_intents_re_resolve_at_once_for_every_living_enemy_only_on_shown_change() -> None:
    g = game(intent_pack(), "duo")
    b1, b2 = g.enemies
    n = len(g.event_log)
    assert g.try_play_card(g.add_card_to_hand("sap"), b1)
    tr = trace(g, n)
    i = tr.index(("status", 1, "weak", 1, 1))
    assert tr[i + 1] == ("intent", 1, "smash", 7)  # at once, right after the stack change
    assert not [t for t in tr if t[:2] == ("intent", 2)]  # nothing shown changed for b2
    n = len(g.event_log)
    assert g.try_play_card(g.add_card_to_hand("tag"), b2)  # a status that changes no number
    assert not [t for t in trace(g, n) if t[0] == "intent"]
    n = len(g.event_log)
    assert g.try_play_card(g.add_card_to_hand("slay"), b2)
    assert g.try_play_card(g.add_card_to_hand("expose"))
    tr = [t for t in trace(g, n) if t[0] == "intent"]
    assert tr == [("intent", 1, "smash", 11)]  # 10*0.75*1.5; the dead enemy is not re-resolved
    assert b2.pending_intents == ()


def test_enemy_re_resolution_never_re_picks_the_move() -> None:
    g = game(intent_pack(), "duo")
    b1 = g.enemies[0]
    before = (list(b1.history), b1.pending_intents[0].move)
    for cid in ("sap", "pump", "expose"):
        assert g.try_play_card(g.add_card_to_hand(cid), b1) if cid != "expose" else \
            g.try_play_card(g.add_card_to_hand(cid))
    assert (list(b1.history), b1.pending_intents[0].move) == before


def test_enemy_intents_re_resolve_when_an_enemy_buffs_itself_mid_phase() -> None:
    g = game(intent_pack(), "brute_caster")
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    # the caster's Strength shows on its own (damage-less) intent: no event; brute unchanged
    assert in_order(tr, ("status", 2, "strength", 2, 2), ("intent", 1, "smash", 10))
    assert tr.count(("intent", 1, "smash", 10)) == 1  # only the step-6 planning


def test_enemy_summoned_gets_its_intent_on_arrival_and_acts_from_the_next_enemy_phase() -> None:
    g = game(intent_pack(), "caller")
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("phase", "ENEMY_PHASE"), ("UnitSpawned", 2), ("intent", 2, "nip", 2),
                    ("intent", 1, "claw", 3), ("phase", "PLAYER_TURN_START"))
    assert not [t for t in tr if t[:2] == ("dmg", 2)]  # it did not act in this phase
    minion = g.enemies[1]
    assert minion.def_id == "minion" and minion.uid == 2  # last in encounter order
    assert minion.pending_intents[0].move == "nip" and minion.history == ["nip"]
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("dmg", 1, 0, 3, 0, 3), ("dmg", 2, 0, 2, 0, 2),
                    ("intent", 1, "call", None), ("intent", 2, "bite", 4))


def test_enemy_revived_enemy_plans_a_new_intent() -> None:
    c = pack(enemies=[enemy("ghost", 10, [hit("boo", 3)])],
             encounters=[encounter("ghosts", "ghost", "ghost")],
             cards=[card("slay", 0, target=TargetMode.SINGLE_ENEMY, on_play=N.Kill(TARGET)),
                    card("raise", 0, on_play=N.Revive(ALL_ENEMIES, 4))],
             deck=[DeckEntry("strike", count=10)])
    g = game(c, "ghosts")
    ghost = g.enemies[0]
    assert g.try_play_card(g.add_card_to_hand("slay"), ghost)
    assert not ghost.alive and ghost.pending_intents == ()
    n = len(g.event_log)
    assert g.try_play_card(g.add_card_to_hand("raise"))
    assert in_order(trace(g, n), ("UnitRevived",), ("intent", 1, "boo", 3))
    assert ghost.alive and ghost.hp == 4 and ghost.pending_intents[0].move == "boo"


# ---------------------------------------------------------------- the EnemyPhase
def phase_pack() -> Content:
    ticker = status("ticker", entries={"on_turn_start": mark(1), "on_turn_end": mark(3)})
    fading = status("fading", decay=Decay.MINUS_ONE)
    return pack(
        statuses=[ticker, fading],
        enemies=[
            enemy("first", 60, [idle("act", seq(mark(2), N.GainBlock(3, SELF)))],
                  statuses={"ticker": 1, "fading": 3}),
            enemy("second", 60, [idle("act2", mark(5))], statuses={"ticker": 1}),
            enemy("bomber", 60, [idle("boom", seq(mark(6), N.DealDamage(5, ALL_ENEMIES)))]),
            enemy("pinata", 1, [idle("wiggle", mark(7))]),
        ],
        encounters=[encounter("pair", "first", "second"),
                    encounter("bomb", "bomber", "pinata")],
        cards=[card("dusk", 0, on_play=seq(N.WaitUntil("enemy_phase_end"), mark(9)))],
        deck=[DeckEntry("strike", count=10)],
    )


def test_enemy_phase_steps_in_order_for_living_enemies_in_encounter_order() -> None:
    g = game(phase_pack(), "pair")
    assert g.try_play_card(g.add_card_to_hand("dusk"))
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    part = tr[tr.index(("phase", "ENEMY_PHASE")):]
    want = [
        ("phase", "ENEMY_PHASE"),
        ("mark", 1), ("mark", 2), ("block", 1, 3), ("mark", 3), ("status", 1, "fading", -1, 2),
        ("mark", 1), ("mark", 5), ("mark", 3),  # then the second enemy, steps 1-4
        ("mark", 9),                             # 5. delayed triggers for the end of EnemyPhase
        ("intent", 1, "act", None), ("intent", 2, "act2", None),  # 6. plan, turn + 1
        ("phase", "PLAYER_TURN_START"),
    ]
    assert part[:len(want)] == want
    assert g.turn_number == 2


def test_enemy_phase_skips_an_enemy_killed_earlier_in_the_phase() -> None:
    g = game(phase_pack(), "bomb")
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("mark", 6), ("UnitDied", 2), ("phase", "PLAYER_TURN_START"))
    assert ("mark", 7) not in tr
    assert marks(g, n) == [(6,)]
    assert g.enemies[1].pending_intents == () and g.is_battle_active


def test_enemy_phase_ends_the_battle_when_the_player_dies_mid_phase() -> None:
    c = pack(enemies=[enemy("giant", 60, [hit("crush", 500)]),
                      enemy("tail", 60, [idle("swish", mark(1))])],
             encounters=[encounter("giants", "giant", "tail")])
    g = game(c, "giants")
    g.end_player_turn()
    assert g.last_result is False and not g.is_battle_active
    assert ("mark", 1) not in trace(g)


def test_enemy_phase_paused_mid_phase_survives_clone_and_json() -> None:
    c = pack(statuses=[status("stunned", skip_turn=True, decay=Decay.MINUS_ONE)],
             enemies=[enemy("sleeper", 30, [hit("yawn", 2), hit("snore", 3)],
                            AiDef(cycle=("yawn", "snore")), statuses={"stunned": 1}),
                      enemy("slow", 30, [idle("ponder", seq(N.Wait(1.0), mark(4)))])],
             encounters=[encounter("pause", "sleeper", "slow")],
             deck=[DeckEntry("strike", count=10)])
    g = game(c, "pause")
    g.end_player_turn()
    assert g.is_waiting and g.phase.name == "ENEMY_PHASE"
    twin = g.clone()
    loaded = type(g).from_json(c, g.to_json())
    for x in (g, twin, loaded):
        x.settle()
        assert x.phase.name == "PLAYER_PHASE" and x.turn_number == 2
        sleeper = x.enemies[0]
        assert sleeper.history == ["yawn"] and sleeper.pending_intents[0].move == "yawn"
    assert g.to_json() == twin.to_json() == loaded.to_json()

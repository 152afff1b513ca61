"""Slime Boss plays as the game's SlimeBoss at A0: 140 HP, Goop Spray (3 Slimed into the discard
pile), Preparing, Slam for 35, in that order from the first turn; the moment its HP reaches half
(70) its intent becomes Split, and on its turn it dies and leaves a Spike Slime (L), then an Acid
Slime (L), each with its current HP as max HP, which split again at their own half.
"""

from __future__ import annotations

from act1_support import battle as start
from act1_support import hero

import gcs
from gcs import events as ev
from gcs.battle import combat
from gcs.battle.intents import plan_intent
from gcs.enums import BattlePhase, PileScope

C = gcs.builtin_content()


def battle(seed: int = 1) -> gcs.Game:
    return start(C, "slime_boss", seed)


def test_slime_boss_has_140_hp_and_is_the_act_boss() -> None:
    x = C.encounter("slime_boss")
    assert (x.kind, x.pool, x.rewards) == ("boss", "boss", "boss")
    for seed in (1, 2, 3):
        boss = battle(seed).enemies[0]
        assert boss.hp == boss.max_hp == 140


def test_slime_boss_opens_with_goop_spray_then_preparing_slam_in_a_cycle() -> None:
    g = battle()
    u = g.enemies[0]
    for _ in range(8):
        plan_intent(g._e, u)
    assert u.history == ["goop_spray", "preparing", "slam"] * 3
    it = battle().enemies[0].intent
    assert it is not None and it.move == "goop_spray" and it.kind.value == "strong_debuff"


def test_goop_spray_adds_three_slimed_to_discard_and_slam_hits_for_35() -> None:
    g = battle()
    g.end_player_turn()  # Goop Spray
    slimed = [c for c in g.discard_pile() if c.card_id == "slimed"]
    assert len(slimed) == 3
    assert hero(g).hp == 80
    it = g.enemies[0].intent
    assert it is not None and it.move == "preparing" and it.damage is None
    g.end_player_turn()  # Preparing: nothing happens
    assert hero(g).hp == 80
    it = g.enemies[0].intent
    assert it is not None and it.move == "slam" and it.damage == 35
    g.end_player_turn()  # Slam
    assert hero(g).hp == 80 - 35


def test_slime_boss_switches_to_split_the_moment_its_hp_reaches_half() -> None:
    g = battle()
    e = g._e
    u = g.enemies[0]
    combat.lose_hp(e, u, 69)  # 71 left: above half
    assert u.move == "goop_spray"
    n = len(g.event_log)
    combat.deal_damage(e, hero(g), u, 1, None, attack=True)  # 70: exactly half
    assert u.hp == 70 and u.move == "split"
    changed = [x for x in g.event_log[n:] if isinstance(x, ev.EnemyUnitIntentChanged)]
    assert [x.move for x in changed] == ["split"]
    assert u.history == ["split"]  # the replaced Goop Spray was never made


def test_slime_boss_splits_into_spike_then_acid_slime_l_with_its_current_hp() -> None:
    g = battle()
    u = g.enemies[0]
    combat.lose_hp(g._e, u, 140 - 57)  # 57 left, below half
    assert u.move == "split"
    g.end_player_turn()
    assert not u.alive
    kids = g.enemies[1:]
    assert [k.def_id for k in kids] == ["spike_slime_l", "acid_slime_l"]
    assert all(k.alive and k.hp == k.max_hp == 57 for k in kids)
    assert all(k.intent is not None for k in kids)  # planned at once when spawned
    assert g.phase is BattlePhase.PLAYER_PHASE
    assert not [c for c in g.discard_pile() if c.card_id == "slimed"]  # no Goop Spray made
    # each large slime splits again at its own half: 57 // 2 = 28
    spike = kids[0]
    combat.lose_hp(g._e, spike, 57 - 29)
    assert spike.move != "split"
    combat.lose_hp(g._e, spike, 1)
    assert spike.hp == 28 and spike.move == "split"
    g.end_player_turn()
    mediums = [k.def_id for k in g.enemies if k.alive]
    assert mediums == ["acid_slime_l", "spike_slime_m", "spike_slime_m"]


def test_slime_boss_killed_outright_does_not_split() -> None:
    g = battle()
    u = g.enemies[0]
    combat.lose_hp(g._e, u, 140)
    assert not u.alive and u.move != "split"
    assert len(g.enemies) == 1


def test_the_split_happens_on_the_boss_turn_even_when_it_was_planned_during_it() -> None:
    # Flame Barrier's damage back during Slam can bring the boss to half: it splits on its
    # next turn (the move it made stays made)
    g = battle()
    u = g.enemies[0]
    for _ in range(2):
        g.end_player_turn()  # Goop Spray, Preparing
    combat.lose_hp(g._e, u, 140 - 74)  # 74 left
    g.add_card_to_hand("flame_barrier", upgraded=True)
    fb = next(c for c in g.hand() if c.card_id == "flame_barrier")
    assert g.try_play_card(fb)  # 16 block, 6 back per hit
    g.end_player_turn()  # Slam: 35 into 16 block; 6 back -> 68, at half
    assert u.alive and u.hp == 68 and u.move == "split"
    assert u.history[-2:] == ["slam", "split"]
    g.end_player_turn()
    assert [k.def_id for k in g.enemies if k.alive] == ["spike_slime_l", "acid_slime_l"]
    assert g.pile(PileScope.ALL)  # the battle goes on

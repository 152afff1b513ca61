"""The Guardian (boss) at A0, as the game plays it: Charging Up, Fierce Bash, Vent Steam,
Whirlwind, again; Mode Shift 30 counts the HP it loses in Offensive Mode, then 20 Block and
Defensive Mode (Sharp Hide 3), Roll Attack, Twin Slam (back to Offensive Mode, Mode Shift
40, then 50, ...), Whirlwind."""

from __future__ import annotations

from act1_support import battle as start
from act1_support import hero

import gcs
from gcs.battle import combat

C = gcs.builtin_content()


def battle(seed: int = 1) -> gcs.Game:
    return start(C, "the_guardian", seed)


def lose(g: gcs.Game, u: gcs.Unit, amount: int) -> None:
    """``amount`` HP lost by ``u`` to an attack (no block), its reactions run."""
    u.block = 0
    combat.deal_damage(g._e, hero(g), u, amount, None, attack=True)
    g._e.run()


def test_the_guardian_cycles_its_offensive_moves_with_the_game_numbers() -> None:
    g = battle()
    u = g.enemies[0]
    assert (u.hp, u.max_hp) == (240, 240)
    assert u.statuses == {"mode_shift": 30, "shift_threshold": 30}
    assert u.move == "charging_up"
    g.end_player_turn()
    assert u.block == 9 and u.move == "fierce_bash"
    assert u.intent is not None and u.intent.damage == 32
    hp = hero(g).hp
    g.end_player_turn()
    assert hero(g).hp == hp - 32 and u.move == "vent_steam"
    g.end_player_turn()
    assert hero(g).statuses.get("weak") == 2 and hero(g).statuses.get("vulnerable") == 2
    assert u.move == "whirlwind" and u.intent is not None
    assert (u.intent.damage, u.intent.hits) == (7, 4)  # 5 per hit, the player Vulnerable
    g.end_player_turn()
    assert u.history == ["charging_up", "fierce_bash", "vent_steam", "whirlwind", "charging_up"]


def test_mode_shift_counts_hp_lost_then_defensive_mode_at_once_with_20_block() -> None:
    g = battle()
    u = g.enemies[0]
    lose(g, u, 12)
    assert u.statuses["mode_shift"] == 18 and u.move == "charging_up"
    lose(g, u, 18)  # 30 in all: the mode shifts at once
    assert "mode_shift" not in u.statuses and u.block == 20
    assert u.move == "defensive_mode" and u.intent is not None
    assert u.history == ["defensive_mode"]  # the planned Charging Up never made
    g.end_player_turn()
    assert u.statuses == {"shift_threshold": 40, "sharp_hide": 3}
    assert u.move == "roll_attack"


def test_sharp_hide_hurts_the_player_per_attack_played_and_twin_slam_ends_it() -> None:
    g = battle()
    u = g.enemies[0]
    lose(g, u, 30)
    g.end_player_turn()  # Defensive Mode: Sharp Hide 3
    g._e.s.energy = 9
    hp = hero(g).hp
    assert g.try_play_card(g.add_card_to_hand("strike"), u)
    assert hero(g).hp == hp - 3
    hp = hero(g).hp
    assert g.try_play_card(g.add_card_to_hand("defend"))
    assert hero(g).hp == hp  # a Skill: no damage
    g.end_player_turn()  # Roll Attack 9
    assert u.move == "twin_slam" and u.intent is not None and u.intent.hits == 2
    g.end_player_turn()  # Twin Slam: Offensive Mode again, Mode Shift 40, Sharp Hide gone
    assert u.statuses == {"shift_threshold": 40, "mode_shift": 40} and u.move == "whirlwind"
    g.end_player_turn()
    assert u.move == "charging_up"
    assert u.history == ["defensive_mode", "roll_attack", "twin_slam", "whirlwind",
                         "charging_up"]
    lose(g, u, 40)  # the second threshold: 40; the third will be 50
    assert u.move == "defensive_mode" and u.block == 20
    g.end_player_turn()
    g.end_player_turn()
    g.end_player_turn()
    assert u.statuses.get("mode_shift") == 50


def test_the_threshold_is_hidden_from_the_player_view() -> None:
    from gcs.agent import observation
    g = battle()
    assert observation(g._e)["enemies"][0]["statuses"] == {"mode_shift": 30}
    assert g.enemies[0].statuses == {"mode_shift": 30, "shift_threshold": 30}

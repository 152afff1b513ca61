"""Damage and block folds as in Slay the Spire: adds per stack, then x0.75 / x1.5, floor last."""

from __future__ import annotations

import pytest
from test_units_support import (
    SELF,
    TARGET,
    card,
    encounter,
    enemy,
    game,
    hit,
    idle,
    pack,
    status,
    trace,
)

from gcs.content.db import Content
from gcs.content.defs import DeckEntry, Modifier
from gcs.enums import CardType, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import Var

DEX = status("dexterity", allow_negative=True, modifiers=(Modifier("block", "add"),))
FRAIL = status("frail", modifiers=(Modifier("block", "mul", num=3, den=4),))
THORNS = status("thorns", entries={"on_attacked": N.DealDamage(Var("stacks"), TARGET)})


def fold_pack(player: dict[str, int] | None = None, foe: dict[str, int] | None = None,
              base: int = 10) -> Content:
    return pack(
        statuses=[DEX, FRAIL, THORNS],
        enemies=[enemy("sack", 200, [hit("swing", base)], statuses=foe)],
        encounters=[encounter("sack")],
        cards=[card("blow", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
                    numbers={"damage": base}, on_play=N.DealDamage(Var("damage"), TARGET)),
               card("guard", 0, numbers={"block": 5}, on_play=N.GainBlock(Var("block"), SELF))],
        player_statuses=player, deck=[DeckEntry("blow", count=5), DeckEntry("guard", count=5)],
    )


def blow(player: dict[str, int] | None = None, foe: dict[str, int] | None = None,
         base: int = 10) -> int:
    """The damage a player attack of ``base`` deals to the enemy."""
    g = game(fold_pack(player, foe, base), "sack")
    n = len(g.event_log)
    inst = next(c for c in g.hand() if c.card_id == "blow")
    assert g.try_play_card(inst, g.enemies[0])
    dmg = [t for t in trace(g, n) if t[0] == "dmg"]
    return int(dmg[0][3])


def block(player: dict[str, int] | None = None) -> int:
    g = game(fold_pack(player), "sack")
    inst = next(c for c in g.hand() if c.card_id == "guard")
    assert g.try_play_card(inst)
    assert g.player is not None
    return g.player.block


@pytest.mark.parametrize(("player", "foe", "base", "want"), [
    ({}, {}, 10, 10),
    ({"strength": 2}, {}, 6, 8),                          # Strength adds per stack
    ({"strength": -2}, {}, 6, 4),                         # negative Strength
    ({"strength": -10}, {}, 6, 0),                        # floored at 0
    ({"weak": 1}, {}, 6, 4),                              # 6 * 0.75 = 4.5 -> 4
    ({}, {"vulnerable": 1}, 6, 9),                        # 6 * 1.5
    ({"strength": 1}, {"vulnerable": 1}, 6, 10),          # (6+1) * 1.5 = 10.5 -> 10
    ({"weak": 1}, {"vulnerable": 1}, 10, 11),             # 10*0.75*1.5 = 11.25; floor last
    ({"strength": 3, "weak": 2}, {"vulnerable": 3}, 5, 9),  # (5+3)*0.75*1.5 = 9, stacks irrelevant
])
def test_fold_attack_damage_strength_weak_vulnerable_floor_last(
        player: dict[str, int], foe: dict[str, int], base: int, want: int) -> None:
    assert blow(player, foe, base) == want


@pytest.mark.parametrize(("player", "want"), [
    ({}, 5),
    ({"dexterity": 2}, 7),                 # Dexterity adds per stack
    ({"dexterity": -2}, 3),
    ({"dexterity": -10}, 0),               # floored at 0
    ({"frail": 1}, 3),                     # 5 * 0.75 = 3.75 -> 3
    ({"dexterity": 1, "frail": 1}, 4),     # (5+1) * 0.75 = 4.5 -> 4
])
def test_fold_block_dexterity_frail(player: dict[str, int], want: int) -> None:
    assert block(player) == want


def test_fold_enemy_attack_through_its_strength_and_player_vulnerable() -> None:
    g = game(fold_pack({"vulnerable": 5}, {"strength": 1}, 10), "sack")
    assert g.enemies[0].pending_intents[0].damage == 16  # (10+1) * 1.5 = 16.5 -> 16
    n = len(g.event_log)
    g.end_player_turn()
    assert ("dmg", 1, 0, 16, 0, 16) in trace(g, n)


def test_fold_block_absorbs_before_hp() -> None:
    g = game(fold_pack(base=11), "sack")
    guard = next(c for c in g.hand() if c.card_id == "guard")
    assert g.try_play_card(guard)
    n = len(g.event_log)
    g.end_player_turn()
    assert ("dmg", 1, 0, 11, 5, 6) in trace(g, n)
    assert g.player is not None and g.player.hp == 80 - 6


def test_fold_status_damage_is_not_an_attack_no_strength_no_vulnerable() -> None:
    # thorns 3 on a Strength 5 enemy, hitting a Vulnerable player: exactly 3
    g = game(fold_pack({"vulnerable": 5}, {"thorns": 3, "strength": 5}, 10), "sack")
    n = len(g.event_log)
    inst = next(c for c in g.hand() if c.card_id == "blow")
    assert g.try_play_card(inst, g.enemies[0])
    dmg = [t for t in trace(g, n) if t[0] == "dmg"]
    assert dmg == [("dmg", 0, 1, 10, 0, 10), ("dmg", 1, 0, 3, 0, 3)]


def test_fold_status_damage_does_not_trigger_on_attacked_no_thorns_ping_pong() -> None:
    g = game(fold_pack({"thorns": 2}, {"thorns": 3}, 10), "sack")
    n = len(g.event_log)
    inst = next(c for c in g.hand() if c.card_id == "blow")
    assert g.try_play_card(inst, g.enemies[0])
    dmg = [t for t in trace(g, n) if t[0] == "dmg"]
    assert dmg == [("dmg", 0, 1, 10, 0, 10), ("dmg", 1, 0, 3, 0, 3)]


def test_fold_status_block_ignores_dexterity() -> None:
    plated = status("plated", entries={"on_turn_end": N.GainBlock(4, SELF)})
    c = pack(statuses=[DEX, plated], player_statuses={"plated": 1, "dexterity": 3},
             deck=[DeckEntry("strike", count=10)])
    g = game(c, "dummy")
    n = len(g.event_log)
    g.end_player_turn()
    assert ("block", 0, 4) in trace(g, n)


def test_fold_multi_hit_attack_folds_each_hit() -> None:
    c = pack(enemies=[enemy("flurry", 50, [hit("flurry", 3, hits=3)], statuses={"strength": 1})],
             encounters=[encounter("flurry")], deck=[DeckEntry("strike", count=10)])
    g = game(c, "flurry")
    it = g.enemies[0].pending_intents[0]
    assert (it.damage, it.hits) == (4, 3)
    n = len(g.event_log)
    g.end_player_turn()
    assert [t for t in trace(g, n) if t[0] == "dmg"] == [("dmg", 1, 0, 4, 0, 4)] * 3


def test_fold_idle_moves_have_no_damage_intent() -> None:
    c = pack(enemies=[enemy("nap", 5, [idle("nap")])], encounters=[encounter("nap")])
    g = game(c, "nap")
    assert g.enemies[0].pending_intents[0].damage is None

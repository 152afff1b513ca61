"""Hexaghost (boss) at A0, as the game plays it: Activate, then Divider (6 hits of the player's
HP / 12 + 1, read when it is planned), then Sear (6, a Burn), Tackle (5 x2), Sear, Inflame (12
Block, 2 Strength), Tackle, Sear, Inferno (2 x6, the Burns upgraded, 3 Burn+), again."""

from __future__ import annotations

from act1_support import battle as start
from act1_support import hero

import gcs
from gcs.battle import combat
from gcs.battle.intents import plan_intent

C = gcs.builtin_content()
CYCLE = ["sear", "tackle", "sear", "inflame", "tackle", "sear", "inferno"]


def battle(seed: int = 1) -> gcs.Game:
    return start(C, "hexaghost", seed)


def test_hexaghost_activates_then_divides_then_cycles_its_seven_moves() -> None:
    g = battle()
    u = g.enemies[0]
    assert (u.hp, u.max_hp) == (250, 250) and u.move == "activate"
    for _ in range(2 + 2 * len(CYCLE) - 1):
        plan_intent(g._e, u)
    assert u.history == ["activate", "divider", *CYCLE, *CYCLE]


def test_divider_reads_the_player_hp_when_it_is_planned() -> None:
    for hp, per_hit in ((80, 7), (71, 6), (11, 1), (12, 2)):
        g = battle()
        u = g.enemies[0]
        hero(g).hp = hp
        g.end_player_turn()  # Activate; Divider planned at this phase's end
        assert u.move == "divider" and u.intent is not None
        assert (u.intent.damage, u.intent.hits) == (per_hit, 6)
        combat.heal(g._e, hero(g), 80)  # healing after the planning changes nothing
        assert u.intent.damage == per_hit
        before = hero(g).hp
        g.end_player_turn()
        assert before - hero(g).hp == min(before, 6 * per_hit)


def test_sear_burns_and_inferno_upgrades_the_burns_then_sear_gives_burn_plus() -> None:
    g = battle()
    u = g.enemies[0]
    hero(g).hp = hero(g).max_hp = 999
    for _ in range(3):
        g.end_player_turn()  # Activate, Divider, Sear
    burns = [c for c in g.pile(gcs.PileScope.ALL) if c.card_id == "burn"]
    assert len(burns) == 1 and not burns[0].upgraded
    while u.move != "inferno":
        g.end_player_turn()
    hp = hero(g).hp
    g.end_player_turn()  # Inferno: 2 x6, every Burn in draw and discard upgraded, 3 Burn+
    assert hp - hero(g).hp >= 12
    discard_draw = g.discard_pile() + g.draw_pile()
    burns = [c for c in discard_draw if c.card_id == "burn"]
    assert len(burns) >= 3 and all(c.upgraded for c in burns)
    n = len([c for c in g.pile(gcs.PileScope.ALL) if c.card_id == "burn"])
    assert u.move == "sear"
    g.end_player_turn()
    new = [c for c in g.pile(gcs.PileScope.ALL) if c.card_id == "burn"]
    assert len(new) == n + 1 and all(c.upgraded for c in g.discard_pile() if c.card_id == "burn")


def test_inflame_blocks_12_and_gains_2_strength() -> None:
    g = battle()
    u = g.enemies[0]
    hero(g).hp = hero(g).max_hp = 999
    while u.move != "inflame":
        g.end_player_turn()
    g.end_player_turn()
    assert u.block == 12 and u.statuses.get("strength") == 2
    assert u.move == "tackle" and u.intent is not None and u.intent.damage == 7

"""The Gremlin Gang's gremlins that the pack can say today, as the game's A0 classes: Fat
Gremlin (GremlinFat: 13-17 HP, Smash 4 and 1 Weak every turn), Sneaky Gremlin (GremlinThief:
10-14 HP, Puncture 9 every turn) and Gremlin Wizard (21-25 HP, Charging twice, Ultimate Blast
25, then Charging three times before each Blast). The gang itself needs Mad and Shield Gremlin
(docs/content.md, "Planned"); these tests field the three in an encounter of their own.
"""

from __future__ import annotations

from collections import Counter

from act1_support import battle as start
from act1_support import hero

import gcs
from gcs.battle.intents import plan_intent
from gcs.content.db import Content
from gcs.content.defs import EncounterDef

BUILTIN = gcs.builtin_content()
TRIO = ("fat_gremlin", "sneaky_gremlin", "gremlin_wizard")


def _with_trio() -> Content:
    c = BUILTIN
    trio = EncounterDef("gremlin_trio", "Gremlin Trio", TRIO)
    return Content(pack_id=c.pack_id, cards=c.cards.values(), statuses=c.statuses.values(),
                   enemies=c.enemies.values(), encounters=[*c.encounters.values(), trio],
                   characters=c.characters.values(), reward_tables=c.reward_tables.values(),
                   graphs=c.graphs)


C = _with_trio()


def battle(seed: int = 1) -> gcs.Game:
    return start(C, "gremlin_trio", seed)


def test_gremlin_hp_is_rolled_over_the_game_ranges() -> None:
    ranges = {"fat_gremlin": (13, 17), "sneaky_gremlin": (10, 14), "gremlin_wizard": (21, 25)}
    seen: dict[str, Counter[int]] = {k: Counter() for k in ranges}
    for seed in range(1, 300):
        for u in battle(seed).enemies:
            seen[u.def_id][u.hp] += 1
            assert u.hp == u.max_hp
    for enemy, (lo, hi) in ranges.items():
        assert set(seen[enemy]) == set(range(lo, hi + 1)), enemy


def test_fat_gremlin_smashes_for_4_and_1_weak_every_turn() -> None:
    g = battle()
    fat = g.enemies[0]
    for _ in range(5):
        plan_intent(g._e, fat)
    assert fat.history == ["smash"] * 6
    it = fat.intent
    assert it is not None and it.kind.value == "attack_debuff" and it.damage == 4


def test_sneaky_gremlin_punctures_for_9_every_turn() -> None:
    g = battle()
    sneaky = g.enemies[1]
    for _ in range(5):
        plan_intent(g._e, sneaky)
    assert sneaky.history == ["puncture"] * 6
    it = sneaky.intent
    assert it is not None and it.kind.value == "attack" and it.damage == 9


def test_gremlin_wizard_charges_twice_then_blasts_then_charges_three_times_per_blast() -> None:
    g = battle()
    wiz = g.enemies[2]
    for _ in range(14):
        plan_intent(g._e, wiz)
    c, b = "charging", "ultimate_blast"
    assert wiz.history == [c, c, b, c, c, c, b, c, c, c, b, c, c, c, b]
    blast = C.enemies["gremlin_wizard"].move(b)
    assert (blast.damage, blast.intent.value) == (25, "attack")


def test_the_trio_deals_its_moves_on_the_first_enemy_turn() -> None:
    g = battle()
    g.end_player_turn()  # Smash 4 (+1 Weak), Puncture 9, Charging
    assert hero(g).hp == 80 - 4 - 9
    assert hero(g).stacks("weak") == 1
    g.end_player_turn()  # Smash 4, Puncture 9 (the Weak is on the player, not them), Charging
    assert hero(g).hp == 80 - 2 * (4 + 9)
    assert g.enemies[2].move == "ultimate_blast"
    g.end_player_turn()
    assert hero(g).hp == 80 - 3 * (4 + 9) - 25

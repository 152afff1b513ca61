"""The Gremlin Gang and its gremlins, as the game's A0 classes: Fat Gremlin (GremlinFat: 13-17
HP, Smash 4 and 1 Weak every turn), Sneaky Gremlin (GremlinThief: 10-14 HP, Puncture 9 every
turn), Gremlin Wizard (21-25 HP, Charging twice, Ultimate Blast 25, then Charging three times
before each Blast), Mad Gremlin (GremlinWarrior: 20-24 HP, Angry 1, Scratch 4) and Shield
Gremlin (GremlinTank: 12-15 HP, Protect 7 Block to a random other enemy, Shield Bash 6 alone);
the gang draws four of the game's eight without replacement (MonsterHelper.spawnGremlins).
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


# ---------------------------------------------------------------- the gang, Mad and Shield Gremlin
POOL = Counter({"mad_gremlin": 2, "sneaky_gremlin": 2, "fat_gremlin": 2, "shield_gremlin": 1,
                "gremlin_wizard": 1})


def test_gremlin_gang_draws_four_of_the_game_pool_without_replacement() -> None:
    # 20,000 draws: each gremlin kind's count per gang against the hypergeometric odds of four
    # draws from the eight (the 4-sigma bound of tests/test_act1_enemies.py)
    from act1_support import near

    from gcs.rng import Rng, derive
    from gcs.steps.start import roll_enemies
    enc = BUILTIN.encounter("gremlin_gang")
    n = 20_000
    wizard = twins = 0
    for i in range(n):
        got = Counter(roll_enemies(enc, Rng(derive(i, "encounter"))))
        assert sum(got.values()) == 4 and not got - POOL  # never more of a kind than the pool
        wizard += got["gremlin_wizard"]
        twins += got["mad_gremlin"] == 2
    assert near(wizard, 4 / 8, n)  # one of the eight: in 4 of the 8 positions
    assert near(twins, (4 * 3) / (8 * 7), n)  # both Mad Gremlins: 12/56


def test_gremlin_gang_battles_field_their_drawn_gremlins() -> None:
    seen: Counter[str] = Counter()
    for seed in range(1, 30):
        g = start(BUILTIN, "gremlin_gang", seed)
        ids = [u.def_id for u in g.enemies]
        assert len(ids) == 4 and not Counter(ids) - POOL
        seen.update(ids)
        for u in g.enemies:
            d = BUILTIN.enemies[u.def_id]
            assert d.hp_min <= u.hp == u.max_hp <= d.hp_max and u.intent is not None
    assert set(seen) == set(POOL)


def gang(*ids: str) -> gcs.Game:
    c = BUILTIN
    x = EncounterDef("gang", "Gang", ids)
    content = Content(pack_id=c.pack_id, cards=c.cards.values(), statuses=c.statuses.values(),
                      enemies=c.enemies.values(), encounters=[*c.encounters.values(), x],
                      characters=c.characters.values(), reward_tables=c.reward_tables.values(),
                      graphs=c.graphs)
    return start(content, "gang", 1)


def test_mad_gremlin_gains_strength_from_unblocked_attack_damage_only() -> None:
    g = gang("mad_gremlin")
    u = g.enemies[0]
    assert u.statuses == {"angry": 1} and u.move == "scratch" and 20 <= u.max_hp <= 24
    g._e.s.energy = 9
    assert g.try_play_card(g.add_card_to_hand("strike"), u)  # an attack's HP loss: +1
    assert u.statuses.get("strength") == 1
    u.block = 20
    assert g.try_play_card(g.add_card_to_hand("strike"), u)  # fully blocked: nothing
    assert u.statuses.get("strength") == 1
    u.block = 0
    assert g.try_play_card(g.add_card_to_hand("pummel"), u)  # four hits, four stacks
    assert u.statuses.get("strength") == 5
    assert g.try_play_card(g.add_card_to_hand("combust"))  # not an attack (the game: THORNS)
    hp = hero(g).hp
    g.end_player_turn()
    assert u.statuses.get("strength") == 5
    assert hero(g).hp == hp - 1 - (4 + 5)  # Combust's 1 HP, then Scratch 4 + 5 Strength


def test_curl_up_reacts_to_attack_damage_only() -> None:
    g = start(BUILTIN, "two_louses", 1)
    u = g.enemies[0]
    g._e.s.energy = 9
    assert g.try_play_card(g.add_card_to_hand("combust"))
    g.end_player_turn()  # Combust hits every louse: not an attack, no curl
    assert u.statuses.get("curl_up") and u.hp < u.max_hp
    g._e.s.energy = 9
    block = u.block
    assert g.try_play_card(g.add_card_to_hand("strike"), u)
    assert "curl_up" not in u.statuses and u.block > block


def test_shield_gremlin_protects_another_living_enemy_then_bashes_alone() -> None:
    g = gang("fat_gremlin", "shield_gremlin")
    fat, tank = g.enemies
    assert tank.move == "protect" and 12 <= tank.max_hp <= 15
    assert tank.intent is not None and tank.intent.kind.value == "defend"
    g.end_player_turn()
    assert fat.block == 7 and tank.block == 0  # the only other enemy gets it
    from gcs.battle import combat
    combat.lose_hp(g._e, fat, fat.hp)
    g._e.run()
    assert tank.move == "protect"  # planned before the Fat Gremlin died
    g.end_player_turn()  # nobody else: Protect gives itself the Block, then Shield Bash
    assert tank.block == 7 and tank.move == "shield_bash"
    hp = hero(g).hp
    g.end_player_turn()
    assert hero(g).hp == hp - 6 and tank.move == "shield_bash"


def test_shield_gremlin_protects_a_random_other_enemy() -> None:
    # two Wizards act before it (their Block lasts through the player's turn): each is picked
    # half the time (4-sigma bound over the 199 battles)
    from act1_support import near
    got: Counter[int] = Counter()
    n = 199
    for seed in range(1, n + 1):
        g = start(C_GANG3, "gang3", seed)
        g.end_player_turn()
        blocked = [i for i, u in enumerate(g.enemies) if u.block]
        assert len(blocked) == 1 and blocked[0] in (0, 1)  # never itself while others live
        assert g.enemies[blocked[0]].block == 7
        got.update(blocked)
    assert near(got[0], 0.5, n)


def _gang3() -> Content:
    c = BUILTIN
    x = EncounterDef("gang3", "Gang", ("gremlin_wizard", "gremlin_wizard", "shield_gremlin"))
    return Content(pack_id=c.pack_id, cards=c.cards.values(), statuses=c.statuses.values(),
                   enemies=c.enemies.values(), encounters=[*c.encounters.values(), x],
                   characters=c.characters.values(), reward_tables=c.reward_tables.values(),
                   graphs=c.graphs)


C_GANG3 = _gang3()

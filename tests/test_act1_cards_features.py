"""Rule tests for the Ironclad cards that needed generic engine features (docs/content.md:
play conditions, intent conditions, battle counters and cost adjustments, an instance's own
numbers, copies, replays, block and HP-loss reactions, Max HP, rarity filters), each from its
game text and its upgrade.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import gcs
from gcs import agent
from gcs.content.loader import load_content
from gcs.enums import PileScope
from gcs.errors import ContentError

C = gcs.builtin_content()


def game(deck: list[str], encounter: str = "jaw_worm", seed: int = 3,
         log: bool = True) -> gcs.Game:
    """A started battle with ``deck`` as the master deck (its opening hand drawn from it);
    without ``log``, one whose state a test may set by hand (no event log to rebuild)."""
    g = gcs.Game(C, seed=seed, log_events=log)
    g.set_master_deck(deck)
    g.start_battle(encounter)
    return g


def foe(g: gcs.Game, i: int = 0) -> gcs.Unit:
    return g.enemies[i]


def pack_problems(tmp_path: Path, cards_yaml: str) -> list[str]:
    """The problems a pack of these cards has (it must have some)."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: t\n")
    (pack / "cards.yaml").write_text(cards_yaml)
    with pytest.raises(ContentError) as info:
        load_content(pack, use_cache=False)
    return info.value.problems


def plays_of(g: gcs.Game, inst: gcs.CardInstance) -> list[agent.Action]:
    """The legal plays of ``inst`` now."""
    i = g.hand().index(inst)
    return [a for a in g.legal_actions() if a.kind == agent.PLAY and a.card == i]


# ---------------------------------------------------------------- Clash (play conditions)
def test_refusal_row_13a_clash_is_playable_only_while_every_card_in_hand_is_an_attack() -> None:
    g = game(["strike"] * 10)
    clash = g.add_card_to_hand("clash")
    assert g.can_play_card(clash) and g.play_refusal(clash, 0) is None
    assert plays_of(g, clash)
    defend = g.add_card_to_hand("defend")
    why = "Clash's play condition does not hold"
    assert g.play_refusal(clash, 0) == why and not g.can_play_card(clash)
    assert plays_of(g, clash) == []  # the legal actions agree with the gate
    hp = foe(g).hp
    assert not g.try_play_card(clash, 0)  # refused: nothing changes
    assert foe(g).hp == hp and clash in g.hand() and g.energy == 3
    g.move_card_to_pile(defend, PileScope.DISCARD)
    assert g.try_play_card(clash, 0)
    assert foe(g).hp == hp - 14 and g.energy == 3  # it costs 0


def test_clash_refused_through_the_agent_surface_says_why() -> None:
    g = game(["strike"] * 10)
    g.add_card_to_hand("defend")
    clash = g.add_card_to_hand("clash")
    action = agent.Action(agent.PLAY, card=g.hand().index(clash), target=0)
    assert agent.action_refusal(g._e, action) == "Clash's play condition does not hold"


def test_clash_upgraded_deals_18_and_keeps_its_condition() -> None:
    card = C.cards["clash"]
    assert (card.cost, card.numbers["damage"]) == (0, 14)
    assert card.upgrade is not None and card.upgrade.numbers["damage"] == 18
    assert card.upgrade.playable_if == card.playable_if
    g = game(["strike"] * 10)
    clash = g.add_card_to_hand("clash", upgraded=True)
    hp = foe(g).hp
    assert g.try_play_card(clash, 0) and foe(g).hp == hp - 18
    g.add_card_to_hand("shrug_it_off")
    assert not g.can_play_card(g.add_card_to_hand("clash", upgraded=True))


def test_clash_played_by_havoc_ignores_its_condition_as_the_games_autoplay() -> None:
    g = game(["defend"] * 10)
    g.add_card_to_pile("clash", PileScope.DRAW, gcs.DrawPilePosition.TOP)
    hp = foe(g).hp
    assert g.try_play_card(g.add_card_to_hand("havoc"))  # a hand of Defends: Clash still plays
    assert foe(g).hp == hp - 14
    assert [c.card_id for c in g.exhaust_pile()] == ["clash"]


def test_a_bad_play_condition_or_cost_adjustment_is_a_located_content_error(
        tmp_path: Path) -> None:
    got = pack_problems(
        tmp_path,
        "a:\n  name: A\n  cost: 1\n  type: attack\n  playable_if: {lt: [1]}\n"
        "b:\n  name: B\n  cost: x\n  type: attack\n  cost_adjust: -1\n"
        "c:\n  name: C\n  cost: 1\n  type: attack\n  cost_adjust: $nope\n")
    assert len(got) == 3
    assert got[0].startswith("cards.yaml:5: card 'a': field 'playable_if.lt': ")
    assert "an X-cost card pays all energy: it takes no cost_adjust" in got[1]
    assert got[2].startswith("cards.yaml:15: card 'c': field 'cost_adjust': unknown number '$nope'")


# ---------------------------------------------------------------- Spot Weakness (intents)
def test_spot_weakness_gives_strength_only_if_the_target_intends_to_attack() -> None:
    g = game(["defend"] * 10, "jaw_worm")  # Jaw Worm opens with Chomp (an attack)
    assert foe(g).intent is not None and foe(g).intent.damage is not None
    assert g.try_play_card(g.add_card_to_hand("spot_weakness"), 0)
    assert g.player is not None and g.player.stacks("strength") == 3
    g = game(["defend"] * 10, "cultist")  # Cultist opens with Incantation (a buff)
    assert g.try_play_card(g.add_card_to_hand("spot_weakness"), 0)
    assert g.player is not None and g.player.stacks("strength") == 0


def test_spot_weakness_reads_the_chosen_enemys_intent_and_upgrades_to_four() -> None:
    g = game(["defend"] * 10, "gremlin_nob")  # Bellow first: a buff
    assert g.try_play_card(g.add_card_to_hand("spot_weakness", upgraded=True), 0)
    assert g.player is not None and g.player.stacks("strength") == 0
    g.end_player_turn()  # then Rush or Skull Bash: attacks
    assert g.try_play_card(g.add_card_to_hand("spot_weakness", upgraded=True), 0)
    assert g.player.stacks("strength") == 4
    card = C.cards["spot_weakness"]
    assert (card.cost, card.numbers["strength"]) == (1, 3)


# ---------------------------------------------------------------- Blood for Blood (counters)
def test_blood_for_blood_costs_one_less_for_each_hp_loss_in_the_battle() -> None:
    g = game(["defend"] * 10)
    b4b = g.add_card_to_hand("blood_for_blood")
    assert g.get_effective_energy_cost(b4b) == 4 and not g.can_play_card(b4b)
    assert g.play_refusal(b4b, 0) == "not enough energy" and plays_of(g, b4b) == []
    assert "Costs 1 less energy" in g.format_description(b4b)
    assert g.try_play_card(g.add_card_to_hand("bloodletting"))  # lose 3 HP once: 3
    assert g.get_effective_energy_cost(b4b) == 3
    assert g.try_play_card(g.add_card_to_hand("hemokinesis"), 0)  # again: 2
    assert g.get_effective_energy_cost(b4b) == 2 and g.energy == 4
    assert plays_of(g, b4b) and g.observation()["hand"][g.hand().index(b4b)]["cost"] == 2
    hp = foe(g).hp
    assert g.try_play_card(b4b, 0)
    assert g.energy == 2 and foe(g).hp == hp - 18


def test_blood_for_blood_counts_unblocked_hits_not_blocked_ones_and_floors_at_zero() -> None:
    g = game(["defend"] * 10)
    g.end_player_turn()  # Jaw Worm's Chomp (11) on no block: one HP loss
    b4b = g.add_card_to_hand("blood_for_blood")
    assert g.get_effective_energy_cost(b4b) == 3
    for _ in range(5):
        assert g.try_play_card(g.add_card_to_hand("bloodletting"))
    assert g.get_effective_energy_cost(b4b) == 0
    assert g._e.s.units[0].hp_losses == 6


def test_blood_for_blood_upgraded_costs_three_and_deals_22_and_a_set_cost_replaces_it() -> None:
    up = C.cards["blood_for_blood"].upgrade
    assert up is not None and (up.cost, up.numbers["damage"]) == (3, 22)
    g = game(["defend"] * 10)
    b4b = g.add_card_to_hand("blood_for_blood", upgraded=True)
    assert g.try_play_card(g.add_card_to_hand("bloodletting"))
    assert g.get_effective_energy_cost(b4b) == 2
    b4b.turn_set = 0  # "costs 0 this turn" (Infernal Blade's modifier) replaces it
    assert g.get_effective_energy_cost(b4b) == 0


def test_the_hp_loss_counter_is_saved_cloned_and_an_older_save_without_it_loads() -> None:
    g = game(["defend"] * 10)
    assert g.try_play_card(g.add_card_to_hand("bloodletting"))
    data = g.to_json()
    assert gcs.Game.from_json(C, data)._e.s.units[0].hp_losses == 1
    assert g.clone()._e.s.units[0].hp_losses == 1
    for row in data["state"]["units"]:
        del row[13]  # as a save made before the counter
    assert gcs.Game.from_json(C, data)._e.s.units[0].hp_losses == 0
    data["state"]["units"][0].append(-1)
    data["state"]["units"][0].append(-1)
    with pytest.raises(gcs.GameError):
        gcs.Game.from_json(C, data)


# ---------------------------------------------------------------- Rupture (who caused it)
def test_rupture_gains_strength_when_the_players_own_cards_take_hp() -> None:
    g = game(["defend"] * 10)
    assert g.try_play_card(g.add_card_to_hand("rupture"))
    player = g.player
    assert player is not None and player.stacks("rupture") == 1
    assert g.try_play_card(g.add_card_to_hand("bloodletting"))
    assert player.stacks("strength") == 1
    assert g.try_play_card(g.add_card_to_hand("hemokinesis"), 0)
    assert player.stacks("strength") == 2
    g.add_card_to_hand("burn")  # Burn's end-of-turn damage is the player's own: +1
    hp = player.hp
    g.end_player_turn()  # Jaw Worm's Chomp is not: no Strength from it
    assert player.hp < hp and player.stacks("strength") == 3


def test_rupture_upgraded_gives_two_and_ignores_enemy_damage() -> None:
    g = game(["defend"] * 10)
    assert g.try_play_card(g.add_card_to_hand("rupture", upgraded=True))
    player = g.player
    assert player is not None
    g.end_player_turn()
    assert player.hp < player.max_hp and player.stacks("strength") == 0
    assert g.try_play_card(g.add_card_to_hand("offering"))
    assert player.stacks("strength") == 2


# ---------------------------------------------------------------- Rampage (own numbers)
def test_rampage_grows_its_own_damage_by_five_each_play_and_its_text_shows_it() -> None:
    g = game(["defend"] * 10)
    rampage = g.add_card_to_hand("rampage")
    other = g.add_card_to_hand("rampage")
    hp = foe(g).hp
    assert g.try_play_card(rampage, 0)
    assert foe(g).hp == hp - 8
    assert rampage.numbers["damage"] == 13 and other.numbers["damage"] == 8  # its own
    assert g.format_description(rampage).startswith("Deal 13 damage.")
    assert g.format_description(other).startswith("Deal 8 damage.")
    g.move_card_to_pile(rampage, PileScope.HAND)
    hp = foe(g).hp
    assert g.try_play_card(rampage, 0)
    assert foe(g).hp == hp - 13 and rampage.numbers["damage"] == 18


def test_rampage_upgraded_grows_by_eight_and_an_upgrade_keeps_the_growth() -> None:
    g = game(["defend"] * 10)
    rampage = g.add_card_to_hand("rampage")
    assert g.try_play_card(rampage, 0)
    g.move_card_to_pile(rampage, PileScope.HAND)
    assert g.try_play_card(g.add_card_to_hand("armaments", upgraded=True))  # upgrade ALL
    assert rampage.upgraded and rampage.numbers == {"damage": 13, "increase": 8}
    assert g.try_play_card(rampage, 0) and rampage.numbers["damage"] == 21


def test_an_instances_grown_numbers_survive_a_save_and_a_clone() -> None:
    g = game(["defend"] * 10)
    rampage = g.add_card_to_hand("rampage")
    assert g.try_play_card(rampage, 0)
    data = g.to_json()
    for twin in (gcs.Game.from_json(C, data), g.clone()):
        same = next(c for c in twin._e.s.cards.values() if c.uid == rampage.uid)
        assert same.numbers["damage"] == 13 and same.grown == {"damage": 5}
    row = next(r for r in data["state"]["cards"] if r[0] == rampage.uid)
    row[10] = [["nope", 1]]
    with pytest.raises(gcs.GameError):
        gcs.Game.from_json(C, data)


# ---------------------------------------------------------------- Searing Blow (repeatable)
def test_searing_blow_can_be_upgraded_any_number_of_times_with_the_games_formula() -> None:
    g = game(["defend"] * 10, log=False)
    g._e.s.energy = 10  # (five Armaments+ and the Blow)
    blow = g.add_card_to_hand("searing_blow")
    seen = [blow.numbers["damage"]]
    for _ in range(5):
        assert g.try_play_card(g.add_card_to_hand("armaments", upgraded=True))
        seen.append(blow.numbers["damage"])
    assert seen == [12, 16, 21, 27, 34, 42]  # 12 + n(n+7)/2
    assert blow.upgrades == 5 and blow.name == "Searing Blow+5"
    assert g.format_description(blow).startswith("Deal 42 damage.")
    hp = foe(g).hp
    assert g.try_play_card(blow, 0) and foe(g).hp == hp - 42


def test_searing_blow_stays_upgradable_for_armaments_and_its_upgrades_are_saved() -> None:
    g = game(["defend"] * 10)
    blow = g.add_card_to_hand("searing_blow", upgraded=True)
    assert blow.numbers["damage"] == 16 and blow.upgrades == 1
    assert g.try_play_card(g.add_card_to_hand("armaments", upgraded=True))
    assert blow.upgrades == 2
    loaded = gcs.Game.from_json(C, g.to_json())
    same = next(c for c in loaded.hand() if c.uid == blow.uid)
    assert same.upgrades == 2 and same.numbers["damage"] == 21
    up = C.cards["searing_blow"].upgrade
    assert up is not None and up.repeatable and up.numbers["damage"] == 16


def test_a_bad_growth_or_repeatable_formula_is_a_located_content_error(tmp_path: Path) -> None:
    got = pack_problems(
        tmp_path,
        "a:\n  name: A\n  cost: 1\n  type: attack\n  numbers: {damage: 1}\n"
        "  on_play: [{grow: {number: dmg, by: 2}}]\n"
        "b:\n  name: B\n  cost: 1\n  type: attack\n  numbers: {damage: 1}\n"
        "  upgrade: {repeatable: true, numbers: {damage: {hp: self}}}\n")
    assert len(got) == 2
    assert "unknown number '$dmg'" in got[0] and "on_play[0].grow.number" in got[0]
    assert "a repeatable upgrade's number is an integer or a formula of {upgrades: this}" in got[1]


# ---------------------------------------------------------------- Juggernaut (block gained)
def test_juggernaut_deals_five_to_an_enemy_whenever_you_gain_block() -> None:
    g = game(["strike"] * 10, "jaw_worm")
    assert g.try_play_card(g.add_card_to_hand("juggernaut"))
    hp = foe(g).hp
    assert g.try_play_card(g.add_card_to_hand("defend"))
    assert g.player is not None and g.player.block == 5 and foe(g).hp == hp - 5
    hit = [x for x in g.event_log if isinstance(x, gcs.events.DamageDealt)][-1]
    assert (hit.source, hit.amount, hit.card_id) == (0, 5, None)


def test_juggernaut_is_not_an_attack_and_upgraded_deals_seven_to_a_random_living_enemy() -> None:
    g = game(["strike"] * 10, "two_fungi_beasts", seed=6)
    assert g.try_play_card(g.add_card_to_hand("juggernaut", upgraded=True))
    assert g.try_play_card(g.add_card_to_hand("flex"))  # Strength does not add to it
    hp = [u.hp for u in g.enemies]
    assert g.try_play_card(g.add_card_to_hand("defend"))
    lost = sorted(a - u.hp for a, u in zip(hp, g.enemies, strict=True))
    assert lost == [0, 7]
    assert C.cards["juggernaut"].numbers["damage"] == 5


# ---------------------------------------------------------------- Feed (Max HP)
def test_feed_raises_max_hp_by_three_on_a_kill_and_the_run_keeps_it() -> None:
    g = game(["strike"] * 10, "small_slimes", seed=2)
    small = min(g.enemies, key=lambda u: u.max_hp)
    small.hp = 9  # (within Feed's 10)
    player = g.player
    assert player is not None
    hp = player.hp
    feed = g.add_card_to_hand("feed")
    assert g.try_play_card(feed, g.enemies.index(small))
    assert not small.alive and player.max_hp == 83 and player.hp == hp + 3
    assert feed in g.exhaust_pile()
    raised = [x for x in g.event_log if isinstance(x, gcs.events.MaxHpGained)]
    assert [(x.unit, x.amount, x.max_hp) for x in raised] == [(0, 3, 83)]
    big = next(u for u in g.enemies if u.alive)
    big.hp = 1
    assert g.try_play_card(g.hand()[0], g.enemies.index(big))  # a Strike ends the battle
    g.skip_reward()
    assert g.run_hp == (83, 83)


def test_feed_without_a_kill_raises_nothing_and_upgraded_raises_four() -> None:
    g = game(["strike"] * 10, "jaw_worm")
    player = g.player
    assert player is not None
    assert g.try_play_card(g.add_card_to_hand("feed", upgraded=True), 0)
    assert player.max_hp == 80 and foe(g).hp == foe(g).max_hp - 12
    g = game(["strike"] * 10, "small_slimes", seed=2)
    small = min(g.enemies, key=lambda u: u.max_hp)
    small.hp = 5
    assert g.try_play_card(g.add_card_to_hand("feed", upgraded=True), g.enemies.index(small))
    assert g.player is not None and g.player.max_hp == 84


# ---------------------------------------------------------------- Infernal Blade (filters)
def test_infernal_blade_adds_an_ironclad_common_uncommon_or_rare_attack_costing_0() -> None:
    pool = {cid for cid, c in C.cards.items() if c.character == "ironclad"
            and c.type.value == "attack" and c.rarity.value in ("common", "uncommon", "rare")
            and "healing" not in c.tags}
    assert {"clash", "rampage", "searing_blow", "bludgeon"} <= pool
    assert not {"strike", "bash", "feed", "reaper", "hand_of_greed"} & pool
    seen: set[str] = set()
    for seed in range(60):
        g = game(["defend"] * 10, seed=seed)
        assert g.try_play_card(g.add_card_to_hand("infernal_blade"))
        made = g.hand()[-1]
        assert made.card_id in pool
        assert made.active.x_cost or g.get_effective_energy_cost(made) == 0  # (X: all energy)
        seen.add(made.card_id)
    assert len(seen) >= 15  # a wide draw over the pool (its 1/len odds: each seed is one)


def test_card_filters_take_several_types_rarities_and_excluded_tags(tmp_path: Path) -> None:
    got = pack_problems(
        tmp_path,
        "a:\n  name: A\n  cost: 1\n  type: skill\n"
        "  on_play: {exhaust: {from: hand, where: {type: [attack, power], rarity: [rare, x]}}}\n")
    assert "field 'on_play.exhaust.where.rarity[1]'" in got[0]


# ---------------------------------------------------------------- Dual Wield (copies)
def test_dual_wield_copies_the_chosen_attack_with_its_grown_numbers_and_upgrade() -> None:
    g = game(["defend"] * 10)
    rampage = g.add_card_to_hand("rampage", upgraded=True)
    assert g.try_play_card(rampage, 0)  # it grew: 8 + 8
    g.move_card_to_pile(rampage, PileScope.HAND)
    g.add_card_to_hand("inflame")
    assert g.try_play_card(g.add_card_to_hand("dual_wield"))
    choice = g.pending_choice
    assert choice is not None
    assert sorted(c.card_id for c in choice.candidates) == ["inflame", "rampage"]  # no Skills
    g.choose([rampage])
    copies = [c for c in g.hand() if c.card_id == "rampage"]
    assert len(copies) == 2 and copies[1] is not rampage
    copy = copies[1]
    assert copy.upgraded and copy.numbers["damage"] == 16 and copy.grown == {"damage": 8}
    assert copy.origin == -1  # a battle card: not in the master deck
    copy.grown["damage"] = 0  # its own numbers: the original keeps its growth
    assert rampage.grown == {"damage": 8}


def test_dual_wield_upgraded_adds_two_copies_keeping_a_cost_changed_this_turn() -> None:
    g = game(["defend"] * 10)
    power = g.add_card_to_hand("inflame")
    power.turn_set = 0  # (as Infernal Blade's "costs 0 this turn")
    assert g.try_play_card(g.add_card_to_hand("dual_wield", upgraded=True))
    g.choose([power])
    copies = [c for c in g.hand() if c.card_id == "inflame"]
    assert len(copies) == 3 and all(g.get_effective_energy_cost(c) == 0 for c in copies)
    up = C.cards["dual_wield"].upgrade
    assert up is not None and g.format_description(g.add_card_to_hand("dual_wield", True)) == (
        "Choose an Attack or Power card. Add 2 copies of it into your hand.")


def test_dual_wield_with_no_attack_or_power_in_hand_does_nothing() -> None:
    g = game(["defend"] * 10)
    hand = len(g.hand())
    assert g.try_play_card(g.add_card_to_hand("dual_wield"))
    assert g.pending_choice is None and len(g.hand()) == hand


# ---------------------------------------------------------------- Double Tap (replays)
def test_double_tap_plays_the_next_attack_twice_at_the_same_target_and_only_the_next() -> None:
    g = game(["defend"] * 10, "two_fungi_beasts", seed=6)
    assert g.try_play_card(g.add_card_to_hand("double_tap"))
    player = g.player
    assert player is not None and player.stacks("double_tap") == 1
    hp = [u.hp for u in g.enemies]
    strike = g.add_card_to_hand("strike")
    assert g.try_play_card(strike, 1)
    assert [u.hp for u in g.enemies] == [hp[0], hp[1] - 12]  # twice at the chosen enemy
    assert player.stacks("double_tap") == 0 and g.energy == 1
    assert strike in g.discard_pile() and len(g.discard_pile()) == 2  # Double Tap, Strike
    plays = [x.card_id for x in g.event_log if isinstance(x, gcs.events.CardPlayed)]
    assert plays[-2:] == ["strike", "strike"]
    hp = [u.hp for u in g.enemies]
    assert g.try_play_card(g.add_card_to_hand("strike"), 0)  # used up: once
    assert [u.hp for u in g.enemies] == [hp[0] - 6, hp[1]]


def test_double_tap_skips_skills_keeps_the_x_and_the_copy_ends_in_no_pile() -> None:
    g = game(["defend"] * 10)
    assert g.try_play_card(g.add_card_to_hand("double_tap"))
    assert g.try_play_card(g.hand()[0])  # a Defend: not an Attack, the stack stays
    assert g.player is not None and g.player.stacks("double_tap") == 1
    hp = foe(g).hp
    whirl = g.add_card_to_hand("whirlwind")
    assert g.try_play_card(whirl)  # X = 1 (the energy left), replayed with X = 1
    assert foe(g).hp == hp - 10 and g.energy == 0
    assert [c.card_id for c in g.discard_pile()].count("whirlwind") == 1
    assert sum(c.card_id == "whirlwind" for c in g.pile(PileScope.ALL)) == 1


def test_double_tap_upgraded_doubles_two_attacks_and_is_gone_at_turn_end() -> None:
    g = game(["defend"] * 10)
    assert g.try_play_card(g.add_card_to_hand("double_tap", upgraded=True))
    player = g.player
    assert player is not None and player.stacks("double_tap") == 2
    hp = foe(g).hp
    assert g.try_play_card(g.add_card_to_hand("anger"), 0)  # 6 twice, two copies to discard
    assert foe(g).hp == hp - 12 and player.stacks("double_tap") == 1
    assert [c.card_id for c in g.discard_pile()].count("anger") == 3
    g.end_player_turn()
    assert player.stacks("double_tap") == 0

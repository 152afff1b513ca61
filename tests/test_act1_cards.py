"""Rule tests for the Ironclad cards added to the bundled pack, each from its game text and
upgrade, and the reward pool holding every Ironclad card the pack defines (the game's 75; the
ten that needed engine features are tested in tests/test_act1_cards_features.py).
"""

from __future__ import annotations

import gcs
from gcs import events as ev
from gcs.enums import CardType, DrawPilePosition, PileScope, Rarity

C = gcs.builtin_content()

# The Ironclad's 75 cards in the game (basic 3, common 20, uncommon 36, rare 16)
GAME_IRONCLAD = {
    "basic": {"strike", "defend", "bash"},
    "common": {"anger", "armaments", "body_slam", "clash", "cleave", "clothesline", "flex",
               "havoc", "headbutt", "heavy_blade", "iron_wave", "perfected_strike",
               "pommel_strike", "shrug_it_off", "sword_boomerang", "thunderclap", "true_grit",
               "twin_strike", "warcry", "wild_strike"},
    "uncommon": {"battle_trance", "blood_for_blood", "bloodletting", "burning_pact", "carnage",
                 "combust", "dark_embrace", "disarm", "dropkick", "dual_wield", "entrench",
                 "evolve", "feel_no_pain", "fire_breathing", "flame_barrier", "ghostly_armor",
                 "hemokinesis", "infernal_blade", "inflame", "intimidate", "metallicize",
                 "power_through", "pummel", "rage", "rampage", "reckless_charge", "rupture",
                 "searing_blow", "second_wind", "seeing_red", "sentinel", "sever_soul",
                 "shockwave", "spot_weakness", "uppercut", "whirlwind"},
    "rare": {"barricade", "berserk", "bludgeon", "brutality", "corruption", "demon_form",
             "double_tap", "exhume", "feed", "fiend_fire", "immolate", "impervious",
             "juggernaut", "limit_break", "offering", "reaper"},
}


def test_the_pack_defines_every_ironclad_card_with_its_rarity() -> None:
    assert sum(len(v) for v in GAME_IRONCLAD.values()) == 75
    ours = {cid: c for cid, c in C.cards.items() if c.character == "ironclad"}
    assert set(ours) == {cid for v in GAME_IRONCLAD.values() for cid in v}
    for rarity, ids in GAME_IRONCLAD.items():
        for cid in ids:
            assert ours[cid].rarity is Rarity(rarity), cid


def test_the_reward_pools_offer_every_non_basic_ironclad_card_the_pack_defines() -> None:
    offered = {cid for cid, c in C.cards.items()
               if c.character == "ironclad" and c.rarity is not Rarity.BASIC}
    for table in ("normal", "elite", "boss"):
        assert set(C.reward_tables[table].pool) == offered, table
    assert "havoc" in offered and "evolve" in offered


# ---------------------------------------------------------------- Evolve
def evolve_game(upgraded: bool = False) -> gcs.Game:
    """A battle with Evolve (upgraded or not) played and no card left to draw but those put on
    top of the draw pile by the test."""
    g = gcs.Game(C, seed=5)
    g.set_master_deck(["defend"] * 10)
    g.start_battle("jaw_worm")
    card = g.add_card_to_hand("evolve", upgraded=upgraded)
    assert g.try_play_card(card)
    assert card not in g.pile(PileScope.ALL)  # a Power leaves the piles
    assert g.player is not None and g.player.stacks("evolve") == (2 if upgraded else 1)
    return g


def top(g: gcs.Game, *cards: str) -> None:
    """Put ``cards`` on top of the draw pile, the first one drawn first."""
    for cid in reversed(cards):
        g.add_card_to_pile(cid, PileScope.DRAW, DrawPilePosition.TOP)


def test_evolve_draws_a_card_whenever_a_status_card_is_drawn() -> None:
    g = evolve_game()
    top(g, "wound", "strike", "defend")
    hand = len(g.hand())
    g.draw_cards(1)  # Wound, then Evolve draws Strike
    assert [c.card_id for c in g.hand()[hand:]] == ["wound", "strike"]
    assert g.draw_pile()[-1].card_id == "defend"


def test_evolve_upgraded_draws_two_and_a_status_it_draws_triggers_it_again() -> None:
    g = evolve_game(upgraded=True)
    top(g, "dazed", "slimed", "strike", "bash", "anger", "cleave")
    hand = len(g.hand())
    g.draw_cards(1)  # Dazed -> Slimed (status: 2 more), Strike; then Bash, Anger
    drawn = [c.card_id for c in g.hand()[hand:]]
    assert sorted(drawn) == sorted(["dazed", "slimed", "strike", "bash", "anger"])
    assert drawn[:2] == ["dazed", "slimed"]
    assert g.draw_pile()[-1].card_id == "cleave"


def test_evolve_ignores_curses_and_other_cards() -> None:
    g = evolve_game()
    top(g, "injury", "strike", "defend")
    hand = len(g.hand())
    g.draw_cards(2)
    assert [c.card_id for c in g.hand()[hand:]] == ["injury", "strike"]
    assert C.cards["injury"].type is CardType.CURSE


def test_evolve_draws_on_the_turn_draw() -> None:
    g = evolve_game()
    top(g, "dazed", "strike", "strike", "strike", "strike", "bash")
    g.end_player_turn()  # the next turn draws 5, and Evolve one more for the Dazed
    names = [c.card_id for c in g.hand()]
    assert len(names) == 6 and names.count("dazed") == 1 and "bash" in names


def test_evolve_within_battle_trance_draws_before_no_draw_holds() -> None:
    # seed 004: each drawn card's status On Drawn branches complete before the next draw, and
    # a played card's hooks register after its effect; so Evolve draws within Battle Trance's
    # three (the game queues Evolve's draw after No Draw: see docs/content.md)
    g = evolve_game()
    trance = g.add_card_to_hand("battle_trance")
    top(g, "burn", "strike", "strike", "strike")
    assert g.try_play_card(trance)
    drawn = [x.card_id for x in g.event_log if isinstance(x, ev.CardDrawn)]
    assert drawn[-4:] == ["burn", "strike", "strike", "strike"]
    assert g.draw_cards(1) == 0  # No Draw holds for the rest of the turn


def test_evolve_card_numbers_text_and_upgrade() -> None:
    card = C.cards["evolve"]
    assert (card.cost, card.type, card.rarity) == (1, CardType.POWER, Rarity.UNCOMMON)
    assert card.numbers["cards"] == 1 and card.upgrade is not None
    assert card.upgrade.numbers["cards"] == 2 and card.upgrade.cost == 1
    assert "Status" in card.text


# ---------------------------------------------------------------- Perfected Strike
def test_perfected_strike_counts_strikes_in_hand_draw_and_discard_but_not_exhaust() -> None:
    g = gcs.Game(C, seed=2)
    g.set_master_deck(["defend"] * 10)
    g.start_battle("cultist")
    for cid, pile in (("strike", PileScope.HAND), ("twin_strike", PileScope.DRAW),
                      ("pommel_strike", PileScope.DISCARD), ("wild_strike", PileScope.EXHAUST),
                      ("strike", PileScope.EXHAUST)):
        g.add_card_to_pile(cid, pile)
    foe = g.enemies[0]
    for upgraded, bonus in ((False, 2), (True, 3)):
        ps = g.add_card_to_hand("perfected_strike", upgraded=upgraded)
        g._e.s.energy = 2
        hp = foe.hp
        assert g.try_play_card(ps, foe)
        # 6 + bonus x (itself, the Strike in hand, Twin Strike in draw, Pommel Strike in
        # discard; the first Perfected Strike is in discard too on the second play)
        strikes = 4 if not upgraded else 5
        assert hp - foe.hp == 6 + bonus * strikes, upgraded

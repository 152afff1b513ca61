"""Block credit (docs/simulation.md, "Block credit"): every point of block the player gains is
credited to the card (or status source, or enemy move, or "(none)") that gained it, Dexterity's
rise to its sources and Frail's fall taken from every share pro rata, so a battle's per-card
block sums to the block the player gained exactly; outcomes do not change."""

from __future__ import annotations

import pytest

import gcs
from gcs import events as ev
from gcs.battle import combat as U
from gcs.battle.credit import credit_loss
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import battle_seed, new_game, play_battle, policy_seed

C = gcs.builtin_content()


def game(deck: list[str], encounter: str = "jaw_worm", seed: int = 3) -> gcs.Game:
    g = gcs.Game(C, seed=seed, log_events=True)
    g.set_master_deck(deck)
    g.start_battle(encounter)
    return g


def play(g: gcs.Game, card: str, target: int | None = None) -> None:
    g._e.s.energy = 3  # (a hand-built battle: the energy is not what is tested)
    assert g.try_play_card(g.add_card_to_hand(card), target)


def block_gained_by_player(g: gcs.Game) -> int:
    """The block the player gained, from the event log (independent of the credit)."""
    return sum(x.amount for x in g.event_log if isinstance(x, ev.BlockGained) and x.unit == 0)


# ---------------------------------------------------------------- the worked example
def test_footwork_then_defend_then_frail_from_an_enemy() -> None:
    """docs/simulation.md's example: 2 Dexterity from Footwork (a Silent card: applied by hand
    here), then Defend: 5 + 2 = 7, Defend 5 and Footwork 2. Then a slime's Lick: 1 Frail, and
    Defend again: (5 + 2) x 0.75 = 5.25, floored to 5; the shares 5 and 2 scaled to 5 are 3.57
    and 1.43: Defend 3 + 1 (the largest remainder) = 4, Footwork 1; Frail, a fall, credits
    no one."""
    g = game(["strike"] * 10)
    e, player = g._e, g._e.s.units[0]
    U.apply_status(e, player, "dexterity", 2, credit="footwork")
    play(g, "defend")
    assert player.block == 7 and g.stats["block"] == {"defend": 5, "footwork": 2}
    U.apply_status(e, player, "frail", 1, credit="(acid_slime_m:lick)")
    play(g, "defend")
    assert player.block == 12
    assert g.stats["block"] == {"defend": 9, "footwork": 3}
    assert sum(g.stats["block"].values()) == block_gained_by_player(g) == 12


def test_negative_dexterity_and_a_status_s_own_block() -> None:
    """The Nemesis-like Siphon Soul's -1 Dexterity makes Defend's 5 a 4, all Defend's (a fall
    credits no one); Metallicize's block at turn end is its card's, not folded by Dexterity."""
    g = game(["strike"] * 10)
    e, player = g._e, g._e.s.units[0]
    U.apply_status(e, player, "dexterity", -1, credit="(chosen:siphon_soul)")
    play(g, "defend")
    assert g.stats["block"] == {"defend": 4}
    play(g, "metallicize")
    g.end_player_turn()
    assert g.stats["block"] == {"defend": 4, "metallicize": 3}
    assert sum(g.stats["block"].values()) == block_gained_by_player(g)


def test_two_sources_of_dexterity_share_its_rise_by_their_stacks() -> None:
    g = game(["strike"] * 10)
    e, player = g._e, g._e.s.units[0]
    U.apply_status(e, player, "dexterity", 1, credit="footwork")
    U.apply_status(e, player, "dexterity", 2, credit="(none)")
    play(g, "shrug_it_off")  # 8 + 3: Shrug It Off 8, Footwork 1, (none) 2
    assert g.stats["block"] == {"shrug_it_off": 8, "footwork": 1, "(none)": 2}


def test_an_enemy_s_block_is_not_counted() -> None:
    g = game(["strike"] * 10, "jaw_worm", seed=3)
    g.end_player_turn()
    g.end_player_turn()
    g.end_player_turn()
    assert any(isinstance(x, ev.BlockGained) and x.unit != 0 for x in g.event_log)
    assert g.stats["block"] == {}


def test_a_status_s_own_credit_shares_the_amount_not_the_stacks() -> None:
    """A status's sources are weights (its stacks), not shares of the amount: 4 points by
    sources of 1 stack each are 2 and 2 (the amount shared, whatever the stacks sum to)."""
    out: dict[str, int] = {}
    credit_loss(out, {"a": 1, "b": 1}, 4, 4)
    assert out == {"a": 2, "b": 2}
    credit_loss(out, {"a": 3, "b": 1}, 4, 4)  # (shares that sum to the amount: as they are)
    assert out == {"a": 5, "b": 3}


def test_block_credit_survives_save_clone_and_pickle() -> None:
    import pickle

    g = game(["strike"] * 10)
    U.apply_status(g._e, g._e.s.units[0], "dexterity", 1, credit="footwork")
    play(g, "defend")
    want = {"defend": 5, "footwork": 1}
    data = g.to_json()
    assert data["state"]["block"] == want
    for h in (gcs.Game.from_json(C, data), g.clone(), pickle.loads(pickle.dumps(g))):
        assert h.stats["block"] == want


# ---------------------------------------------------------------- the sum, on every fight
DECK = ["strike"] * 3 + ["defend"] * 2 + ["bash", "shrug_it_off", "metallicize", "feel_no_pain",
                                          "true_grit", "flame_barrier", "impervious",
                                          "power_through", "juggernaut", "ghostly_armor",
                                          "sentinel", "entrench", "second_wind", "rage"]


@pytest.mark.parametrize("encounter", sorted(C.encounters))
def test_block_by_card_sums_to_the_block_gained_on_every_bundled_encounter(
        encounter: str) -> None:
    for i in range(3):
        g = new_game(C, battle_seed(11, i), DECK if i else None, None, log_events=True)
        r = play_battle(g, encounter, RandomPolicy(policy_seed(11, i)), take_rewards=False)
        assert all(v > 0 for v in r.block.values())
        assert sum(r.block.values()) == block_gained_by_player(g)

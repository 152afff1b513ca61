"""Damage credit (docs/simulation.md, "Damage credit"): every HP an enemy loses is credited to
the card (or enemy move, or "(none)") that caused it, through the statuses that folded it, and
a battle's per-card damage sums to the damage dealt to enemies exactly."""

from __future__ import annotations

import pickle

import pytest

import gcs
from gcs import events as ev
from gcs.battle import combat as U
from gcs.battle.credit import NONE, fold_credit, split
from gcs.errors import SaveError
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import battle_seed, new_game, play_battle, policy_seed

C = gcs.builtin_content()


def game(deck: list[str], encounter: str = "jaw_worm", seed: int = 3) -> gcs.Game:
    g = gcs.Game(C, seed=seed, log_events=False)  # (its state is set by hand: no log to rebuild)
    g.set_master_deck(deck)
    g.start_battle(encounter)
    return g


def play(g: gcs.Game, card: str, target: int | None = None) -> None:
    g._e.s.energy = 3  # (a hand-built battle: the energy is not what is tested)
    assert g.try_play_card(g.add_card_to_hand(card), target)


def hp_lost_by_enemies(g: gcs.Game) -> int:
    """The HP enemies lost, from the event log (independent of the credit)."""
    n = 0
    for x in g.event_log:
        if isinstance(x, ev.DamageDealt) and x.target != 0:
            n += x.hp_lost
        elif isinstance(x, ev.HpLost) and x.unit != 0:
            n += x.amount
    return n


# ---------------------------------------------------------------- the worked example
def test_inflame_then_bash_then_strike_on_a_jaw_worm_credits_each_card() -> None:
    g = game(["defend"] * 10)
    worm = g.enemies[0]
    hp = worm.hp
    play(g, "inflame")  # +2 Strength: no damage of its own
    play(g, "bash", 0)  # 8 + 2 = 10, then 2 Vulnerable: Bash 8, Inflame 2
    assert g.stats["damage"] == {"bash": 8, "inflame": 2}
    play(g, "strike", 0)  # (6 + 2) x 1.5 = 12: Strike 6, Inflame 2, Bash 4
    assert g.stats["damage"] == {"bash": 12, "inflame": 4, "strike": 6}
    assert sum(g.stats["damage"].values()) == hp - worm.hp == 22


def test_weak_on_the_player_takes_from_every_share_pro_rata() -> None:
    g = game(["defend"] * 10)
    play(g, "inflame")
    U.apply_status(g._e, g._e.s.units[0], "weak", 1, credit="(jaw_worm:bite)")
    play(g, "strike", 0)  # (6 + 2) x 0.75 = 6: 6 and 2 scaled to 6 are 4.5 and 1.5
    assert g.stats["damage"] == {"strike": 5, "inflame": 1}  # (the tie: the first share)


def test_blocked_damage_is_taken_from_every_share_pro_rata() -> None:
    g = game(["defend"] * 10)
    worm = g.enemies[0]
    worm.block = 5
    play(g, "inflame")
    play(g, "strike", 0)  # 8, 5 blocked, 3 HP lost: 6/8 and 2/8 of 3 are 2.25 and 0.75
    assert g.stats["damage"] == {"strike": 2, "inflame": 1}


def test_two_sources_of_one_status_share_its_change_by_their_stacks() -> None:
    g = game(["defend"] * 10)
    e, player = g._e, g._e.s.units[0]
    U.apply_status(e, player, "strength", 1, credit="flex")
    U.apply_status(e, player, "strength", 2, credit="inflame")
    U.apply_status(e, g._e.s.units[1], "vulnerable", 1, credit="bash")
    U.apply_status(e, g._e.s.units[1], "vulnerable", 1, credit="thunderclap")
    assert player.sources["strength"] == {"flex": 1, "inflame": 2}
    amount, shares = fold_credit(e, 6, player, e.s.units[1], "strike")
    # 6 + 3 = 9 (flex 1, inflame 2), x 1.5 = 13.5 -> 13: +4 for Vulnerable, 2 each
    assert amount == 13 and shares == {"strike": 6, "flex": 1, "inflame": 2, "bash": 2,
                                        "thunderclap": 2}
    assert sum(shares.values()) == amount


def test_split_is_exact_by_largest_remainder_in_order() -> None:
    assert split(10, {"a": 1, "b": 1, "c": 1}) == {"a": 4, "b": 3, "c": 3}
    assert split(7, {"a": 2, "b": 5}) == {"a": 2, "b": 5}
    assert split(5, {"a": 3, "b": 1}) == {"a": 4, "b": 1}  # 3.75 and 1.25
    assert split(-3, {"a": 1, "b": 1}) == {"a": -2, "b": -1}
    assert split(2, {"a": 3, "b": -1}) == {"a": 3, "b": -1}  # signed stacks
    assert split(4, {}) == {NONE: 4}
    for total in range(-20, 21):
        for w in ({"a": 1, "b": 2, "c": 4}, {"x": 7, "y": -3}, {"p": 1}):
            assert sum(split(total, w).values()) == total


# ---------------------------------------------------------------- statuses keep their sources
def test_sources_follow_decay_and_removal() -> None:
    g = game(["defend"] * 10)
    e, worm = g._e, g._e.s.units[1]
    U.apply_status(e, worm, "vulnerable", 2, credit="bash")
    U.apply_status(e, worm, "vulnerable", 1, credit="thunderclap")
    U.remove_status(e, worm, "vulnerable", 1)  # 3 -> 2: 4/3 and 2/3
    assert worm.sources["vulnerable"] == {"bash": 1, "thunderclap": 1}
    U.remove_status(e, worm, "vulnerable")
    assert "vulnerable" not in worm.sources and "vulnerable" not in worm.statuses


def test_a_status_applied_by_a_status_is_credited_to_that_status_s_card() -> None:
    g = game(["defend"] * 10)
    worm = g.enemies[0]
    hp = worm.hp
    play(g, "combust")
    assert g._e.s.units[0].sources["combust"] == {"combust": 5}
    g.end_player_turn()
    assert g.stats["damage"] == {"combust": 5} and hp - worm.hp == 5


def test_a_reaction_s_damage_goes_to_the_card_that_applied_the_status() -> None:
    g = game(["defend"] * 10, seed=3)
    worm = g.enemies[0]
    hp = worm.hp
    play(g, "flame_barrier")  # 12 block, and 4 damage back when attacked this turn
    g.end_player_turn()  # the worm's Chomp (seed 3: its first move) hits the barrier
    assert worm.history[0] == "chomp"
    assert g.stats["damage"] == {"flame_barrier": 4} and hp - worm.hp == 4


def test_an_enemy_move_is_the_source_of_what_it_applies() -> None:
    g = game(["defend"] * 10, "jaw_worm", seed=3)
    for _ in range(2):  # Chomp, then Bellow: 3 Strength (and 6 block)
        g.end_player_turn()
    worm = g._e.s.units[1]
    assert worm.history[:2] == ["chomp", "bellow"]
    assert worm.sources == {"strength": {"(jaw_worm:bellow)": 3}}


def test_sources_survive_clone_pickle_and_save_and_a_bad_row_is_refused() -> None:
    g = game(["defend"] * 10)
    play(g, "inflame")
    play(g, "bash", 0)
    c = g.clone()
    assert c._e.s.units[0].sources == {"burning_blood": {NONE: 1}, "strength": {"inflame": 2}}
    c._e.s.units[0].sources["strength"]["inflame"] = 9
    assert g._e.s.units[0].sources["strength"] == {"inflame": 2}  # (a copy, not shared)
    data = g.to_json()
    # (a status whose only source is "(none)" is saved as none known: the same thing)
    known = [{"strength": {"inflame": 2}}, {"vulnerable": {"bash": 2}}]
    for h in (gcs.Game.from_json(C, data), pickle.loads(pickle.dumps(g))):
        assert [u.sources for u in h._e.s.units] == known
        assert h.to_json() == data
    play(h, "strike", 0)
    assert h.stats["damage"] == {"bash": 12, "inflame": 4, "strike": 6}
    assert len(data["state"]["units"][1]) == 15 and data["state"]["units"][1][14] == [
        ["vulnerable", [["bash", 2]]]]
    assert data["state"]["units"][0][14] == [["strength", [["inflame", 2]]]]  # (no "(none)")
    data["state"]["units"][0][14][0][1].append(["inflame", 1])
    with pytest.raises(SaveError, match=r"source 'inflame' appears twice"):
        gcs.Game.from_json(C, data)


def test_stacks_edited_by_hand_in_a_save_are_credited_to_none() -> None:
    g = game(["defend"] * 10)
    play(g, "inflame")
    data = g.to_json()
    data["state"]["units"][0][6] = [["burning_blood", 1], ["strength", 5]]
    data["state"]["units"][0][14].append(["vulnerable", [["bash", 1]]])  # (not held: dropped)
    data["state"]["units"][0][14].append(["burning_blood", [["x", 1]]])
    h = gcs.Game.from_json(C, data)
    assert h._e.s.units[0].sources == {"strength": {"inflame": 2, NONE: 3},
                                       "burning_blood": {"x": 1}}


def test_a_format_4_save_loads_with_no_sources() -> None:
    g = game(["defend"] * 10)
    play(g, "inflame")
    data = g.to_json()
    data["format"] = 4
    data["state"]["units"] = [u[:14] for u in data["state"]["units"]]
    assert len(g.to_json()["state"]["units"][0]) == 15
    h = gcs.Game.from_json(C, data)
    assert h._e.s.units[0].sources == {}
    play(h, "strike", 0)  # its Strength's source is not known: "(none)"
    assert h.stats["damage"] == {"strike": 6, NONE: 2}


# ---------------------------------------------------------------- the sum, on every fight
DECK = ["strike"] * 3 + ["defend"] * 2 + ["bash", "inflame", "combust", "thunderclap",
                                          "clothesline", "flex", "disarm", "pummel", "rupture",
                                          "hemokinesis", "flame_barrier", "uppercut"]


@pytest.mark.parametrize("encounter", sorted(C.encounters))
def test_damage_by_card_sums_to_the_damage_dealt_on_every_bundled_encounter(
        encounter: str) -> None:
    for i in range(3):
        g = new_game(C, battle_seed(11, i), DECK if i else None, None, log_events=True)
        r = play_battle(g, encounter, RandomPolicy(policy_seed(11, i)), take_rewards=False)
        assert all(v > 0 for v in r.damage.values())
        assert sum(r.damage.values()) == hp_lost_by_enemies(g)

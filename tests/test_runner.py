"""Battle and run runners: stalemates end as 'unfinished', never hang or crash a simulation."""

from __future__ import annotations

from minipack import mini

from gcs import Game
from gcs.content.defs import DeckEntry
from gcs.sim.policies import GreedyPolicy, RandomPolicy
from gcs.sim.runner import play_battle
from gcs.sim.simulate import Summary


def test_a_stalemate_stops_at_the_turn_cap_as_unfinished_and_not_won() -> None:
    # only Defends against an enemy that never attacks: nobody can ever win or lose
    content = mini(deck=(DeckEntry("defend", count=10),))
    g = Game(content, seed=3, log_events=False)
    r = play_battle(g, "dummy", GreedyPolicy(), max_turns=12)
    assert r.unfinished and not r.won and r.hp_left == 0
    assert g.turn_number == 13 and g.is_battle_active  # stopped, the battle itself is intact


def test_summary_counts_unfinished_battles() -> None:
    content = mini(deck=(DeckEntry("defend", count=10),))
    s = Summary()
    for seed in range(3):
        g = Game(content, seed=seed, log_events=False)
        r = play_battle(g, "dummy", RandomPolicy(seed), max_turns=5)
        s.battles += 1
        s.unfinished += r.unfinished
    assert s.to_dict()["unfinished"] == 3 and s.to_dict()["wins"] == 0


def test_a_normal_battle_is_finished() -> None:
    g = Game(mini(), seed=1, log_events=False)
    r = play_battle(g, "jaw_worm", RandomPolicy(1))
    assert not r.unfinished and r.won == bool(g.last_result)

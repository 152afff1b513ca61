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


def first_legal(game: object, legal: list[object]) -> object:
    """A user policy for the CLI test: always the first legal action."""
    return legal[0]


class SeededLast:
    """A user policy class: made with the battle's policy seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, game: object, legal: list[object]) -> object:
        return legal[-1]


def test_cli_takes_a_user_policy_as_module_callable(capsys) -> None:  # type: ignore[no-untyped-def]
    from gcs.cli import main
    from gcs.sim.policies import make_policy

    assert make_policy("test_runner:first_legal", 5) is first_legal
    made = make_policy("test_runner:SeededLast", 5)
    assert isinstance(made, SeededLast) and made.seed == 5
    assert main(["simulate", "--encounter", "jaw_worm", "--battles", "3", "--policy",
                 "test_runner:SeededLast", "--json"]) == 0
    assert main(["simulate", "--encounter", "jaw_worm", "--battles", "3", "--policy",
                 "nowhere:nothing"]) == 2
    assert "cannot load policy 'nowhere:nothing'" in capsys.readouterr().err

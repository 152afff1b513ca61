"""Batch simulation (``gcs.sim.simulate``): results depend on the seed only, never on the
number of worker processes or the chunk size; the CLI's ``--json`` output is that summary."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

import gcs
from gcs.cli import main
from gcs.sim.policies import make_policy
from gcs.sim.runner import battle_seed, new_game, play_battle, policy_seed
from gcs.sim.simulate import Job, Summary, parse_deck, simulate

CONTENT = gcs.builtin_content()
BATTLES = 200
CHUNK = 25
KEYS = ("win_rate", "mean_turns", "mean_hp_left_when_won", "plays_by_card", "damage_dealt",
        "damage_by_card")


def job(seed: int = 1, encounter: str = "jaw_worm", policy: str = "random",
        deck: tuple[str, ...] | None = None) -> Job:
    return Job(None, encounter, policy, seed, deck, None)


@cache
def summary(seed: int, workers: int, chunk: int = CHUNK, encounter: str = "jaw_worm",
            policy: str = "random") -> dict[str, Any]:
    return simulate(job(seed, encounter, policy), BATTLES, workers=workers, chunk=chunk,
                    content=CONTENT if workers == 1 else None).to_dict()


def test_simulate_two_worker_processes_give_the_same_numbers_as_one() -> None:
    one = summary(1, workers=1)
    two = summary(1, workers=2)
    assert two == one
    assert one["battles"] == BATTLES


def test_simulate_multi_enemy_greedy_is_worker_independent_too() -> None:
    one = summary(4, workers=1, encounter="two_louses", policy="greedy")
    two = summary(4, workers=2, encounter="two_louses", policy="greedy")
    assert two == one


def test_simulate_same_seed_gives_the_same_numbers_twice() -> None:
    first = simulate(job(1), BATTLES, workers=1, chunk=CHUNK, content=CONTENT).to_dict()
    assert first == summary(1, workers=1)


def test_simulate_chunk_size_does_not_change_the_numbers() -> None:
    assert summary(1, workers=1, chunk=7) == summary(1, workers=1)
    assert summary(1, workers=1, chunk=1000) == summary(1, workers=1)


def test_simulate_different_seeds_give_different_numbers() -> None:
    a, b = summary(1, workers=1), summary(2, workers=1)
    assert a != b
    assert (a["wins"], a["mean_turns"], a["plays_by_card"]) != \
        (b["wins"], b["mean_turns"], b["plays_by_card"])


def test_simulate_summary_is_consistent() -> None:
    d = summary(1, workers=1)
    assert 0 <= d["wins"] <= d["battles"] == BATTLES
    assert d["win_rate"] == round(d["wins"] / BATTLES, 4)
    assert sum(d["turns_histogram"].values()) == BATTLES
    mean = sum(int(t) * n for t, n in d["turns_histogram"].items()) / BATTLES
    assert d["mean_turns"] == round(mean, 3)
    assert set(d["plays_by_card"]) <= {"strike", "defend", "bash"}  # the starter deck
    assert set(d["damage_by_card"]) <= set(d["plays_by_card"])
    assert d["damage_by_card"]["strike"] > 0 and "defend" not in d["damage_by_card"]
    if d["wins"]:
        assert 0 < d["mean_hp_left_when_won"] <= 80 + 6


def test_simulate_battle_i_replays_on_its_own() -> None:
    """Battle ``i`` of a simulation is an ordinary seeded battle: it can be re-run alone."""
    s = simulate(job(9), 3, workers=1, chunk=CHUNK, content=CONTENT)
    alone = Summary()
    for i in range(3):
        g = new_game(CONTENT, battle_seed(9, i))
        r = play_battle(g, "jaw_worm", make_policy("random", policy_seed(9, i)),
                        take_rewards=False)
        alone.battles += 1
        alone.wins += r.won
        alone.turns += r.turns
        for k, v in r.plays.items():
            alone.plays[k] = alone.plays.get(k, 0) + v
    assert (s.battles, s.wins, s.turns, s.plays) == (alone.battles, alone.wins, alone.turns,
                                                     alone.plays)


def test_simulate_progress_reports_every_chunk_in_order() -> None:
    seen: list[tuple[int, int]] = []
    simulate(job(1), 60, workers=1, chunk=25, content=CONTENT,
             progress=lambda done, total: seen.append((done, total)))
    assert seen == [(25, 60), (50, 60), (60, 60)]


def test_simulate_with_a_deck() -> None:
    deck = parse_deck("strike*3,pommel_strike*2, shrug_it_off ,bash")
    assert deck == ("strike", "strike", "strike", "pommel_strike", "pommel_strike",
                    "shrug_it_off", "bash")
    d = simulate(job(3, deck=deck), 40, workers=1, chunk=CHUNK, content=CONTENT).to_dict()
    assert set(d["plays_by_card"]) <= set(deck)
    assert d["plays_by_card"].get("pommel_strike", 0) > 0


def test_simulate_cli_json_output_parses_and_matches_the_library(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--encounter", "jaw_worm", "--battles", "50", "--seed", "3",
                 "--chunk", "10", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    d = json.loads(out)
    for k in KEYS:
        assert k in d, k
    assert isinstance(d["win_rate"], float) and 0.0 <= d["win_rate"] <= 1.0
    assert isinstance(d["plays_by_card"], dict) and isinstance(d["damage_by_card"], dict)
    assert d["damage_dealt"] == sum(d["damage_by_card"].values()) > 0
    assert (d["encounter"], d["policy"], d["seed"], d["battles"]) == ("jaw_worm", "random", 3, 50)
    lib = simulate(job(3), 50, workers=1, chunk=10, content=CONTENT).to_dict()
    assert {k: d[k] for k in lib} == lib


def test_simulate_cli_json_is_the_same_with_two_workers(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--encounter", "cultist", "--battles", "40", "--seed", "5", "--chunk",
            "10", "--json"]
    assert main(args) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*args, "--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two

"""Enemy slots: an enemy that appears after the five slots are taken gets a dead enemy's slot
(the Slime Boss's last splits), targets and observations follow the slot map, and the map is
part of the env's state; a battle of at most five enemies keeps enemy ``t`` in slot ``t``."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import gymnasium
import numpy as np

import gcs.env  # noqa: F401  (registers the tasks)
from gcs import builtin_content
from gcs.agents import HeuristicAgent
from gcs.env.actions import MAX_ENEMIES
from gcs.env.gym import GcsEnv
from gcs.errors import ArgumentError

DECK = ["bash"] * 3 + ["pommel_strike"] * 4 + ["shrug_it_off"] * 3 + ["inflame"]


def make(encounter: str) -> GcsEnv:
    env = gymnasium.make("gcs/SlimeBoss-v0", encounter=encounter, deck=DECK).unwrapped
    assert isinstance(env, GcsEnv)
    return env


def heuristic_until(env: GcsEnv, seed: int, stop: Any) -> dict[str, Any]:
    """Play the heuristic (in the game's order of actions) from ``reset(seed)`` until
    ``stop(env)``; returns the last observation."""
    obs, _ = env.reset(seed=seed)
    agent = HeuristicAgent(seed)
    while not stop(env):
        g = env.game
        assert g is not None
        offered = set(env.legal_actions())
        a = agent(g, [b for b in g.legal_actions() if b in offered])
        obs, _, te, tr, _ = env.step(env.encode(a))
        assert not (te or tr), "the episode ended before the state looked for"
    return obs


def enemies(env: GcsEnv) -> int:
    g = env.game
    assert g is not None
    return len(g._e.s.units) - 1


def test_the_slime_boss_last_splits_take_the_slots_of_dead_enemies() -> None:
    env = make("slime_boss")
    obs = heuristic_until(env, 0, lambda e: enemies(e) == 7 and e.legal_actions()[-1:] != [])
    g = env.game
    assert g is not None
    units = g._e.s.units
    slots = env.episode.enemies
    # boss (0) split into two Larges (1, 2), each into two Mediums (3, 4 and 5, 6): the
    # last two took the first dead enemies' slots, the boss's and the first Large's
    assert slots.units == [5, 6, 2, 3, 4]
    assert not units[1].alive and not units[2].alive
    living = [t for t in range(7) if units[t + 1].alive]
    assert set(living) <= set(slots.units)
    # the observation shows each slot's enemy
    vocab = env.observer.vocab
    assert [int(x) for x in obs["enemy_ids"]] == [vocab.enemy_id[units[t + 1].def_id]
                                                 for t in slots.units]
    # a targeted play at enemy 5 has slot 0's index, and decodes back to enemy 5
    plays = [a for a in g.legal_actions() if a.kind == "play" and a.target == 5]
    assert plays, "a targeted card in hand at enemy 5"
    k = env.encode(plays[0])
    assert k == env.layout.play0 + plays[0].card * MAX_ENEMIES + 0
    assert env.decode(k) == plays[0]


def test_the_slot_map_is_part_of_the_state_pickle_and_copy() -> None:
    env = make("slime_boss")
    heuristic_until(env, 0, lambda e: enemies(e) == 7)
    state = env.get_state()
    assert state["episode"]["enemies"] == [5, 6, 2, 3, 4]
    other = make("slime_boss")
    other.reset(seed=99)
    _, info = other.set_state(state)
    assert other.episode.enemies == env.episode.enemies
    assert info["legal_actions"] == [str(a) for a in env.legal_actions()]
    for clone in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert clone.episode.enemies == env.episode.enemies
        assert (clone.action_masks() == env.action_masks()).all()
    # a state of the format before slot maps still loads: the map made again by the same
    # rule from the enemies as they are (in encounter order, later ones in dead ones' slots)
    old = copy.deepcopy(state)
    old["format"] = "gcs-env-state-1"
    del old["episode"]["enemies"]
    other.set_state(old)
    assert other.episode.enemies.units == [5, 6, 2, 3, 4]
    bad = copy.deepcopy(state)
    bad["episode"]["enemies"] = [5, 5, 2, 3, 4]
    try:
        other.set_state(bad)
    except ArgumentError as exc:
        assert "enemies" in str(exc)
    else:
        raise AssertionError("a slot map with an enemy twice was accepted")


def test_at_most_five_enemies_keep_their_encounter_order() -> None:
    env = make("large_slime")
    obs = heuristic_until(env, 1, lambda e: enemies(e) == 3)
    assert env.episode.enemies.units == [0, 1, 2, -1, -1]  # (the dead Large keeps slot 0)
    assert float(obs["enemies"][0][0]) == 1.0 and float(obs["enemies"][0][1]) == 0.0
    assert np.count_nonzero(obs["enemy_ids"]) == 3


def test_no_bundled_encounter_starts_with_more_enemies_than_slots() -> None:
    content = builtin_content()
    assert max(len(e.enemies) for e in content.encounters.values()) == MAX_ENEMIES

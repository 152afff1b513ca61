"""Saves of the previous formats load: a format 2 or 3 save (made before the steps were
numbered as the seeds number them, gcs/battle/save_format.py; format 3 added the places in
Draw the player knows) loads into the game the current engine plays from the same inputs,
and goes on as it does.

``tests/golden/saves_format2.json`` holds format 2 saves of the pausing pack, each paused with
a different procedure frame on the stack (a play at each of its steps, the turn start, the turn
end, the EnemyPhase, an enemy's turn, the turn-end hand, a draw), with the seed and the number
of random inputs (tests/test_flow_saves.py) that led to it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_flow_saves import PACK, act, new_game, next_action

from gcs.battle import frames as K
from gcs.battle.save_format import FORMAT
from gcs.errors import SaveError
from gcs.game import Game

SAVES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "golden" / "saves_format2.json").read_text())


def _played(seed: int, inputs: int) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    g = new_game(seed)
    for _ in range(inputs):
        a = next_action(g, rng)
        assert a is not None
        act(g, a)
    return g, rng


def _but_known(save: dict[str, Any]) -> dict[str, Any]:
    """A save without the known places in Draw (a format 2 game knows none: it was played
    before they were kept, docs/rules.md, Hidden information), nor the units' HP-loss
    counters (an older save has none: they load as 0)."""
    return dict(_but_counters(save),
                state={k: v for k, v in _but_counters(save)["state"].items() if k != "known"})


def _but_counters(save: dict[str, Any]) -> dict[str, Any]:
    """A save without the units' HP-loss counters (``Unit.hp_losses``, a unit row's item 13)
    nor the block credit (an older save holds none: it loads as {}, its block not counted)."""
    state = save["state"]
    return dict(save, state=dict(state, units=[u[:13] for u in state["units"]], block={}))


def test_each_format_2_save_loads_into_the_game_the_engine_plays() -> None:
    kinds: set[int] = set()
    for row in SAVES:
        old = row["save"]
        assert old["format"] == 2
        loaded = Game.from_json(PACK, old)
        played, rng = _played(row["seed"], row["inputs"])
        assert _but_known(loaded.to_json()) == _but_known(played.to_json())
        assert loaded._e.s.known_top == loaded._e.s.known_bottom == 0
        assert loaded.to_json()["format"] == FORMAT
        kinds |= {f.kind for f in loaded._e.s.stack}
        # and it goes on as the game played here does
        twin_rng = random.Random()
        twin_rng.setstate(rng.getstate())
        for _ in range(25):
            a = next_action(played, rng)
            assert a == next_action(loaded, twin_rng)
            if a is None:
                break
            act(played, a)
            act(loaded, a)
            assert _but_known(loaded.to_json()) == _but_known(played.to_json())
    assert {K.PLAY, K.TURN_START, K.TURN_END, K.ENEMY_PHASE, K.ENEMY_TURN, K.HAND_END,
            K.DRAW} <= kinds


def test_each_format_3_save_loads_into_the_game_the_engine_plays() -> None:
    """Format 3 is format 2 with the known places in Draw (``state.known``): the same frames,
    in the old numbering, renumbered on load; the places kept."""
    for row in SAVES:
        played, _ = _played(row["seed"], row["inputs"])
        s = played._e.s
        old = dict(row["save"], format=3,
                   state=dict(row["save"]["state"], known=[s.known_top, s.known_bottom]))
        loaded = Game.from_json(PACK, old)
        assert _but_counters(loaded.to_json()) == _but_counters(played.to_json())


def test_a_save_of_an_unknown_format_is_refused() -> None:
    old = json.loads(json.dumps(SAVES[0]["save"]))
    old["format"] = 1
    with pytest.raises(SaveError, match="unsupported save format 1"):
        Game.from_json(PACK, old)


def test_a_format_4_save_loads_with_no_loot_in_the_rewards() -> None:
    """Format 5 added the gold a battle put into its rewards (``loot``, ``reward_gold``)."""
    g, _ = _played(3, 6)
    new = g.to_json()
    old = dict(new, format=4, state={k: v for k, v in new["state"].items() if k != "loot"})
    loaded = Game.from_json(PACK, old)
    assert loaded._e.s.loot == 0 and loaded.to_json() == new
    with pytest.raises(SaveError, match="loot"):
        Game.from_json(PACK, dict(new, state=dict(new["state"], loot=-1)))

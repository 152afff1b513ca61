"""Saves of the previous format load: a format 2 save (made before the steps were numbered as
the seeds number them, gcs/battle/save_format.py) loads into the game the current engine
plays from the same inputs, and goes on as it does.

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


def test_each_format_2_save_loads_into_the_game_the_engine_plays() -> None:
    kinds: set[int] = set()
    for row in SAVES:
        old = row["save"]
        assert old["format"] == 2
        loaded = Game.from_json(PACK, old)
        played, rng = _played(row["seed"], row["inputs"])
        assert loaded.to_json() == played.to_json()
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
            assert loaded.to_json() == played.to_json()
    assert {K.PLAY, K.TURN_START, K.TURN_END, K.ENEMY_PHASE, K.ENEMY_TURN, K.HAND_END,
            K.DRAW} <= kinds


def test_a_save_of_an_unknown_format_is_refused() -> None:
    old = json.loads(json.dumps(SAVES[0]["save"]))
    old["format"] = 1
    with pytest.raises(SaveError, match="unsupported save format 1"):
        Game.from_json(PACK, old)

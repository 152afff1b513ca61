"""The step runner's contract (gcs/steps/runner.py): run straight through, a procedure plays
the same game as step by step through the engine loop.

Every test plays pairs (tests/steps_support.py): the same game twice, the second with
``Engine.stepwise`` on, so that every sub-procedure, draw, hand-over and straight behaviour is
a frame of its own run by the loop. After every decision both have the same state (frames,
their steps and the engine step count included), the same legal actions and, at the end, the
same event log: on every bundled encounter, the pausing pack, content whose lifecycles queue
work at each step, and with the step guard at every offset of the first turns. Then the
properties that make the straight run fast: a plain turn cycle and a plain play take no trip
through the loop at all; and the step tables are the seeds' (numbers and quoted sentences).
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest
from core_support import pack, seq
from steps_support import (
    MIXER_ENCOUNTERS,
    decks,
    lifecycle_pack,
    mixer_pack,
    pair,
    play_pair,
    state,
    step,
)
from test_flow_saves import PACK, act, next_action

import gcs
from gcs import engine
from gcs.battle import frames as K
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import IntentKind
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel
from gcs.steps import runner

PLAIN_DECK = ["strike"] * 5 + ["defend"] * 5


def test_every_bundled_encounter_plays_the_same_straight_and_step_by_step() -> None:
    content = gcs.builtin_content()
    rng = random.Random(5)
    cards = sorted(content.cards)
    decisions = 0
    for i, encounter in enumerate(sorted(content.encounters) * 3):
        deck = PLAIN_DECK if i < len(content.encounters) else [
            rng.choice(cards) for _ in range(rng.randint(5, 15))]
        a, b = pair(content, deck, seed=i)
        decisions += play_pair(a, b, encounter, seed=i, max_decisions=80)
    assert decisions > 500


def test_the_pausing_pack_plays_the_same_straight_and_step_by_step() -> None:
    """Choices, Waits, Gates and delayed continuations in every composite, with the player's
    On Play and turn-start statuses: the paused states (frames and all) are the same."""
    paused = 0
    for seed in range(8):
        games = pair(PACK, None, seed)
        for g in games:
            g.start_battle("post_foe")
            player = g.player
            assert player is not None
            player.statuses.update({"echo": 1, "doubt": 1})
        rngs = [random.Random(seed), random.Random(seed)]
        for _ in range(200):
            actions = [next_action(g, r) for g, r in zip(games, rngs, strict=True)]
            assert actions[0] == actions[1]
            if actions[0] is None:
                break
            outs = [step(g, lambda g, x=actions[0]: act(g, x)) for g in games]
            assert outs[0] == outs[1]
            assert state(games[0]) == state(games[1])
            paused += games[0].is_waiting
        assert games[0].event_log == games[1].event_log
    assert paused > 100


@pytest.mark.parametrize("player_statuses", [None, {"reactor": 1}, {"watch": 1}, {"ember": 1},
                                             {"ember": 1, "asleep": 3}])
def test_lifecycles_that_queue_work_at_every_step_play_the_same(
        player_statuses: dict[str, int] | None) -> None:
    content = lifecycle_pack(player_statuses)
    rng = random.Random(11)
    decisions = 0
    for i, deck in enumerate(decks(rng, content, n=6)):
        for encounter in ("jaw_worm", "two_dummies", "keep_all", "busy_enemies"):
            a, b = pair(content, deck, seed=100 * i + len(encounter))
            decisions += play_pair(a, b, encounter, seed=i)
    assert decisions > 300


@pytest.mark.parametrize("player_statuses", [None, {"thorns": 1}])
def test_enemy_moves_of_every_kind_play_the_same(player_statuses: dict[str, int] | None) -> None:
    """A round-end status marked "just applied", moves the interpreter runs (a delayed
    continuation, a card for the hand, a turn end asked for, a hand too full to draw into), a
    hit that queues the player's reaction and an enemy that dies in its own turn."""
    content = mixer_pack(player_statuses)
    rng = random.Random(3)
    cards = ["strike", "defend", "strike", "defend", "start_mark"]
    decisions = 0
    for i in range(6):
        deck = PLAIN_DECK if i < 2 else [rng.choice(cards) for _ in range(rng.randint(6, 12))]
        for enc in MIXER_ENCOUNTERS:
            a, b = pair(content, deck, seed=10 * i + len(enc.id))
            decisions += play_pair(a, b, enc.id, seed=i, max_decisions=100)
    assert decisions > 200


def test_the_step_guard_stops_both_at_the_same_step() -> None:
    """With the step limit at every offset of the first turns (the battle start included),
    both stop at the same call, with the same error, and are restored to the same state."""
    stopped = set()
    for content, encounter, deck in (
            (gcs.builtin_content(), "jaw_worm", PLAIN_DECK),
            (lifecycle_pack(), "busy_enemies", [*PLAIN_DECK[:9], "drawn_mark"]),
            (mixer_pack({"thorns": 1}), "frail_mixer", PLAIN_DECK)):
        for limit in range(1, 90):
            a, b = pair(content, deck, seed=limit % 7, rules=gcs.BattleRules(step_limit=limit))
            play_pair(a, b, encounter, seed=limit, max_decisions=30)
            out = step(a, lambda g: g.end_player_turn())
            assert out == step(b, lambda g: g.end_player_turn())
            assert state(a) == state(b)
            stopped.add(out.split(":")[0])
    assert "StepLimitError" in stopped


def test_a_battle_decided_by_hand_ends_at_the_turn_ends_re_read() -> None:
    """An enemy marked dead through its live object before End Turn: EndPlayerTurn's re-read of
    the battle end after the hand commits the victory, straight or step by step."""
    a, b = pair(gcs.builtin_content(), PLAIN_DECK, seed=2)
    for g in (a, b):
        g.start_battle("jaw_worm")
        g.enemies[0].alive = False
        g.end_player_turn()
        assert g.phase is gcs.BattlePhase.BATTLE_WON and g.is_waiting_for_reward
    assert state(a) == state(b) and a.event_log == b.event_log


# a round-end status that never decays, applied by a plain move, then a Wait in the next
# enemy's turn: the paused EnemyPhase frame holds the status "just applied"
TAGGED = StatusDef("tagged", "Tagged", decay_at="round_end")
TAGGER = EnemyDef("tagger", "Tagger", 30, 30, ai=AiDef(cycle=("tag",)), moves=(
    MoveDef("tag", "Tag", IntentKind.DEBUFF,
            behaviour=N.ApplyStatus("tagged", 1, UnitSel("player"))),))
PAUSER = EnemyDef("pauser", "Pauser", 30, 30, ai=AiDef(cycle=("hold",)), moves=(
    MoveDef("hold", "Hold", IntentKind.UNKNOWN,
            behaviour=seq(N.Wait(0.5), N.GainBlock(1, UnitSel("self")))),))


def test_a_wave_paused_mid_enemy_phase_holds_its_frames_as_step_by_step() -> None:
    content = pack(statuses=(TAGGED,), enemies=(TAGGER, PAUSER),
                   encounters=(EncounterDef("tag_pause", "Tag and Pause", ("tagger", "pauser")),))
    a, b = pair(content, PLAIN_DECK, seed=4)
    for g in (a, b):
        g.start_battle("tag_pause")
        g.end_player_turn()
        assert g.waiting_kind == "wait"
        kinds = [(f.kind, f.pc) for f in g._e.s.stack[:2]]
        assert kinds == [(K.ENEMY_PHASE, K.ENEMY_PHASE_TURNS), (K.ENEMY_TURN, K.ENEMY_TURN_END)]
    assert state(a) == state(b) and '"tagged"' in state(a)
    for g in (a, b):
        g.settle()
    assert state(a) == state(b) and a.event_log == b.event_log


def _dispatches(monkeypatch: pytest.MonkeyPatch) -> dict[int, int]:
    """Count the engine loop's handler calls, by frame kind, from now on."""
    seen: dict[int, int] = {}
    for kind, handler in list(engine.HANDLERS.items()):
        def counted(e: Any, f: Any, handler: Any = handler, kind: int = kind) -> None:
            seen[kind] = seen.get(kind, 0) + 1
            handler(e, f)

        monkeypatch.setitem(engine.HANDLERS, kind, counted)
    return seen


def test_a_plain_turn_cycle_and_a_plain_play_take_no_trip_through_the_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Straight through, a plain End Turn (the hand, Jaw Worm's turn, the round's end, the draw)
    and a plain play run in the runner's call; step by step, each procedure, the turn-end
    hand, the draw and each enemy's turn is a trip through the loop. Same steps, same game."""
    a, b = pair(gcs.builtin_content(), PLAIN_DECK, seed=3)
    for g in (a, b):
        g.start_battle("jaw_worm")
    for _ in range(3):
        seen = _dispatches(monkeypatch)
        a.apply(a.legal_actions()[0])
        a.end_player_turn()
        assert seen == {}
        monkeypatch.undo()
        seen = _dispatches(monkeypatch)
        b.apply(b.legal_actions()[0])
        b.end_player_turn()
        assert {K.PLAY, K.TURN_END, K.HAND_END, K.ENEMY_PHASE, K.ENEMY_TURN, K.TURN_START,
                K.DRAW} <= set(seen)
        monkeypatch.undo()
        assert state(a) == state(b)
    assert a.event_log == b.event_log


STEP_TABLES = [p for p in runner.PROCEDURES if p is not None]


def _step_docstrings() -> dict[str, str]:
    """Each step class's docstring, read from the source (a compiled class keeps none)."""
    out = {}
    for path in (Path(__file__).parent.parent / "gcs" / "steps").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                out[node.name] = ast.get_docstring(node) or ""
    return out


DOCS = _step_docstrings()


@pytest.mark.parametrize("proc", STEP_TABLES, ids=lambda p: p.name)
def test_each_step_table_is_keyed_by_the_seeds_step_numbers(proc: runner.Procedure) -> None:
    """A procedure lists the steps frames.STEPS names for its kind, in order; each step's
    ``number`` is its key and its docstring opens with the seed's step number (the part of a
    step that goes on after queued work quotes the same number)."""
    numbers = [n for n, step_ in enumerate(proc.table) if not isinstance(step_, runner._NoStep)]
    assert tuple(numbers) == K.STEPS[proc.kind]
    for n in numbers:
        step_ = proc.table[n]
        assert step_.number == n
        doc = DOCS[type(step_).__name__]
        if proc.kind in (K.LOST,):
            continue  # (seed 001 does not number the defeat's steps)
        opening = re.match(r"(\d+)(?:-(\d+))?\.", doc)
        assert opening, (proc.name, n, doc[:40])
        first, last = int(opening.group(1)), int(opening.group(2) or opening.group(1))
        assert first <= n // 10 <= last, (proc.name, n, doc[:40])

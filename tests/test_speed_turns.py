"""The turn cycle's shortcuts play the same game as the frame-by-frame step tables.

Without a subscriber the engine takes its shortcuts: the turn-end hand and the turn's draw run
inside their phase step, each enemy's turn inside the EnemyPhase frame's call (their engine
steps counted as the loop counts them), draws into the hand's room go in one batch, a plain
hand is discarded at once. A subscriber (nobody may look
at the battle half-way through a shortcut) makes every step run frame by frame, so a game with
a no-op subscriber is the slow twin of the same game without one: after every decision both
must have the same state (the step count included) and the same event log. Legal actions'
inlined cost check is checked against the play gate it stands for.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest
from core_support import mark, pack, seq, watcher
from minipack import card

import gcs
from gcs import engine
from gcs import events as ev
from gcs.battle import frames as K
from gcs.battle.hooks import hooks_possible
from gcs.battle.play import card_gate, playable_in_hand
from gcs.content.db import Content
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import Decay, HandDiscardRule, IntentKind, Keyword
from gcs.errors import GameError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel, UnitSel
from gcs.sim.policies import RandomPolicy

PLAYER = UnitSel("player")

# Cards and statuses that make each shortcut fall back: a card's own On Drawn / On Discard /
# On Turn End, Ethereal with an exhaust reaction, Retain, hooks on hand size, draws and energy.
LIFECYCLE = (
    card("drawn_mark", 0, on_drawn=mark(1)),
    card("drawn_draw", 0, on_drawn=N.DrawCards(1)),
    card("discard_mark", 1, on_discard=mark(2)),
    card("end_mark", 1, on_turn_end=mark(3)),
    card("start_mark", 1, on_turn_start=mark(4)),
    card("ghost", 1, keywords=(Keyword.ETHEREAL,), on_exhaust=mark(5)),
    card("keeper", 1, keywords=(Keyword.RETAIN,)),
    card("big_hand", 1, hooks=(N.HookDef("hand_size", "set", 6),)),
    card("no_draw", 2, hooks=(N.HookDef("draw", "forbid"),)),
    card("more_draw", 1, hooks=(N.HookDef("draw", "add", 2),)),
    card("pump", 0, on_play=N.ApplyStatus("reactor", 1, PLAYER)),
    card("drain", 0, on_play=N.RemoveStatus("reactor", PLAYER)),
    card("fetch", 0, on_play=N.DrawCards(3)),
    card("cheapen", 0, on_play=N.ModifyCost(CardSel("hand"), -1, duration="turn")),
    card("slash", 0, on_play=N.ModifyCost(CardSel("hand"), -3, duration="battle")),
    card("fix_cost", 0, on_play=N.ModifyCost(CardSel("hand"), set_to=2, duration="turn")),
    card("free_now", 0, on_play=N.ModifyCost(CardSel("draw"), set_to=0, duration="battle")),
    card("again", 1, on_play=N.ExtraTurn()),
    card("later", 1, on_play=seq(N.WaitUntil("player_turn_start"), mark(9))),
    card("enemy_later", 1, on_play=seq(N.WaitUntil("enemy_phase_end"), N.DrawCards(1))),
)
REACTOR = StatusDef("reactor", "Reactor", entries={"on_drawn": mark(7), "on_discard": mark(8)})
# a status the turn cycle never reads (Burning Blood's kind): a player holding only it is quiet
EMBER = StatusDef("ember", "Ember", entries={"on_battle_end": mark(10)})
# Enemies whose turns queue work, so that the inline enemy turn gives way to its frame: turn
# start and end status branches, an intent that waits for the end of the EnemyPhase, one that
# hits several times, one that makes the player draw, and a control status that skips turns.
ENEMIES = (
    EnemyDef("watched", "Watched", 30, 30, statuses={"enemy_watch": 1},
             moves=(MoveDef("poke", "Poke", IntentKind.ATTACK, damage=2,
                            behaviour=N.DealDamage(2, PLAYER)),),
             ai=AiDef(cycle=("poke",))),
    EnemyDef("waiter", "Waiter", 30, 30,
             moves=(MoveDef("wait", "Wait", IntentKind.BUFF,
                            behaviour=seq(N.WaitUntil("enemy_phase_end"), mark(6))),
                    MoveDef("flurry", "Flurry", IntentKind.ATTACK, damage=1, hits=3,
                            behaviour=N.DealDamage(1, PLAYER, hits=3)),
                    MoveDef("gift", "Gift", IntentKind.BUFF,
                            behaviour=seq(N.DrawCards(1), N.GainBlock(3, UnitSel("self"))))),
             ai=AiDef(cycle=("wait", "flurry", "gift"))),
    EnemyDef("sleeper", "Sleeper", 30, 30, statuses={"asleep": 2},
             moves=(MoveDef("yawn", "Yawn", IntentKind.ATTACK, damage=3,
                            behaviour=N.DealDamage(3, PLAYER)),),
             ai=AiDef(cycle=("yawn",))),
)
ENEMY_STATUSES = (watcher("enemy_watch", 60),
                  StatusDef("asleep", "Asleep", skip_turn=True, decay=Decay.MINUS_ONE))
ENCOUNTERS = (EncounterDef("keep_all", "Keep All", ("dummy",),
                           hand_discard=HandDiscardRule.PERSIST),
              EncounterDef("busy_enemies", "Busy Enemies", ("jaw_worm", "watched", "waiter", "sleeper")))


def _content(player_statuses: dict[str, int] | None = None) -> Content:
    return pack(*LIFECYCLE, statuses=(REACTOR, EMBER, watcher("watch", 50), *ENEMY_STATUSES),
                enemies=ENEMIES, encounters=ENCOUNTERS, player_statuses=player_statuses)


def _decks(rng: random.Random, content: Content) -> Iterator[list[str]]:
    ids = sorted(content.cards)
    yield ["strike"] * 5 + ["defend"] * 4 + ["bash"]  # the plain deck: every shortcut taken
    yield ["strike", "defend"] * 8  # more than a hand: reshuffles and a full Draw
    for _ in range(10):
        yield [rng.choice(ids) for _ in range(rng.randint(3, 16))]


def _state(g: gcs.Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def _twins(content: Content, deck: list[str], encounter: str, seed: int,
           rules: gcs.BattleRules | None = None) -> tuple[gcs.Game, gcs.Game]:
    fast = gcs.Game(content, seed=seed, rules=rules)
    slow = gcs.Game(content, seed=seed, rules=rules)
    slow.subscribe(ev.Event, lambda _: None)  # someone listens: every step frame by frame
    for g in (fast, slow):
        g.set_master_deck(deck)
    return fast, slow


def _step(g: gcs.Game, act: Callable[[gcs.Game], object]) -> str:
    """Run one call; its outcome as text (the error it raised, if any)."""
    try:
        act(g)
    except GameError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def _play_twins(fast: gcs.Game, slow: gcs.Game, encounter: str, seed: int,
                max_decisions: int = 150,
                slow_context: Callable[[], AbstractContextManager[object]] = nullcontext) -> int:
    """Play both with the same decisions (the slow one's inside ``slow_context``); compare after
    each one. Returns the decisions."""
    assert _step(fast, lambda g: g.start_battle(encounter)) == _step(
        slow, lambda g: g.start_battle(encounter))
    assert _state(fast) == _state(slow)
    pol = RandomPolicy(seed)
    n = 0
    while n < max_decisions:
        legal = fast.legal_actions()
        assert [str(a) for a in legal] == [str(a) for a in slow.legal_actions()]
        if not legal:
            break
        a = pol(fast, legal)
        out = _step(fast, lambda g, a=a: g.apply(a))
        with slow_context():
            assert out == _step(slow, lambda g, a=a: g.apply(str(a))), a
        assert _state(fast) == _state(slow), (n, a)
        n += 1
        if out != "ok":
            break
    assert fast.event_log == slow.event_log
    return n


@pytest.mark.parametrize("player_statuses", [None, {"reactor": 1}, {"watch": 1}, {"ember": 1},
                                             {"ember": 1, "asleep": 3}])
def test_turn_shortcuts_play_as_the_step_tables(player_statuses: dict[str, int] | None) -> None:
    content = _content(player_statuses)
    rng = random.Random(11)
    decisions = 0
    for i, deck in enumerate(_decks(rng, content)):
        for encounter in ("jaw_worm", "two_dummies", "keep_all", "busy_enemies"):
            fast, slow = _twins(content, deck, encounter, seed=100 * i + len(encounter))
            decisions += _play_twins(fast, slow, encounter, seed=i)
    assert decisions > 500


def test_turn_shortcuts_play_as_the_step_tables_on_the_bundled_pack() -> None:
    content = gcs.builtin_content()
    rng = random.Random(5)
    cards = sorted(content.cards)
    for i in range(24):
        deck = [rng.choice(cards) for _ in range(rng.randint(5, 15))]
        encounter = sorted(content.encounters)[i % len(content.encounters)]
        fast, slow = _twins(content, deck, encounter, seed=i)
        _play_twins(fast, slow, encounter, seed=i, max_decisions=80)


def test_turn_shortcuts_stop_at_the_same_step_as_the_step_tables() -> None:
    """Near the step guard the shortcuts give way: a battle stopped by a small step limit
    stops at the same step, with the same error and the same (restored) state."""
    content = _content()
    deck = ["strike"] * 5 + ["defend"] * 4 + ["drawn_mark"]
    stopped = 0
    for encounter in ("jaw_worm", "busy_enemies"):
        for limit in range(40, 140, 3):
            rules = gcs.BattleRules(step_limit=limit)
            fast, slow = _twins(content, deck, encounter, seed=limit, rules=rules)
            _play_twins(fast, slow, encounter, seed=limit)
            stopped += "StepLimitError" in _step(fast, lambda g: g.end_player_turn())
    assert stopped  # some limits fell inside a turn cycle


def _count_frames(monkeypatch: pytest.MonkeyPatch,
                  kinds: tuple[int, ...] = (K.HAND_END, K.DRAW)) -> dict[int, int]:
    """Count the loop's dispatches of the frames of ``kinds`` (HAND_END and DRAW) from now on."""
    seen = dict.fromkeys(kinds, 0)
    for kind in seen:
        step = engine.HANDLERS[kind]

        def counted(e: Any, f: Any, step: Any = step, kind: int = kind) -> None:
            seen[kind] += 1
            step(e, f)

        monkeypatch.setitem(engine.HANDLERS, kind, counted)
    return seen


def test_a_plain_turn_cycle_runs_the_hand_and_the_draw_inside_its_phase_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    content = _content()
    fast, slow = _twins(content, ["strike"] * 5 + ["defend"] * 5, "dummy", seed=3)
    for g in (fast, slow):
        g.start_battle("dummy")
    seen = _count_frames(monkeypatch)
    steps = fast._e.s.steps
    fast.end_player_turn()
    assert seen == {K.HAND_END: 0, K.DRAW: 0}  # no frame of their own: done in the phase steps
    slow.end_player_turn()
    assert seen == {K.HAND_END: 1, K.DRAW: 1}
    assert fast._e.s.steps == slow._e.s.steps > steps  # counted all the same
    assert _state(fast) == _state(slow)
    assert fast.event_log == slow.event_log


def test_an_on_drawn_card_ends_the_draw_batch_and_its_branch_runs_before_the_next_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    content = _content()
    deck = ["drawn_mark"] + ["strike"] * 9
    for seed in range(1, 40):
        fast, slow = _twins(content, deck, "dummy", seed=seed)
        for g in (fast, slow):
            g.start_battle("dummy")
        if any(c.card_id == "drawn_mark" for c in fast.hand()):
            continue  # it must be drawn by the turn's draw
        before = len(fast.event_log)
        seen = _count_frames(monkeypatch)
        fast.end_player_turn()
        new = fast.event_log[before:]
        drawn = [x for x in new if isinstance(x, ev.CardDrawn)]
        if not any(x.card_id == "drawn_mark" for x in drawn):
            monkeypatch.undo()
            continue
        # the DRAW frame with the draws still to do was put under the branch: it ran once
        assert seen[K.DRAW] == 1
        at = next(i for i, x in enumerate(new) if isinstance(x, ev.CardDrawn)
                  and x.card_id == "drawn_mark")
        rest = new[at + 1:]
        first_mark = next(i for i, x in enumerate(rest) if isinstance(x, ev.GoldGained))
        assert all(not isinstance(x, ev.CardDrawn) for x in rest[:first_mark])
        assert len(fast.hand()) == 5
        monkeypatch.undo()
        slow.end_player_turn()
        assert _state(fast) == _state(slow)
        assert fast.event_log == slow.event_log
        return
    raise AssertionError("no seed drew the On Drawn card in the turn's draw")


def test_a_lifecycle_card_at_turn_end_puts_the_hand_frame_under_its_branch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    content = _content()
    fast, slow = _twins(content, ["discard_mark", "strike", "defend", "strike", "defend"],
                        "dummy", seed=2)
    for g in (fast, slow):
        g.start_battle("dummy")
    seen = _count_frames(monkeypatch)
    fast.end_player_turn()
    assert seen[K.HAND_END] == 1  # resumed once after the On Discard branch
    monkeypatch.undo()
    slow.end_player_turn()
    assert _state(fast) == _state(slow)
    assert fast.event_log == slow.event_log
    names = [type(x).__name__ for x in fast.event_log]
    assert names.count("CardDiscarded") >= 5 and 2000 in [
        x.amount for x in fast.event_log if isinstance(x, ev.GoldGained)]


def test_a_retained_or_kept_hand_is_not_discarded_at_once() -> None:
    content = _content()
    for deck, encounter, kept in ((["keeper"] * 5, "dummy", 5), (["strike"] * 5, "keep_all", 5),
                                  (["keeper", "strike", "strike", "keeper", "ghost"], "dummy", 2)):
        fast, slow = _twins(content, deck, encounter, seed=4)
        for g in (fast, slow):
            g.start_battle(encounter)
            g.end_player_turn()
        assert _state(fast) == _state(slow)
        assert fast.event_log == slow.event_log
        retained = [x for x in fast.event_log if isinstance(x, ev.CardRetained)]
        assert len(retained) == kept


def test_playable_in_hand_agrees_with_the_play_gate() -> None:
    """Legal actions' inlined cost check (no hook possible) and the hooked one give what the
    play gate (``card_gate``, through ``effective_cost``) says, for every hand card seen."""
    content = _content()
    rng = random.Random(3)
    checked = {True: 0, False: 0}
    for i, deck in enumerate(_decks(rng, content)):
        g = gcs.Game(content, seed=i)
        g.set_master_deck([*deck, "cheapen", "slash", "fix_cost", "free_now", "more_draw"])
        g.start_battle("jaw_worm")
        pol = RandomPolicy(i)
        for _ in range(60):
            legal = g.legal_actions()
            if not legal:
                break
            e = g._e
            if g.phase is gcs.BattlePhase.PLAYER_PHASE and not g.is_waiting:
                hooks = hooks_possible(e)
                for inst in g.hand():
                    assert playable_in_hand(e, inst, hooks) == (card_gate(e, inst) is None)
                    checked[hooks] += 1
            g.apply(pol(g, legal))
    assert checked[True] > 50 and checked[False] > 50


def test_a_plain_enemy_turn_runs_inside_the_enemy_phase_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Jaw Worm's turns (a single action, or a straight program with its ENTRY frame) have no
    frame of their own without a subscriber; the steps, state and events are the frame path's."""
    content = _content()
    fast, slow = _twins(content, ["strike"] * 5 + ["defend"] * 5, "jaw_worm", seed=8)
    for g in (fast, slow):
        g.start_battle("jaw_worm")
    kinds = (K.ENEMY_TURN, K.ENTRY, K.ENEMY_PHASE, K.TURN_END)
    for turn in range(4):  # the opener (Chomp), then moves with their ENTRY frames
        seen = _count_frames(monkeypatch, kinds)
        fast.end_player_turn()
        assert seen[K.ENEMY_TURN] == 0 and seen[K.ENTRY] == 0, turn
        # the phase and its enemy's turn run inside the turn end's call (``_next_phase``)
        assert seen[K.TURN_END] == 1 and seen[K.ENEMY_PHASE] == 0
        monkeypatch.undo()
        seen = _count_frames(monkeypatch, kinds)
        slow.end_player_turn()
        assert seen[K.ENEMY_TURN] >= 1 and seen[K.ENEMY_PHASE] == 2
        monkeypatch.undo()
        assert fast._e.s.steps == slow._e.s.steps
        assert _state(fast) == _state(slow)
        assert fast.event_log == slow.event_log


def test_a_plain_turn_cycle_is_one_trip_through_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a subscriber, EndPlayerTurn's frame goes on into the EnemyPhase and that into
    PlayerTurnStart in the same handler call (each phase's frame the one before, reset); with
    one, each phase is a trip of its own through the loop. The steps, state and events agree."""
    content = _content()
    fast, slow = _twins(content, ["strike"] * 5 + ["defend"] * 5, "jaw_worm", seed=3)
    for g in (fast, slow):
        g.start_battle("jaw_worm")
    kinds = (K.TURN_END, K.ENEMY_PHASE, K.TURN_START)
    for turn in range(3):
        seen = _count_frames(monkeypatch, kinds)
        fast.end_player_turn()
        assert seen == {K.TURN_END: 1, K.ENEMY_PHASE: 0, K.TURN_START: 0}, turn
        monkeypatch.undo()
        seen = _count_frames(monkeypatch, kinds)
        slow.end_player_turn()
        assert seen[K.TURN_END] >= 1 and seen[K.ENEMY_PHASE] >= 1 and seen[K.TURN_START] >= 1
        monkeypatch.undo()
        assert fast._e.s.steps == slow._e.s.steps
        assert _state(fast) == _state(slow)
        assert fast.event_log == slow.event_log


def test_enemy_turns_that_queue_work_fall_back_to_their_frames(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Status branches at an enemy's turn start and end, an intent that waits, a multi-hit and
    a skipped turn: the inline turn puts its frame under the queued work (the loop then runs it
    frame by frame), and every turn plays as with a subscriber, the step count included."""
    content = _content({"watch": 1})
    fast, slow = _twins(content, ["strike"] * 5 + ["defend"] * 5, "busy_enemies", seed=9)
    for g in (fast, slow):
        g.start_battle("busy_enemies")
    fallbacks = 0
    for _ in range(6):
        if not fast.is_battle_active:
            break
        seen = _count_frames(monkeypatch, (K.ENEMY_TURN,))
        assert _step(fast, lambda g: g.end_player_turn()) == _step(
            slow, lambda g: g.end_player_turn())
        fallbacks += seen[K.ENEMY_TURN]
        monkeypatch.undo()
        assert fast._e.s.steps == slow._e.s.steps
        assert _state(fast) == _state(slow)
    assert fallbacks > 0
    assert fast.event_log == slow.event_log
    amounts = [x.amount for x in fast.event_log if isinstance(x, ev.GoldGained)]
    assert 6000 in amounts  # the waiting intent resumed at the end of the EnemyPhase


def test_a_plain_battle_start_is_one_trip_through_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a subscriber, StartBattle steps 4-7 (the opening draw included) and the first
    PlayerTurnStart run in the START frame's one call; with one, each is a trip of its own.
    The steps, state and events agree, Innate and On Drawn cards included."""
    content = _content()
    for deck in (["strike"] * 5 + ["defend"] * 5, ["drawn_mark", "strike", "drawn_draw"] * 3):
        fast, slow = _twins(content, deck, "jaw_worm", seed=4)
        kinds = (K.START, K.DRAW, K.TURN_START)
        seen = _count_frames(monkeypatch, kinds)
        fast.start_battle("jaw_worm")
        if "drawn_mark" not in deck:
            assert seen == {K.START: 1, K.DRAW: 0, K.TURN_START: 0}
        monkeypatch.undo()
        seen = _count_frames(monkeypatch, kinds)
        slow.start_battle("jaw_worm")
        assert seen[K.START] == 4 and seen[K.DRAW] >= 1 and seen[K.TURN_START] >= 1
        monkeypatch.undo()
        assert fast._e.s.steps == slow._e.s.steps
        assert _state(fast) == _state(slow)
        assert fast.event_log == slow.event_log


def test_a_battle_start_stops_at_the_same_step_as_the_step_tables() -> None:
    """A step limit inside StartBattle stops the fast start where the frames stop it."""
    content = _content()
    deck = ["strike"] * 5 + ["defend"] * 4 + ["drawn_mark"]
    outs = set()
    for limit in range(1, 20):
        rules = gcs.BattleRules(step_limit=limit)
        fast, slow = _twins(content, deck, "busy_enemies", seed=limit, rules=rules)
        out = _step(fast, lambda g: g.start_battle("busy_enemies"))
        assert out == _step(slow, lambda g: g.start_battle("busy_enemies")), limit
        assert fast._e.s.steps == slow._e.s.steps and _state(fast) == _state(slow), limit
        outs.add(out.split(":")[0])
    assert outs == {"StepLimitError", "ok"}

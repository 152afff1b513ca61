"""The fused turn cycle (gcs/battle/cycle.py) plays the same game as the step tables.

End Turn runs EndPlayerTurn -> EnemyPhase -> PlayerTurnStart -> the draw in one call when each
phase's check says that nothing in it can queue work, and hands a phase to its step table
otherwise. Each test plays a game without a subscriber (the fused cycle) against its twin with
a no-op subscriber (every step frame by frame) and compares state, step count and event log
after every decision, on content made to reach each way out of the fused cycle: a move that
marks a round-end status "just applied", a move the interpreter runs (a card added to the
hand, a delayed continuation, an asked turn end), a hit that queues the player's reaction
and kills the enemy in its own turn, a card in hand with its own On Turn Start, and the step
guard at every offset of a cycle. On the pure engine the tests also count the hand-overs, so
that each way out is known to be taken.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from core_support import ALL_ENEMIES, PLAYER, mark, pack, seq
from test_speed_turns import _play_twins, _state, _step

import gcs
from gcs.battle import cycle
from gcs.battle import frames as K
from gcs.content.db import Content
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import Decay, IntentKind, PileScope
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel

PURE = hasattr(cycle.step_turn_end, "__code__")
SELF = UnitSel("self")

# a round-end status an enemy applies (it is marked "just applied" in the EnemyPhase frame),
# and a reaction of the player to a hit that damages every enemy (Frail dies of it)
SAPPED = StatusDef("sapped", "Sapped", decay=Decay.MINUS_ONE, decay_at="round_end")
THORNS = StatusDef("thorns", "Thorns", entries={"on_attacked": N.DealDamage(30, ALL_ENEMIES)})
MOVES = (
    MoveDef("bite", "Bite", IntentKind.ATTACK, damage=3, behaviour=N.DealDamage(3, PLAYER)),
    MoveDef("sap", "Sap", IntentKind.DEBUFF, behaviour=N.ApplyStatus("sapped", 1, PLAYER)),
    MoveDef("guard", "Guard", IntentKind.ATTACK_DEFEND, damage=2, block=3,
            behaviour=seq(N.DealDamage(2, PLAYER), N.GainBlock(3, SELF))),
    # run by the interpreter: a delayed continuation, a card for the hand, a turn end asked for
    MoveDef("later", "Later", IntentKind.BUFF,
            behaviour=seq(N.WaitUntil("enemy_phase_end"), mark(6))),
    MoveDef("gift", "Gift", IntentKind.DEBUFF,
            behaviour=N.AddCards("start_mark", pile=PileScope.HAND)),
    MoveDef("rush", "Rush", IntentKind.DEBUFF, behaviour=N.EndTurn()),  # (ignored here)
    MoveDef("flood", "Flood", IntentKind.DEBUFF,  # (a hand too full for the turn's draw)
            behaviour=N.AddCards("strike", pile=PileScope.HAND, count=7)),
    MoveDef("rest", "Rest", IntentKind.UNKNOWN),
)
MIXER = EnemyDef("mixer", "Mixer", 400, 400, moves=MOVES, ai=AiDef(cycle=tuple(m.id for m in MOVES)))
# dies in its own turn when the player holds Thorns (a composite move: its entry's resume
# re-reads the battle end)
FRAIL = EnemyDef("frail", "Frail", 25, 25, ai=AiDef(cycle=("guard",)), moves=(
    MoveDef("guard", "Guard", IntentKind.ATTACK_DEFEND, damage=2, block=3,
            behaviour=seq(N.DealDamage(2, PLAYER), N.GainBlock(3, SELF))),))
ENCOUNTERS = (EncounterDef("mixer", "Mixer", ("mixer",)),
              EncounterDef("frail_mixer", "Frail and Mixer", ("frail", "mixer")))
START_MARK = N.GainGold(4000)


def _content(player_statuses: dict[str, int] | None = None) -> Content:
    from minipack import card

    return pack(card("start_mark", 1, on_turn_start=START_MARK),
                statuses=(SAPPED, THORNS), enemies=(MIXER, FRAIL), encounters=ENCOUNTERS,
                player_statuses=player_statuses)


def _twins(content: Content, deck: list[str], seed: int,
           rules: gcs.BattleRules | None = None) -> tuple[gcs.Game, gcs.Game]:
    fast = gcs.Game(content, seed=seed, rules=rules)
    slow = gcs.Game(content, seed=seed, rules=rules)
    slow.subscribe(gcs.events.Event, lambda _: None)  # someone listens: every step frame by frame
    for g in (fast, slow):
        g.set_master_deck(deck)
    return fast, slow


@contextmanager
def _ways_out(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Count, on the pure engine, the fused cycle's hand-overs: a phase to its step table
    (``next_phase``, by the phase's frame kind), a turn through ``phases.enemy_turn``, a plain
    move through the interpreter; and the step table's own turn ends."""
    seen: Counter[str] = Counter()
    if not PURE:
        yield seen
        return

    def counted(name: str, fn: Any, key: Any = None) -> Any:
        def call(*args: Any) -> Any:
            seen[name if key is None else f"{name}:{key(args)}"] += 1
            return fn(*args)
        return call

    monkeypatch.setattr(cycle, "next_phase", counted("next_phase", cycle.next_phase,
                                                      key=lambda a: a[2]))
    for name in ("enemy_turn", "start_intent", "stepped_turn_end",
                 "_enemy_phase", "_turn_start"):
        monkeypatch.setattr(cycle, name, counted(name, getattr(cycle, name)))
    try:
        yield seen
    finally:
        monkeypatch.undo()


PLAIN_DECK = ["strike"] * 5 + ["defend"] * 5


def test_a_plain_battle_runs_every_turn_cycle_straight_through(
        monkeypatch: pytest.MonkeyPatch) -> None:
    content = gcs.builtin_content()
    decisions = 0
    with _ways_out(monkeypatch) as seen:
        for seed in range(6):
            fast, slow = _twins(content, PLAIN_DECK, seed)
            decisions += _play_twins(fast, slow, "jaw_worm", seed=seed)
    assert decisions > 60
    if PURE:  # every End Turn of the game with no subscriber: fused through, no hand-over
        assert seen["_enemy_phase"] > 10 and seen["_turn_start"] > 10
        assert not {k for k in seen if k.startswith(("next_phase", "enemy_turn", "start_intent"))}


@pytest.mark.parametrize("player_statuses", [None, {"thorns": 1}])
def test_the_fused_cycle_plays_as_the_step_tables_on_every_way_out(
        monkeypatch: pytest.MonkeyPatch, player_statuses: dict[str, int] | None) -> None:
    content = _content(player_statuses)
    rng = random.Random(3)
    cards = ["strike", "defend", "strike", "defend", "start_mark"]
    decisions = 0
    with _ways_out(monkeypatch) as seen:
        for i in range(8):
            deck = PLAIN_DECK if i < 3 else [rng.choice(cards) for _ in range(rng.randint(6, 12))]
            for encounter in ("mixer", "frail_mixer"):
                fast, slow = _twins(content, deck, seed=10 * i + len(encounter))
                decisions += _play_twins(fast, slow, encounter, seed=i, max_decisions=120)
    assert decisions > 300
    if PURE:
        assert seen["_enemy_phase"] > 20
        # the interpreter's moves (a delayed continuation, a card for the hand, an asked turn
        # end) and the marking one run as the step table runs an enemy's turn
        assert seen["enemy_turn"] > 10
        # a card added to the hand with its own On Turn Start: PlayerTurnStart by its table
        assert seen[f"next_phase:{K.TURN_START}"] > 0
        if player_statuses:
            # a hit on a player with Thorns queues the reaction: the interpreter runs the
            # plain move, and the Frail enemy dies in its own turn
            assert seen["start_intent"] > 0


def test_the_rounds_just_applied_status_survives_the_fused_round_end() -> None:
    """Sap (a plain move applying a round-end status) marks it in the EnemyPhase frame: the
    round's end leaves it, the next round's end takes it."""
    content = _content()
    g = gcs.Game(content, seed=1)
    g.set_master_deck(PLAIN_DECK)
    g.start_battle("mixer")
    player = g.player
    assert player is not None
    g.end_player_turn()  # the mixer bites
    assert "sapped" not in player.statuses
    g.end_player_turn()  # the mixer saps: just applied, kept through this round's end
    assert player.statuses.get("sapped") == 1
    g.end_player_turn()  # the next round's end decays it
    assert "sapped" not in player.statuses


def test_the_fused_cycle_stops_at_the_step_guard_where_the_step_tables_stop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the step guard at every offset of the first turn cycles, both twins stop at the
    same step with the same error and state; near the guard each phase is handed over."""
    content = gcs.builtin_content()
    stopped = 0
    with _ways_out(monkeypatch) as seen:
        for limit in range(8, 70):
            fast, slow = _twins(content, PLAIN_DECK, seed=limit % 5,
                                rules=gcs.BattleRules(step_limit=limit))
            _play_twins(fast, slow, "jaw_worm", seed=limit)
            stopped += "StepLimitError" in _step(fast, lambda g: g.end_player_turn())
    assert stopped > 10
    if PURE:
        kinds = {k for k in seen if k.startswith("next_phase")}
        assert kinds == {f"next_phase:{K.ENEMY_PHASE}", f"next_phase:{K.TURN_START}"}
        assert seen["stepped_turn_end"] > 0


def test_a_battle_decided_by_hand_ends_at_the_turn_ends_re_read() -> None:
    """An enemy marked dead through its live object before End Turn: EndPlayerTurn step 2b's
    re-read of the battle end commits the victory, in the fused cycle as in the step table."""
    content = gcs.builtin_content()
    fast, slow = _twins(content, PLAIN_DECK, seed=2)
    for g in (fast, slow):
        g.start_battle("jaw_worm")
        g.enemies[0].alive = False
        g.end_player_turn()
        assert g.phase is gcs.BattlePhase.BATTLE_WON and g.is_waiting_for_reward
    assert _state(fast) == _state(slow)
    assert fast.event_log == slow.event_log


# a round-end status that never decays: an enemy applying it is still marked "just applied"
TAGGED = StatusDef("tagged", "Tagged", decay_at="round_end")
TAGGER = EnemyDef("tagger", "Tagger", 30, 30, ai=AiDef(cycle=("tag",)), moves=(
    MoveDef("tag", "Tag", IntentKind.DEBUFF, behaviour=N.ApplyStatus("tagged", 1, PLAYER)),))
PAUSER = EnemyDef("pauser", "Pauser", 30, 30, ai=AiDef(cycle=("hold",)), moves=(
    MoveDef("hold", "Hold", IntentKind.UNKNOWN, behaviour=seq(N.Wait(0.5), N.GainBlock(1, SELF))),))


def test_a_wave_paused_mid_enemy_phase_holds_the_phase_frame_of_the_step_tables() -> None:
    """A plain move marks its round-end status (even one that never decays) in the EnemyPhase
    frame, and the next enemy's Wait pauses the wave: the paused state, frames included, is
    the step tables' (``PlainIntent.marks`` put the frame on the stack before the move)."""
    content = pack(statuses=(TAGGED,), enemies=(TAGGER, PAUSER),
                   encounters=(EncounterDef("tag_pause", "Tag and Pause", ("tagger", "pauser")),))
    assert content.plain_intents[id(TAGGER.moves[0].behaviour)].marks
    fast, slow = _twins(content, PLAIN_DECK, seed=4)
    for g in (fast, slow):
        g.start_battle("tag_pause")
        g.end_player_turn()
        assert g.waiting_kind == "wait"
    assert _state(fast) == _state(slow)
    assert '"tagged"' in _state(fast)
    for g in (fast, slow):
        g.settle()
    assert _state(fast) == _state(slow)
    assert fast.event_log == slow.event_log


def test_a_cards_cycle_plain_is_what_its_fields_say_and_takes_no_part_in_equality() -> None:
    import dataclasses
    import pickle

    from gcs.content.cache import dumps
    from gcs.enums import Keyword

    content = gcs.builtin_content()
    cards = [*content.cards.values()]
    cards += [c.upgrade for c in cards if c.upgrade is not None]
    seen = set()
    for c in cards:
        want = (c.on_turn_start is None and c.on_turn_end is None and c.on_discard is None
                and not {Keyword.ETHEREAL, Keyword.RETAIN} & c.keywords and not c.hooks)
        assert c.cycle_plain is want, c.id
        seen.add(want)
        back = pickle.loads(dumps(c))  # type: ignore[arg-type]
        assert back == c and back.cycle_plain is want
    assert seen == {True, False}  # (the bundled pack has both kinds)
    strike = content.cards["strike"]
    # derived again whatever is given or replaced; equality, hash and repr ignore it
    mark_node = N.GainGold(1)
    for changed in (dict(on_turn_start=mark_node), dict(on_turn_end=mark_node),
                    dict(on_discard=mark_node), dict(keywords=frozenset({Keyword.ETHEREAL})),
                    dict(keywords=frozenset({Keyword.RETAIN})),
                    dict(hooks=(N.HookDef("draw", "add", 1),))):
        assert dataclasses.replace(strike, **changed).cycle_plain is False, changed
    assert dataclasses.replace(strike, on_drawn=mark_node).cycle_plain is True  # (the draw's own)
    odd = dataclasses.replace(strike, cycle_plain=False)
    assert odd.cycle_plain is True and odd == strike and hash(odd) == hash(strike)
    assert "cycle_plain" not in repr(strike)

"""Helpers for the tests of the step runner (gcs/steps/runner.py) and of the engine's derived
facts: two games played with the same decisions and compared after each one, and content that
reaches every way a procedure's step can queue work.

A *pair* is the same game twice, the second with ``Engine.stepwise`` on: the runner returns
to the engine loop at every step boundary it would otherwise go on through (every sub-procedure
and draw as a frame of its own, every hand-over through the loop, every straight behaviour as
its ENTRY frame). The runner's contract is that both play the same game: the same state (the
engine step count included), the same legal actions and the same event log after each call.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext

from core_support import mark, pack, seq, watcher
from minipack import card

import gcs
from gcs.content.db import Content
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import Decay, HandDiscardRule, IntentKind, Keyword, PileScope
from gcs.errors import GameError
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel, UnitSel
from gcs.sim.policies import RandomPolicy

PLAYER = UnitSel("player")
SELF = UnitSel("self")
ALL_ENEMIES = UnitSel("all_enemies")

# Cards and statuses whose lifecycles queue work at each step: a card's own On Drawn / On
# Discard / On Turn End / On Turn Start, Ethereal with an exhaust reaction, Retain, hooks on
# hand size, draws and energy, costs for the turn, an extra turn, delayed continuations.
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
# a status no turn step reads (Burning Blood's kind)
EMBER = StatusDef("ember", "Ember", entries={"on_battle_end": mark(10)})
# Enemies whose turns queue work: turn start and end status branches, an intent that waits for
# the end of the EnemyPhase, one that hits several times, one that makes the player draw, and
# a control status that skips turns.
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
                            behaviour=seq(N.DrawCards(1), N.GainBlock(3, SELF)))),
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


def lifecycle_pack(player_statuses: dict[str, int] | None = None) -> Content:
    """The minipack with LIFECYCLE, its statuses and the busy enemies."""
    return pack(*LIFECYCLE, statuses=(REACTOR, EMBER, watcher("watch", 50), *ENEMY_STATUSES),
                enemies=ENEMIES, encounters=ENCOUNTERS, player_statuses=player_statuses)


# An enemy with every kind of move (a round-end status, moves the interpreter runs: a delayed
# continuation, a card for the hand, a turn end asked for (ignored), a hand too full to draw
# into), and one that dies in its own turn when the player holds Thorns.
SAPPED = StatusDef("sapped", "Sapped", decay=Decay.MINUS_ONE, decay_at="round_end")
THORNS = StatusDef("thorns", "Thorns", entries={"on_attacked": N.DealDamage(30, ALL_ENEMIES)})
MOVES = (
    MoveDef("bite", "Bite", IntentKind.ATTACK, damage=3, behaviour=N.DealDamage(3, PLAYER)),
    MoveDef("sap", "Sap", IntentKind.DEBUFF, behaviour=N.ApplyStatus("sapped", 1, PLAYER)),
    MoveDef("guard", "Guard", IntentKind.ATTACK_DEFEND, damage=2, block=3,
            behaviour=seq(N.DealDamage(2, PLAYER), N.GainBlock(3, SELF))),
    MoveDef("later", "Later", IntentKind.BUFF,
            behaviour=seq(N.WaitUntil("enemy_phase_end"), mark(6))),
    MoveDef("gift", "Gift", IntentKind.DEBUFF,
            behaviour=N.AddCards("start_mark", pile=PileScope.HAND)),
    MoveDef("rush", "Rush", IntentKind.DEBUFF, behaviour=N.EndTurn()),
    MoveDef("flood", "Flood", IntentKind.DEBUFF,
            behaviour=N.AddCards("strike", pile=PileScope.HAND, count=7)),
    MoveDef("rest", "Rest", IntentKind.UNKNOWN),
)
MIXER = EnemyDef("mixer", "Mixer", 400, 400, moves=MOVES, ai=AiDef(cycle=tuple(m.id for m in MOVES)))
FRAIL = EnemyDef("frail", "Frail", 25, 25, ai=AiDef(cycle=("guard",)), moves=(
    MoveDef("guard", "Guard", IntentKind.ATTACK_DEFEND, damage=2, block=3,
            behaviour=seq(N.DealDamage(2, PLAYER), N.GainBlock(3, SELF))),))
MIXER_ENCOUNTERS = (EncounterDef("mixer", "Mixer", ("mixer",)),
                    EncounterDef("frail_mixer", "Frail and Mixer", ("frail", "mixer")))


def mixer_pack(player_statuses: dict[str, int] | None = None) -> Content:
    return pack(card("start_mark", 1, on_turn_start=N.GainGold(4000)),
                statuses=(SAPPED, THORNS), enemies=(MIXER, FRAIL), encounters=MIXER_ENCOUNTERS,
                player_statuses=player_statuses)


def decks(rng: random.Random, content: Content, n: int = 10) -> Iterator[list[str]]:
    """The starter-like deck, a deck bigger than a hand, then ``n`` random decks."""
    ids = sorted(content.cards)
    yield ["strike"] * 5 + ["defend"] * 4 + ["bash"]
    yield ["strike", "defend"] * 8
    for _ in range(n):
        yield [rng.choice(ids) for _ in range(rng.randint(3, 16))]


def state(g: gcs.Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def pair(content: Content, deck: list[str] | None, seed: int,
         rules: gcs.BattleRules | None = None) -> tuple[gcs.Game, gcs.Game]:
    """The same game twice, the second played step by step (``Engine.stepwise``)."""
    straight = gcs.Game(content, seed=seed, rules=rules)
    stepwise = gcs.Game(content, seed=seed, rules=rules)
    stepwise._e.stepwise = True
    if deck is not None:
        for g in (straight, stepwise):
            g.set_master_deck(deck)
    return straight, stepwise


def step(g: gcs.Game, act: Callable[[gcs.Game], object]) -> str:
    """Run one call; its outcome as text (the error it raised, if any)."""
    try:
        act(g)
    except GameError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def play_pair(a: gcs.Game, b: gcs.Game, encounter: str, seed: int, max_decisions: int = 150,
              b_context: Callable[[], AbstractContextManager[object]] = nullcontext) -> int:
    """Start ``encounter`` in both and play them with the same random decisions (``b``'s inside
    ``b_context``), comparing outcome, state, legal actions and, at the end, the event log;
    returns the decisions played."""
    assert step(a, lambda g: g.start_battle(encounter)) == step(
        b, lambda g: g.start_battle(encounter))
    assert state(a) == state(b)
    pol = RandomPolicy(seed)
    n = 0
    while n < max_decisions:
        legal = a.legal_actions()
        assert [str(x) for x in legal] == [str(x) for x in b.legal_actions()]
        if not legal:
            break
        action = pol(a, legal)
        out = step(a, lambda g, x=action: g.apply(x))
        with b_context():
            assert out == step(b, lambda g, x=action: g.apply(str(x))), action
        assert state(a) == state(b), (n, action)
        n += 1
        if out != "ok":
            break
    assert a.event_log == b.event_log
    return n

"""Behaviour programs (gcs/flow/program.py): what the compiler makes of a graph, and that a
straight program run from its ops plays exactly like the tree walk of frames it replaces:
the same events, the same state (stack and engine step count included) at every point."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from flow_support import ALL, HAND, PLAYER, TARGET, M, add, card, enemy, flow_pack, seq, trace
from flow_support import status as mkstatus

import gcs
from gcs import engine as _engine
from gcs import events as ev
from gcs.agent import END, Action
from gcs.battle import frames as K
from gcs.battle.state import Ctx, Frame
from gcs.content.db import Content
from gcs.content.defs import DeckEntry
from gcs.enums import CardType, TargetMode
from gcs.errors import StepLimitError
from gcs.flow import nodes as N
from gcs.flow import program as P
from gcs.flow.exprs import CardSel, Compare, Var
from gcs.game import Game
from gcs.interp import run as interp
from gcs.lazylog import materialize
from gcs.rng import Rng
from gcs.sim.runner import play_battle


def frame_path(content: Content) -> Content:
    """The same content with no compiled programs: every entry runs as the tree walk."""
    ref = copy.copy(content)
    ref.programs = {}
    return ref


# ---------------------------------------------------------------- the compiler
def compile_one(root: N.Node, graphs: dict[str, N.Node] | None = None) -> P.Program:
    return P.Compiler(graphs or {}).program(root)


def test_flags_say_what_a_graph_can_do_through_its_calls() -> None:
    graphs: dict[str, N.Node] = {"w": seq(M(1), N.Wait(1)), "q": N.SetVar("x", 1)}
    assert compile_one(seq(M(1), N.Call("w"))).flags == P.UNRESOLVED  # (no graph "w" given)
    p = compile_one(seq(M(1), N.Call("w")), graphs)
    assert p.flags == P.PAUSE and p.pauses and not p.straight and p.ops == ()
    assert compile_one(N.Branch(True, N.Choice(HAND, "c"))).flags == P.PAUSE
    assert compile_one(N.AnimationGate("g")).flags == P.PAUSE
    assert compile_one(seq(N.WaitUntil("player_turn_start"))).flags == P.DETACH
    for loop in (N.Loop(2, M(1)), N.Foreach(HAND, "c", M(1)), N.While(True, M(1))):
        assert compile_one(seq(loop)).flags == P.LOOP
    quiet = compile_one(seq(N.SetVar("x", 1), N.Call("q"), N.GainEnergy(1)), graphs)
    assert quiet.straight and not quiet.triggers and quiet.flags == 0
    hit = compile_one(N.DealDamage(1, TARGET))
    assert hit.flags == P.TRIGGER and hit.straight and hit.ops == ((P.ACT, hit.root, (), False),)


def test_a_recursive_or_unknown_call_is_not_straight() -> None:
    """(the interpreter then reports it at run time, as before; the loader already rejects
    both at load)"""
    graphs: dict[str, N.Node] = {"r": N.Branch(True, N.Call("r")), "a": seq(N.Call("b")),
                                 "b": N.Branch(True, N.Call("a"))}
    for root in (N.Call("r"), seq(M(1), N.Call("a")), N.Call("nope")):
        p = compile_one(root, graphs)
        assert p.flags & P.UNRESOLVED and not p.straight and p.ops == ()


def test_a_straight_graph_compiles_to_ticks_actions_and_jumps() -> None:
    a, b, c, d = M(1), M(2), M(3), M(4)
    inner = seq(b)
    cond = Compare("gt", Var("n"), 0)
    root = seq(a, N.Branch(cond, inner, c), N.Call("g"))
    p = compile_one(root, {"g": d})
    assert p.needs_entry and p.straight
    assert p.ops == (
        (P.TICK, 1, None, None),                    # the ENTRY's call pushed the Sequence frame
        (P.ACT, a, ((root, 1),), True),             # (a marker can queue nothing: quiet)
        (P.BRANCH, cond, 7, None),
        (P.TICK, 1, None, None),                    # the Sequence frame pushed ``inner``
        (P.ACT, b, ((root, 2), (inner, 1)), True),  # queued work would wait above both frames
        (P.TICK, 1, None, None),                    # ``inner`` popped in its last call
        (P.JUMP, 8, None, None),
        (P.ACT, c, ((root, 2),), True),             # otherwise
        (P.ACT, d, ((root, 3),), True),             # the called graph, in the caller's frame
        (P.TICK, 1, None, None),                    # the Sequence popped in its last call
    )


def test_ticks_merge_but_never_across_a_jump_target() -> None:
    b = M(2)
    root = seq(N.Branch(True, seq(b)))
    ops = compile_one(root).ops
    # inner pop and outer pop are two returns to the loop; the false branch lands between
    assert ops == ((P.TICK, 1, None, None), (P.BRANCH, True, 5, None), (P.TICK, 1, None, None),
                   (P.ACT, b, ((root, 1), (root.steps[0].then, 1)), True),  # type: ignore[union-attr]
                   (P.TICK, 1, None, None), (P.TICK, 1, None, None))
    nested = compile_one(seq(seq(M(1)))).ops
    assert [op[:2] for op in nested] == [(P.TICK, 2), (P.ACT, nested[1][1]), (P.TICK, 2)]


def test_the_builtin_pack_compiles_every_behaviour_and_most_are_straight() -> None:
    c = gcs.builtin_content()
    roots = {id(r) for key in c._programs for r in [c.node_at(key, 0)]}
    assert roots == set(c.programs)
    straight = [p for p in c.programs.values() if p.straight]
    assert len(straight) > 0.8 * len(c.programs)
    bash = c.card("bash").on_play
    assert bash is not None and c.program(bash) is c.programs[id(bash)]


# ---------------------------------------------------------------- the same game
def both(make: Callable[[Content], Game], content: Content,
         script: Callable[[Game], Any]) -> list[Any]:
    """Run ``script`` on a game of the compiled content and on one of the frame path: each
    returns a list of checkpoints (traces, saves); they must be equal."""
    out = []
    for c in (content, frame_path(content)):
        g = make(c)
        out.append(script(g))
    assert out[0] == out[1]
    return out[0]  # type: ignore[no-any-return]


def snap(g: Game) -> tuple[list[str], str]:
    """The events so far and the whole state (stack, engine steps, ...) as JSON."""
    return trace(g), json.dumps(g.to_json(), sort_keys=True)


def reacting_pack() -> Content:
    """A card whose straight On Play has a middle hit that makes a status entry run (itself
    straight, with a draw and a Wait between its steps), a discard lifecycle in a nested
    Sequence and a Call; the enemy's status entry pauses the whole wave."""
    hit = N.DealDamage(3, TARGET)
    on_play = seq(M(1), hit, M(2), N.Branch(Compare("gt", Var("n"), 0), seq(
        M(3), N.DiscardCard(CardSel("hand", random=1)), M(4)), M(40)), N.Call("tail"), M(6))
    thorns = mkstatus("thorns", on_attacked=seq(M(10), N.DrawCards(1), M(11)),
                      on_damage_taken=seq(M(20), N.Wait(1), M(21)))
    cards = [
        card("combo", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
             on_play=seq(N.SetVar("n", 1), on_play)),
        card("fodder", 0, on_discard=seq(M(30), N.GainBlock(2, PLAYER), M(31)),
             on_drawn=N.Branch(True, seq(M(50), M(51)))),
    ]
    return flow_pack(cards, [thorns], [enemy("foe", statuses={"thorns": 1})],
                     graphs={"tail": seq(M(5), N.ApplyStatus("weak", 1, ALL))},
                     deck=(DeckEntry("fodder", count=10),))


def test_a_middle_action_that_queues_entries_and_a_pause_keeps_the_frame_paths_order() -> None:
    def make(c: Content) -> Game:
        g = Game(c, seed=3)
        g.start_battle("foe")
        g.clear_event_log()
        return g

    def script(g: Game) -> list[Any]:
        foe = g.enemies[0]
        assert g.try_play_card(add(g, "combo"), foe)
        points = [snap(g)]  # paused by the Wait of on_damage_taken, mid-wave
        assert g.is_waiting
        g.advance_time(1)
        points.append(snap(g))
        g.end_player_turn()
        points.append(snap(g))
        return points

    points = both(make, reacting_pack(), script)
    events = points[1][0]
    # the status entries run between the hit and the rest of On Play, the draw's On Drawn
    # before the entry goes on, the discard lifecycle before m4, the graph last
    assert trace(events, "m", "draw", "discard") == [
        "m1", "m10", "draw fodder", "m50", "m51", "m11", "m20", "m21", "m2", "m3",
        "discard fodder", "m30", "m31", "m4", "m5", "m6"]
    assert "wait 1" in points[0][0] and "m21" not in points[0][0]


def test_a_pause_inside_a_straight_on_play_leaves_the_same_frames_in_the_save() -> None:
    """The save at the pause holds the NODE frames the tree walk had (node refs and pcs)."""
    def make(c: Content) -> Game:
        g = Game(c, seed=3)
        g.start_battle("foe")
        return g

    def script(g: Game) -> list[Any]:
        assert g.try_play_card(add(g, "combo"), g.enemies[0])
        stack = g.to_json()["state"]["stack"]
        return [[f[:3] for f in stack], snap(g)]

    stack = both(make, reacting_pack(), script)[0]
    kinds = [f[0] for f in stack]
    assert kinds.count(K.NODE) >= 2 and kinds.count(K.ENTRY) >= 2


def test_step_counts_and_the_step_guard_match_the_frame_path_at_every_limit() -> None:
    """``Engine.run`` counts one step per frame handled; a straight program counts the same
    steps where the frames would have returned to the loop, so the guard stops both at the
    same point (or neither), with the same message."""
    content = reacting_pack()

    def outcome(c: Content, limit: int) -> tuple[str, int]:
        g = Game(c, seed=3, rules=gcs.BattleRules(step_limit=limit))
        try:
            g.start_battle("foe")
            before = g.to_json()["state"]["steps"]
            assert g.try_play_card(add(g, "combo"), g.enemies[0])
            g.advance_time(1)
        except StepLimitError as exc:
            return str(exc), -1
        return "", g.to_json()["state"]["steps"] - before

    ref = frame_path(content)
    seen = set()
    for limit in range(1, 60):
        got = outcome(content, limit)
        assert got == outcome(ref, limit), limit
        seen.add(got[1] < 0)
    assert seen == {True, False}  # some limits stop it, the larger ones do not


class Eager:
    """Plays a random playable card while there is one (so every card gets played)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind != END]
        return plays[self.rng.below(len(plays))] if plays else legal[0]


@pytest.mark.parametrize("presenter", [True, False])
def test_every_card_of_the_builtin_pack_plays_the_same(presenter: bool) -> None:
    """Decks made of every card (upgraded and not) in battles on every encounter: identical
    events and final states with and without compiled programs."""
    content = gcs.builtin_content()
    ids = sorted(cid for cid, c in content.cards.items() if c.on_play is not None)
    played: set[str] = set()
    for i, enc in enumerate(sorted(content.encounters)):
        for k in range(3):
            deck = [(cid, (i + j + k) % 2 == 1) for j, cid in enumerate(ids[(i + k) % 3::3])]

            def make(c: Content, deck: list[tuple[str, bool]] = deck, seed: int = i + 100 * k,
                     ) -> Game:
                g = Game(c, seed=seed, presenter=presenter)
                g.set_master_deck(deck)
                return g

            def script(g: Game, enc: str = enc, seed: int = i + k) -> list[Any]:
                r = play_battle(g, enc, Eager(seed), take_rewards=False, max_turns=30)
                played.update(e.card_id for e in g.event_log if isinstance(e, ev.CardPlayed))
                return [r.won, r.turns, repr(g.event_log), json.dumps(g.to_json(), sort_keys=True)]

            both(make, content, script)
    assert len(played) >= 0.9 * len(ids)


# ---------------------------------------------------------------- inline start_entry
INLINE = 99  # a test frame kind: calls start_entry the way the PLAY frame does


def _step_caller(e: Any, f: Frame) -> None:
    """pc 0: start the entry (inline or not), return if it queued work; pc 1: a marker."""
    s = e.s
    if f.pc == 0:
        f.pc = 1
        interp.start_entry(e, f.data[0], f.ctx, inline=f.data[1])
        if s.stack[-1] is not f or s.pause:
            return
    s.stack.pop()
    s.gold += 1000  # shows (as state) that the caller went on after the entry


@pytest.fixture()
def caller_kind() -> Any:
    _engine.HANDLERS[INLINE] = _step_caller
    yield INLINE
    del _engine.HANDLERS[INLINE]


def test_start_entry_inline_runs_like_an_entry_frame(caller_kind: int) -> None:
    """Every behaviour of the reacting pack and of the builtin pack, started by a caller
    frame with ``inline`` on and off: the same events, state and steps."""
    packs = [reacting_pack(), gcs.builtin_content()]
    for content in packs:
        roots = [p.root for p in content.programs.values()
                 if p.straight and p.needs_entry]
        assert roots
        for k, root in enumerate(roots):
            res = []
            for inline in (True, False):
                g = Game(content, seed=k)
                g.start_battle(sorted(content.encounters)[k % len(content.encounters)])
                materialize(g)  # (frames are run below by hand, not by a call: log as it goes)
                e = g._e
                hand = e.s.hand
                ctx = Ctx(0, hand[0] if hand else -1, 1, "", "on_play")
                e.s.stack.append(Frame(caller_kind, None, 0, [root, inline], ctx))
                g.clear_event_log()
                try:
                    e.run()
                    err = ""
                except gcs.GameError as exc:
                    err = type(exc).__name__ + str(exc)
                e.s.stack.clear()  # (a pause may leave frames: the state shows them anyway)
                res.append((err, trace(g), json.dumps(g.to_json(), sort_keys=True)))
            assert res[0] == res[1], (k, root)

"""Plays of every kind play the same game straight through and step by step.

A play's PLAY frame (seed 004 steps 3-5, gcs/steps/play.py) runs its steps in the runner's
call until one queues work: the On Play's work (the frame then waits at step 3's second part,
the statuses' On Play branches), the branches, the Exhaust lifecycle. Each card below ends its
On Play in one of those ways; played in pairs (tests/steps_support.py), the runner's straight
run and the loop's frame-by-frame run give the same state (the stack and the step count
included) and the same event log after every decision.
"""

from __future__ import annotations

import random

from core_support import HAND, mark, pack, seq, watcher
from minipack import card
from steps_support import pair, play_pair

import gcs
from gcs import agent
from gcs.battle import frames as K
from gcs.content.db import Content
from gcs.content.defs import EncounterDef
from gcs.enums import Keyword, TargetMode
from gcs.flow import nodes as N
from gcs.flow import program as P
from gcs.flow.exprs import CardSel, UnitSel

SELF = UnitSel("self")
FOE = UnitSel("target")
HOOK = N.HookDef("draw", "add", 1)

# One card per way a play's first step can end: it completes, or its On Play queues work (a
# draw, a lifecycle, a nested play, a Choice that pauses, a delayed continuation), an Exhaust
# with a lifecycle, a hook registered as the On Play runs (alone, in a program, behind a Call).
CARDS = (
    card("jab", 0, target=TargetMode.SINGLE_ENEMY, on_play=N.DealDamage(2, FOE)),
    card("guard", 0, on_play=N.GainBlock(2, SELF)),
    card("combo", 1, target=TargetMode.SINGLE_ENEMY,
         on_play=seq(N.DealDamage(1, FOE), N.GainBlock(1, SELF), mark(11))),
    card("draw_two", 0, on_play=N.DrawCards(2)),
    card("toss", 0, on_play=N.DiscardCard(CardSel("hand", top=1))),
    card("echo", 1, on_play=N.PlayCard(CardSel("hand", top=1))),
    card("pick", 0, on_play=N.Choice(HAND, "c", then=N.ExhaustCard(CardSel("var", var="c")))),
    card("later", 0, on_play=seq(mark(12), N.WaitUntil("player_turn_start"), mark(13))),
    card("burn", 0, keywords=(Keyword.EXHAUST,), on_exhaust=mark(14)),
    card("burn_quiet", 0, keywords=(Keyword.EXHAUST,), on_play=mark(15)),
    card("hook", 1, on_play=N.RegisterCardHook(HOOK, turns=1)),
    card("hook_seq", 1, on_play=seq(mark(16), N.RegisterCardHook(HOOK, turns=2))),
    card("hook_call", 1, on_play=seq(N.Call("hooking"), mark(17))),
    card("pump", 0, on_play=N.ApplyStatus("watch", 1, SELF)),
    card("blank", 0),
)


def _content(watching: bool) -> Content:
    return pack(*CARDS, statuses=(watcher("watch", 50),),
                graphs={"hooking": N.RegisterCardHook(HOOK, turns=1)},
                player_statuses={"watch": 1} if watching else None)


def _random_decks(names: list[str], seed: int, n: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[rng.choice(names) for _ in range(rng.randint(4, 14))] for _ in range(n)]


def _pair_decisions(content: Content, decks: list[list[str]], encounters: tuple[str, ...],
                    seed: int) -> int:
    """Each deck on each encounter, straight and step by step; the decisions played."""
    decisions = 0
    for i, deck in enumerate(decks):
        for encounter in encounters:
            a, b = pair(content, deck, seed=seed + i)
            decisions += play_pair(a, b, encounter, seed + i, 120)
    return decisions


def _started_pair(content: Content, deck: list[str], seed: int) -> tuple[gcs.Game, gcs.Game]:
    """The same battle on Jaw Worm straight and step by step, started."""
    games = pair(content, deck, seed)
    for g in games:
        g.start_battle("jaw_worm")
    return games


def _play_first(g: gcs.Game, cid: str) -> None:
    s = g._e.s
    g.apply(gcs.Action.play(next(k for k, u in enumerate(s.hand) if s.cards[u].card_id == cid)))


def test_program_flags_say_which_behaviours_register_a_card_hook() -> None:
    content = _content(False)
    progs = content.programs

    def flags(cid: str) -> int:
        node = content.card(cid).on_play
        return progs[id(node)].flags

    assert flags("hook") & P.HOOK and flags("hook_seq") & P.HOOK and flags("hook_call") & P.HOOK
    assert not flags("combo") & P.HOOK and not flags("jab") & P.HOOK
    assert "hook" in repr(progs[id(content.card("hook_seq").on_play)])


def test_plays_of_every_kind_play_the_same_straight_and_step_by_step() -> None:
    decisions = 0
    for watching in (False, True):  # with the player's On Play status: its branches queued
        content = _content(watching)
        decks = _random_decks(sorted(content.cards), 31 + watching, 14)
        decisions += _pair_decisions(content, decks, ("jaw_worm", "two_dummies"), 10 * watching)
    assert decisions > 1500


def test_bundled_plays_play_the_same_straight_and_step_by_step() -> None:
    bundled = gcs.builtin_content()
    decks = _random_decks(sorted(bundled.cards), 41, 8)
    assert _pair_decisions(bundled, decks, tuple(sorted(bundled.encounters)), 0) > 500


def test_a_play_that_pauses_has_its_frame_under_the_paused_work() -> None:
    """The Choice of an On Play pauses the wave: the PLAY frame, at step 3's second part (the
    statuses' On Play branches), is at the bottom, under the On Play's frames."""
    stacks = []
    for g in _started_pair(_content(False), ["pick", "blank", "blank", "blank", "blank"], 3):
        _play_first(g, "pick")
        assert g.is_waiting
        stacks.append([(f.kind, f.pc) for f in g._e.s.stack])
    assert stacks[0] == stacks[1]
    assert stacks[0][0] == (K.PLAY, K.PLAY_STATUSES) and len(stacks[0]) > 1


def test_a_hook_from_an_on_play_waits_for_its_play_either_way() -> None:
    """A Register Card Hook in On Play registers once the play's deferred branches are done
    (step 4): it waits for its play's PLAY frame."""
    logs = []  # (the player's On Play status runs after the On Play, before the hook)
    for g in _started_pair(_content(True), ["hook_seq", "blank", "blank", "blank", "blank"], 5):
        n = len(g.event_log)
        _play_first(g, "hook_seq")
        assert len(g._e.s.hooks) == 1
        logs.append([type(x).__name__ for x in g.event_log[n:]])
    assert logs[0] == logs[1]


def test_legal_actions_past_the_target_table_are_the_tables_own_where_they_exist() -> None:
    """With more enemies than the import-time table has targets, no play is read from the
    tables, yet a (card, target) inside them is still the table's own action: the same object
    as with a smaller battle, and the legal actions are every candidate the refusals allow."""
    from test_speed_play import _candidates

    crowd = EncounterDef("crowd", "Crowd", ("dummy",) * 10)
    content = pack(*CARDS, encounters=(crowd,))
    g = gcs.Game(content, seed=4)
    g.set_master_deck(["jab", "guard", "jab", "blank", "jab"])
    g.start_battle("crowd")
    legal = g.legal_actions()
    assert legal == _candidates(g)
    plays = {(a.card, a.target): a for a in legal if a.kind == "play"}
    assert max(t for _, t in plays) == 9  # past the table's 8 targets
    for (i, t), a in plays.items():
        if t < 8:
            assert a is (agent._TARGETED[i][t] if t >= 0 else agent._UNTARGETED[i])
    jab = next(i for i, t in plays if t == 9)
    g.apply(plays[(jab, 9)])  # an action from the dict plays like any other
    assert g.enemies[9].hp < g.enemies[9].max_hp

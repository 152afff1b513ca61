"""The inlined tests of a play and of the legal actions decide as the helpers they stand for.

* ``play_from_hand`` runs with the stack empty (its callers' precondition: a parked PLAY frame
  goes at 0, and "the step queued work" is "the stack is not empty").
* Its end test (the player and an enemy alive) says "the battle goes on" exactly when
  ``check_end`` would find it undecided.
* ``legal_actions`` asks ``hooks_possible`` only when one of its tests could hold: the hooks
  flag it caches is ``hooks_possible`` itself.
* ``try_play_card`` plays through ``play_from_hand``: the same game as ``apply`` of that play.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from test_speed_turns import _content, _decks, _state

import gcs
from gcs import agent
from gcs.battle import phases
from gcs.battle.hooks import hooks_possible
from gcs.battle.state import GATE, WAIT
from gcs.enums import TargetMode
from gcs.errors import GameError
from gcs.sim.policies import RandomPolicy


def _games() -> Iterator[tuple[gcs.Game, str, int]]:
    """Games on the hook/cost/lifecycle minipack and on the bundled pack, random decks."""
    content = _content({"watch": 1})
    rng = random.Random(11)
    for i, deck in enumerate(_decks(rng, content)):
        g = gcs.Game(content, seed=i)
        g.set_master_deck(deck)
        yield g, ("jaw_worm", "two_dummies")[i % 2], i
    bundled = gcs.builtin_content()
    cards = sorted(bundled.cards)
    encounters = sorted(bundled.encounters)
    for i in range(16):
        g = gcs.Game(bundled, seed=i)
        g.set_master_deck([rng.choice(cards) for _ in range(rng.randint(5, 15))])
        yield g, encounters[i % len(encounters)], i


def _goes_on(e: gcs.engine.Engine) -> bool:
    """``check_end``'s verdict without its commit (on a copy)."""
    return not phases.check_end(e.copy(log=False))


def test_play_from_hand_runs_with_an_empty_stack_and_its_end_test_is_check_end() -> None:
    plays = ends = 0
    for g, encounter, seed in _games():
        g.start_battle(encounter)
        pol = RandomPolicy(seed)
        e = g._e
        s = e.s
        for _ in range(100):
            legal = g.legal_actions()
            if not legal:
                break
            a = pol(g, legal)
            if a.kind == agent.PLAY:
                assert not s.stack and not s.pause  # (apply then calls ``play_from_hand``)
            # the inlined end test, as ``play_from_hand`` runs it once the play is complete
            units = s.units
            going = units[0].alive and any(u.alive and u.uid for u in units)
            assert going == _goes_on(e)
            try:
                g.apply(a)
            except GameError:
                break
            plays += a.kind == agent.PLAY
            units = s.units
            if s.active and not s.stack and not s.pause:
                going = units[0].alive and any(u.alive and u.uid for u in units)
                assert going == _goes_on(e)
                ends += not going
            elif s.rewards is not None or not s.active:
                ends += 1
    assert plays > 300 and ends > 10


def test_legal_actions_cache_the_hooks_possible_flag() -> None:
    checked = hooked = 0
    for g, encounter, seed in _games():
        g.start_battle(encounter)
        pol = RandomPolicy(seed)
        e = g._e
        for _ in range(100):
            legal = g.legal_actions()
            if not legal:
                break
            if e.legal is not None and e.legal_key[0] == e.ticks:
                assert e.legal_key[1] == hooks_possible(e)
                checked += 1
                hooked += e.legal_key[1]
            try:
                g.apply(pol(g, legal))
            except GameError:
                break
    assert checked > 500 and hooked > 20


def test_try_play_card_plays_as_apply() -> None:
    plays = 0
    for g, encounter, seed in _games():
        twin = g.clone()
        for x in (g, twin):
            x.start_battle(encounter)
        pol = RandomPolicy(seed)
        for _ in range(100):
            legal = g.legal_actions()
            assert legal == twin.legal_actions()
            if not legal:
                break
            a = pol(g, legal)
            try:
                g.apply(a)
            except GameError:
                break
            if a.kind == agent.PLAY:
                s = twin._e.s
                inst = s.cards[s.hand[a.card]]
                single = inst.active.target is TargetMode.SINGLE_ENEMY
                assert twin.try_play_card(inst, a.target if single else None)
                if s.pause == WAIT or s.pause == GATE:
                    twin.settle()  # (what ``apply`` does after the play)
                plays += 1
            else:
                twin.apply(a)
            assert _state(g) == _state(twin), a
        assert g.event_log == twin.event_log
    assert plays > 300

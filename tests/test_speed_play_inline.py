"""The inlined tests of a play and of the legal actions decide as the helpers they stand for,
and the facts a card derives from its fields are what its fields say.

* ``legal_actions`` asks ``hooks_possible`` only when one of its tests could hold: the hooks
  flag it caches is ``hooks_possible`` itself.
* ``try_play_card`` plays through ``play_from_hand``: the same game as ``apply`` of that play.
* A card's ``play_gate`` and ``at_turn_end`` are derived from its fields.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from steps_support import decks as _decks
from steps_support import lifecycle_pack as _content
from steps_support import state as _state

import gcs
from gcs import agent
from gcs.agent import Action
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


def _drive(g: gcs.Game, encounter: str, seed: int, look: Callable[[Action], None]) -> None:
    """Start ``encounter`` and play up to 100 random decisions, ``look`` at each one first."""
    g.start_battle(encounter)
    pol = RandomPolicy(seed)
    for _ in range(100):
        legal = g.legal_actions()
        if not legal:
            return
        a = pol(g, legal)
        look(a)
        try:
            g.apply(a)
        except GameError:
            return


def test_legal_actions_cache_the_hooks_possible_flag() -> None:
    seen = {"checked": 0, "hooked": 0}
    for g, encounter, seed in _games():
        e = g._e

        def look(a: Action, e: gcs.engine.Engine = e) -> None:
            if a.kind != agent.PLAY and a.kind != agent.END:
                return  # (answers to a Choice or a reward are not cached)
            # (the legal actions were just computed: the cache holds them)
            assert e.legal is not None and e.legal_key[0] == e.ticks
            assert e.legal_key[1] == hooks_possible(e)
            seen["checked"] += 1
            seen["hooked"] += e.legal_key[1]

        _drive(g, encounter, seed, look)
    assert seen["checked"] > 500 and seen["hooked"] > 20


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


def test_a_cards_play_gate_is_what_its_fields_say_and_takes_no_part_in_equality() -> None:
    import dataclasses
    import pickle

    from gcs.content.cache import dumps
    from gcs.content.defs import PLAY_CHECKED, PLAY_PLAIN, PLAY_PLAIN_SINGLE
    from gcs.enums import Keyword

    content = gcs.builtin_content()
    cards = [*content.cards.values()]
    cards += [c.upgrade for c in cards if c.upgrade is not None]
    seen = set()
    for c in cards:
        if (c.x_cost or Keyword.UNPLAYABLE in c.keywords or c.playable_if is not None
                or c.cost_adjust is not None):  # (a play condition, a cost that moves)
            want = PLAY_CHECKED
        else:
            want = PLAY_PLAIN_SINGLE if c.target is TargetMode.SINGLE_ENEMY else PLAY_PLAIN
        assert c.play_gate == want, c.id
        seen.add(want)
        back = pickle.loads(dumps(c))  # type: ignore[arg-type]
        assert back == c and back.play_gate == want
    assert seen == {PLAY_CHECKED, PLAY_PLAIN, PLAY_PLAIN_SINGLE}
    strike = content.cards["strike"]
    # derived again whatever is given or replaced; equality, hash and repr ignore it
    assert dataclasses.replace(strike, x_cost=True).play_gate == PLAY_CHECKED
    assert dataclasses.replace(strike, target=TargetMode.NONE).play_gate == PLAY_PLAIN
    odd = dataclasses.replace(strike, play_gate=PLAY_CHECKED)
    assert odd.play_gate == PLAY_PLAIN_SINGLE and odd == strike and hash(odd) == hash(strike)
    assert "play_gate" not in repr(strike)


def test_a_cards_turn_end_rule_is_what_its_keywords_say_and_takes_no_part_in_equality() -> None:
    import dataclasses

    from gcs.content.defs import AT_TURN_END_DISCARD, AT_TURN_END_EXHAUST, AT_TURN_END_RETAIN
    from gcs.enums import Keyword

    content = gcs.builtin_content()
    cards = [*content.cards.values()]
    cards += [c.upgrade for c in cards if c.upgrade is not None]
    seen = set()
    for c in cards:
        want = (AT_TURN_END_EXHAUST if Keyword.ETHEREAL in c.keywords
                else AT_TURN_END_RETAIN if Keyword.RETAIN in c.keywords else AT_TURN_END_DISCARD)
        assert c.at_turn_end == want, c.id
        seen.add(want)
    assert AT_TURN_END_DISCARD in seen and AT_TURN_END_EXHAUST in seen
    strike = content.cards["strike"]
    both = frozenset({Keyword.ETHEREAL, Keyword.RETAIN})  # (Ethereal wins: seed 004's table)
    assert dataclasses.replace(strike, keywords=both).at_turn_end == AT_TURN_END_EXHAUST
    assert dataclasses.replace(strike, keywords=frozenset({Keyword.RETAIN})).at_turn_end == (
        AT_TURN_END_RETAIN)
    odd = dataclasses.replace(strike, at_turn_end=AT_TURN_END_RETAIN)
    assert odd.at_turn_end == AT_TURN_END_DISCARD and odd == strike and hash(odd) == hash(strike)
    assert "at_turn_end" not in repr(strike)

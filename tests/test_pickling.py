"""Frozen definitions pickle and copy as ``cls(*fields)`` on both engines (gcs/pickling.py)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import gcs
from gcs import events, rules
from gcs.content import defs
from gcs.flow import exprs, nodes
from gcs.flow.nodes import walk
from gcs.pickling import frozen_classes


def test_every_frozen_definition_class_has_a_registered_reducer() -> None:
    import copyreg

    classes = frozen_classes(defs, nodes, exprs, events, rules)
    assert gcs.GameCard in classes and nodes.Sequence in classes and events.CardPlayed in classes
    missing = [c.__name__ for c in classes if c not in copyreg.dispatch_table]
    assert missing == []


def test_bundled_definitions_round_trip_through_the_content_cache_pickler() -> None:
    from gcs.content.cache import dumps

    content = gcs.builtin_content()
    objs: list[object] = [*content.cards.values(), *content.statuses.values(),
                          *content.enemies.values(), *content.encounters.values(),
                          *content.characters.values(), *content.reward_tables.values()]
    assert len(objs) > 100  # (a card pickles with its behaviour graphs inside)
    for obj in objs:
        back = pickle.loads(dumps(obj))  # type: ignore[arg-type]  # any object pickles
        assert type(back) is type(obj) and back == obj


def test_behaviour_nodes_round_trip_through_pickle_and_deepcopy() -> None:
    content = gcs.builtin_content()
    graphs = [n for c in content.cards.values() for n in (c.on_play, c.on_drawn, c.on_exhaust)
              if n is not None]
    graphs += list(content.graphs.values())
    objs = [x for g in graphs for x in walk(g)]
    assert len({type(x) for x in objs}) >= 8
    for obj in objs:
        assert pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)) == obj
        assert copy.deepcopy(obj) == obj


def test_events_and_rules_round_trip() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=5)
    g.start_battle("jaw_worm")
    log = g.event_log
    assert log
    for ev in log:
        back = pickle.loads(pickle.dumps(ev))
        assert back == ev and dataclasses.astuple(back) == dataclasses.astuple(ev)
    r = gcs.BattleRules(step_limit=12345)
    assert pickle.loads(pickle.dumps(r)) == r

"""The call guard restores every field of the state classes, read from their declarations."""

from __future__ import annotations

import gcs
from gcs.battle.state import CardInstance, State, Unit
from gcs.guard import fields


def test_guard_fields_come_from_the_class_declarations_on_this_engine() -> None:
    u = Unit(1, "jaw_worm", "Jaw Worm", 40, 44)
    names = fields(Unit)
    assert {"hp", "statuses", "intent", "rolled"} <= set(names)
    for n in names:
        getattr(u, n)  # every listed field exists on an instance
    if hasattr(Unit, "__slots__"):  # pure Python: exactly the declared slots
        assert set(names) == set(Unit.__slots__)
        assert set(fields(CardInstance)) == set(CardInstance.__slots__)
        assert set(fields(State)) == set(State.__slots__)
    assert {"hand", "draw", "units", "stack", "rng_ai"} <= set(fields(State))
    assert {"uid", "pile", "active"} <= set(fields(CardInstance))


def test_guard_restore_brings_back_every_unit_field_including_rolled_numbers() -> None:
    from gcs.guard import restore

    game = gcs.Game(gcs.builtin_content(), seed=3)
    game.start_battle("two_louses")
    before = game.to_json()
    louse = game.enemies[0]
    assert louse.rolled  # Bite is rolled per louse
    snap = game._e.s.clone()
    louse.rolled = {k: v + 1 for k, v in louse.rolled.items()}
    louse.hp = 1
    restore(game._e, snap, len(game._e.own_log()))
    assert game.enemies[0] is louse  # the caller's object stays valid
    assert game.to_json() == before

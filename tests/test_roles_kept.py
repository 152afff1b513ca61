"""The status roles the engine keeps (gcs/battle/roles.py) are the roles the units hold.

They are kept across calls until a unit's set of statuses changes through the primitives, a
handler runs, or, once the facade has handed out a live unit, every call. So after every
decision of whole battles on every bundled encounter (no unit handed out: nothing is
forgotten between calls) each kept entry must equal the roles read afresh from that unit's
statuses; and a unit changed by hand after the facade handed it out is read as changed.
"""

from __future__ import annotations

import random

import pytest

import gcs
from gcs.engine import Engine


def _fresh(e: Engine, statuses: dict[str, int]) -> int:
    bits = 0
    for sid in statuses:
        bits |= e.c.status_roles.get(sid, 0)
    return bits


def _check_kept(e: Engine) -> int:
    """Assert every kept entry is right; how many entries were kept."""
    kept = 0
    if e.roles_player is not None:
        assert e.roles_p == _fresh(e, e.roles_player.statuses)
        kept += 1
    if e.roles_unit is not None:
        assert e.roles == _fresh(e, e.roles_unit.statuses)
        kept += 1
    return kept


@pytest.mark.parametrize("encounter", sorted(gcs.builtin_content().encounters))
def test_kept_roles_are_the_units_roles_after_every_decision(encounter: str) -> None:
    content = gcs.builtin_content()
    kept = 0
    for seed in range(3):
        g = gcs.Game(content, seed=seed, log_events=False)
        g.start_battle(encounter)
        e = g._e
        rng = random.Random(seed)
        n = 0
        while g.is_battle_active and not g.is_waiting_for_reward and n < 300:
            g.apply(rng.choice(g.legal_actions()))
            n += 1
            assert not e.roles_open  # (no live unit was handed out)
            kept += _check_kept(e)
    assert kept > 0  # (the roles were kept across calls, and checked)


def test_a_unit_changed_by_hand_after_it_was_handed_out_is_read_again() -> None:
    content = gcs.builtin_content()
    g = gcs.Game(content, seed=3, log_events=False)
    g.start_battle("jaw_worm")
    e = g._e
    g.end_player_turn()  # (the phases ask the player's roles: kept now)
    assert e.roles_player is e.s.units[0] and not e.roles_open
    assert e.roles_p != 0  # (Burning Blood plays a role)
    player = g.player  # handed out: from now on every call forgets the kept roles
    assert player is not None and e.roles_open
    player.statuses.clear()  # by hand
    g.end_player_turn()
    # the call began by forgetting them; whatever was read since is the player's roles now
    assert e.roles_player is None or e.roles_p == 0
    _check_kept(e)

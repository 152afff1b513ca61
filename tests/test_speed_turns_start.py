"""StartBattle's check that the encounter's enemies are known reads an ungrouped encounter's
``enemies`` in place (``Game.start_battle``): the same ids checked in the same first-seen
order as ``EncounterDef.enemy_ids``, so the same error, naming the same first unknown id,
and nothing changed."""

from __future__ import annotations

import pytest
from core_support import pack, snapshot, start

import gcs
from gcs.content.defs import EncounterDef
from gcs.errors import UnknownIdError


def _game() -> gcs.Game:
    return start(pack(), ["zero"] * 10)


@pytest.mark.parametrize("enemies", [
    ("dummy", "ghost_a", "dummy", "ghost_b"),  # the first unknown, after a known one
    ("ghost_a", "ghost_a", "ghost_b"),  # a repeated unknown id: still the first one named
])
def test_start_battle_names_the_first_unknown_enemy_of_an_ungrouped_encounter(
        enemies: tuple[str, ...]) -> None:
    g = _game()
    snap, n = snapshot(g), len(g.event_log)
    with pytest.raises(UnknownIdError, match="'ghost_a'"):
        g.start_battle(EncounterDef("bad", "Bad", enemies))
    assert snapshot(g) == snap and len(g.event_log) == n


def test_start_battle_checks_every_option_of_a_rolled_encounter() -> None:
    # an unknown id in a slot the roll may never pick is refused all the same (``enemy_ids``)
    g = _game()
    snap = snapshot(g)
    enc = EncounterDef("rolled", "Rolled", ("dummy",),
                       groups=((("dummy",),), (("dummy", "ghost_c"),)))
    assert enc.enemy_ids() == ("dummy", "ghost_c")
    with pytest.raises(UnknownIdError, match="'ghost_c'"):
        g.start_battle(enc)
    assert snapshot(g) == snap


def test_start_battle_with_known_enemies_repeated_starts_them_all() -> None:
    g = gcs.Game(pack(), seed=3)
    g.start_battle(EncounterDef("two", "Two", ("dummy", "dummy")))
    assert [u.def_id for u in g.enemies] == ["dummy", "dummy"]

"""Encounter pools in a content pack (docs/content.md, Encounters): ``pool``, ``weight`` and
``exclusions`` load from YAML and the builder, dump back, and every misuse is a located
content error."""

from __future__ import annotations

import pytest

import gcs
from gcs.content import builder as b
from gcs.content.dump import dump_content
from gcs.errors import ContentError


def _pack(**encounter: object) -> gcs.Content:
    return b.pack(
        "p",
        b.card("hit", "Hit", cost=1, type="attack", target="single_enemy", numbers={"d": 6},
               on_play=b.deal("$d")),
        b.enemy("dummy", hp=10, moves=[b.enemy_move("idle", "unknown")], ai=b.ai(cycle=["idle"])),
        b.encounter("one", ["dummy"], pool="weak", weight=3, exclusions=["two"]),
        b.encounter("two", ["dummy"], **encounter),  # type: ignore[arg-type]
        b.character("hero", max_hp=50, deck={"hit": 5}),
    )


def test_pool_weight_and_exclusions_load_from_the_builder_and_dump_back() -> None:
    c = _pack(pool="boss", kind="boss")
    one, two = c.encounter("one"), c.encounter("two")
    assert (one.pool, one.weight, one.exclusions) == ("weak", 3, ("two",))
    assert (two.pool, two.weight, two.exclusions) == ("boss", 1, ())
    data = dump_content(c)["encounters"]
    assert data["one"] == {"name": "One", "enemies": ["dummy"], "pool": "weak", "weight": 3,
                           "exclusions": ["two"]}
    assert gcs.load_content(dump_content(c)).encounters == c.encounters


@pytest.mark.parametrize(("fields", "message"), [
    ({"pool": "middling"}, "field 'pool': bad value 'middling' (expected one of: weak, strong,"),
    ({"weight": 2}, "field 'weight': needs 'pool'"),
    ({"exclusions": ["one"]}, "field 'exclusions': needs 'pool'"),
    ({"pool": "weak", "weight": 0}, "field 'weight': bad value 0: expected an integer >= 1"),
    ({"pool": "weak", "exclusions": ["nine"]}, "field 'exclusions[0]': unknown encounter 'nine'"),
    ({"pool": "elite"}, "field 'pool': the elite pool holds elite encounters; this one is normal"),
    ({"pool": "strong", "kind": "boss"}, "the strong pool holds normal encounters; this one is boss"),
])
def test_bad_pool_fields_are_content_errors_naming_the_field(fields: dict[str, object],
                                                             message: str) -> None:
    with pytest.raises(ContentError) as got:
        _pack(**fields)
    assert message in str(got.value)

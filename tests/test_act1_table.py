"""The research tables of docs/content.md ("Act 1 and the Ironclad against the game") are checked
against the bundled pack: each row marked ✓ names what the pack holds (the encounter in its
pool, the enemy's HP range, the card's rarity and costs), and each *planned* row is not in the
pack yet, so the table cannot drift from the YAML.
"""

from __future__ import annotations

import re
from pathlib import Path

import gcs
from gcs.enums import Rarity

C = gcs.builtin_content()
DOC = Path(__file__).resolve().parents[1] / "docs" / "content.md"
SECTION = "## Act 1 and the Ironclad against the game"


def table(heading: str) -> list[list[str]]:
    """The body rows (cells stripped) of the first table after ``heading`` in the section."""
    text = DOC.read_text(encoding="utf-8")
    text = text[text.index(SECTION):]
    text = text[text.index(heading + "\n"):]
    rows: list[list[str]] = []
    started = False
    for line in text.splitlines()[1:]:
        if line.startswith("|"):
            started = True
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif started:
            break
    return [r for r in rows[2:]]  # no header, no --- line


def ident(cell: str) -> str:
    got = re.fullmatch(r"`(\w+)`(?: \(\w+\))?", cell)
    assert got is not None, cell
    return got.group(1)


def test_encounter_rows_match_the_pack_and_its_pools() -> None:
    rows = table("### Encounters and the act's pools")
    assert len(rows) == 20
    for row in rows:
        eid, pool, status = ident(row[0]), row[2].split()[0], row[-1]
        if status.startswith("*planned*"):
            assert eid not in C.encounters, eid
            continue
        assert status.startswith("✓"), row
        assert C.encounter(eid).pool == pool, eid
    assert {ident(r[0]) for r in rows} >= set(C.encounters)


def test_enemy_rows_match_the_pack_hp() -> None:
    rows = table("### Enemies")
    for row in rows:
        eid, status = ident(row[0]), row[-1]
        if status.startswith("*planned*"):
            assert eid not in C.enemies, eid
            continue
        assert status.startswith("✓"), row
        d = C.enemies[eid]
        lo, _, hi = row[1].split(";")[0].partition("-")
        assert (d.hp_min, d.hp_max) == (int(lo), int(hi or lo)), eid
    assert {ident(r[0]) for r in rows} >= set(C.enemies)


def test_card_rows_match_the_pack_rarity_and_costs() -> None:
    rows = table("### The Ironclad's 75 cards")
    assert len(rows) == 75
    ours = {c.name: c for c in C.cards.values() if c.character == "ironclad"}
    for name, rarity, cost, _, status in rows:
        if status.startswith("*planned*"):
            assert name not in ours, name
            continue
        assert status.startswith("✓"), name
        card = ours.pop(name)
        assert card.rarity is Rarity(rarity), name
        got = re.fullmatch(r"(X|\d+)(?: \((\d+)\))?", cost)
        assert got is not None, cost
        if got.group(1) == "X":
            assert card.x_cost, name
        else:
            assert card.cost == int(got.group(1)), name
        assert card.upgrade is not None
        upgraded = int(got.group(2)) if got.group(2) else card.cost
        assert card.upgrade.cost == upgraded, name
    assert not ours, sorted(ours)  # every Ironclad card of the pack has its row

"""The folds skip a unit that holds no status with a modifier at the fold's stage.

``attack_damage``, ``block_amount``, ``display`` and a card's block call ``_fold_unit`` only
when the unit holds one of the content's ``deal_statuses`` / ``take_statuses`` /
``block_statuses`` (an enemy with only Strength taking a hit folds nothing). The sets are the
statuses with a modifier at that stage; a unit holding none of them folds to what it started
with; and a twin whose content lists every status at every stage (every fold runs in full)
plays the same game (``test_speed_play.test_play_status_shortcuts_play_as_the_full_scans``).
"""

from __future__ import annotations

from steps_support import lifecycle_pack as _content
from test_speed_play import _all_statuses_react, _twins_over_random_decks

import gcs
from gcs.battle.folds import _fold_unit, attack_damage, block_amount
from gcs.content.db import Content
from gcs.content.loader import BUILTIN, load_content

STAGES = ("deal", "take", "block")


def _stage_set(content: Content, stage: str) -> frozenset[str]:
    return {"deal": content.deal_statuses, "take": content.take_statuses,
            "block": content.block_statuses}[stage]


def test_content_keeps_the_statuses_of_each_fold_stage() -> None:
    for content in (gcs.builtin_content(), _content({"reactor": 1})):
        for stage in STAGES:
            having = {st.id for st in content.statuses.values()
                      if any(m.stage == stage for m in st.modifiers)}
            assert _stage_set(content, stage) == having
            assert having <= content.modifier_statuses
    bundled = gcs.builtin_content()
    assert "strength" in bundled.deal_statuses and "strength" not in bundled.take_statuses
    assert "vulnerable" in bundled.take_statuses and "vulnerable" not in bundled.deal_statuses


def test_a_unit_without_a_stage_modifier_folds_nothing_at_that_stage() -> None:
    g = gcs.Game(gcs.builtin_content(), seed=3)
    g.start_battle("jaw_worm")
    e = g._e
    c = e.c
    u = e.s.units[1]
    checked = 0
    for sid in sorted(c.statuses):
        for stacks in (1, 3, -2):
            u.statuses = {sid: stacks}
            for stage in STAGES:
                if sid in _stage_set(c, stage):
                    continue
                assert _fold_unit(e, u, stage, 7, 1) == (7, 1), (sid, stage)
                checked += 1
    assert checked > 20


def test_attack_and_block_folds_equal_the_full_folds() -> None:
    """For every pair of held statuses, the folds with the stage sets equal the folds that
    run ``_fold_unit`` on both units whenever they hold a status."""
    g = gcs.Game(gcs.builtin_content(), seed=4)
    g.start_battle("jaw_worm")
    e = g._e
    src, dst = e.s.units[1], e.s.units[0]
    ids = sorted(e.c.statuses)
    folded = 0
    for a in ids:
        for b in ids:
            src.statuses = {a: 2}
            dst.statuses = {b: 1}
            num, den = _fold_unit(e, src, "deal", 9, 1)
            num, den = _fold_unit(e, dst, "take", num, den)
            assert attack_damage(e, 9, src, dst) == max(0, num // den), (a, b)
            num, den = _fold_unit(e, src, "block", 5, 1)
            assert block_amount(e, 5, src) == max(0, num // den), a
            folded += 1
    assert folded == len(ids) ** 2


def test_folds_with_every_status_at_every_stage_play_the_same_game() -> None:
    slow_pack = _all_statuses_react(load_content(BUILTIN))
    assert slow_pack.take_statuses != gcs.builtin_content().take_statuses  # the twin folds more
    assert _twins_over_random_decks(slow_pack, 29, 16, ["strike", "defend"] * 2, general=False) > 200

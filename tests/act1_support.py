"""Helpers of the Act 1 content tests: seeded battles, the player unit, and the statistical
bound the odds checks use (see tests/test_act1_enemies.py for its justification)."""

from __future__ import annotations

import math

import gcs


def near(count: int, p: float, n: int) -> bool:
    """``count`` successes out of ``n`` are within 4 binomial sigmas of probability ``p`` (the
    worst case p = 1/2: a correct roll fails with probability < 1e-4 per check)."""
    return abs(count / n - p) <= 4 * math.sqrt(0.25 / n)


def battle(content: gcs.Content, encounter: str, seed: int = 1) -> gcs.Game:
    """A started battle of ``encounter`` with the character's starting deck."""
    g = gcs.Game(content, seed=seed)
    g.start_battle(encounter)
    return g


def hero(g: gcs.Game) -> gcs.Unit:
    """The player's unit."""
    return g._e.s.units[0]

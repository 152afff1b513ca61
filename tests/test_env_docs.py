"""docs/env.md's numbers, computed from the code: the action space, the vocabularies, the part
shapes, the flat lengths and the held-out split. A pack or layout change that moves one fails
here, naming the sentence to update."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gcs.content.loader import builtin_content
from gcs.env.gym import GcsEnv
from gcs.env.observe import CARD_FEATURES, ENEMY_FEATURES, STATUS_FEATURES
from gcs.env.task import card_split, deck_pool

DOC = (Path(__file__).parent.parent / "docs" / "env.md").read_text()


def _numbers(pattern: str) -> list[int]:
    """The integers at the ``#`` of ``pattern`` in its one match in the doc (any whitespace
    where the pattern has a space)."""
    pieces = [re.sub(r"(\\ | )+", r"\\s+", re.escape(p)) for p in pattern.split("#")]
    found = re.findall(r"([\d,]+)".join(pieces), DOC)
    assert len(found) == 1, f"docs/env.md: no single sentence like {pattern!r}"
    groups = found[0] if isinstance(found[0], tuple) else (found[0],)
    return [int(g.replace(",", "")) for g in groups]


def _flat(observation: str) -> int:
    return GcsEnv(observation=observation).observer.flat_size


def test_the_action_space_and_vocabularies() -> None:
    c = builtin_content()
    env = GcsEnv()
    assert _numbers("for a pack of `C` cards (# for the bundled #)") == [
        env.action_space.n, len(c.cards)]
    assert env.action_space.n == 84 + 3 * len(c.cards)
    assert _numbers("(# cards: ids 1..#); enemy ids likewise over the pack's enemies (#)") \
        == [len(c.cards), len(c.cards), len(c.enemies)]
    assert _numbers("| `player_statuses` | S (#) |") == [len(c.statuses)]


@pytest.mark.parametrize("row, n", [("| `status` | #", len(STATUS_FEATURES)),
                                    ("| `enemies` | 5 x #", len(ENEMY_FEATURES)),
                                    ("| `hand` | 10 x #", len(CARD_FEATURES))])
def test_the_part_shapes(row: str, n: int) -> None:
    assert _numbers(row) == [n]


def test_the_flat_lengths() -> None:
    assert _numbers('one float32 vector instead (# floats for the bundled pack; # with '
                    '`observation="information"`, # with `"privileged"`)') == [
        _flat("default"), _flat("information"), _flat("privileged")]


def test_the_held_out_split() -> None:
    c = builtin_content()
    train, test = card_split(c, 0, 0.25)
    assert _numbers("(the pack's reward pools: # cards of the bundled pack)") == [
        len(deck_pool(c))]
    assert _numbers("split seed 0 holds out # of the #") == [len(test), len(train) + len(test)]


def test_the_run_part() -> None:
    from gcs.env.observe_extra import RUN_FEATURES

    env = GcsEnv(act=1, run=True)
    assert _numbers("| `run` (act tasks only, last) | # |") == [len(RUN_FEATURES)]
    assert list(env.observer.parts)[-1] == "run"  # (last in the flat vector)
    assert env.observation_space["run"].shape == (len(RUN_FEATURES),)

"""The text monitor (Phase and Pile tabs) and the interactive `gcs play`."""

from __future__ import annotations

import io

from minipack import mini

from gcs import Game
from gcs.content.defs import EncounterDef
from gcs.monitor import render
from gcs.sim.interactive import play_interactive


def test_monitor_shows_phase_history_units_and_every_pile() -> None:
    g = Game(mini(), seed=2)
    g.start_battle("jaw_worm")
    text = render(g)
    lines = text.splitlines()
    assert lines[0].startswith("Phase  PLAYER_PHASE   turn 1   energy 3")
    assert lines[1] == "History INITIALIZE@0 > PLAYER_TURN_START@1 > PLAYER_PHASE@1"
    assert "Jaw Worm" in text and "intent: Chomp (attack) 11x1" in text
    hand = g.hand()
    assert "Hand    ( 5)" in lines
    first = hand[0].active
    assert f"    0: {first.name} [{first.cost}] {first.type.value}: {g.format_description(hand[0])}" in lines
    draw = sorted(g.draw_pile(), key=lambda c: (c.card_id, c.uid))  # the order is hidden
    assert f"Draw    ( 5) {draw[0].card_id}#{draw[0].instance_id}" in text and "(order hidden)" in text
    top = g.draw_pile()[-1]
    assert f"Draw    ( 5) {top.card_id}#{top.instance_id}" in render(g, draw_order=True)
    assert "Discard ( 0) -" in text and "Exhaust ( 0) -" in text
    assert "Played  ( 0) -" in text and "Drawn   ( 5) " in text
    assert "Master  (10) strike, strike" in text


def test_monitor_after_the_battle_and_with_rewards() -> None:
    pack = mini(extra_encounters=(EncounterDef("dummy_r", "Dummy", ("dummy",), rewards="normal"),))
    g = Game(pack, seed=2)
    g.start_battle("dummy_r")
    while g.is_battle_active and not g.is_waiting_for_reward:
        g.apply(g.legal_actions()[0])
    assert "reward offered" in render(g) and "Rewards 0=card" in render(g)
    g.skip_reward()
    assert render(g).startswith("Phase  NONE")


def test_play_interactive_reads_actions_refuses_bad_ones_and_stops() -> None:
    lines = iter(["play 9", "nonsense", "end", "quit"])
    out = io.StringIO()
    g = play_interactive(mini(), "jaw_worm", 4, lambda: next(lines), out)
    text = out.getvalue()
    assert "refused: illegal action play 9: hand index 9 out of range" in text
    assert "refused: cannot parse action 'nonsense'" in text
    assert g.turn_number == 2 and g.is_battle_active


def test_play_interactive_to_the_end_on_eof() -> None:
    def read() -> str:
        raise EOFError

    out = io.StringIO()
    g = play_interactive(mini(), "jaw_worm", 4, read, out)
    assert g.is_battle_active and "Phase  PLAYER_PHASE" in out.getvalue()

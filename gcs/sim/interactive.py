"""``gcs play``: play a battle in the terminal, with the monitor shown before every input."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ..agent import Action
from ..content.db import Content
from ..errors import GameError
from ..game import Game
from ..monitor import render

HELP = ("actions: 'play N [@eK]' (hand index, enemy index), 'choose I,J' or 'choose -', "
        "'end', 'reward N', 'skip'; 'legal' lists them, 'quit' stops")


def play_interactive(content: Content, encounter: str, seed: int, read: Callable[[], str],
                     out: TextIO) -> Game:
    """Play ``encounter`` reading one action per line from ``read`` (EOF or 'quit' stops)."""
    g = Game(content, seed=seed)
    g.start_battle(encounter)
    g.settle()
    out.write(HELP + "\n")
    while True:
        legal = g.legal_actions()
        if not legal:
            break
        out.write("\n" + render(g) + "\n")
        out.write("legal: " + ", ".join(str(a) for a in legal) + "\n> ")
        out.flush()
        try:
            line = read().strip()
        except EOFError:
            break
        if line in ("quit", "exit", "q"):
            break
        if line in ("", "legal", "help", "?"):
            out.write(HELP + "\n")
            continue
        try:
            g.apply(Action.parse(line))
        except GameError as exc:
            out.write(f"refused: {exc}\n")
    out.write("\n" + render(g) + "\n")
    if g.last_result is not None:
        hp, max_hp = g.run_hp
        out.write(f"result: {'WON' if g.last_result else 'LOST'} in {g.turn_number} turns; "
                  f"HP {hp}/{max_hp}\n")
    return g

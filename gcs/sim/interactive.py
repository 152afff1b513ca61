"""``gcs play``: play a battle in the terminal, with the monitor shown before every input and
what each action did (your plays, the enemies' turns) narrated as in ``gcs demo``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from .. import events as ev
from ..agent import PLAY, Action
from ..content.db import Content
from ..errors import GameError
from ..game import Game
from ..monitor import render
from .demo import describe_event
from .runner import new_game

HELP = ("actions: 'play N' or 'play N @eK' (hand index; the enemy's index, which may be left out "
        "when one enemy is alive), 'choose I,J' or 'choose -', 'end', 'reward N', 'skip'; "
        "'legal' lists them, 'quit' stops")


def with_target(g: Game, action: Action) -> Action:
    """``play N`` of a card that needs an enemy target, with one enemy alive: aimed at it."""
    if action.kind != PLAY or action.target >= 0 or not 0 <= action.card < len(g.hand()):
        return action
    if not g.requires_target(g.hand()[action.card]):
        return action
    alive = [i for i, u in enumerate(g.enemies) if u.alive]
    return Action(PLAY, card=action.card, target=alive[0]) if len(alive) == 1 else action


def play_interactive(content: Content, encounter: str, seed: int, read: Callable[[], str],
                     out: TextIO, *, deck: Sequence[str] | None = None,
                     character: str | None = None) -> Game:
    """Play ``encounter`` reading one action per line from ``read`` (EOF or 'quit' stops)."""
    g = new_game(content, seed, deck, character)
    told: list[str] = []

    def tell(e: ev.Event) -> None:
        line = describe_event(g, e)
        if line is not None:
            told.append(line)

    g.subscribe(ev.Event, tell)
    g.start_battle(encounter)
    g.settle()
    out.write(HELP + "\n")
    while True:
        legal = g.legal_actions()
        if not legal:
            break
        if told:
            out.write("\n".join(told) + "\n")
            told.clear()
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
            g.apply(with_target(g, Action.parse(line)))
        except GameError as exc:
            out.write(f"refused: {exc}\n")
    if told:
        out.write("\n".join(told) + "\n")
    out.write("\n" + render(g) + "\n")
    if g.last_result is not None or g.is_waiting_for_reward:
        hp, max_hp = g.run_hp
        won = g.last_result or g.is_waiting_for_reward
        out.write(f"result: {'WON' if won else 'LOST'} in {g.turn_number} turns; HP {hp}/{max_hp}\n")
    return g

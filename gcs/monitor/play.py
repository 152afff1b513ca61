"""Play mode: a battle owned by the monitor and driven from the page through the agent surface
(``legal_actions``/``apply``). The first battle is recorded as a replay (``gcs replay``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..agent import Action
from ..content.db import Content
from ..errors import GameError
from ..game import Game
from ..sim.replay import file_data, step_digest
from ..sim.runner import new_game


class PlaySession:
    """One run played in the browser: start, act, next battle; never touched by two threads."""

    def __init__(self, content: Content, encounter: str, seed: int, *,
                 deck: Sequence[str] | None = None, character: str | None = None,
                 save: str | Path | None = None) -> None:
        content.encounter(encounter)  # an unknown id raises ContentError before anything starts
        self.content = content
        self.encounter = encounter
        self.seed = seed
        self.deck = list(deck) if deck else None
        self.character = character
        self.save = Path(save) if save is not None else None
        self.game = self._new_game()
        self.actions: list[str] = []
        self.trace: list[str] = []  # the replay file's step digests (gcs/sim/replay.py)
        self.recording = True  # the first battle is the replay; later ones continue the run

    def _new_game(self) -> Game:
        return new_game(self.content, self.seed, self.deck, self.character)

    def begin(self) -> None:
        """Start the first battle (call once the monitor listens, so it sees every event)."""
        self.game.start_battle(self.encounter)
        self.game.settle()
        self.trace = [step_digest(self.game)]
        self._write()

    def act(self, text: str) -> str | None:
        """Apply one action given as text; returns the engine's refusal (nothing changed) or None."""
        try:
            action = Action.parse(text)
            self.game.apply(action)
        except GameError as exc:
            return str(exc)
        if self.recording:
            self.actions.append(str(action))
            self.trace.append(step_digest(self.game))
            self._write()
            self.recording = self.game.is_battle_active
        return None

    @property
    def lost(self) -> bool:
        """The run is over: its last battle was lost (the next battle needs a new run)."""
        return not self.game.is_battle_active and self.game.last_result is False

    def new_run(self) -> Game:
        """A fresh run from the command line's settings (after a loss); no battle started yet."""
        self.game = self._new_game()
        self.recording = False
        return self.game

    def next_battle(self, encounter: str | None) -> str | None:
        """Start the next battle of the run; returns a refusal (nothing changed) or None."""
        enc = encounter or self.encounter
        if self.game.is_battle_active:
            return "a battle is still going on: finish it first"
        if enc not in self.content.encounters:
            return f"unknown encounter {enc!r}"
        self.recording = False
        self.game.start_battle(enc)
        self.game.settle()
        return None

    def replay_data(self) -> dict[str, Any]:
        """The first battle's replay as played so far, in the ``gcs replay`` format."""
        return file_data(self.content, self.game, self.seed, self.encounter, self.actions,
                         self.trace, deck=self.deck, character=self.character)

    def _write(self) -> None:
        """Write the replay file (call only while the game is the first battle's state)."""
        if self.save is not None:
            self.save.write_text(json.dumps(self.replay_data(), indent=1) + "\n", encoding="utf-8")

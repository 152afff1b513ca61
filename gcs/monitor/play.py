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
from ..sim.replay import FORMAT, state_digest
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
        self.recording = True  # the first battle is the replay; later ones continue the run

    def _new_game(self) -> Game:
        return new_game(self.content, self.seed, self.deck, self.character)

    def begin(self) -> None:
        """Start the first battle (call once the monitor listens, so it sees every event)."""
        self.game.start_battle(self.encounter)
        self.game.settle()
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

    def next_refusal(self, encounter: str | None) -> str | None:
        """Why ``next_battle(encounter)`` would be refused now (None: it would start)."""
        if self.game.is_battle_active:
            return "a battle is still going on: finish it first"
        enc = encounter or self.encounter
        if enc not in self.content.encounters:
            return f"unknown encounter {enc!r}"
        return None

    def next_battle(self, encounter: str | None) -> str | None:
        """Start the next battle of the run; returns a refusal (nothing changed) or None."""
        why = self.next_refusal(encounter)
        if why is not None:
            return why
        enc = encounter or self.encounter
        self.recording = False
        self.game.start_battle(enc)
        self.game.settle()
        return None

    def replay_data(self) -> dict[str, Any]:
        """The first battle's replay as played so far, in the ``gcs replay`` format."""
        g = self.game
        return {
            "format": FORMAT, "pack": self.content.pack_id, "seed": self.seed,
            "encounter": self.encounter, "character": self.character, "deck": self.deck,
            "actions": list(self.actions), "won": g.last_result, "turns": g.turn_number,
            "final": state_digest(g),
        }

    def _write(self) -> None:
        """Write the replay file (call only while the game is the first battle's state)."""
        if self.save is not None:
            self.save.write_text(json.dumps(self.replay_data(), indent=1) + "\n", encoding="utf-8")

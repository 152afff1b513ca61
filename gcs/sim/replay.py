"""Replay files: (content pack id, seed, actions) that re-run a battle exactly."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..agent import Action
from ..content.db import Content
from ..errors import GameError
from ..game import Game
from .policies import Policy
from .runner import new_game

FORMAT = "gcs-replay/1"


def state_digest(g: Game) -> str:
    """A hash of the complete saved state (stable across processes)."""
    text = json.dumps(g.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def result(g: Game) -> bool | None:
    """The battle's result as a replay file states it: a battle waiting for its reward is won
    (``last_result`` is set only when the reward is taken or skipped); None: not decided."""
    return True if g.is_waiting_for_reward else g.last_result


def record(content: Content, encounter: str, seed: int, policy: Policy, *,
           deck: list[str] | None = None, character: str | None = None) -> dict[str, Any]:
    """Play one battle with ``policy`` and return its replay (actions + final digest)."""
    g = new_game(content, seed, deck, character)
    g.start_battle(encounter)
    g.settle()
    actions: list[str] = []
    while True:
        legal = g.legal_actions()
        if not legal:
            break
        a = policy(g, legal)
        g.apply(a)
        actions.append(str(a))
    return {
        "format": FORMAT, "pack": content.pack_id, "seed": seed, "encounter": encounter,
        "character": character, "deck": deck, "actions": actions,
        "won": result(g), "turns": g.turn_number, "final": state_digest(g),
    }


def replay(content: Content, data: dict[str, Any]) -> Game:
    """Re-run a replay; raises GameError if it does not end in the recorded state."""
    if data.get("format") != FORMAT:
        raise GameError(f"not a replay file (format {data.get('format')!r}, expected {FORMAT})")
    if data.get("pack") != content.pack_id:
        raise GameError(f"replay is for pack {data.get('pack')!r}, not {content.pack_id!r}")
    missing = [k for k in ("seed", "encounter", "actions", "final") if k not in data]
    if missing:
        raise GameError(f"replay file lacks field(s): {', '.join(missing)}")
    if not isinstance(data["seed"], int) or not isinstance(data["actions"], list):
        raise GameError("replay file: 'seed' must be an integer and 'actions' a list of strings")
    g = new_game(content, int(data["seed"]), data.get("deck"), data.get("character"))
    g.start_battle(data["encounter"])
    g.settle()
    for i, text in enumerate(data["actions"]):
        try:
            g.apply(Action.parse(text))
        except GameError as exc:
            raise GameError(f"replay diverged at action {i} ({text!r}): {exc}") from exc
    digest = state_digest(g)
    if digest != data.get("final"):
        raise GameError(f"replay ended in a different state: {digest[:12]} != "
                        f"{str(data.get('final'))[:12]}")
    return g


def replay_data(content: Content, seed: int, encounter: str, actions: list[str], *,
                deck: list[str] | None = None, character: str | None = None) -> dict[str, Any]:
    """The replay file of a battle given its actions (say, a results row re-played)."""
    g = new_game(content, seed, deck, character)
    g.start_battle(encounter)
    g.settle()
    for text in actions:
        g.apply(Action.parse(text))
    return {
        "format": FORMAT, "pack": content.pack_id, "seed": seed, "encounter": encounter,
        "character": character, "deck": deck, "actions": list(actions),
        "won": result(g), "turns": g.turn_number, "final": state_digest(g),
    }

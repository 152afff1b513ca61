"""Replay files: (content pack id, seed, deck, encounter, actions) that re-run a battle exactly,
with what the file claims of it (the result, the turns, a digest of the state after every
action and of the final state), each checked by ``replay`` (docs/rules/boundary.md, section 6).

Format ``gcs-replay/2`` holds ``trace``: the first 16 hex digits of the state's digest after the
battle started and after each action, so a replay names the first action whose state differs.
A ``gcs-replay/1`` file (no ``trace``) still replays, checked by its final digest only.

The digests hash the engine's save (``Game.to_json``), whose format grows with the engine (format
5 added each status's sources). A file records the save format it was hashed in
(``state_format``); a file of another save format (or of none: recorded before the field) cannot
have its digests compared, so it is checked by its actions (each legal, in order), its result
and its turns, and ``digests_checked`` says so.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from ..agent import Action
from ..battle.save_format import FORMAT as STATE_FORMAT
from ..content.db import Content
from ..content.limits import MAX_DECK
from ..errors import GameError, IllegalActionError, PolicyError
from ..game import Game
from .outfile import check_replaceable, write_text
from .policies import Policy
from .runner import new_game, policy_action

FORMAT = "gcs-replay/2"
FORMATS = ("gcs-replay/1", FORMAT)
MAX_ACTIONS = 1_000_000  # actions in one replay file (a battle stops at 20,000 decisions)
MAX_BYTES = 256_000_000  # bytes of a replay file
STEP = 16  # hex digits of each trace entry
_HEX = re.compile(r"[0-9a-f]{64}")
_STEP_HEX = re.compile(f"[0-9a-f]{{{STEP}}}")


class ReplayError(GameError):
    """A replay file that cannot be read, or whose battle does not go as the file says."""


def state_digest(g: Game) -> str:
    """A hash of the complete saved state (stable across processes)."""
    text = json.dumps(g.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def step_digest(g: Game) -> str:
    """One ``trace`` entry: the first ``STEP`` hex digits of ``state_digest``."""
    return state_digest(g)[:STEP]


def battle_result(g: Game) -> bool | None:
    """What a replay file's ``won`` says: True for a won battle (its reward may still wait),
    False for a lost one, None while it goes on."""
    return True if g.is_waiting_for_reward else g.last_result


def start(content: Content, seed: int, encounter: str, *, deck: list[str] | None = None,
          character: str | None = None) -> Game:
    """The game of a replay, its battle started and settled (the state of ``trace[0]``)."""
    g = new_game(content, seed, deck, character)
    g.start_battle(encounter)
    g.settle()
    return g


def file_data(content: Content, g: Game, seed: int, encounter: str, actions: list[str],
              trace: list[str], *, deck: list[str] | None = None,
              character: str | None = None) -> dict[str, Any]:
    """The replay file of the battle ``g`` played with ``actions`` (``trace``: one
    ``step_digest`` after the start and after each action)."""
    return {
        "format": FORMAT, "pack": content.pack_id, "seed": seed, "encounter": encounter,
        "character": character, "deck": deck, "actions": list(actions),
        "won": battle_result(g), "turns": g.turn_number, "trace": list(trace),
        "final": state_digest(g), "state_format": STATE_FORMAT,
    }


def digests_checked(data: dict[str, Any]) -> bool:
    """Whether ``replay`` compares the file's digests: only when they were hashed in this
    engine's save format (``state_format``; a file without it predates the field)."""
    return data.get("state_format") == STATE_FORMAT


def record(content: Content, encounter: str, seed: int, policy: Policy, *,
           deck: list[str] | None = None, character: str | None = None) -> dict[str, Any]:
    """Play one battle with ``policy`` (rewards included) and return its replay file's data."""
    g = start(content, seed, encounter, deck=deck, character=character)
    actions: list[str] = []
    trace = [step_digest(g)]
    while True:
        legal = g.legal_actions()
        if not legal:
            break
        n, turn = len(actions), g.turn_number
        try:
            chosen: object = policy(g, legal)
        except Exception as exc:  # (the policy's own error, named with where it happened)
            raise PolicyError(f"the policy raised {type(exc).__name__}: {str(exc)[:300]} "
                              f"(decision {n}, turn {turn})") from exc
        a = policy_action(chosen, n, turn)
        try:
            g.apply(a)
        except IllegalActionError as exc:
            raise PolicyError(f"the policy chose {a}, which is not legal now: {exc} (decision "
                              f"{n}, turn {turn})") from None
        actions.append(str(a))
        trace.append(step_digest(g))
    return file_data(content, g, seed, encounter, actions, trace, deck=deck, character=character)


def replay_data(content: Content, seed: int, encounter: str, actions: list[str], *,
                deck: list[str] | None = None, character: str | None = None) -> dict[str, Any]:
    """The replay file of a battle given its actions (say, a results row re-played)."""
    g = start(content, seed, encounter, deck=deck, character=character)
    trace = [step_digest(g)]
    for text in actions:
        g.apply(Action.parse(text))
        trace.append(step_digest(g))
    return file_data(content, g, seed, encounter, actions, trace, deck=deck, character=character)


# ---------------------------------------------------------------- reading and checking


def read_file(path: str | Path) -> dict[str, Any]:
    """The JSON object of a replay file (ReplayError naming the file otherwise)."""
    p = Path(path)
    try:
        if p.is_dir():
            raise ReplayError(f"{path} is a directory, not a replay file")
        if p.stat().st_size > MAX_BYTES:
            raise ReplayError(f"{path}: larger than {MAX_BYTES} bytes: not a replay file")
        raw = p.read_bytes()
    except OSError as exc:
        raise ReplayError(f"cannot read replay file {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): "
                          f"{exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # (an int of too many digits, too deep)
        raise ReplayError(f"{path} is not valid JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise ReplayError(f"{path}: a replay file holds a JSON object")
    return data


def write_file(path: str | Path, data: dict[str, Any]) -> None:
    """Write a replay file to ``path``; an existing file is replaced only if it is a replay
    file (nothing else a user wrote is overwritten), and never left half-written."""
    check_replaceable(path, "replay file", _is_replay, ReplayError)
    write_text(path, json.dumps(data, indent=1) + "\n", "replay file", ReplayError)


def _is_replay(p: Path) -> bool:
    try:
        return read_file(p).get("format") in FORMATS
    except ReplayError:
        return False


def _bad(field: str, want: str, got: object) -> ReplayError:
    shown = repr(got)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return ReplayError(f"replay file field {field!r} must be {want}, got {shown}")


def check_fields(content: Content, data: dict[str, Any]) -> None:
    """Raise ReplayError naming the first field of ``data`` that is missing, of the wrong type
    or unknown to ``content`` (before anything is played)."""
    fmt = data.get("format")
    if fmt not in FORMATS:
        raise ReplayError(f"not a replay file (format {str(fmt)[:40]!r}, expected {FORMAT})")
    need = ["pack", "seed", "encounter", "actions", "won", "turns", "final"]
    need += ["trace"] if fmt == FORMAT else []
    missing = [k for k in need if k not in data]
    if missing:
        raise ReplayError(f"replay file lacks field(s): {', '.join(missing)}")
    if data["pack"] != content.pack_id:
        raise ReplayError(f"replay is for pack {str(data['pack'])[:60]!r}, not "
                          f"{content.pack_id!r} (use --pack)")
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not -(2**64) <= seed <= 2**64:
        raise _bad("seed", "an integer within +-2^64", seed)
    enc = data["encounter"]
    if not isinstance(enc, str) or enc not in content.encounters:
        raise _bad("encounter", f"an encounter id of pack {content.pack_id!r}", enc)
    char = data.get("character")
    if char is not None and (not isinstance(char, str) or char not in content.characters):
        raise _bad("character", f"null or a character id of pack {content.pack_id!r}", char)
    deck = data.get("deck")
    if deck is not None:
        if not isinstance(deck, list) or len(deck) > MAX_DECK:
            raise _bad("deck", f"null or a list of at most {MAX_DECK} card ids", deck)
        for i, cid in enumerate(deck):
            if not isinstance(cid, str) or cid not in content.cards:
                raise _bad(f"deck[{i}]", f"a card id of pack {content.pack_id!r}", cid)
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise _bad("actions", f"a list of at most {MAX_ACTIONS} action texts", actions)
    for i, a in enumerate(actions):
        if not isinstance(a, str):
            raise _bad(f"actions[{i}]", "an action text ('play 0 @e0', 'end', ...)", a)
    if data["won"] is not None and not isinstance(data["won"], bool):
        raise _bad("won", "true, false or null", data["won"])
    turns = data["turns"]
    if not isinstance(turns, int) or isinstance(turns, bool) or not 0 <= turns <= 2**53:
        raise _bad("turns", "a whole number >= 0", turns)
    sf = data.get("state_format")
    if sf is not None and (not isinstance(sf, int) or isinstance(sf, bool) or not 1 <= sf < 2**31):
        raise _bad("state_format", "the engine's save format number the digests were hashed in",
                   sf)
    if not isinstance(data["final"], str) or not _HEX.fullmatch(data["final"]):
        raise _bad("final", "a sha256 digest (64 hex digits)", data["final"])
    if fmt == FORMAT:
        trace = data["trace"]
        if not isinstance(trace, list) or not trace or len(trace) > MAX_ACTIONS + 1:
            raise _bad("trace", "a list of digests (one after the start and one after each "
                       "action)", trace)
        for i, d in enumerate(trace):
            if not isinstance(d, str) or not _STEP_HEX.fullmatch(d):
                raise _bad(f"trace[{i}]", f"{STEP} hex digits", d)


def replay(content: Content, data: dict[str, Any]) -> Game:
    """Re-run a replay file's battle and check everything the file claims: each action legal
    in its order, the state after each one (``trace``), the result, the turns and the final
    state. ReplayError says which check failed; the game is returned when all hold."""
    check_fields(content, data)
    actions: list[str] = data["actions"]
    same_hash = digests_checked(data)
    trace: list[str] | None = (data.get("trace") if data["format"] == FORMAT and same_hash
                               else None)
    try:
        g = start(content, data["seed"], data["encounter"], deck=data.get("deck"),
                  character=data.get("character"))
    except GameError as exc:
        raise ReplayError(f"replay cannot start its battle: {exc}") from None
    if trace is not None and step_digest(g) != trace[0]:
        raise ReplayError("replay diverged at the start: the battle starts in another state "
                          "than recorded (another engine version or content?)")
    for i, text in enumerate(actions):
        try:
            g.apply(Action.parse(text))
        except IllegalActionError as exc:
            raise ReplayError(f"replay diverged at action {i} ({text[:40]!r}): not legal "
                              f"there: {exc}") from None
        except GameError as exc:
            raise ReplayError(f"replay failed at action {i} ({text[:40]!r}): "
                              f"{type(exc).__name__}: {exc}") from None
        if trace is not None and (i + 1 >= len(trace) or step_digest(g) != trace[i + 1]):
            raise ReplayError(f"replay diverged at action {i} ({text[:40]!r}): the state after "
                              "it is not the recorded one")
    if trace is not None and len(trace) != len(actions) + 1:
        raise ReplayError(f"replay diverged after its last action: the file's trace records "
                          f"{len(trace) - 1} actions, its list holds {len(actions)}")
    result = battle_result(g)
    if result is not data["won"]:
        raise ReplayError(f"replay ended {_outcome(result)}, the file says "
                          f"{_outcome(data['won'])}")
    if g.turn_number != data["turns"]:
        raise ReplayError(f"replay ended on turn {g.turn_number}, the file says turn "
                          f"{data['turns']}")
    digest = state_digest(g)
    if same_hash and digest != data["final"]:
        raise ReplayError(f"replay ended in a different state: {digest[:12]} != "
                          f"{data['final'][:12]}")
    return g


def _outcome(won: bool | None) -> str:
    return {True: "won", False: "lost", None: "unfinished"}[won]

"""An environment's state as plain JSON data: ``get_state`` / ``set_state`` of ``GcsEnv`` and,
per episode, of ``GcsVectorEnv`` (the same format: a state moves between them).

The state is the game's save (``Game.to_json``), the episode's own counters (fights of the
episode, battles won, steps, result), the battle's enemy slot map (gcs/env/enemies.py) and the
state of the env's random generator (which draws
the next episodes), plus the task and content digest it belongs to. ``restore`` checks all of
it before anything changes: a state of another task or content, or a malformed one, raises
``ArgumentError`` (a bad save inside it ``SaveError``), naming what is wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..act.run import ActRun
from ..errors import ArgumentError, GameError
from ..game import Game
from ._extra import missing_gym_extra
from .actions import MAX_ENEMIES
from .enemies import EMPTY, EnemySlots
from .task import Episode, Task

try:
    import numpy as np
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc

if TYPE_CHECKING:
    Generator = np.random.Generator

FORMAT = "gcs-env-state-2"
OLD_FORMAT = "gcs-env-state-1"  # (no slot map: made again from the enemies as they are)
_EPISODE_KEYS = ("fights", "won_battles", "steps", "result", "done", "illegal", "game",
                 "enemies")


def task_data(task: Task) -> dict[str, Any]:
    """A task as JSON data (tuples as lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(task):
        v = getattr(task, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def dump(ep: Episode, rng: Generator, illegal: bool) -> dict[str, Any]:
    """The state of an episode and of the generator that draws the next ones."""
    g = ep.game
    if g is None:
        raise GameError("call reset() before get_state()")
    return {
        "format": FORMAT, "task": task_data(ep.task), "content": ep.content.digest,
        "rng": _plain(rng.bit_generator.state),
        "episode": {"fights": list(ep.fights), "won_battles": ep.won_battles, "steps": ep.steps,
                    "result": ep.result, "done": ep.done, "illegal": illegal,
                    "enemies": list(ep.enemies.units),
                    # an act's whole run (its game inside), else the game
                    "game": {"act": ep.run.to_json()} if ep.run is not None else g.to_json()},
    }


def _plain(x: Any) -> Any:
    """numpy's bit-generator state with plain Python numbers (JSON data)."""
    if isinstance(x, Mapping):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, np.integer):
        return int(x)
    return x


class Restored:
    """A checked state, ready to be put into an episode at once."""

    def __init__(self, rng: Generator, fights: list[str], won: int, steps: int,
                 result: bool | None, done: bool, illegal: bool, game: Game,
                 run: ActRun | None, enemies: EnemySlots | None) -> None:
        self.rng = rng
        self.fights = fights
        self.won = won
        self.steps = steps
        self.result = result
        self.done = done
        self.illegal = illegal
        self.game = game
        self.run = run
        self.enemies = enemies

    def apply(self, ep: Episode) -> None:
        """Make ``ep`` this state (nothing can fail here)."""
        ep.game = self.game
        ep.run = self.run
        ep.fights = self.fights
        ep.won_battles = self.won
        ep.steps = self.steps
        ep.result = self.result
        ep.done = self.done
        ep.act_battle = len(self.run.fights) if self.run is not None else 0
        ep.enemies = self.enemies if self.enemies is not None else EnemySlots()
        ep.slots = ep.legal_slots()


def _need(ok: bool, where: str, want: str, got: object) -> None:
    if not ok:
        text = " ".join(repr(got).split())
        text = text if len(text) <= 80 else text[:77] + "..."
        raise ArgumentError(f"set_state: {where} must be {want}, got {text}")


def _int(d: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    _need(type(v) is int and lo <= v <= hi, f"episode[{key!r}]", f"an int in {lo}..{hi}", v)
    assert isinstance(v, int)
    return v


def check(ep: Episode, rng: Generator | None, state: object) -> Restored:
    """``state`` checked against the episode's task and content (ArgumentError or SaveError
    naming the first problem); nothing is changed."""
    _need(isinstance(state, Mapping), "the state", "a dict made by get_state()", state)
    assert isinstance(state, Mapping)
    fmt = state.get("format")
    _need(fmt in (FORMAT, OLD_FORMAT), "state['format']", repr(FORMAT), fmt)
    want = task_data(ep.task)
    got = state.get("task")
    if got != want:
        _need(isinstance(got, Mapping), "state['task']", "a task", got)
        assert isinstance(got, Mapping)
        diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        raise ArgumentError(
            f"set_state: the state is of another task ({diff[0]!r}: this env has "
            f"{want.get(diff[0])!r}, the state {got.get(diff[0])!r})")
    _need(state.get("content") == ep.content.digest, "state['content']",
          f"this env's content digest {ep.content.digest!r}", state.get("content"))
    new_rng = _generator(rng, state.get("rng"))
    e = state.get("episode")
    keys = _EPISODE_KEYS if fmt == FORMAT else _EPISODE_KEYS[:-1]
    _need(isinstance(e, Mapping) and set(e) == set(keys), "state['episode']",
          f"a dict with keys {', '.join(keys)}", e)
    assert isinstance(e, Mapping)
    t = ep.task
    fights = e["fights"]
    if t.act:
        _need(fights == [], "episode['fights']", "[] (an act draws its own fights)", fights)
    else:
        _need(isinstance(fights, list) and len(fights) == t.battles
              and all(isinstance(f, str) and f in t.encounters for f in fights),
              "episode['fights']", f"a list of {t.battles} of the task's encounters", fights)
    won = _int(e, "won_battles", 0, t.battles)
    steps = _int(e, "steps", 0, t.max_steps)
    result, done, illegal = e["result"], e["done"], e["illegal"]
    _need(result is None or isinstance(result, bool), "episode['result']", "None, True or False",
          result)
    _need(isinstance(done, bool), "episode['done']", "True or False", done)
    _need(isinstance(illegal, bool), "episode['illegal']", "True or False", illegal)
    _need(result is None or done, "episode['done']", "True when the result is known", done)
    data = e["game"]
    if t.act:
        _need(isinstance(data, dict) and isinstance(data.get("act"), dict), "episode['game']",
              "{'act': a save made by ActRun.to_json()}", data)
        try:
            run = ActRun.from_json(ep.content, data["act"])
        except GameError as exc:
            raise ArgumentError(f"set_state: episode['game']['act']: {exc}") from None
        return Restored(new_rng, [], won, steps, result, done, illegal, run.game, run,
                        _enemies(e.get("enemies"), run.game))
    _need(isinstance(data, dict), "episode['game']", "a save made by Game.to_json()", data)
    game = Game.from_json(ep.content, data)  # SaveError naming the save's bad field
    return Restored(new_rng, list(fights), won, steps, result, done, illegal, game, None,
                    _enemies(e.get("enemies"), game))


def _enemies(units: object, game: Game) -> EnemySlots | None:
    """The slot map saved (None: an old state without one; the episode makes it again by
    the slot rule from the enemies as they are)."""
    if units is None:
        return None
    n = max(0, len(game._e.s.units) - 1)
    ok = False
    if isinstance(units, list) and len(units) == MAX_ENEMIES:
        held = [t for t in units if t != EMPTY]
        ok = (all(type(t) is int and EMPTY <= t < n for t in units)
              and len(set(held)) == len(held))
    _need(ok, "episode['enemies']", f"{MAX_ENEMIES} distinct enemy indices of the battle "
          f"(0..{n - 1}) or {EMPTY} (an empty slot)", units)
    assert isinstance(units, list)
    return EnemySlots(units)


def _generator(rng: Generator | None, st: object) -> Generator:
    """A new generator of the env's kind in state ``st``."""
    kind = type(rng.bit_generator) if rng is not None else np.random.PCG64
    _need(isinstance(st, Mapping) and st.get("bit_generator") == kind.__name__, "state['rng']",
          f"the state of a {kind.__name__} generator", st)
    assert isinstance(st, Mapping)
    bits = kind()
    try:
        bits.state = dict(st)
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise ArgumentError(f"set_state: state['rng'] is not a {kind.__name__} state "
                            f"({exc})") from None
    return np.random.Generator(bits)

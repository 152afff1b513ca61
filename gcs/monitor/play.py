"""Play mode: a run owned by the monitor, driven from the page through the agent surface
(``legal_actions``/``apply``), with branches: any past moment between two calls can be played
on from ("play from here"), in a new branch, exactly (a moment's copy is the deterministic game
there). A branch is its *steps* from the run's start (``("start", encounter)`` and ``("act",
"play 0 @e0")``), so it saves as a replay: ``gcs-replay/2`` (``gcs replay`` checks it) while
it holds one battle, ``gcs-monitor-run/1`` (``gcs monitor --replay`` opens it) past that. A
recording opened read-only (``gcs monitor --replay``) is a session built from such steps.
Standard library only; one thread (the server's) calls it."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agent import Action
from ..content.db import Content
from ..errors import GameError
from ..game import Game
from ..sim.outfile import write_text
from ..sim.replay import FORMAT, FORMATS, read_file, state_digest, step_digest
from ..sim.replay import battle_result as result
from ..sim.runner import new_game
from .recorder import Recorder

RUN_FORMAT = "gcs-monitor-run/1"
MAX_BRANCHES = 64
Step = tuple[str, str]  # ("start", encounter id) or ("act", action text)


@dataclass
class Branch:
    """One line of play: its steps from the run's start, its game now, its recorder."""

    id: int
    name: str
    steps: list[Step]
    game: Game
    recorder: Recorder
    parent: int | None = None
    fork: int | None = None  # the parent's moment it was played on from
    # the replay file's ``trace``: the state's step digest after each step (gcs/sim/replay.py)
    trace: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        g = self.game
        return {"id": self.id, "name": self.name, "parent": self.parent, "fork": self.fork,
                "steps": len(self.steps), "battles": sum(k == "start" for k, _ in self.steps),
                "active": g.is_battle_active, "result": result(g)}


class PlaySession:
    """One run played in the browser, with its branches; or a recording (``read_only``)."""

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
        self.read_only = False
        self.on_change: Callable[[], None] = lambda: None
        # where the recorders pack old moments (the monitor's server thread; at once without one)
        self.schedule: Callable[[Callable[[], None]], None] = lambda fn: fn()
        self.branches: list[Branch] = []
        self.current = self._root(self._new_game())

    # ------------------------------------------------------------ branches
    def _notify(self) -> None:
        self.on_change()

    def _schedule(self, fn: Callable[[], None]) -> None:
        self.schedule(fn)

    def _new_game(self) -> Game:
        return new_game(self.content, self.seed, self.deck, self.character)

    def _root(self, game: Game) -> Branch:
        b = Branch(len(self.branches), "run" if not self.branches else f"run {len(self.branches) + 1}",
                   [], game, Recorder(game, self._notify, auto=False, schedule=self._schedule))
        self.branches.append(b)
        return b

    @property
    def game(self) -> Game:
        """The current branch's game (the one the page plays)."""
        return self.current.game

    @property
    def recorder(self) -> Recorder:
        """The current branch's recorder."""
        return self.current.recorder

    def branch(self, bid: int) -> str | None:
        """Switch to branch ``bid``; returns a refusal (nothing changed) or None."""
        if not 0 <= bid < len(self.branches):
            return f"no branch {bid} (there are {len(self.branches)})"
        self.current = self.branches[bid]
        return None

    def fork(self, moment: int) -> str | None:
        """Play on from ``moment`` of the current branch in a new branch (made current);
        returns a refusal (nothing changed) or None."""
        if self.read_only:
            return "this monitor shows a recording: it is read-only"
        if len(self.branches) >= MAX_BRANCHES:
            return f"at most {MAX_BRANCHES} branches: switch to one and play on there"
        cur = self.current
        m = cur.recorder.moment(moment)
        if m is None:
            return f"moment {moment} is not in this branch's history (or no longer kept)"
        if m.step < 0:
            return (f"moment {moment} ({m.label}) is inside a call: play on from the moment "
                    "that call ended, or from the one before it")
        base = self.state_at(moment)
        if base is None:
            return f"the state of moment {moment} is no longer kept"
        game = base._copy(log=False)  # (the moment's copy stays as it was)
        rec = Recorder(game, self._notify, auto=False, prefix=cur.recorder, upto=moment,
                       schedule=self._schedule)
        b = Branch(len(self.branches), f"branch {len(self.branches)} (from {cur.name} at {m.label})",
                   cur.steps[:m.step], game, rec, parent=cur.id, fork=moment,
                   trace=cur.trace[:m.step])
        self.branches.append(b)
        self.current = b
        self._write()
        return None

    def state_at(self, moment: int) -> Game | None:
        """The game at ``moment`` of the current branch: its copy, or (a call moment whose copy
        was thinned) the nearest kept call moment before it with the steps between re-applied."""
        rec = self.current.recorder
        copy = rec.copy_of(moment)
        if copy is not None:
            return copy
        m = rec.moment(moment)
        if m is None or m.step < 0:
            return None
        for k in reversed(rec.kept()):
            km = rec.moment(k)
            if k < moment and km is not None and 0 <= km.step <= m.step:
                base = rec.copy_of(k)
                if base is None:
                    continue
                g = base._copy(log=False)
                for kind, arg in self.current.steps[km.step:m.step]:
                    _run(g, kind, arg)
                return g
        return None

    # ------------------------------------------------------------ play
    def begin(self) -> None:
        """Start the first battle (call once the monitor listens, so it sees every event)."""
        self._step("start", self.encounter)

    def _step(self, kind: str, arg: str) -> None:
        b = self.current
        _run(b.game, kind, arg)
        b.steps.append((kind, arg))
        b.trace.append(step_digest(b.game))
        label = f"start {arg}" if kind == "start" else arg
        b.recorder.mark(label, len(b.steps))
        self._write()

    def act(self, text: str) -> str | None:
        """Apply one action given as text; returns the engine's refusal (nothing changed) or None."""
        if self.read_only:
            return "this monitor shows a recording: it is read-only"
        try:
            action = Action.parse(text)
            self.game.apply(action)
        except GameError as exc:
            return str(exc)
        b = self.current
        b.steps.append(("act", str(action)))
        b.trace.append(step_digest(b.game))
        b.recorder.mark(str(action), len(b.steps))
        self._write()
        return None

    @property
    def lost(self) -> bool:
        """The run is over: its last battle was lost (the next battle needs a new run)."""
        return not self.game.is_battle_active and self.game.last_result is False

    def next_refusal(self, encounter: str | None) -> str | None:
        """Why ``next_battle(encounter)`` would be refused now (None: it would start)."""
        if self.read_only:
            return "this monitor shows a recording: it is read-only"
        if self.game.is_battle_active:
            return "a battle is still going on: finish it first"
        enc = encounter or self.encounter
        if enc not in self.content.encounters:
            return f"unknown encounter {enc!r}"
        if len(self.branches) >= MAX_BRANCHES and self.lost:
            return f"at most {MAX_BRANCHES} branches (each new run is one): switch to one"
        return None

    def next_battle(self, encounter: str | None) -> str | None:
        """Start the next battle of the run (after a loss: of a new run, in a new branch);
        returns a refusal (nothing changed) or None."""
        why = self.next_refusal(encounter)
        if why is not None:
            return why
        if self.lost:
            self.current.recorder.close()
            self.current = self._root(self._new_game())
        self._step("start", encounter or self.encounter)
        return None

    # ------------------------------------------------------------ replays
    def replay_data(self, branch: Branch | None = None) -> dict[str, Any]:
        """The branch's replay as played so far: ``gcs-replay/2`` while it holds one battle
        (``gcs replay`` checks it), else ``gcs-monitor-run/1`` (``gcs monitor --replay``)."""
        b = branch or self.current
        g = b.game
        battles: list[dict[str, Any]] = []
        for kind, arg in b.steps:
            if kind == "start":
                battles.append({"encounter": arg, "actions": []})
            elif battles:
                battles[-1]["actions"].append(arg)
        head = {"pack": self.content.pack_id, "seed": self.seed}
        tail = {"won": result(g), "turns": g.turn_number, "final": state_digest(g)}
        if len(battles) <= 1:
            first = battles[0] if battles else {"encounter": self.encounter, "actions": []}
            return {"format": FORMAT, **head, "encounter": first["encounter"],
                    "character": self.character, "deck": self.deck,
                    "actions": first["actions"], **tail, "trace": list(b.trace)}
        return {"format": RUN_FORMAT, **head, "character": self.character, "deck": self.deck,
                "battles": battles, **tail}

    def _write(self) -> None:
        """Write the current branch's replay file (``--save``), after every step (whole or not
        at all: through a rename)."""
        if self.save is not None:
            write_text(self.save, json.dumps(self.replay_data(), indent=1) + "\n", "replay file",
                       GameError)


def is_session_file(path: Path) -> bool:
    """Whether ``path`` holds a file ``--save`` may replace: a replay or monitor run file."""
    try:
        return read_file(path).get("format") in (*FORMATS, RUN_FORMAT)
    except GameError:
        return False


def _run(g: Game, kind: str, arg: str) -> None:
    """Make one step on ``g`` (a start settles its opening Waits and Gates, as a replay does)."""
    if kind == "start":
        g.start_battle(arg)
        g.settle()
    else:
        g.apply(Action.parse(arg))


def steps_of(data: dict[str, Any]) -> tuple[str, list[Step]]:
    """The first encounter and the steps of a replay (``gcs-replay/1`` or ``/2``) or run file."""
    if data.get("format") == RUN_FORMAT:
        battles = data.get("battles")
        if not isinstance(battles, list) or not battles:
            raise GameError(f"a {RUN_FORMAT} file holds a non-empty list 'battles'")
        steps: list[Step] = []
        for i, b in enumerate(battles):
            enc, acts = (b.get("encounter"), b.get("actions")) if isinstance(b, dict) else (None, None)
            if not isinstance(enc, str) or not isinstance(acts, list) or not all(
                    isinstance(a, str) for a in acts):
                raise GameError(f"battles[{i}] needs an 'encounter' id and a list of 'actions' texts")
            steps.append(("start", enc))
            steps.extend(("act", a) for a in acts)
        return str(steps[0][1]), steps
    enc, acts = data.get("encounter"), data.get("actions")
    if not isinstance(enc, str) or not isinstance(acts, list) or not all(isinstance(a, str)
                                                                         for a in acts):
        raise GameError("a replay file needs an 'encounter' id and a list of 'actions' texts")
    return enc, [("start", enc), *(("act", a) for a in acts)]


def recording(content: Content, data: dict[str, Any], *, source: str) -> PlaySession:
    """A read-only session of a replay or run file (``gcs monitor --replay``): every step
    re-played, and the file's final state, result and turns checked."""
    if data.get("format") not in (*FORMATS, RUN_FORMAT):
        raise GameError(f"{source}: not a replay file (format {data.get('format')!r}, expected "
                        f"{FORMAT} or {RUN_FORMAT})")
    if data.get("pack") != content.pack_id:
        raise GameError(f"{source} is for pack {data.get('pack')!r}, not {content.pack_id!r}")
    seed, deck, character = data.get("seed"), data.get("deck"), data.get("character")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise GameError(f"{source}: 'seed' must be an integer")
    if deck is not None and not (isinstance(deck, list) and all(isinstance(d, str) for d in deck)):
        raise GameError(f"{source}: 'deck' must be a list of card ids or null")
    if character is not None and not isinstance(character, str):
        raise GameError(f"{source}: 'character' must be a character id or null")
    first, steps = steps_of(data)
    try:
        session = PlaySession(content, first, seed, deck=deck, character=character)
    except GameError as exc:
        raise GameError(f"{source}: {exc}") from exc
    for i, (kind, arg) in enumerate(steps):
        try:
            session._step(kind, arg)
        except GameError as exc:
            raise GameError(f"{source}: step {i} ({kind} {arg!r}) does not re-run: {exc}") from exc
    g = session.game
    checks = (("final", state_digest(g)), ("won", result(g)), ("turns", g.turn_number))
    bad = [f"{k}: file {data.get(k)!r}, re-run {v!r}" for k, v in checks if k in data and data[k] != v]
    if bad:
        raise GameError(f"{source} does not re-run to what it states: " + "; ".join(bad))
    session.read_only = True
    return session

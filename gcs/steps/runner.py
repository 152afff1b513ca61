"""The one runner of the seed procedures: a frame's steps, in the seeds' numbering, one after
another while nothing is queued.

A seed procedure (StartBattle, PlayerTurnStart, EndPlayerTurn, EnemyPhase and each enemy's turn,
a card's play, the battle's end) is a ``Procedure``: its frame kind and a table of ``Step``s
keyed by the seed's step numbers (gcs/battle/frames.py). Its frame's ``pc`` is the next step.
``run`` is the engine loop's handler of every procedure frame: it runs the step at ``pc``, sets
``pc`` to the next one and goes on, in the same call, until a step queues work (pushes frames:
behaviour entries, draws, a card's lifecycle) or pauses, or the procedure ends. The loop then
runs that work and calls ``run`` again for the rest (a *resume*: the battle end is re-read
first, by the procedures that do). So a Choice or Wait anywhere holds the queued steps too.

The runner is also where the steps of several procedures fuse into one call. Where the engine
loop would only come back to call the next handler, the runner counts the engine step the loop
would count (``Engine.count``: the step guard stops there as the loop would) and goes on itself:

- a step that ends its procedure by handing its frame to the next one (EndPlayerTurn to
  EnemyPhase to PlayerTurnStart: ``NEXT``) goes on into the next procedure's first step;
- a step that runs a sub-procedure (one enemy's turn, the turn-end hand, a draw) pushes its
  frame and runs it here (``call``, then ``settled``): done, the frame resumes (``RESUMED``);
  if it queued work, its frame stays under that work, where the loop would have it;
- the procedures whose every step is a trip through the loop (``each_step_a_call``: the battle
  start and end) count one and go on.

So one End Turn runs its whole cycle in one call when nothing queues work, with the engine
steps the frame-by-frame run counts. ``Engine.stepwise`` turns the fusion off (every step frame
by frame, through the loop): tests/test_steps_contract.py plays every bundled encounter and the
pausing pack both ways and compares the states, step counts and logs after each decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..battle import frames as K
from ..battle.roles import forget_roles
from ..battle.state import Frame
from ..enums import BattlePhase
from ..events import PhaseChanged

if TYPE_CHECKING:
    from ..engine import Engine

# What a step says about how its procedure goes on (besides queued work, read off the stack).
GO: Final = 0        # done: the next step, in the same call (or the loop first, if it queued)
RESUMED: Final = 1   # it ran the work it queued here: the frame resumes (the battle end re-read)
NEXT: Final = 2      # the frame is now the next procedure's, at its first step
END: Final = 3       # the procedure is over: the step popped its frame
DECIDED: Final = 4   # the battle is decided: the stack holds its end (``check_end``)


class Step:
    """One numbered step of a seed procedure. Its docstring quotes the seed sentence it does;
    ``run`` does it and returns how the procedure goes on (``GO``, ``RESUMED``, ``NEXT``,
    ``END`` or ``DECIDED``). ``number`` and ``after`` (the next step's number) are set by the
    ``Procedure`` that lists it. A native class: the runner calls ``run`` through its table."""

    def __init__(self) -> None:
        self.number = 0
        self.after = 0
        # the step numbered ``after`` (the runner goes on to it without indexing the table:
        # compiled, a native attribute of a declared class needs no type check)
        self.next: Step = self

    def run(self, e: Engine, f: Frame) -> int:
        raise NotImplementedError


class Procedure:
    """A seed procedure: its frame ``kind``, its steps keyed by number (each step's ``after`` is
    the next one listed), whether a resume re-reads the battle end (``rereads_end``) and
    whether each step is a trip through the engine loop of its own (``each_step_a_call``)."""

    def __init__(self, name: str, kind: int, steps: dict[int, Step], *,
                 rereads_end: bool = False, each_step_a_call: bool = False) -> None:
        numbers = sorted(steps)
        if tuple(numbers) != K.STEPS[kind]:
            raise ValueError(f"{name}: steps {numbers} are not frames.STEPS[{kind}]")
        self.name = name
        self.kind = kind
        self.first = numbers[0]
        table: list[Step] = [_NO_STEP] * (numbers[-1] + 1)
        for i, n in enumerate(numbers):
            step = steps[n]
            step.number = n
            step.after = numbers[i + 1] if i + 1 < len(numbers) else n
            table[n] = step
        for step in table:
            if step is not _NO_STEP:
                step.next = table[step.after]
        self.table: tuple[Step, ...] = tuple(table)
        self.rereads_end = rereads_end
        self.each_step_a_call = each_step_a_call

    def started(self, f: Frame) -> bool:
        """Has ``f`` run before (so the loop's call is a resume)?"""
        return f.pc != self.first

    def __repr__(self) -> str:
        return f"Procedure({self.name}, steps {list(K.STEPS[self.kind])})"


class _NoStep(Step):
    def run(self, e: Engine, f: Frame) -> int:
        raise AssertionError(f"no step {f.pc} in {K.NAMES.get(f.kind, f.kind)}")


_NO_STEP: Final = _NoStep()

# frame kind -> its procedure (None: a kind that is not a procedure's), a list read by index
# (no hashing on the hot path); filled once by gcs/engine.py, the one place that registers
PROCEDURES: Final[list[Procedure | None]] = [None] * len(K.NAMES)


def run(e: Engine, f: Frame) -> None:
    """The loop's handler of a procedure frame ``f`` (on top of the stack): a resume re-reads
    the battle end first (for the procedures that do), then the steps go on from ``f.pc``."""
    proc = PROCEDURES[f.kind]
    assert proc is not None  # (the loop calls ``run`` for procedure frames only)
    if proc.rereads_end and proc.started(f) and check_end(e):
        return
    steps(e, f, proc)


def steps(e: Engine, f: Frame, proc: Procedure) -> int:
    """``f``'s steps from ``f.pc`` until one queues work or pauses (``GO``: the loop runs it and
    resumes ``f``), the procedure ends (``END``) or the battle is decided (``DECIDED``)."""
    s = e.s
    stack = s.stack
    table = proc.table
    each = proc.each_step_a_call
    units = s.units
    limit = e.step_limit
    step = table[f.pc]
    while True:
        after = step.after
        f.pc = after
        r = step.run(e, f)
        if not r:  # GO
            if stack[-1] is not f or s.pause:
                return GO  # queued work or a pause: the loop runs it, then resumes ``f``
            if each:
                if e.stepwise:
                    return GO
                # the loop's count of this step's call (``Engine.count``); the next is the next
                if s.steps >= limit:
                    e.count()  # (the step over the limit: it counts and raises)
                s.steps += 1
        elif r == RESUMED:
            if proc.rereads_end:
                last = units[-1]
                if not (last.alive and last.uid and units[0].alive) and check_end(e):
                    return DECIDED  # (read inline first, as ``check_end``: the last enemy lives)
        elif r == NEXT:
            if e.stepwise:
                return GO  # the loop counts, then runs the new procedure's frame
            if s.steps >= limit:
                e.count()  # (it raises)
            s.steps += 1
            nxt = PROCEDURES[f.kind]
            assert nxt is not None  # (``become`` names a procedure's kind)
            proc = nxt
            table = proc.table
            each = proc.each_step_a_call
            step = table[f.pc]
            continue
        else:
            return r  # END (the step popped ``f``) or DECIDED
        # the next step: the one listed after, unless the step went elsewhere (``f.pc``)
        step = step.next if f.pc == after else table[f.pc]


def become(e: Engine, f: Frame, kind: int, first: int) -> int:
    """``f``, on top of the stack, is now the frame of the procedure ``kind`` at its first step
    ``first`` (the pop of one frame and the push of the next, without making one): ``NEXT``."""
    f.kind = kind
    f.pc = first
    f.data = None
    return NEXT


def start(e: Engine, f: Frame) -> None:
    """``Engine.run`` for a stack holding only the procedure frame ``f`` just pushed: its
    steps run here, then the loop goes on with what they queued."""
    if e.stepwise:
        e.run()
        return
    e.ticks += 1
    if e.roles_open:  # (as ``Engine.run``)
        forget_roles(e)
    proc = PROCEDURES[f.kind]
    assert proc is not None  # (a procedure's frame)
    steps(e, f, proc)  # (``run`` for a frame not started)
    s = e.s
    if s.steps >= e.step_limit:
        e.count()  # (the loop's count of that call; over the limit, it raises)
    s.steps += 1
    if s.stack:
        e.loop()
    elif len(e.log) > e.log_cap:
        e.trim_log()  # (as the loop ends)


def call(e: Engine) -> bool:
    """A step pushed a frame the loop would run next (a sub-procedure, a draw): count the
    step the loop counts for the call that pushed it, and say whether to run it here (False
    in stepwise mode: the step returns and the loop runs it)."""
    if e.stepwise:
        return False
    s = e.s
    if s.steps >= e.step_limit:
        e.count()  # (over the limit: it raises)
    s.steps += 1
    return True


def settled(e: Engine, f: Frame) -> int:
    """After a step of ``f`` ran a frame it pushed (see ``call``): ``RESUMED`` when that frame
    is done and ``f`` is on top again (its call counted, as the loop counts it), else ``GO``
    (its work is queued above it, or it paused: the loop goes on from there)."""
    s = e.s
    if s.stack[-1] is f and not s.pause:
        if s.steps >= e.step_limit:
            e.count()  # (over the limit: it raises)
        s.steps += 1
        return RESUMED
    return GO


def enter(e: Engine, phase: BattlePhase) -> None:
    """A phase transition: recorded in ``phase_history``, published as ``PhaseChanged``."""
    s = e.s
    old = s.phase
    s.phase = phase
    s.history.append((phase, s.turn))
    if e.hot:
        e.record(PhaseChanged(old, phase, s.turn))


def check_end(e: Engine) -> bool:
    """Re-read the battlefield (seed 001: before committing BattleWon or BattleLost); if the
    battle is decided, everything queued is dropped and its end (a WON or LOST frame) is the
    only work left. True then."""
    units = e.s.units
    if units[0].alive:
        last = units[-1]
        if last.alive and last.uid:
            return False  # (the usual case, read first: the last enemy lives)
        for u in units:
            if u.alive and u.uid:  # a living enemy (the player is unit 0)
                return False
    s = e.s
    won = units[0].alive
    s.stack.clear()
    s.delayed.clear()
    s.end_turn = False
    if won:
        e.push(K.WON, K.WON_BRANCHES, None)
    else:
        e.push(K.LOST, K.LOST_BRANCHES, None)
    return True

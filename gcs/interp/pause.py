"""Pausing nodes: Choice, Wait and Animation Gate hold the whole effect wave (every frame stays
where it is); WaitUntil moves the rest of its entry into a delayed continuation, which a phase
step resumes (``fire_delayed``), or (``wave_end``) to the bottom of the current wave; and the
answer to an open Choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ..battle import frames as K
from ..battle.state import CHOICE, GATE, NO_PAUSE, WAIT, CardInstance, Ctx, Delayed, Frame, Unit
from ..enums import BattlePhase
from ..errors import ChoiceError, FlowError
from ..events import AnimationGateOpened, ChoiceMade, ChoiceOpened, WaitStarted
from ..flow import nodes as N
from .run import Exec, _where, exec_node
from .values import select

if TYPE_CHECKING:
    from ..engine import Engine


def _ex_choice(e: Engine, node: N.Choice, ctx: Ctx) -> None:
    kind, ids = select(e, node.select, ctx)
    if not ids or not e.presenter:
        ctx.objs[node.var] = [kind, []]
        if e.hot:
            e.record(ChoiceMade((), True))
        if node.skipped is not None:
            exec_node(e, node.skipped, ctx)
        return
    s = e.s
    s.pause = CHOICE
    s.choice_kind = kind
    s.choice_ids = ids
    s.choice_min = min(node.min, len(ids))
    s.choice_max = min(node.max, len(ids))
    s.choice_prompt = node.prompt
    s.stack.append(Frame(K.CHOICE, node, 0, None, ctx))
    if e.hot:
        e.record(ChoiceOpened(node.prompt, tuple(ids), s.choice_min, s.choice_max))


def _ex_wait(e: Engine, node: N.Wait, ctx: Ctx) -> None:
    if node.seconds <= 0:
        return
    e.s.pause = WAIT
    e.s.wait_left = float(node.seconds)
    if e.hot:
        e.record(WaitStarted(float(node.seconds)))


def _ex_gate(e: Engine, node: N.AnimationGate, ctx: Ctx) -> None:
    e.s.pause = GATE
    e.s.gate = node.name
    if e.hot:
        e.record(AnimationGateOpened(node.name))


def due_of(e: Engine, when: str, turns: int) -> int:
    """The occurrence counter at which a delayed continuation becomes due.

    ``turns`` = N means the N-th occurrence of the phase point that is still ahead of now
    (N < 1 counts as 1). Player points count player turns (``player_turns``, extra turns
    included); ``enemy_phase_end`` counts turn numbers.
    """
    s = e.s
    n = max(1, turns)
    if when == "player_turn_start":
        # any behaviour runs after step 4 of the current PlayerTurnStart: the next one is ahead
        return s.player_turns + n
    if when == "player_turn_end":
        ahead = s.phase in (BattlePhase.PLAYER_TURN_START, BattlePhase.PLAYER_PHASE) or any(
            f.kind == K.TURN_END and f.pc <= K.TURN_END_DECAY for f in s.stack)
        return s.player_turns + n - (1 if ahead else 0)
    # enemy_phase_end, counted by turn number (the turn is 1 while the battle initialises)
    ahead = s.phase is not BattlePhase.ENEMY_PHASE or any(
        f.kind == K.ENEMY_PHASE and f.pc <= K.ENEMY_PHASE_DELAYED for f in s.stack)
    return max(1, s.turn) + n - (1 if ahead else 0)


def _ex_wait_until(e: Engine, node: N.WaitUntil, ctx: Ctx) -> None:
    when = node.when
    if when not in N.WAIT_UNTIL_WHEN:
        raise FlowError(f"WaitUntil in {_where(e, ctx)}: unknown phase point {when!r} "
                        f"(expected one of {', '.join(N.WAIT_UNTIL_WHEN)})")
    s = e.s
    stack = s.stack
    i = len(stack) - 1
    while i >= 0 and stack[i].kind != K.ENTRY:
        i -= 1
    if i < 0:
        raise FlowError("WaitUntil outside a behaviour entry")
    segment = stack[i:]
    del stack[i:]
    if when == N.WAVE_END:
        _to_wave_end(stack, segment, i)
        return
    s.delayed.append(Delayed(when, due_of(e, when, node.turns), segment, s.next_seq))
    s.next_seq += 1


def _to_wave_end(stack: list[Frame], segment: list[Frame], i: int) -> None:
    """Put the rest of an entry (``segment``, taken from index ``i``) at the bottom of the
    current effect wave: just above the frame of the procedure whose step set the wave going
    (a card's play, a phase step, one enemy's turn), or at the bottom of the stack when a
    facade call set it going. Everything already queued above that point runs first, then
    the segment, then the procedure's next step: the game's ``addToBottom``. A segment moved
    there earlier sits above it, so continuations resume in the order they were scheduled.
    The frames stay on the one stack, so a pause, a save or a clone holds them as data."""
    b = i - 1
    while b >= 0 and stack[b].kind not in K.STEPS:
        b -= 1
    stack[b + 1:b + 1] = segment


def fire_delayed(e: Engine, when: str, counter: int) -> None:
    """Resume every due continuation of ``when``, in scheduling order."""
    s = e.s
    if not s.delayed:
        return
    due = [d for d in s.delayed if d.when == when and d.due <= counter]
    if not due:
        return
    s.delayed = [d for d in s.delayed if not (d.when == when and d.due <= counter)]
    for d in reversed(due):
        s.stack.extend(d.frames)


def answer_choice(e: Engine, selection: Sequence[Any] | Any) -> None:
    """Store the chosen candidates in the Choice's slot and lift the pause (the caller runs
    the loop). Candidates are given as objects or indices; a wrong answer raises ChoiceError
    and changes nothing."""
    s = e.s
    if s.pause != CHOICE:
        raise ChoiceError("no Choice is open")
    if not isinstance(selection, (list, tuple)):
        selection = [selection]
    ids: list[int] = []
    for x in selection:
        if isinstance(x, bool):
            raise ChoiceError(f"not a candidate: {x!r}")
        if isinstance(x, int):
            if not 0 <= x < len(s.choice_ids):
                raise ChoiceError(
                    f"candidate index {x} out of range 0..{len(s.choice_ids) - 1}")
            ids.append(s.choice_ids[x])
        elif isinstance(x, (CardInstance, Unit)) and s.choice_kind == (
                "c" if isinstance(x, CardInstance) else "u"):
            own = s.cards.get(x.uid) if isinstance(x, CardInstance) else (
                s.units[x.uid] if 0 <= x.uid < len(s.units) else None)
            if x.uid not in s.choice_ids or own is not x:
                raise ChoiceError(f"{x!r} is not a candidate of this Choice")
            ids.append(x.uid)
        else:
            raise ChoiceError(f"not a candidate: {x!r}")
    if len(set(ids)) != len(ids):
        raise ChoiceError("a candidate was chosen twice")
    if not s.choice_min <= len(ids) <= s.choice_max:
        raise ChoiceError(
            f"choose between {s.choice_min} and {s.choice_max} candidates, got {len(ids)}")
    frame = s.stack[-1]
    node = frame.node
    assert frame.ctx is not None and isinstance(node, N.Choice)
    frame.ctx.objs[node.var] = [s.choice_kind, ids]
    s.pause = NO_PAUSE
    s.choice_ids = []
    if e.hot:
        e.record(ChoiceMade(tuple(ids), False))


PAUSING: Final[dict[type, Exec]] = {
    N.Choice: _ex_choice, N.Wait: _ex_wait, N.WaitUntil: _ex_wait_until,
    N.AnimationGate: _ex_gate,
}

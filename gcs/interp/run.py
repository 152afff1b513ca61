"""The interpreter's core: behaviour entries and composite nodes run as frames on the engine's
one stack, the dispatch tables, and the flat programs of straight behaviours.

A composite node is a frame (node, pc, data, scope); an action runs at once and may push
lifecycle entries above the current frame, which therefore waits for them. Pausing nodes live
in ``pause``, the actions in ``card_actions`` and ``unit_actions``; gcs/engine.py registers
every executor in ``EXEC`` (and the composites' steps in ``STEP``), in one place.

A straight behaviour (no pause, WaitUntil or loop: ``program.Program``) runs its flat ops
instead, in one handler call and without frames (``run_ops``); the moment an action queues
work or pauses, the frames the tree walk would have had then are put below that work, and
the tree walk carries on from them. Both ways count the same engine steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..battle import frames as K
from ..battle.state import Ctx, Frame
from ..errors import FlowError, StepLimitError
from ..flow import nodes as N
from ..flow import program as P
from .values import in_battle, select, test, val

if TYPE_CHECKING:
    from ..engine import Engine

Exec = Callable[["Engine", Any, Ctx], None]
EXEC: Final[dict[type, Exec]] = {}  # (Final: a C global in the compiled engine)
STEP: Final[dict[type, Callable[[Engine, Frame], None]]] = {}


def exec_node(e: Engine, node: N.Node, ctx: Ctx) -> None:
    """Run an action now, or push the frame of a composite node."""
    EXEC[type(node)](e, node, ctx)


# roots that need an ENTRY frame (composites, WaitUntil), as a set of exact types: node classes
# have no subclasses (``EXEC`` dispatches on the exact type too), so ``type(node) in`` it is
# ``isinstance(node, P.NEEDS_ENTRY)`` without a subclass walk per class
ENTRY_ROOTS: Final = frozenset(P.NEEDS_ENTRY)


def start_entry(e: Engine, node: N.Node, ctx: Ctx, inline: bool = False) -> None:
    """Start an entry now, on top of the stack: a single action runs at once, anything else
    gets an ENTRY frame (the same order as queueing it, since nothing is above the caller).

    ``inline``: a straight program runs now, inside the caller's handler call, and pushes no
    frame unless one of its actions queues work or pauses. Only for a caller whose next call
    would go straight on from where it called this (nothing re-read on resuming), since a
    program that completes returns to the caller without a trip through the engine loop.
    """
    if type(node) in ENTRY_ROOTS:
        if inline:
            prog = e.c.programs.get(id(node))
            if prog is not None and prog.ops:
                # the frame path: this caller returns to the loop after pushing the ENTRY
                # frame (one step), which runs the ops and is popped in its last call (one)
                # (each ``count_steps(e, 1)``, inlined: the count, and its guard past the limit)
                s = e.s
                s.steps += 1
                if s.steps > e.step_limit:
                    count_steps(e, 0)
                if run_ops(e, prog.ops, ctx, node):
                    s.steps += 1
                    if s.steps > e.step_limit:
                        count_steps(e, 0)
                return
        e.s.stack.append(Frame(K.ENTRY, node, 0, None, ctx))
    else:
        EXEC[type(node)](e, node, ctx)  # (exec_node, one call less: every play starts here)


def step_entry(e: Engine, f: Frame) -> None:
    """An entry frame starts its graph, and is popped when the graph has completed."""
    if f.pc:
        e.s.stack.pop()
        return
    f.pc = 1
    prog = e.c.programs.get(id(f.node))
    if prog is not None and prog.ops:
        # a straight program: its ops run here; the frame is popped if they all ran (else
        # the frames of the rest are on the stack now, above this one)
        if run_ops(e, prog.ops, f.ctx, None):  # type: ignore[arg-type]
            e.s.stack.pop()
        return
    exec_node(e, f.node, f.ctx)  # type: ignore[arg-type]
    s = e.s
    stack = s.stack
    # (a WaitUntil at the root may have detached this very frame, leaving the stack empty)
    if stack and stack[-1] is f and not s.pause:
        stack.pop()


def run_ops(e: Engine, ops: tuple[P.Op, ...], ctx: Ctx, root: N.Node | None) -> bool:
    """Run a straight program's ops (see ``program``): True if they all ran.

    It stops after an action that queued work (pushed frames) or paused, and puts below that
    work the frames the tree walk would have had at that point: the ENTRY frame of ``root``
    (when the program runs inline, without one) and a NODE frame per enclosing Sequence, at
    its next step. So that work runs first, then the rest of the program as frames, exactly
    as before. Nothing else can run between two ops of the tree walk either: the frames it
    returns to the loop with are the program's own, on top of the stack.
    """
    s = e.s
    stack = s.stack
    mark = len(stack)
    limit = e.step_limit
    pc = 0
    end = len(ops)
    while pc < end:
        code, a, b, c = ops[pc]
        pc += 1
        if code == P.ACT:
            EXEC[type(a)](e, a, ctx)
            # (actions only ever push frames: a longer stack means queued work)
            if not c and (len(stack) != mark or s.pause):
                frames = [Frame(K.NODE, seq, i, None, ctx) for seq, i in b]
                if root is not None:
                    frames.insert(0, Frame(K.ENTRY, root, 1, None, ctx))
                stack[mark:mark] = frames
                return False
        elif code == P.TICK:
            s.steps += a  # the engine steps of the frames' returns to the loop (see count_steps)
            if s.steps > limit:
                count_steps(e, 0)
        elif code == P.BRANCH:
            if not test(e, a, ctx):
                pc = b
        else:  # JUMP
            pc = a
    return True


def count_steps(e: Engine, n: int) -> None:
    """Count ``n`` engine steps that the frame path would have taken here (``Engine.run``
    counts one per frame handled), with the step guard and message of ``Engine.run``."""
    s = e.s
    s.steps += n
    limit = e.step_limit
    if s.steps > limit:
        s.steps = limit + 1  # where the loop would have stopped, one step at a time
        raise StepLimitError(
            f"battle exceeded {limit} engine steps without ending "
            f"(turn {s.turn}, phase {s.phase.name}); a behaviour probably loops"
        )


def step_node(e: Engine, f: Frame) -> None:
    STEP[type(f.node)](e, f)


def step_choice(e: Engine, f: Frame) -> None:
    """The Choice was answered: continue into its ``then`` branch."""
    e.s.stack.pop()
    node = f.node
    assert isinstance(node, N.Choice)
    if node.then is not None:
        exec_node(e, node.then, f.ctx)  # type: ignore[arg-type]


# ---------------------------------------------------------------- composites
def _push(e: Engine, node: N.Node, ctx: Ctx, data: Any = None) -> None:
    e.s.stack.append(Frame(K.NODE, node, 0, data, ctx))


def _ex_sequence(e: Engine, node: N.Sequence, ctx: Ctx) -> None:
    _push(e, node, ctx)


def _st_sequence(e: Engine, f: Frame) -> None:
    s = e.s
    stack = s.stack
    steps = f.node.steps  # type: ignore[union-attr]
    ctx = f.ctx
    n = len(steps)
    while True:
        i = f.pc
        if i >= n:
            stack.pop()
            return
        f.pc = i + 1
        exec_node(e, steps[i], ctx)  # type: ignore[arg-type]
        if not stack or stack[-1] is not f or s.pause:
            return  # pushed work, paused, or detached by a WaitUntil


def _ex_branch(e: Engine, node: N.Branch, ctx: Ctx) -> None:
    if test(e, node.cond, ctx):
        exec_node(e, node.then, ctx)
    elif node.otherwise is not None:
        exec_node(e, node.otherwise, ctx)


def _ex_loop(e: Engine, node: N.Loop, ctx: Ctx) -> None:
    _push(e, node, ctx, val(e, node.count, ctx))


def _st_loop(e: Engine, f: Frame) -> None:
    node = f.node
    assert isinstance(node, N.Loop)
    if f.pc >= f.data:
        e.s.stack.pop()
        return
    if node.var:
        f.ctx.vals[node.var] = f.pc  # type: ignore[union-attr]
    f.pc += 1
    exec_node(e, node.body, f.ctx)  # type: ignore[arg-type]


def _ex_foreach(e: Engine, node: N.Foreach, ctx: Ctx) -> None:
    kind, ids = select(e, node.select, ctx)
    if ids:
        _push(e, node, ctx, [kind, ids])


def _st_foreach(e: Engine, f: Frame) -> None:
    node = f.node
    assert isinstance(node, N.Foreach)
    kind, ids = f.data
    s = e.s
    while f.pc < len(ids):
        i = ids[f.pc]
        f.pc += 1
        if kind == "c" and not in_battle(e, kind, i):
            continue  # the card left the battle meanwhile (dead units are still visited)
        f.ctx.objs[node.var] = [kind, [i]]  # type: ignore[union-attr]
        exec_node(e, node.body, f.ctx)  # type: ignore[arg-type]
        return
    s.stack.pop()


def _ex_while(e: Engine, node: N.While, ctx: Ctx) -> None:
    _push(e, node, ctx)


def _st_while(e: Engine, f: Frame) -> None:
    node = f.node
    assert isinstance(node, N.While)
    ctx = f.ctx
    assert ctx is not None
    if not test(e, node.cond, ctx):
        e.s.stack.pop()
        return
    if f.pc >= node.max_iterations:
        raise FlowError(
            f"While loop in {_where(e, ctx)} exceeded max_iterations={node.max_iterations}: "
            f"its condition still held after {node.max_iterations} iterations (make the body "
            f"change what the condition reads, or raise max_iterations)"
        )
    f.pc += 1
    exec_node(e, node.body, ctx)


def _where(e: Engine, ctx: Ctx) -> str:
    """Which behaviour a scope belongs to, for error messages."""
    entry = ctx.entry or "behaviour"
    if ctx.status:
        return f"status {ctx.status!r} {entry}"
    inst = e.s.cards.get(ctx.src) if ctx.src >= 0 else None
    if inst is not None:
        return f"card {inst.card_id!r} {entry}"
    if ctx.owner > 0 and ctx.owner < len(e.s.units):
        return f"enemy {e.s.units[ctx.owner].def_id!r} {entry}"
    return entry


def _ex_call(e: Engine, node: N.Call, ctx: Ctx) -> None:
    """Run a named graph in the caller's scope (its slots are the caller's slots)."""
    graph = e.c.graphs.get(node.graph)
    if graph is None:
        raise FlowError(f"Call of unknown graph {node.graph!r} in {_where(e, ctx)}")
    try:
        exec_node(e, graph, ctx)
    except RecursionError:
        raise FlowError(
            f"Call of graph {node.graph!r} in {_where(e, ctx)} recursed without end: a graph "
            f"calls itself through Branch/Call only; put the recursion in a Sequence or Loop "
            f"with a stopping condition"
        ) from None


def _ex_setvar(e: Engine, node: N.SetVar, ctx: Ctx) -> None:
    ctx.vals[node.name] = val(e, node.value, ctx)


def _ex_setobj(e: Engine, node: N.SetObj, ctx: Ctx) -> None:
    kind, ids = select(e, node.select, ctx)
    ctx.objs[node.name] = [kind, ids]



# the control flow's executors and composite steps (registered by gcs/engine.py)
CONTROL: Final[dict[type, Exec]] = {
    N.Sequence: _ex_sequence, N.Branch: _ex_branch, N.Loop: _ex_loop, N.Foreach: _ex_foreach,
    N.While: _ex_while, N.Call: _ex_call, N.SetVar: _ex_setvar, N.SetObj: _ex_setobj,
}
COMPOSITES: Final[dict[type, Callable[[Engine, Frame], None]]] = {
    N.Sequence: _st_sequence, N.Loop: _st_loop, N.Foreach: _st_foreach, N.While: _st_while,
}

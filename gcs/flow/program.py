"""Behaviour programs: every behaviour graph compiled once, at content load, into flat code.

A ``Program`` keeps the graph's root node (frames and saves still refer to nodes) with flags
computed once: can it pause (Choice, Wait, Animation Gate), detach (WaitUntil), loop (Loop,
Foreach, While), queue work (an action that may push lifecycles, statuses, draws, plays),
and are its Calls resolved. A *straight* program (no pause, detach or loop; every Call names
a known graph and none recurses) also gets its flat ops, which the interpreter
(``interp.run_ops``) runs without pushing frames. An op is a 4-tuple ``(code, a, b, c)``:

* ``(TICK, n, None, None)``: the frame path would have returned to the engine loop ``n``
  times here (a Sequence frame was pushed, or a Sequence frame was popped); each return is one
  engine step, so the interpreter counts ``n`` steps against the step guard here.
* ``(ACT, node, conts, quiet)``: run the action ``node``. ``conts`` are the frames the frame
  path would have below any work the action queues: ``(Sequence node, next step)`` per
  enclosing Sequence, outermost first. ``quiet``: the action can neither queue work nor pause.
* ``(BRANCH, cond, else_pc, None)``: go on when ``cond`` holds, else jump to ``else_pc``.
* ``(JUMP, pc, None, None)``: jump to ``pc`` (the end of a Branch's ``then``).

A Call is compiled into its graph's ops (the graph runs in the caller's scope, as before);
a Branch becomes a test and a jump; a Sequence becomes its steps between two ticks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from . import nodes as N

TICK: Final = 0
ACT: Final = 1
BRANCH: Final = 2
JUMP: Final = 3

Op = tuple[int, Any, Any, Any]

# Actions that can neither queue work (no frame, lifecycle or status entry) nor pause.
QUIET: tuple[type, ...] = (N.SetVar, N.SetObj, N.GainEnergy, N.GainGold, N.EndTurn, N.ExtraTurn,
                           N.SetMove, N.GrowNumber, N.GainMaxHp)
PAUSES: tuple[type, ...] = (N.Choice, N.Wait, N.AnimationGate)
LOOPS: tuple[type, ...] = (N.Loop, N.Foreach, N.While)
# Nodes that are not actions: control flow and pausing.
CONTROL: tuple[type, ...] = (N.Sequence, N.Branch, N.Loop, N.Foreach, N.While, N.Call, N.Choice,
                             N.Wait, N.WaitUntil, N.AnimationGate)
# Roots that need an ENTRY frame: composites (they push frames that must be bounded) and
# anything that may reach a WaitUntil (it detaches the frames of its entry).
NEEDS_ENTRY: tuple[type, ...] = (N.Sequence, N.Branch, N.Loop, N.Foreach, N.While, N.Call,
                                 N.WaitUntil)


# Flags: what running a node can do (through its children and the graphs it calls), as bits.
PAUSE = 1       # a Choice, Wait or Animation Gate can run
DETACH = 2      # a WaitUntil can run (it needs the ENTRY frame of its entry)
LOOP = 4        # a Loop, Foreach or While can run
TRIGGER = 8     # an action that may queue work (lifecycles, statuses, draws, plays) can run
UNRESOLVED = 16  # a Call names an unknown graph, or graphs call each other in a cycle
HOOK = 32       # a Register Card Hook can run (in On Play it waits for its play's PLAY frame)
NOT_STRAIGHT = PAUSE | DETACH | LOOP | UNRESOLVED


class Program:
    """One behaviour (a card entry, a status entry, an enemy move, a named graph), compiled.

    ``flags`` are the bits above; ``ops`` (empty unless the program is straight) run it as
    the handler of its ENTRY frame. Read-only once made.
    """

    __slots__ = ("root", "flags", "needs_entry", "ops")

    def __init__(self, root: N.Node, flags: int, needs_entry: bool,
                 ops: tuple[Op, ...] = ()) -> None:
        self.root = root
        self.flags = flags
        self.needs_entry = needs_entry  # the root is a composite (or WaitUntil): ENTRY frame
        self.ops = ops

    @property
    def straight(self) -> bool:
        """Runs start to end in one go: no pause, detach or loop, every Call resolved."""
        return not self.flags & NOT_STRAIGHT

    @property
    def pauses(self) -> bool:
        return bool(self.flags & PAUSE)

    @property
    def triggers(self) -> bool:
        """Can it queue work (so something else, a lifecycle or status entry, may run)?"""
        return bool(self.flags & TRIGGER)

    def __repr__(self) -> str:
        names = [n for n, b in (("pause", PAUSE), ("detach", DETACH), ("loop", LOOP),
                                ("trigger", TRIGGER), ("unresolved", UNRESOLVED), ("hook", HOOK))
                 if self.flags & b]
        return f"Program({type(self.root).__name__}, {'|'.join(names) or 'quiet'}, {len(self.ops)} ops)"


class Compiler:
    """Compiles the behaviours of one content pack (node flags are computed once per node)."""

    def __init__(self, graphs: Mapping[str, N.Node]) -> None:
        self.graphs = graphs
        self._flags: dict[int, int] = {}
        self._calling: list[str] = []  # graphs whose flags are being computed (a cycle: unresolved)

    def flags(self, node: N.Node) -> int:
        """The flags of ``node`` (memoised by node identity; nodes are shared, immutable)."""
        got = self._flags.get(id(node))
        if got is None:
            got = self._flags[id(node)] = self._compute(node)
        return got

    def _compute(self, node: N.Node) -> int:
        if isinstance(node, N.Call):
            graph = self.graphs.get(node.graph)
            if graph is None or node.graph in self._calling:
                return UNRESOLVED  # the interpreter reports it when it runs
            self._calling.append(node.graph)
            try:
                return self.flags(graph)
            finally:
                self._calling.pop()
        if not isinstance(node, CONTROL):
            if isinstance(node, N.RegisterCardHook):
                return TRIGGER | HOOK
            return 0 if isinstance(node, QUIET) else TRIGGER  # an action (no children)
        out = (PAUSE if isinstance(node, PAUSES) else 0) | (LOOP if isinstance(node, LOOPS) else 0)
        if isinstance(node, N.WaitUntil):
            out |= DETACH
        for child in N.children(node):
            out |= self.flags(child)
        return out

    def program(self, root: N.Node) -> Program:
        """``root`` compiled: its flags, and its flat ops when it is straight."""
        flags = self.flags(root)
        needs_entry = isinstance(root, NEEDS_ENTRY)
        if flags & NOT_STRAIGHT:
            return Program(root, flags, needs_entry)
        if not needs_entry:  # a single action
            return Program(root, flags, False, ((ACT, root, (), isinstance(root, QUIET)),))
        return Program(root, flags, True, _Emitter(self.graphs, root).ops)


class _Emitter:
    """Flattens one straight graph (see the module docstring for the op layout)."""

    def __init__(self, graphs: Mapping[str, N.Node], root: N.Node) -> None:
        self.graphs = graphs
        self.out: list[Op] = []
        self.labels: set[int] = set()  # op indices that jumps land on (no tick merges across)
        self.emit(root, ())
        self.ops = tuple(self.out)

    def tick(self) -> None:
        out = self.out
        if out and out[-1][0] == TICK and len(out) not in self.labels:
            out[-1] = (TICK, out[-1][1] + 1, None, None)  # consecutive returns: one count
        else:
            out.append((TICK, 1, None, None))

    def emit(self, node: N.Node, conts: tuple[tuple[N.Sequence, int], ...]) -> None:
        out = self.out
        if isinstance(node, N.Sequence):
            # the frame path pushes a NODE frame (its pusher returns to the loop: one step),
            # runs the steps, and pops the frame in its last call (one step)
            self.tick()
            for i, step in enumerate(node.steps):
                self.emit(step, (*conts, (node, i + 1)))
            self.tick()
        elif isinstance(node, N.Branch):
            test_at = len(out)
            out.append((JUMP, -1, None, None))  # patched below
            self.emit(node.then, conts)
            if node.otherwise is None:
                out[test_at] = (BRANCH, node.cond, self.label(), None)
            else:
                jump_at = len(out)
                out.append((JUMP, -1, None, None))
                out[test_at] = (BRANCH, node.cond, self.label(), None)
                self.emit(node.otherwise, conts)
                out[jump_at] = (JUMP, self.label(), None, None)
        elif isinstance(node, N.Call):
            self.emit(self.graphs[node.graph], conts)  # straight: the graph exists, no recursion
        else:
            out.append((ACT, node, conts, isinstance(node, QUIET)))

    def label(self) -> int:
        at = len(self.out)
        self.labels.add(at)
        return at


def compile_all(graphs: Mapping[str, N.Node], roots: list[N.Node]) -> dict[int, Program]:
    """The program of every root, by ``id(root)`` (the content keeps the nodes alive)."""
    c = Compiler(graphs)
    progs: dict[int, Program] = {}
    for root in roots:
        if id(root) not in progs:
            progs[id(root)] = c.program(root)
    return progs

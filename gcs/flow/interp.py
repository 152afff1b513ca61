"""The behaviour-graph interpreter: nodes run as frames on the engine's one stack.

A composite node is a frame (node, pc, data, scope); an action runs at once and may push
lifecycle entries above the current frame, which therefore waits for them. Choice, Wait and
Animation Gate set the engine's pause and leave every frame where it is, so the whole effect
wave (remaining steps, lifecycles, queued phase steps) waits. WaitUntil moves the rest of the
current entry into a delayed continuation.

A straight behaviour (no pause, WaitUntil or loop: ``program.Program``) runs its flat ops
instead, in one handler call and without frames (``run_ops``); the moment an action queues
work or pauses, the frames the tree walk would have had then are put below that work, and
the tree walk carries on from them. Both ways count the same engine steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..battle import cards as C
from ..battle import frames as K
from ..battle.hooks import def_matches
from ..battle.intents import resolve_intents
from ..battle.state import CHOICE, GATE, WAIT, ActiveHook, Ctx, Delayed, Frame
from ..enums import BattlePhase, CardType, Pile, PileScope
from ..errors import FlowError, StepLimitError
from ..events import AnimationGateOpened, CardModified, ChoiceMade, ChoiceOpened, WaitStarted
from . import nodes as N
from . import program as P
from .values import cards_of, in_battle, select, test, units_of, val

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


# ---------------------------------------------------------------- pausing
def _ex_choice(e: Engine, node: N.Choice, ctx: Ctx) -> None:
    kind, ids = select(e, node.select, ctx)
    if not ids or not e.presenter:
        ctx.objs[node.var] = [kind, []]
        if e.hot:
            e.record((ChoiceMade, (), True))
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
        e.record((ChoiceOpened, node.prompt, tuple(ids), s.choice_min, s.choice_max))


def _ex_wait(e: Engine, node: N.Wait, ctx: Ctx) -> None:
    if node.seconds <= 0:
        return
    e.s.pause = WAIT
    e.s.wait_left = float(node.seconds)
    if e.hot:
        e.record((WaitStarted, float(node.seconds)))


def _ex_gate(e: Engine, node: N.AnimationGate, ctx: Ctx) -> None:
    e.s.pause = GATE
    e.s.gate = node.name
    if e.hot:
        e.record((AnimationGateOpened, node.name))


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
    if node.when not in N.WAIT_UNTIL:
        raise FlowError(f"WaitUntil in {_where(e, ctx)}: unknown phase point {node.when!r} "
                        f"(expected one of {', '.join(N.WAIT_UNTIL)})")
    s = e.s
    stack = s.stack
    i = len(stack) - 1
    while i >= 0 and stack[i].kind != K.ENTRY:
        i -= 1
    if i < 0:
        raise FlowError("WaitUntil outside a behaviour entry")
    segment = stack[i:]
    del stack[i:]
    s.delayed.append(Delayed(node.when, due_of(e, node.when, node.turns), segment, s.next_seq))
    s.next_seq += 1


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


# ---------------------------------------------------------------- cards
def _each(e: Engine, node: N.Node, ctx: Ctx, ids: list[int]) -> None:
    if len(ids) == 1:
        _card_op(e, node, ctx, ids[0])
    elif ids:
        e.s.stack.append(Frame(K.EACH, node, 0, ids, ctx))


def step_each(e: Engine, f: Frame) -> None:
    ids = f.data
    if f.pc >= len(ids):
        e.s.stack.pop()
        return
    i = ids[f.pc]
    f.pc += 1
    _card_op(e, f.node, f.ctx, i)  # type: ignore[arg-type]


def _card_op(e: Engine, node: N.Node, ctx: Ctx, uid: int) -> None:
    inst = e.s.cards.get(uid)
    if inst is None or inst.pile is Pile.REMOVED:
        return  # the card left the battle meanwhile
    if isinstance(node, N.MoveCard):
        C.move(e, inst, node.pile, node.position)
    elif isinstance(node, N.ExhaustCard):
        C.move(e, inst, PileScope.EXHAUST)
    elif isinstance(node, N.DiscardCard):
        C.move(e, inst, PileScope.DISCARD)
    elif isinstance(node, N.RemoveFromBattle):
        C.remove_from_battle(e, inst)
    elif isinstance(node, N.PlayCard):
        _play_card(e, node, ctx, inst)
    elif isinstance(node, N.UpgradeCard):
        if not inst.upgraded and inst.base.upgrade is not None:
            inst.set_card(inst.base, True)
            if e.hot:
                e.record((CardModified, inst.uid, inst.card_id, "upgrade", True))
    elif isinstance(node, N.TransformCard):
        _transform(e, node, inst)
    elif isinstance(node, N.ModifyCost):
        _modify_cost(e, node, ctx, inst)


def _ex_cards(e: Engine, node: Any, ctx: Ctx) -> None:
    _each(e, node, ctx, cards_of(e, node.select, ctx))


def _ex_play(e: Engine, node: N.PlayCard, ctx: Ctx) -> None:
    ids = cards_of(e, node.select, ctx)
    if node.var:
        ctx.objs[node.var] = ["c", []]
    _each(e, node, ctx, ids)


def _play_card(e: Engine, node: N.PlayCard, ctx: Ctx, inst: Any) -> None:
    """One card of a Play Card node: a nested play that completes before the next card."""
    from ..battle.play import nested_play

    target = -1
    if node.target is not None:
        picked = [u.uid for u in units_of(e, node.target, ctx) if u.alive and u.uid > 0]
        target = picked[0] if picked else -1
    played = nested_play(e, inst, node.copy, node.free, target, node.to)
    if played is not None and node.var:
        ctx.objs[node.var][1].append(played.uid)


def _transform(e: Engine, node: N.TransformCard, inst: Any) -> None:
    if node.into is not None:
        new = e.c.card(node.into)
    else:
        pool = sorted(
            (c for c in e.c.cards.values()
             if c.id != inst.card_id and c.type not in (CardType.STATUS, CardType.CURSE)),
            key=lambda c: c.id,
        )
        if node.pool is not None:
            where = node.pool
            pool = [c for c in pool if def_matches(c, where) and (
                where.upgradable is None or (c.upgrade is not None) == where.upgradable)]
        if not pool:
            return
        new = pool[e.s.rng_cards.below(len(pool))]
    inst.set_card(new, False)
    # a new card: the old card's run (master-deck) and temporary cost changes do not carry over
    inst.cost_delta = inst.battle_delta = inst.turn_delta = 0
    inst.battle_set = inst.turn_set = None
    if e.hot:
        e.record((CardModified, inst.uid, inst.card_id, "transform", False))


def _modify_cost(e: Engine, node: N.ModifyCost, ctx: Ctx, inst: Any) -> None:
    amount = val(e, node.amount, ctx)
    set_to = None if node.set_to is None else val(e, node.set_to, ctx)
    d = node.duration
    if d not in N.COST_DURATIONS:
        raise FlowError(f"ModifyCost: unknown duration {d!r} (expected one of "
                        f"{', '.join(N.COST_DURATIONS)})")
    if d == "turn":
        if set_to is not None:
            inst.turn_set, inst.turn_delta = set_to, 0
        inst.turn_delta += amount
    elif d == "battle":
        if set_to is not None:
            inst.battle_set, inst.battle_delta = set_to, 0
        inst.battle_delta += amount
    else:  # run: the master deck entry changes too
        base = inst.active.cost + inst.cost_delta
        delta = (set_to - base) if set_to is not None else amount
        inst.cost_delta += delta
        from ..battle.run import change_master_cost

        change_master_cost(e, inst.origin, delta)
    if e.hot:
        e.record((CardModified, inst.uid, inst.card_id, "cost", inst.upgraded))


def _ex_draw(e: Engine, node: N.DrawCards, ctx: Ctx) -> None:
    C.push_draw(e, val(e, node.count, ctx), automatic=False)


def _ex_add(e: Engine, node: N.AddCards, ctx: Ctx) -> None:
    if node.pile is PileScope.MASTER or node.pile is PileScope.ALL:
        raise FlowError(f"AddCards in {_where(e, ctx)} cannot create a battle card in "
                        f"{node.pile.name}; use HAND, DRAW, DISCARD or EXHAUST")
    card = e.c.card(node.card)
    n = max(0, val(e, node.count, ctx))
    e.charge(n, f"AddCards of {node.card!r} in {_where(e, ctx)}")
    made = [C.create(e, card, node.pile, node.position, node.upgraded).uid for _ in range(n)]
    if node.var:
        ctx.objs[node.var] = ["c", made]


def _ex_hook(e: Engine, node: N.RegisterCardHook, ctx: Ctx) -> None:
    if ctx.entry == "on_play" and not ctx.status and _play_pending(e, ctx):
        ctx.hooks.append(node)  # registered once the play's deferred branches complete
    else:
        register_hook(e, node, ctx.src)


def _play_pending(e: Engine, ctx: Ctx) -> bool:
    """Is the play that owns this On Play scope still resolving? (A delayed continuation of
    On Play resumes after its play completed: its hooks then register at once.)"""
    return any(f.kind == K.PLAY and f.ctx is ctx for f in e.s.stack)


def register_hook(e: Engine, node: N.Node, source: int) -> None:
    s = e.s
    assert isinstance(node, N.RegisterCardHook)
    # Scope = Turns counts player turns: the current one when registered during the
    # player's turn, otherwise the next one (a hook made in the enemy phase or at battle
    # start must not expire before it ever applies).
    # A hook whose scope counts enemy turns keeps its count down instead: it is removed at
    # EnemyPhase step 4 of the N-th enemy turn that ends after its registration.
    here = s.phase in (BattlePhase.PLAYER_TURN_START, BattlePhase.PLAYER_PHASE)
    if node.turns is None:
        expires = None
    elif node.scope == "enemy_turns":
        expires = node.turns
    else:
        expires = s.player_turns + node.turns + (0 if here else 1)
    s.hooks.append(ActiveHook(node, source, expires, s.next_seq))
    s.next_seq += 1
    resolve_intents(e)


EXEC.update({
    N.Sequence: _ex_sequence, N.Branch: _ex_branch, N.Loop: _ex_loop, N.Foreach: _ex_foreach,
    N.While: _ex_while, N.Call: _ex_call, N.SetVar: _ex_setvar, N.SetObj: _ex_setobj,
    N.Choice: _ex_choice, N.Wait: _ex_wait, N.WaitUntil: _ex_wait_until,
    N.AnimationGate: _ex_gate, N.DrawCards: _ex_draw, N.AddCards: _ex_add,
    N.MoveCard: _ex_cards, N.ExhaustCard: _ex_cards, N.DiscardCard: _ex_cards,
    N.RemoveFromBattle: _ex_cards, N.PlayCard: _ex_play,
    N.ModifyCost: _ex_cards, N.UpgradeCard: _ex_cards, N.TransformCard: _ex_cards,
    N.RegisterCardHook: _ex_hook,
})
STEP.update({
    N.Sequence: _st_sequence, N.Loop: _st_loop, N.Foreach: _st_foreach, N.While: _st_while,
})

# the unit and battle actions (damage, block, statuses, spawn, ...) register themselves
from . import actions as _actions  # noqa: E402

_ = _actions

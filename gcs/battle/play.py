"""Playing a card: validate everything first, then commit in the order of the seeds (004, 001)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..enums import (
    KW_EXHAUST,
    KW_UNPLAYABLE,
    PILE_DISCARD,
    PILE_HAND,
    PILE_LIMBO,
    PILE_REMOVED,
    TARGET_RANDOM_ENEMY,
    TARGET_SINGLE_ENEMY,
    PileScope,
)
from ..errors import NotInBattleError
from ..events import CardCreated, CardPlayed, EnergySpent
from ..flow.interp import ENTRY_ROOTS, EXEC, count_steps, register_hook, start_entry
from ..flow.nodes import Node, RegisterCardHook
from ..flow.program import HOOK
from . import frames as K
from .cards import (
    detach,
    lifecycle_entries,
    move,
    new_instance,
    push_entries,
    to_exhaust,
)
from .combat import status_entries
from .hooks import effective_cost, hooks_possible, modified_cost, playable_by_hooks
from .phases import check_end, push_turn_end
from .state import CardInstance, Ctx, Frame, State

if TYPE_CHECKING:
    from ..engine import Engine


def check_instance(e: Engine, inst: object) -> CardInstance:
    """The battle's own instance for ``inst``, or NotInBattleError."""
    if not isinstance(inst, CardInstance):
        raise NotInBattleError(f"expected a CardInstance, got {type(inst).__name__}")
    own = e.s.cards.get(inst.uid)
    if own is not inst:
        raise NotInBattleError(f"card instance {inst!r} is not in this battle")
    if own.pile is PILE_REMOVED:
        raise NotInBattleError(f"card instance {inst!r} has left this battle")
    return own


def card_refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """The card-level checks of ``refusal`` (the caller knows the phase allows plays)."""
    why = card_gate(e, inst)
    return target_refusal(e, inst, target_uid) if why is None else why


def target_refusal(e: Engine, inst: CardInstance, target_uid: int) -> str | None:
    """Why a single-enemy card cannot take ``target_uid`` (none given, or dead), or None."""
    if inst.active.target is TARGET_SINGLE_ENEMY:
        if target_uid < 0:
            return "the card needs an enemy target"
        if not e.s.units[target_uid].alive:
            return "the target is dead"
    return None


def card_gate(e: Engine, inst: CardInstance) -> str | None:
    """The checks of one card before its target: in hand, not Unplayable, no hook forbids
    it, enough energy (seed 001's gate, in this order)."""
    if inst.pile is not PILE_HAND:
        return "the card is not in hand"
    card = inst.active
    if KW_UNPLAYABLE in card.keywords:
        return "unplayable"
    hooks = hooks_possible(e)
    if hooks and not playable_by_hooks(e, inst):
        return "a hook forbids it"
    if not card.x_cost and effective_cost(e, inst, hooks) > e.s.energy:
        return "not enough energy"
    return None


def playable_in_hand(e: Engine, inst: CardInstance, hooks: bool) -> bool:
    """``card_refusal`` for a card known to be in hand, ignoring the target (hot path of
    legal actions); ``hooks`` is ``hooks_possible(e)``, computed once by the caller."""
    card = inst.active
    if KW_UNPLAYABLE in card.keywords:
        return False
    if card.x_cost:
        return not hooks or playable_by_hooks(e, inst)
    if hooks:
        return playable_by_hooks(e, inst) and effective_cost(e, inst, True) <= e.s.energy
    # effective_cost with no hook possible: the modifiers alone, floored at 0
    cost = modified_cost(inst)
    return (cost if cost > 0 else 0) <= e.s.energy


def commit_play(e: Engine, inst: CardInstance, target_uid: int, cost: int | None = None,
                nested: bool = False, dest: str = "") -> None:
    """Steps 2-3 of the play (leave its pile, pay, record, CardPlayed), then queue the rest.

    ``cost`` None pays the effective cost; a nested play (Play Card node) may pass 0 (free).
    ``dest`` is a PileScope value authored by the node that played it ("" for step 5's rule).
    """
    s = e.s
    card = inst.active
    # ``x``: what an X in the card's numbers counts (the energy paid)
    if cost is not None:
        paid = cost
        x = s.energy if card.x_cost else cost  # a free X card uses all energy
    elif card.x_cost or inst.battle_set is not None or inst.turn_set is not None or hooks_possible(e):
        paid = x = effective_cost(e, inst)
    else:
        # effective_cost(e, inst) in the usual case, inlined (two calls less per play): a fixed
        # cost, no ``set`` modifier (modified_cost is then the sum of the deltas) and no hook
        # possible, floored at 0
        paid = card.cost + inst.cost_delta + inst.battle_delta + inst.turn_delta
        if paid < 0:
            paid = 0
        x = paid
    if card.target is TARGET_RANDOM_ENEMY:
        target_uid = _random_enemy(s)
    uid = inst.uid
    # 2. leave the hand (or the pile a nested play took it from), spend energy, record the play
    if inst.pile is PILE_HAND:
        s.hand.remove(uid)  # detach(e, inst) of a hand card, inlined (every top-level play)
        inst.pile = PILE_LIMBO
    else:
        detach(e, inst)
    # (and 3. CardPlayed), then On Play and the status On Play branches (in PLAY frame steps)
    _record_play(e, inst, paid, target_uid)
    ctx = Ctx(0, uid, target_uid, "", "on_play", x)
    s.stack.append(Frame(K.PLAY, None, 0, [uid, target_uid, 1 if nested else 0, dest], ctx))


def _random_enemy(s: State) -> int:
    """The target of a random-enemy card: a living enemy drawn from the card stream (-1: none)."""
    alive = [u.uid for u in s.units[1:] if u.alive]
    return alive[s.rng_cards.below(len(alive))] if alive else -1


def _record_play(e: Engine, inst: CardInstance, paid: int, target_uid: int) -> None:
    """Step 2's energy and record of a card that has left its pile, and step 3's CardPlayed."""
    s = e.s
    uid = inst.uid
    cid = inst.card_id
    hot = e.hot
    energy = s.energy - paid
    s.energy = energy
    if paid > 0 and hot:
        e.record((EnergySpent, paid, energy))
    s.played.append(uid)
    plays = s.plays
    plays[cid] = plays.get(cid, 0) + 1
    if hot:
        e.record((CardPlayed, uid, cid, inst.upgraded, paid,
                  None if target_uid < 0 else target_uid))


def play_from_hand(e: Engine, inst: CardInstance, target_uid: int, hooks: bool | None) -> None:
    """A top-level play of a hand card the caller validated (``agent.apply``), with the stack
    empty: ``commit_play`` then ``Engine.run`` under the busy flag, the same work and engine
    steps; ``hooks`` is ``hooks_possible(e)`` if the caller knows it (None: computed here).

    The usual play (a fixed cost, no ``set`` modifier, no hook possible, no subscriber, an
    On Play that registers no card hook as it runs) takes a fast path: steps 2-3 and the
    PLAY frame's first step (``step_play`` from pc 0) run here, and the frame is made only
    if a step has to return to the loop (it queued work or paused), under that work and at
    the step it stopped at, where the loop would have it. Nobody can look at the battle
    while the frame is missing (no subscriber); everything an action reads of the stack is
    above a mark it took itself (``interp.run_ops`` puts its frames at such a mark too); and
    a card hook an On Play registers waits for its play's PLAY frame (``interp._play_pending``),
    so such a play takes ``commit_play``.
    """
    card = inst.active
    node = card.on_play
    t = type(node)  # (NoneType for a card with no On Play)
    entry = t in ENTRY_ROOTS  # (a composite On Play: it starts with an ENTRY frame)
    if hooks is None:
        hooks = hooks_possible(e)
    if (hooks or e.subs or card.x_cost or inst.battle_set is not None
            or inst.turn_set is not None or t is RegisterCardHook
            or (entry and _may_hook(e, node))):
        # the frame path, under the busy flag (a subscriber's call in a handler is refused);
        # the fast path below runs with no subscriber: nobody can call in while it runs
        e.busy = True
        try:
            commit_play(e, inst, target_uid)
            e.run()
        finally:
            e.busy = False
        return
    s = e.s
    stack = s.stack
    # (the stack is empty, the caller's precondition: what a step queues is all of it, and a
    # parked frame goes under it, at 0)
    e.ticks += 1  # (``Engine.run`` counts its runs: a version counter, compared for equality)
    # ``effective_cost`` with a fixed cost, no ``set`` modifier and no hook possible: the sum
    # of the modifiers, floored at 0 (as in ``commit_play``)
    paid = card.cost + inst.cost_delta + inst.battle_delta + inst.turn_delta
    if paid < 0:
        paid = 0
    if card.target is TARGET_RANDOM_ENEMY:
        target_uid = _random_enemy(s)
    uid = inst.uid
    # 2. leave the hand (``detach``, inlined), spend energy, record the play; 3. CardPlayed
    s.hand.remove(uid)
    inst.pile = PILE_LIMBO
    _record_play(e, inst, paid, target_uid)
    ctx = Ctx(0, uid, target_uid, "", "on_play", paid)
    # 3. the card's On Play behaviour (inline, as in ``step_play``)
    if node is not None:
        if entry:
            start_entry(e, node, ctx, inline=True)
        else:
            EXEC[t](e, node, ctx)  # start_entry of a single action, one call less
        if stack or s.pause:
            _park(e, 1, ctx)
            return
    # 3 (cont.). the On Play branches of the player's statuses, then of each living enemy's
    # (``_status_on_play``, called only when some unit holds such a status: the scan it starts
    # with, its result then False)
    having = e.c.play_statuses
    if having:
        for u in s.units:
            held = u.statuses
            if held and not having.isdisjoint(held):
                if _status_on_play(e, ctx, uid):
                    _park(e, 2, ctx)
                    return
                break
    # 4. no deferred hook to register (the On Play registers none)
    # 5. destination: no authored move (a top-level play); an Exhaust card (its keywords now:
    #    the On Play may have changed the card) is exhausted with its lifecycle, else Discard
    if inst.pile is PILE_LIMBO:
        if KW_EXHAUST in inst.active.keywords:
            to_exhaust(e, inst, PILE_LIMBO)
            if stack or s.pause:
                _park(e, 3, ctx)
                return
        else:
            inst.pile = PILE_DISCARD  # (``place``, inlined: it queues nothing, cannot pause)
            s.discard.append(uid)
    # the play is complete: re-read the battlefield, then a requested turn end
    # (``check_end``'s test, inlined: the battle goes on while the player and an enemy live;
    # ``check_end`` itself is called only to commit a decided battle)
    units = s.units
    going = False
    if units[0].alive:
        for u in units:
            if u.alive and u.uid:
                going = True
                break
    if (going or not check_end(e)) and s.end_turn:
        s.end_turn = False
        push_turn_end(e)
    _stepped(e)  # (then the queued battle end or turn end runs)


def _park(e: Engine, pc: int, ctx: Ctx) -> None:
    """``play_from_hand``'s play returns to the loop at step ``pc``: its PLAY frame goes under
    the work the step queued (at the bottom: the stack was empty), where the loop would have
    it."""
    e.s.stack.insert(0, Frame(K.PLAY, None, pc, [ctx.src, ctx.target, 0, ""], ctx))
    _stepped(e)


def _stepped(e: Engine) -> None:
    """The loop's end of the step ``play_from_hand`` ran: it counts the step (with its step
    guard, ``count_steps`` inlined), then runs what is queued (or cuts the log as it would)."""
    s = e.s
    s.steps += 1
    if s.steps > e.step_limit:
        count_steps(e, 0)
    if s.stack:
        e.run()  # the play's frame went back to the loop, or the play decided the battle
    elif len(e.log) > e.log_cap:
        e.trim_log()  # (what ``Engine.run`` does at its end)


def _may_hook(e: Engine, node: Node | None) -> bool:
    """Can this composite On Play register a card hook as it runs (its program has one)?"""
    prog = e.c.programs.get(id(node))
    return prog is None or bool(prog.flags & HOOK)


def nested_play(e: Engine, inst: CardInstance, copy: bool, free: bool, target: int,
                dest: PileScope | None) -> CardInstance | None:
    """A Play Card node plays ``inst`` (or a new copy of it, created in no pile): the played
    instance, or None when it cannot be played (in flight, Unplayable, a hook forbids it, or
    not enough energy at cost); a card that is not played stays where it is."""
    s = e.s
    if inst.pile is PILE_LIMBO and not copy:
        return None  # already in flight (being played)
    if not playable_by_hooks(e, inst):
        return None
    cost = 0 if free else None
    if not free and not inst.active.x_cost and effective_cost(e, inst) > s.energy:
        return None
    if copy:
        src = inst
        inst = new_instance(e, src.base, src.upgraded, src.cost_delta, src.origin)
        inst.pile = PILE_LIMBO
        if e.hot:
            e.record((CardCreated, inst.uid, inst.card_id, None, None))
    if inst.active.target is TARGET_SINGLE_ENEMY:
        units = s.units
        if target < 1 or not units[target].alive:
            target = _random_enemy(s)
    else:
        target = -1
    commit_play(e, inst, target, cost, nested=True, dest="" if dest is None else dest.value)
    return inst


def step_play(e: Engine, f: Frame) -> None:
    """The rest of a play (seed 004 steps 3-5); a step that queues work returns to the loop."""
    s = e.s
    stack = s.stack
    ctx = f.ctx
    assert ctx is not None
    data: list[Any] = f.data  # [card uid, target uid, nested 0/1, authored pile or ""]
    uid = data[0]
    # (one look-up for every step below: an instance, once made, stays the battle's own
    # ``s.cards[uid]`` for the whole battle; it only changes pile)
    inst = s.cards.get(uid)
    pc = f.pc
    if pc == 0:
        # 3. the card's On Play behaviour
        f.pc = pc = 1
        node = None if inst is None else inst.active.on_play
        if node is not None:
            # inline: the resume below (pc 1) re-reads nothing the behaviour could change
            # before it, so a straight On Play runs here without its ENTRY frame
            if type(node) in ENTRY_ROOTS:
                start_entry(e, node, ctx, inline=True)
            else:
                EXEC[type(node)](e, node, ctx)  # start_entry of a single action, one call less
            if stack[-1] is not f or s.pause:
                return
    if pc == 1:
        # 3 (cont.). the On Play branches of the player's statuses (snapshot order), then of
        # each living enemy's statuses (encounter order), e.g. an enemy that reacts to Skills
        f.pc = pc = 2
        if e.c.play_statuses and _status_on_play(e, ctx, uid):  # (content with no On Play status: no call)
            return
    if pc == 2:
        f.pc = 3
        # 4. every deferred branch has completed: register the card's persistent hooks
        hooks = ctx.hooks
        if hooks:
            for hook in hooks:
                register_hook(e, hook, uid)
            hooks.clear()
        # 5. destination: a move authored by the On Play graph (or by the node that played
        #    this card) is kept; else an Exhaust card is exhausted with its lifecycle; else
        #    Discard without the lifecycle. No card type decides it.
        if inst is not None and inst.pile is PILE_LIMBO:
            dest = data[3]
            if dest:
                move(e, inst, PileScope(dest))
                if stack[-1] is not f or s.pause:
                    return
            elif KW_EXHAUST in inst.active.keywords:
                to_exhaust(e, inst, PILE_LIMBO)
                if stack[-1] is not f or s.pause:
                    return
            else:
                # place(e, inst, PILE_DISCARD), inlined: it queues nothing and cannot pause
                inst.pile = PILE_DISCARD
                s.discard.append(uid)
    # the play is complete: a top-level play re-reads the battlefield, then a requested turn
    # end; a nested play returns to the effect that played it, which does both later
    stack.pop()
    if data[2]:  # nested
        return
    if not check_end(e) and s.end_turn:
        s.end_turn = False
        push_turn_end(e)


def _status_on_play(e: Engine, ctx: Ctx, uid: int) -> bool:
    """Queue the status On Play branches of a play; True if any were queued."""
    s = e.s
    having = e.c.play_statuses  # (entry_statuses["on_play"])
    if not having:
        return False
    entries = []
    units = s.units
    # (a unit with no status has no branch: no set method call for it, no slice of units)
    mine = units[0].statuses
    if mine and not having.isdisjoint(mine) and uid in s.cards:
        entries = [(n, c) for n, c in lifecycle_entries(e, s.cards[uid], "on_play") if c.status]
        for _, c in entries:
            c.target = ctx.target
    for k in range(1, len(units)):
        u = units[k]
        if u.alive and u.statuses and not having.isdisjoint(u.statuses):
            for n, c in status_entries(e, u, "on_play"):
                c.src = uid
                c.objs["card"] = ["c", [uid]]
                entries.append((n, c))
    if entries:
        push_entries(e, entries)
        return True
    return False

"""The fused turn cycle: EndPlayerTurn -> EnemyPhase -> PlayerTurnStart -> the draw in one call.

The TURN_END frame's handler. When a check made at a phase's start says that none of its
steps can queue work or be watched (no subscriber, no delayed work, no hook, the step guard
far, and no status, card lifecycle behaviour or enemy move that branches), the phase's steps
run straight through here, and the next phase is checked in the same way. A phase whose check
fails is handed, from its first step, to its step table in ``phases`` (frame by frame), so
this is only ever a shortcut of the same game. The step comments mirror seed 001 as the step
tables' do; a step in parentheses is one the check showed has nothing to do.

The phase's frame is on the stack wherever something may read it, as the step tables keep it
(a status an enemy applies during the EnemyPhase is marked "just applied" in that frame; a
draw that queues a card's On Drawn leaves PlayerTurnStart under it, at step 8), and every
engine step is counted where the loop counts it. tests/test_speed_cycle.py and
tests/test_speed_turns.py play each game both ways (a subscriber makes every step run frame
by frame) and compare the states, step counts included, after each decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import (
    HAND_RULE_PERSIST,
    PHASE_ENEMY_PHASE,
    PHASE_PLAYER_TURN_END,
    PHASE_PLAYER_TURN_START,
)
from ..events import DiscardPhase, DrawPhase, TurnEnded
from ..flow.interp import count_steps, fire_delayed
from . import frames as K
from .cards import draw_at_once, push_draw
from .combat import decay_statuses
from .intents import plan_intent, run_plain_intent
from .phases import (
    armor,
    check_end,
    discard_plain,
    end_turn_costs,
    enemy_turn,
    enemy_turn_end,
    enter,
    next_phase,
    start_intent,
    suspend_turn,
    turn_started,
)
from .phases import (
    step_turn_end as stepped_turn_end,
)
from .state import Frame

if TYPE_CHECKING:
    from ..engine import Engine


def step_turn_end(e: Engine, f: Frame) -> None:
    """The TURN_END frame: EndPlayerTurn steps 1-6 straight through, then the EnemyPhase, when
    no step of it can queue work: the player holds no status any of them reads
    (``turn_end_any``), every card in hand is ``cycle_plain`` (not Ethereal or Retain, no On
    Turn End or On Discard of its own), the hand rule is not Persist, no delayed work waits,
    and nobody watches. Otherwise (or resumed) the EndPlayerTurn step table."""
    s = e.s
    if (f.pc or e.subs or s.delayed or s.hand_rule is HAND_RULE_PERSIST
            or s.steps + 3 >= e.step_limit):
        stepped_turn_end(e, f)
        return
    units = s.units
    statuses = units[0].statuses
    if statuses and not e.c.turn_end_any.isdisjoint(statuses):
        stepped_turn_end(e, f)
        return
    cards = s.cards
    hand = s.hand
    for uid in hand:
        if not cards[uid].active.cycle_plain:
            stepped_turn_end(e, f)
            return
    enter(e, PHASE_PLAYER_TURN_END)
    # 1. DiscardPhase (no status of the player has a branch for it)
    hot = e.hot
    if hot:
        e.record((DiscardPhase, s.turn))
    # 2a. (no card in hand has an On Turn End behaviour)
    # 2b. the hand to Discard by the HandDiscardRule: no card is Ethereal or Retain, none has a
    #     branch to run; the HAND_END step (counted), then this frame's resume, which re-reads
    #     the battle end (a discard changes no unit: while the player and the last enemy live
    #     it finds the battle going on)
    if hand:
        discard_plain(e, hand)
        s.steps += 2
        last = units[-1]
        if not (units[0].alive and last.alive and last.uid) and check_end(e):
            return
    # 3. (no turn-end status branch) 4. (no status decays now) the temporary cost rules end;
    #    (no delayed trigger)
    end_turn_costs(e)
    # 5. TurnEnded; 6. an extra turn goes back to PlayerTurnStart, else EnemyPhase
    s.stack.pop()
    if hot:
        e.record((TurnEnded, s.turn))
    if s.extra_turns > 0:
        s.extra_turns -= 1
        next_phase(e, f, K.TURN_START)
    else:
        _enemy_phase(e, f)


def _enemy_phase(e: Engine, f: Frame) -> None:
    """The EnemyPhase after the fused turn end, each enemy's turn inline: a plain one (no
    status its steps 1-2 read, a plain move: ``run_plain_intent``) straight through here, any
    other through ``phases.enemy_turn`` as the step table runs it. Handed to the step table
    when delayed work waits or the step guard is near.

    ``f``, just popped, is the phase's frame, with the step table's data: the enemy ids
    (marked ``-1 - uid`` as they keep their intents) and the round-end statuses "just
    applied". It goes on the stack at the first turn that may read it (``_framed``): a plain
    move that applies no round-end status reads nothing of it, and no work is queued above
    it before then."""
    s = e.s
    limit = e.step_limit
    # (the enemies' turns are counted one by one below, with the loop's stop)
    if s.delayed or s.steps + 2 >= limit:
        next_phase(e, f, K.ENEMY_PHASE)
        return
    s.steps += 1  # the loop's count of the turn end's step (as ``next_phase`` counts it)
    enter(e, PHASE_ENEMY_PHASE)
    units = s.units
    stack = s.stack
    ids = list(range(1, len(units)))  # (the enemy ids: a unit's id is its index)
    f.data = None  # (set by ``_framed``, with ``ids`` and the statuses just applied)
    c = e.c
    for pc in range(1, len(ids) + 1):
        # 1-4 for each living enemy, in encounter order ("living" is re-read per enemy)
        uid = ids[pc - 1]
        u = units[uid]
        if f.data is not None:
            f.pc = pc
        if not u.alive:
            ids[pc - 1] = -1 - uid  # it keeps its intent
            continue
        s.steps += 1  # the phase frame's step: the loop would go on to the turn's frame now
        if s.steps > limit:
            count_steps(e, 0)  # the loop's stop, with its message
        m = c.moves[u.def_id, u.move] if u.move else None
        node = None if m is None else m.behaviour
        plan = None if node is None else c.plain_intents.get(id(node))
        statuses = u.statuses
        read = False  # the battle end re-read since the last change that could decide it
        if ((statuses and not c.enemy_start_any.isdisjoint(statuses))
                or (node is not None and (plan is None or plan.marks))):
            # a turn-start branch, a control status, a move run by the interpreter or one
            # that marks a status just applied: the turn as the step table runs it inline
            if not enemy_turn(e, None, uid, _framed(f, ids, pc, stack)):
                return  # its frame is under the work it queued (or the battle is decided)
        else:
            # 1. the enemy's armor (no turn-start status)
            if u.block:
                armor(e, u)
            # 2. (no control status) 3. the planned Intent Behavior, a plain move run directly
            past = 2  # (step 4 from its turn-end statuses; 3: past them, see below)
            if m is not None and node is not None and plan is not None:
                if not run_plain_intent(e, u, m, plan):
                    # (a hit may queue the player's reactions, or the step guard, or the
                    # scope's values: the interpreter's entry, as ``phases.enemy_turn`` runs
                    # it, over the phase's frame)
                    _framed(f, ids, pc, stack)
                    depth = len(stack)
                    start_intent(e, u, m, node, True)
                    if len(stack) != depth or s.pause:
                        suspend_turn(e, None, uid, 2, depth)
                        return
                if plan.entry:
                    # the program ran here, its steps and its ENTRY frame's counted: this is
                    # that frame's resume, which re-reads the battle end (and an enemy that
                    # died in its own turn skips step 4's statuses)
                    if check_end(e):
                        return
                    read = True
                    past = 2 if u.alive else 3
            # 4. turn-end statuses (the move may have given one), then decay, the hooks that
            #    count enemy turns, and a dead enemy's kept intent: ``phases.enemy_turn_end``,
            #    with nothing to do for a living enemy with none of those statuses and no hook
            statuses = u.statuses
            if ((statuses and not c.enemy_end_any.isdisjoint(statuses)) or s.hooks
                    or not u.alive):
                read = False
                if not enemy_turn_end(e, None, u, _framed(f, ids, pc, stack), past, len(stack)):
                    return
        # ... the turn's last step, then this frame's resume, which re-reads the end (a second
        # re-read with nothing run since the first would find the same)
        s.steps += 1
        if s.steps > limit:
            count_steps(e, 0)
        if not read and check_end(e):
            return
    # 5. delayed triggers for the end of EnemyPhase (none waited when the phase began, and a
    #    move's WaitUntil leaves its entry's frames, so this phase has returned to the loop
    #    before a new one could be due: the test is the step table's, kept for its order)
    if s.delayed:
        _framed(f, ids, len(ids) + 1, stack)
        fire_delayed(e, "enemy_phase_end", s.turn)
        if stack[-1] is not f or s.pause:
            return
    elif f.data is not None:
        f.pc = len(ids) + 1
    # 6. the end of the round: statuses that decay at the round's end (the player's, then
    #    each living enemy's in encounter order), except those an enemy applied during this
    #    phase; then plan the next intents (of the enemies that took their turn), increment
    #    the turn number, back to PlayerTurnStart
    fresh = f.data[1] if f.data is not None else []
    decaying = c.round_end_decaying
    for u in units:
        if u.alive and u.statuses and not decaying.isdisjoint(u.statuses):
            decay_statuses(e, u, "round_end", fresh)
    if f.data is not None:
        stack.pop()
    for uid in ids:
        if uid >= 0:
            plan_intent(e, units[uid])
    s.turn += 1
    _turn_start(e, f)


def _framed(f: Frame, ids: list[int], pc: int, stack: list[Frame]) -> Frame:
    """``f`` as the step table's EnemyPhase frame at enemy ``pc``, on top of the stack (put
    there the first time: nothing was queued above it before)."""
    if f.data is None:
        f.kind = K.ENEMY_PHASE
        f.data = [ids, []]
        stack.append(f)
    f.pc = pc
    return f


def _turn_start(e: Engine, f: Frame) -> None:
    """PlayerTurnStart steps 1-8 straight through after the fused EnemyPhase (``f``, just
    popped, becomes its frame) when none can queue work: no hook possible (no active hook,
    no status of the player with one, no card in hand with one: ``hooks_possible``), so the
    energy is EnergyPerTurn and the draw DrawPerTurn; no delayed work; no status of the
    player with a turn-start or draw-phase branch; every card in hand ``cycle_plain`` (no On
    Turn Start, no hook). Else handed to the step table."""
    s = e.s
    player = s.units[0]
    statuses = player.statuses
    if (s.pause or s.delayed or s.hooks or s.steps + 3 >= e.step_limit
            or (statuses and not e.c.turn_start_any.isdisjoint(statuses))):
        next_phase(e, f, K.TURN_START)
        return
    cards = s.cards
    for uid in s.hand:
        if not cards[uid].active.cycle_plain:
            next_phase(e, f, K.TURN_START)
            return
    # the frame the step table has (``f``, as ``next_phase`` makes it, at step 8) goes on the
    # stack only if the draw queues work: nothing before reads it
    s.steps += 1  # the loop's count of the EnemyPhase step
    enter(e, PHASE_PLAYER_TURN_START)
    s.player_turns += 1
    # 1. (no Card Hook is active) 2. the player's armor by BattleRules.armor_decay
    if player.block:
        armor(e, player)
    # 3. this turn's energy: with no hook possible, EnergyPerTurn
    s.energy = e.rules.energy_per_turn
    # 4. (no delayed trigger) 5. clear the played-this-turn record
    s.played.clear()
    # 6. (no turn-start behaviour)
    # 7. from the second turn: the draw phase (clear drawn, DrawPhase, no status branch) ...
    if s.player_turns >= 2:
        s.drawn.clear()
        if e.hot:
            e.record((DrawPhase, s.turn))
        # ... then draw DrawPerTurn cards
        count = e.rules.draw_per_turn
        stack = s.stack
        depth = len(stack)
        if draw_at_once(e, count, False):
            # the DRAW step ran here (counted); a card's On Drawn branch was queued under the
            # DRAW frame's rest (this frame goes under both), else this is this frame's
            # resume, which re-reads the battle end
            if len(stack) != depth:
                _turn_start_frame(f, stack, depth)
                return
            s.steps += 1
            if check_end(e):
                return
        elif count > 0:
            _turn_start_frame(f, stack, depth)
            push_draw(e, count, automatic=True)
            return
    # 8. TurnStarted, then PlayerPhase
    turn_started(e)


def _turn_start_frame(f: Frame, stack: list[Frame], depth: int) -> None:
    """``f`` as the step table's PlayerTurnStart frame at step 8, put under the work queued
    from stack height ``depth`` on."""
    f.kind = K.TURN_START
    f.pc = 4
    f.data = None
    stack.insert(depth, f)

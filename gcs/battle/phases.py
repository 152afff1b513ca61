"""The battle phases as step tables. Step comments mirror the numbered steps of seed 001.

Each phase is a frame whose ``pc`` is the next step. A step that queues work (behaviour
entries, draws) returns; the loop runs that work, then comes back for the next step. So a
Choice, Wait or Gate anywhere holds the queued phase steps too.

When nobody can look in between (``inline_ok``), EndPlayerTurn step 2b runs the turn-end hand
and PlayerTurnStart step 7 the turn's draw inside their own step, counting the engine steps of
the frames they would have queued; a lifecycle branch queued on the way gets that frame put
under it, where the loop would have it. In the same way, with no subscriber, each enemy's
turn (EnemyPhase steps 1-4) runs inside the EnemyPhase frame's call and gets an ENEMY_TURN
frame only when one of its steps queues work (``enemy_turn``). tests/test_speed_turns.py
plays both ways and compares the states, the step counts included, after every decision.

The TURN_END frame's handler is ``cycle.step_turn_end``: when its checks allow, it runs the
whole cycle (EndPlayerTurn, EnemyPhase, PlayerTurnStart, the draw) straight through, and it
hands a phase to the step table here otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..enums import (
    ARMOR_HALVE,
    ARMOR_RESET,
    HAND_RULE_PERSIST,
    KW_ETHEREAL,
    KW_INNATE,
    KW_RETAIN,
    PHASE_BATTLE_LOST,
    PHASE_BATTLE_WON,
    PHASE_ENEMY_PHASE,
    PHASE_NONE,
    PHASE_PLAYER_PHASE,
    PHASE_PLAYER_TURN_END,
    PHASE_PLAYER_TURN_START,
    PILE_DISCARD,
    PILE_HAND,
    PILE_REMOVED,
    SCOPE_DISCARD,
    SCOPE_EXHAUST,
    SCOPE_HAND,
    BattlePhase,
)
from ..events import (
    BattleEnded,
    BattleStarted,
    CardDiscarded,
    CardModified,
    CardRetained,
    DiscardPhase,
    DrawPhase,
    PhaseChanged,
    TurnEnded,
    TurnStarted,
)
from ..flow.interp import count_steps, fire_delayed, start_entry
from ..flow.nodes import RegisterCardHook
from ..flow.program import NEEDS_ENTRY
from . import frames as K
from .cards import draw_at_once, move, push_draw, push_entries
from .combat import decay_statuses, run_status_entries, set_block, status_entries
from .hooks import draw_count, energy_per_turn, hooks_possible
from .intents import plan_intent, resolve_intents, run_plain_intent
from .rewards import offer_rewards
from .state import ActiveHook, Ctx, Frame, Unit

if TYPE_CHECKING:
    from ..content.defs import MoveDef
    from ..engine import Engine
    from ..flow.nodes import Node


def enter(e: Engine, phase: BattlePhase) -> None:
    """Record a phase transition (``phase_history``) and publish ``PhaseChanged``."""
    s = e.s
    old = s.phase
    s.phase = phase
    s.history.append((phase, s.turn))
    if e.hot:
        e.record((PhaseChanged, old, phase, s.turn))


def check_end(e: Engine) -> bool:
    """Re-read the battlefield; if the battle is decided, commit BattleWon or BattleLost."""
    units = e.s.units
    if units[0].alive:
        last = units[-1]
        if last.alive and last.uid:
            return False  # (the usual case, read first: the last enemy lives)
        for u in units:  # (the list itself: no copy, no range per call)
            if u.alive and u.uid:  # a living enemy (the player is unit 0)
                return False
    s = e.s
    won = units[0].alive
    s.stack.clear()
    s.delayed.clear()
    s.end_turn = False
    s.stack.append(Frame(K.WON if won else K.LOST, None, 0, None, None))
    return True


def armor(e: Engine, u: Unit) -> None:
    """The unit's block by ``BattleRules.armor_decay``, unless a status keeps it."""
    if not u.block:
        return  # no block: every rule leaves it at 0 (and publishes nothing)
    if u.statuses and not e.c.block_keeping_statuses.isdisjoint(u.statuses):
        return
    rule = e.rules.armor_decay
    if rule is ARMOR_RESET:
        set_block(e, u, 0)
    elif rule is ARMOR_HALVE:
        set_block(e, u, u.block // 2)


def inline_ok(e: Engine, steps: int) -> bool:
    """May the running step do the work of the next ``steps`` engine steps itself (the frames it
    would queue and its own resume), counting them as the loop would? Only with no subscriber
    (nobody looks at the battle between those steps) and when the step guard stops none of
    them: the loop adds 1 after the running step and checks after each."""
    return not e.subs and e.s.steps + steps < e.step_limit


def next_phase(e: Engine, f: Frame, kind: int) -> None:
    """Queue the next phase (``kind``: TURN_START or ENEMY_PHASE) after the phase frame ``f``,
    just popped, and run its first step now when nobody can tell.

    The new frame is ``f`` itself, reset to a fresh frame of ``kind`` (node, data and scope
    None, step 0): nothing else holds ``f``, so this is the pop-and-push of a new frame
    without making one. The loop would count the running step, then, with no pause (a phase
    step that paused has returned before this), call the new frame's handler: with no
    subscriber and a step guard that stops neither, that count and call happen here (one trip
    through the loop less; the handler returns to the loop as it would have).
    """
    f.kind = kind
    f.pc = 0
    f.data = None
    s = e.s
    s.stack.append(f)
    # (``inline_ok(e, 1)``, inlined: every phase change of a turn cycle asks it)
    if not s.pause and not e.subs and s.steps + 1 < e.step_limit:
        s.steps += 1  # the loop's count of the step that queued it
        if kind == K.TURN_START:
            step_turn_start(e, f)
        else:
            step_enemy_phase(e, f)


# ---------------------------------------------------------------- StartBattle
def step_start(e: Engine, f: Frame) -> None:
    """StartBattle steps 4-7, one per call; when nobody can tell (``inline_ok``) a step goes
    on into the next in the same call, counting the engine step the loop would have (and the
    opening draw runs here, as ``draw_at_once``), so the battle starts in one trip through the
    loop. A step that queued work returns and the loop comes back for the next."""
    s = e.s
    stack = s.stack
    if f.pc == 0:
        f.pc = 1
        # 1-3 ran in start_battle (clear, create units, build and shuffle the draw pile).
        # 4. Innate cards first (moved to the top in master-deck order: the first Innate
        #    card of the deck is drawn first), then the opening draw.
        cards = s.cards
        innate = [u for u in s.draw if KW_INNATE in cards[u].active.keywords]
        if innate:
            innate.sort()
            chosen = set(innate)
            s.draw[:] = [u for u in s.draw if u not in chosen] + innate[::-1]
        count = max(e.rules.starting_hand_size, len(innate))
        if not inline_ok(e, 2) or (count > 0 and not draw_at_once(e, count)):
            push_draw(e, count, automatic=True)
            return
        # the DRAW step ran here (counted); a card's On Drawn branch was queued under the DRAW
        # frame's rest, else this is this frame's next call
        if stack[-1] is not f or s.pause:
            return
        s.steps += 1
    if f.pc == 1:
        f.pc = 2
        # 5. TurnNumber = 1 and OnBattleStarted (the phase is still INITIALIZE)
        s.turn = 1
        if e.hot:
            e.record((BattleStarted, s.encounter, s.turn))
        if not inline_ok(e, 1):
            return
        s.steps += 1  # (the loop's count of this step; the next one goes on here)
    if f.pc == 2:
        f.pc = 3
        # 6. first enemy intents, then the battle-start status behaviours
        for u in s.units[1:]:
            plan_intent(e, u)
        entries = []
        if "on_battle_start" in e.c.entry_statuses:  # (else every unit's list is empty)
            for u in s.units:
                entries += status_entries(e, u, "on_battle_start")
        if entries:
            push_entries(e, entries)
            return
        if not inline_ok(e, 1):
            return
        s.steps += 1
    # 7. PlayerTurnStart, then the first PlayerPhase
    stack.pop()
    if not check_end(e):
        next_phase(e, f, K.TURN_START)


# ---------------------------------------------------------------- PlayerTurnStart
def step_turn_start(e: Engine, f: Frame) -> None:
    """PlayerTurnStart steps 1-8; a step that queues work returns and resumes here after."""
    s = e.s
    if f.pc and check_end(e):
        return
    stack = s.stack
    player = s.units[0]
    # ``hooks_possible`` as step 3 found it, kept while nothing can have changed it: in this
    # call, steps 4-7 run only when nothing ran in between (a step that queues work returns)
    hooks: bool | None = None
    if f.pc == 0:
        f.pc = 1
        enter(e, PHASE_PLAYER_TURN_START)
        s.player_turns += 1
        # 1. remove expired Card Hooks with Scope = Turns
        if s.hooks:
            n = s.player_turns
            kept = [h for h in s.hooks if h.expires_turn is None or h.expires_turn > n
                    or _enemy_scoped(h)]
            if len(kept) != len(s.hooks):
                s.hooks = kept
                resolve_intents(e)
        # 2. the player's armor by BattleRules.armor_decay
        if player.block:  # (no block: ``armor`` leaves it at 0)
            armor(e, player)
        # 3. this turn's energy (refilled, not added); with no hook possible (the first test of
        #    ``energy_per_turn``) it is EnergyPerTurn
        hooks = hooks_possible(e)
        s.energy = energy_per_turn(e) if hooks else e.rules.energy_per_turn
        # 4. delayed triggers scheduled for PlayerTurnStart
        if s.delayed:
            hooks = None  # (a trigger may register a hook or give a status: asked again)
            fire_delayed(e, "player_turn_start", s.player_turns)
        if stack[-1] is not f or s.pause:
            return
    if f.pc == 1:
        f.pc = 2
        # 5. clear the played-this-turn record
        s.played.clear()
        # 6. turn-start behaviours of player statuses, then of cards in hand
        statuses = player.statuses
        entries = (status_entries(e, player, "on_turn_start")
                   if statuses and not e.c.turn_start_statuses.isdisjoint(statuses) else [])
        cards = s.cards
        for uid in s.hand:
            node = cards[uid].active.on_turn_start
            if node is not None:
                entries.append((node, Ctx(0, uid, -1, "", "on_turn_start")))
        if entries:
            push_entries(e, entries)
            return
    if f.pc == 2:
        f.pc = 3
        # 7. from the second turn: the draw phase (clear drawn, DrawPhase, behaviours) ...
        if s.player_turns >= 2:
            s.drawn.clear()
            if e.hot:
                e.record((DrawPhase, s.turn))
            statuses = player.statuses
            if statuses and not e.c.draw_phase_statuses.isdisjoint(statuses):
                run_status_entries(e, player, "on_draw_phase")
                if stack[-1] is not f or s.pause:
                    return
    if f.pc == 3:
        f.pc = 4
        # ... then draw DrawPerTurn cards
        if s.player_turns >= 2:
            # (with no hook possible, as ``draw_at_once`` requires, ``draw_count`` is DrawPerTurn)
            # (``inline_ok(e, 2)``, inlined: every turn start asks it)
            if not e.subs and s.steps + 2 < e.step_limit and draw_at_once(
                    e, e.rules.draw_per_turn, hooks):
                # the DRAW step ran here (counted); a card's On Drawn branch was queued under
                # the DRAW frame's rest, else it is done and this is this frame's resume
                if stack[-1] is not f:
                    return
                s.steps += 1
                if check_end(e):
                    return
            else:
                push_draw(e, draw_count(e), automatic=True)
                if stack[-1] is not f:
                    return
    # 8. TurnStarted, then PlayerPhase
    stack.pop()
    turn_started(e)


def turn_started(e: Engine) -> None:
    """PlayerTurnStart step 8, its frame popped: TurnStarted, then PlayerPhase, and the turn end
    a behaviour asked for during the turn start."""
    s = e.s
    if e.hot:
        e.record((TurnStarted, s.turn))
    enter(e, PHASE_PLAYER_PHASE)
    if s.end_turn:
        s.end_turn = False
        push_turn_end(e)


# ---------------------------------------------------------------- EndPlayerTurn
def push_turn_end(e: Engine) -> None:
    e.s.stack.append(Frame(K.TURN_END, None, 0, None, None))


def step_turn_end(e: Engine, f: Frame) -> None:
    """EndPlayerTurn steps 1-6; a step that queues work returns and resumes here after."""
    s = e.s
    if f.pc and check_end(e):
        return
    stack = s.stack
    player = s.units[0]
    c = e.c
    # (each status step below tests its own set, a part of ``turn_end_any``: a player with
    # none of those statuses now passes every test, and nothing in this call gives one
    # without queuing work first, after which this returns: the tests are skipped at once)
    statuses = player.statuses
    quiet = not statuses or c.turn_end_any.isdisjoint(statuses)
    if f.pc == 0:
        f.pc = 1
        enter(e, PHASE_PLAYER_TURN_END)
        # 1. DiscardPhase and its status behaviours
        if e.hot:
            e.record((DiscardPhase, s.turn))
        if not quiet and not c.discard_phase_statuses.isdisjoint(statuses):
            # (tested here: with no such branch the call queues nothing, and this goes on)
            run_status_entries(e, player, "on_discard_phase")
            if stack[-1] is not f or s.pause:
                return
    plain = False  # 2a found every card in hand plain (see ``hand_end``), and 2b follows
    if f.pc == 1:
        f.pc = 2
        # 2a. card On Turn End behaviours of cards in hand (their authored moves are kept)
        cards = s.cards
        entries = []
        plain = True
        for uid in s.hand:
            card = cards[uid].active
            node = card.on_turn_end
            if node is not None:
                entries.append((node, Ctx(0, uid, -1, "", "on_turn_end")))
            elif plain and (card.on_discard is not None
                            or not ETHEREAL_RETAIN.isdisjoint(card.keywords)):
                plain = False  # (the test of ``hand_end``, read in this same pass)
        if entries:
            push_entries(e, entries)
            return
    if f.pc == 2:
        f.pc = 3
        # 2b. the hand by the HandDiscardRule (Ethereal, Retain, Discard or Persist)
        if s.hand:
            if e.subs or s.steps + 2 >= e.step_limit:  # (not ``inline_ok(e, 2)``, inlined)
                stack.append(Frame(K.HAND_END, None, 0, s.hand.copy(), None))
                return
            # the HAND_END step runs here (counted); if a card's lifecycle queued branches,
            # the HAND_END frame with the cards still to do goes under them, as the loop has it
            if plain and quiet and s.hand_rule is not HAND_RULE_PERSIST:
                # ``hand_end``'s first case, with what it tests known here (2a found the hand
                # plain, the player has no status reacting to a discard, no subscriber): the
                # whole hand to Discard at once, no branch queued
                discard_plain(e, s.hand)
                s.steps += 1
            else:
                ids = s.hand.copy()
                depth = len(stack)
                done = hand_end(e, ids, 0, quiet, plain)
                s.steps += 1
                if len(stack) != depth or s.pause:
                    stack.insert(depth, Frame(K.HAND_END, None, done, ids, None))
                    return
            s.steps += 1  # this frame's resume, which re-reads the battle end
            if check_end(e):
                return
    if f.pc == 3:
        f.pc = 4
        # 3. turn-end behaviours of player statuses
        if not quiet and not c.turn_end_statuses.isdisjoint(statuses):
            run_status_entries(e, player, "on_turn_end")
            if stack[-1] is not f or s.pause:
                return
    if f.pc == 4:
        f.pc = 5
        # 4. status decay, temporary cost rules, delayed triggers for PlayerTurnEnd
        if not quiet and not c.turn_end_decaying.isdisjoint(statuses):
            decay_statuses(e, player)  # (tested here: it decays nothing without such a status)
        end_turn_costs(e)
        if s.delayed:
            fire_delayed(e, "player_turn_end", s.player_turns)
        if stack[-1] is not f or s.pause:
            return
    # 5. TurnEnded; 6. an extra turn goes back to PlayerTurnStart, else EnemyPhase
    stack.pop()
    if e.hot:
        e.record((TurnEnded, s.turn))
    if s.extra_turns > 0:
        s.extra_turns -= 1
        next_phase(e, f, K.TURN_START)
    else:
        next_phase(e, f, K.ENEMY_PHASE)


def end_turn_costs(e: Engine) -> None:
    """EndPlayerTurn step 4's temporary cost rules: every ``duration: turn`` cost modifier ends
    (in uid order: instances are created in that order; a plain loop, no copy of the
    instances: nothing adds one during it, a listener's changing calls raise BusyError)."""
    hot = e.hot
    for inst in e.s.cards.values():
        if inst.turn_delta or inst.turn_set is not None:  # (one test per card: most have none)
            inst.turn_delta = 0
            inst.turn_set = None
            if hot:
                e.record((CardModified, inst.uid, inst.card_id, "cost", inst.upgraded))


def step_hand_end(e: Engine, f: Frame) -> None:
    """The turn-end hand (``f.data``: the card ids, ``f.pc``: the next one), see ``hand_end``."""
    s = e.s
    f.pc = hand_end(e, f.data, f.pc)
    if s.stack[-1] is f and not s.pause:
        s.stack.pop()


def hand_end(e: Engine, ids: list[int], i: int, calm: bool = False, plain: bool = False) -> int:
    """The turn-end hand from ``ids[i]`` on, one card at a time: Ethereal exhausts, Retain
    stays, else the hand rule. Returns the index of the next card: after a card whose move
    queued lifecycle branches (they run before the next card), or ``len(ids)`` when done.
    ``calm``: the caller found that the player has no ``turn_end_any`` status now; ``plain``:
    that no card of ``ids`` is Ethereal or Retain or has its own On Discard."""
    s = e.s
    stack = s.stack
    depth = len(stack)
    hand = s.hand
    cards = s.cards
    persist = s.hand_rule is HAND_RULE_PERSIST
    # a discard with no branch to run (no On Discard here) is done inline: same effect as move
    player = s.units[0]
    quiet = calm or not player.statuses or e.c.discard_statuses.isdisjoint(player.statuses)
    discard = s.discard
    hot = e.hot
    n = len(ids)
    if i == 0 and quiet and not persist and not e.subs and ids == hand:
        if not plain:
            plain = True
            for uid in ids:
                # (``_plain``, inlined: the hand is plain unless a card is Ethereal or Retain
                # or has its own On Discard)
                card = cards[uid].active
                if card.on_discard is not None or not ETHEREAL_RETAIN.isdisjoint(card.keywords):
                    plain = False
                    break
        if plain:
            discard_plain(e, ids)
            return n
    for j in range(i, n):
        uid = ids[j]
        inst = cards.get(uid)
        if inst is None or inst.pile is not PILE_HAND:
            continue  # an On Turn End behaviour already moved it
        card = inst.active
        kw = card.keywords
        if KW_ETHEREAL in kw:
            move(e, inst, SCOPE_EXHAUST)
        elif persist or KW_RETAIN in kw:
            if hot:
                e.record((CardRetained, uid, inst.card_id, SCOPE_HAND, SCOPE_HAND))
            continue
        elif quiet and card.on_discard is None:
            hand.remove(uid)
            inst.pile = PILE_DISCARD
            discard.append(uid)
            if hot:
                e.record((CardDiscarded, uid, inst.card_id, SCOPE_HAND, SCOPE_DISCARD))
            continue
        else:
            move(e, inst, SCOPE_DISCARD)
        if len(stack) != depth or s.pause:
            return j + 1  # this card's lifecycle branches run before the next card
    return n


ETHEREAL_RETAIN: Final = frozenset((KW_ETHEREAL, KW_RETAIN))  # (read by ``hand_end``)


def discard_plain(e: Engine, ids: list[int]) -> None:
    """The usual turn-end hand (``ids``, the hand itself or a copy equal to it): every card
    goes to Discard with no branch to run (``hand_end``'s inline discard, for all of them at
    once, in hand order; no subscriber looks in between, so the log alone sees the events,
    in the same order)."""
    s = e.s
    cards = s.cards
    hot = e.hot
    record = e.record
    for uid in ids:
        held = cards[uid]
        held.pile = PILE_DISCARD
        if hot:
            record((CardDiscarded, uid, held.card_id, SCOPE_HAND, SCOPE_DISCARD))
    s.discard.extend(ids)
    s.hand.clear()


# ---------------------------------------------------------------- EnemyPhase
def keep_intent(f: Frame, uid: int) -> None:
    """Mark ``uid`` in the EnemyPhase frame as keeping its intent (not re-planned at step 6)."""
    assert f.kind == K.ENEMY_PHASE
    ids = f.data[0]
    i = ids.index(uid)
    ids[i] = -1 - uid


def keep_replanned_intent(e: Engine, uid: int) -> bool:
    """An enemy whose move is re-planned (an ``at_once`` HP rule) during the EnemyPhase after
    its own turn began keeps that move: step 6 does not re-plan it. True in that case."""
    for f in reversed(e.s.stack):
        if f.kind == K.ENEMY_PHASE:
            ids = None if f.data is None else f.data[0]
            if ids is not None and uid in ids and ids.index(uid) < f.pc:
                keep_intent(f, uid)
                return True
            return False
    return False


def step_enemy_phase(e: Engine, f: Frame) -> None:
    """EnemyPhase (seed 001): each living enemy's turn in encounter order, then steps 5-6.

    ``f.data[0]`` holds the enemy ids present when the phase began (a unit summoned during
    the phase acts from the next one). An id is stored as ``-1 - uid`` once that enemy keeps
    its planned intent into the next round (it was dead when reached, or a control status made
    it skip its turn); only the others are re-planned at step 6. ``f.data[1]`` lists the
    ``[unit, status]`` round-end statuses an enemy applied in this phase ("just applied").

    With no subscriber (nobody looks at the battle in between) an enemy's turn runs inside
    this frame's call (see ``enemy_turn``), each of its engine steps counted as the loop
    counts them; it gets an ENEMY_TURN frame of its own only when a step queues work.
    """
    s = e.s
    if f.data is None:
        enter(e, PHASE_ENEMY_PHASE)
        f.data = [list(range(1, len(s.units))), []]  # (the enemy ids: a unit's id is its index)
    elif check_end(e):
        return
    ids = f.data[0]
    n = len(ids)
    pc = f.pc
    while pc < n:
        # 1-4 for each living enemy, in encounter order ("living" is re-read per enemy)
        pc = f.pc = pc + 1
        uid = ids[pc - 1]
        if s.units[uid].alive:
            if e.subs:
                s.stack.append(Frame(K.ENEMY_TURN, None, 0, uid, None))
                return
            # inline: this call's step (the loop would go on to the turn's frame now) ...
            limit = e.step_limit
            s.steps += 1
            if s.steps > limit:
                count_steps(e, 0)  # the loop's stop, with its message
            if not enemy_turn(e, None, uid, f):
                return  # its frame is under the work it queued (or the battle is decided)
            # ... the turn's last step, then this frame's resume, which re-reads the end
            s.steps += 1
            if s.steps > limit:
                count_steps(e, 0)
            if check_end(e):
                return
            continue
        ids[pc - 1] = -1 - uid
    if pc == n:
        # 5. delayed triggers for the end of EnemyPhase
        f.pc += 1
        if s.delayed:
            fire_delayed(e, "enemy_phase_end", s.turn)
        if s.stack[-1] is not f or s.pause:
            return
    # 6. the end of the round: statuses that decay at the round's end (the player's, then
    #    each living enemy's in encounter order), except those an enemy applied during this
    #    phase (Slay the Spire's "just applied"); then plan the next intents (of the enemies
    #    that took their turn), increment the turn number, back to PlayerTurnStart. A unit
    #    summoned or revived during the phase, and one that skipped its turn, keeps its intent.
    units = s.units
    fresh = f.data[1]
    decaying = e.c.round_end_decaying
    for u in units:
        if u.alive and u.statuses and not decaying.isdisjoint(u.statuses):
            decay_statuses(e, u, "round_end", fresh)  # (tested here: else it decays nothing)
    s.stack.pop()
    for uid in ids:
        if uid >= 0:
            plan_intent(e, units[uid])
    s.turn += 1
    next_phase(e, f, K.TURN_START)


def step_enemy_turn(e: Engine, f: Frame) -> None:
    """One enemy's turn as a frame, EnemyPhase steps 1-4 (see ``enemy_turn``); the battle
    end is re-read after queued work."""
    if f.pc and check_end(e):
        return
    stack = e.s.stack
    if enemy_turn(e, f, f.data, stack[-2]):
        stack.pop()


def enemy_turn(e: Engine, f: Frame | None, uid: int, phase: Frame) -> bool:
    """EnemyPhase steps 1-4 for the enemy ``uid``, from step ``f.pc`` on (0 inline): True when
    its turn is over, False when a step queued work (or paused, or the battle was decided).
    ``phase`` is the EnemyPhase frame.

    As a frame ``f``, on top of the stack, after queued work the loop comes back to it at the
    step it was left at. Inline (``f`` None: the turn has no frame yet) this runs inside the
    EnemyPhase frame's call; it plays as the frame does: a step that queues work puts the
    turn's frame, made then, under that work (where the loop has it) and returns, and where
    the frame would return to the loop with nothing queued (the ENTRY frame of a program
    intent) the steps are counted and the battle end re-read here, as the frame's resume does.
    """
    s = e.s
    stack = s.stack
    depth = len(stack)
    u = s.units[uid]
    if not u.alive:
        # died during its own turn: a revive later in this phase gives the intent it keeps
        keep_intent(phase, uid)
        return True
    inline = f is None
    pc = 0 if f is None else f.pc  # the next step (the frame's ``pc``, kept here until left)
    # (each status step tests its content set here: with none of those statuses its call would
    # queue nothing, and the turn goes on)
    c = e.c
    if pc == 0:
        pc = 1
        # 1. the enemy's armor and its turn-start statuses
        if u.block:  # (no block: ``armor`` leaves it at 0)
            armor(e, u)
        statuses = u.statuses
        if statuses and not c.turn_start_statuses.isdisjoint(statuses):
            run_status_entries(e, u, "on_turn_start")
            if len(stack) != depth or s.pause:
                return suspend_turn(e, f, uid, pc, depth)
    if pc == 1:
        pc = 2
        # 2. control statuses: a skipped turn keeps the planned intent for the next round
        statuses = u.statuses
        if statuses and not c.skip_statuses.isdisjoint(statuses):  # (``skips_turn``, inlined)
            keep_intent(phase, uid)
        else:
            # 3. the planned Intent Behavior
            m = c.moves[u.def_id, u.move] if u.move else None
            if m is not None and m.behaviour is not None:
                node = m.behaviour
                # inline, a plain move runs directly (``run_plain_intent``: the same actions
                # and steps, none of which queues work), else as the interpreter's entry
                plan = c.plain_intents.get(id(node)) if inline else None
                if plan is None or not run_plain_intent(e, u, m, plan):
                    start_intent(e, u, m, node, inline)
                    if len(stack) != depth or s.pause:
                        return suspend_turn(e, f, uid, pc, depth)
                if inline and isinstance(node, NEEDS_ENTRY):
                    # the program ran here, its steps and its ENTRY frame's counted (see
                    # ``start_entry``): this is the frame's resume, which re-reads the end
                    if check_end(e):
                        return False
                    if not u.alive:
                        keep_intent(phase, uid)
                        return True
    return enemy_turn_end(e, f, u, phase, pc, depth)


def enemy_turn_end(e: Engine, f: Frame | None, u: Unit, phase: Frame, pc: int,
                   depth: int) -> bool:
    """EnemyPhase step 4 for the enemy ``u``, the end of ``enemy_turn`` (``pc`` 2: from the
    turn-end statuses, 3: after their queued work); ``depth`` is the stack's height when the
    turn's work began. True when the turn is over, False when a step queued work."""
    s = e.s
    uid = u.uid
    if pc == 2:
        pc = 3
        # 4. turn-end statuses, then decay
        statuses = u.statuses
        if statuses and not e.c.turn_end_statuses.isdisjoint(statuses):
            run_status_entries(e, u, "on_turn_end")
            if len(s.stack) != depth or s.pause:
                return suspend_turn(e, f, uid, pc, depth)
    if not u.alive:
        keep_intent(phase, uid)
        return True
    statuses = u.statuses
    if statuses and not e.c.turn_end_decaying.isdisjoint(statuses):
        decay_statuses(e, u)
    # ... and the Card Hooks that count enemy turns: one more has ended
    if s.hooks:
        _count_enemy_turn(e)
    return True


def start_intent(e: Engine, u: Unit, m: MoveDef, node: Node, inline: bool) -> None:
    """EnemyPhase step 3 through the interpreter: the move ``m``'s behaviour ``node`` as an
    entry owned by ``u``, its scope holding the move's damage, hits and block."""
    ctx = Ctx(u.uid, -1, 0, "", "intent")
    # (``move_damage``, inlined: every intent with a behaviour reads it)
    dmg = m.damage if m.damage_max is None else u.rolled.get(m.id, m.damage)
    if dmg is not None:
        ctx.vals["damage"] = dmg
    ctx.vals["hits"] = m.hits
    if m.block is not None:
        ctx.vals["block"] = m.block
    start_entry(e, node, ctx, inline)


def suspend_turn(e: Engine, f: Frame | None, uid: int, pc: int, depth: int) -> bool:
    """An enemy turn's step queued work: its frame resumes at step ``pc``; inline, the frame
    is made now and goes under that work."""
    if f is None:
        e.s.stack.insert(depth, Frame(K.ENEMY_TURN, None, pc, uid, None))
    else:
        f.pc = pc
    return False


def _enemy_scoped(h: ActiveHook) -> bool:
    node = h.node
    return isinstance(node, RegisterCardHook) and node.scope == "enemy_turns"


def _count_enemy_turn(e: Engine) -> None:
    """EnemyPhase step 4 for Hooks: count an enemy turn down on every hook whose scope counts
    enemy turns; the ones that reach 0 are removed (and the intents re-resolved)."""
    s = e.s
    kept = []
    gone = False
    for h in s.hooks:
        if h.expires_turn is not None and _enemy_scoped(h):
            if h.expires_turn <= 1:
                gone = True
                continue
            h = ActiveHook(h.node, h.source, h.expires_turn - 1, h.seq)
        kept.append(h)
    s.hooks = kept
    if gone:
        resolve_intents(e)


# ---------------------------------------------------------------- battle end
def _battle_end_branches(e: Engine) -> None:
    """Queue the battle-end status branches: the player's (even after a defeat), then each
    living enemy's, in encounter order; each unit's in snapshot order."""
    units = e.s.units
    entries = status_entries(e, units[0], "on_battle_end")
    for u in units[1:]:
        if u.alive:
            entries += status_entries(e, u, "on_battle_end")
    if entries:
        push_entries(e, entries)


def step_won(e: Engine, f: Frame) -> None:
    """Victory: BattleWon, battle-end branches, then reward candidates and BattleRewardOffered."""
    pc = f.pc
    f.pc += 1
    if pc == 0:
        enter(e, PHASE_BATTLE_WON)
        # 1. every battle-end status branch (and its deferred resumes) completes first
        _battle_end_branches(e)
    else:
        # 2. reward candidates; 3. BattleRewardOffered; waiting until apply/skip
        e.s.stack.pop()
        offer_rewards(e)


def step_lost(e: Engine, f: Frame) -> None:
    """Defeat: BattleLost, battle-end branches, then BattleEnded(won=False); no rewards."""
    pc = f.pc
    f.pc += 1
    if pc == 0:
        enter(e, PHASE_BATTLE_LOST)
        _battle_end_branches(e)
    else:
        e.s.stack.pop()
        finish_battle(e, won=False)


def finish_battle(e: Engine, won: bool, reward: str | None = None) -> None:
    """Publish BattleEnded on the final state, then close the battle.

    BattleEnded's handlers read the battle as it ended: phase BATTLE_WON or BATTLE_LOST,
    the units with their final HP, the piles as they were (the run's HP and the result are
    already set, no reward waits). Then the battle closes (piles emptied, hooks and delayed
    triggers dropped, phase NONE with its PhaseChanged, the very last event): after the call
    that published BattleEnded returns, ``is_battle_active`` is False.
    """
    s = e.s
    player = s.units[0]
    s.hp = player.hp if won else 0  # the run's HP, the result, no reward waiting any more
    s.result = won
    s.rewards = None
    if e.hot:
        e.record((BattleEnded, won, s.turn, player.hp, player.max_hp,
                  tuple(u.hp for u in s.units[1:]), reward))
    s.active = False
    for inst in s.cards.values():
        inst.pile = PILE_REMOVED
    s.cards = {}
    s.hand, s.draw, s.discard, s.exhaust = [], [], [], []
    s.known_top = s.known_bottom = 0
    s.played, s.drawn = [], []
    s.hooks = []
    s.delayed = []
    s.end_turn = False
    s.extra_turns = 0
    enter(e, PHASE_NONE)

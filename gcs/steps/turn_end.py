"""EndPlayerTurn (seed 001, steps 1-6), and the turn-end hand (a HAND_END frame, step 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..battle import frames as K
from ..battle.cards import discard_from_hand, move, push_entries
from ..battle.combat import decay_statuses, run_status_entries
from ..battle.roles import roles_of
from ..battle.state import Ctx, Frame
from ..content.defs import AT_TURN_END_EXHAUST, AT_TURN_END_RETAIN
from ..content.roles import DECAY_TURN_END, ON_DISCARD, ON_DISCARD_PHASE, ON_TURN_END
from ..enums import (
    HAND_RULE_PERSIST,
    PHASE_PLAYER_TURN_END,
    PILE_HAND,
    SCOPE_EXHAUST,
    SCOPE_HAND,
)
from ..events import CardModified, CardRetained, DiscardPhase, TurnEnded
from ..interp.pause import fire_delayed
from .runner import GO, Procedure, Step, become, call, enter, settled

if TYPE_CHECKING:
    from ..engine import Engine


def push_turn_end(e: Engine) -> Frame:
    """Queue EndPlayerTurn (its frame at step 1)."""
    return e.push(K.TURN_END, K.TURN_END_DISCARD_PHASE, None)


class DiscardPhaseStep(Step):
    """1. 发布 OnDiscardPhase 并执行对应状态行为 (OnDiscardPhase, then the player's statuses'
    discard-phase behaviours)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        enter(e, PHASE_PLAYER_TURN_END)
        if e.hot:
            e.record(DiscardPhase(s.turn))
        player = s.units[0]
        if player.statuses and roles_of(e, player) & ON_DISCARD_PHASE:
            run_status_entries(e, s.units[0], "on_discard_phase")
        return GO


class CardsTurnEnd(Step):
    """2. 按 Hand Rule 处理剩余手牌 (the remaining hand by the Hand Rule), first the On Turn
    End behaviours of the cards in hand (hand order): "On Turn End Behavior 已经移动的实例会跳过
    默认清理" (an instance its behaviour moved skips the default cleanup)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        cards = s.cards
        entries = []
        for uid in s.hand:
            node = cards[uid].active.on_turn_end
            if node is not None:
                entries.append((node, Ctx(0, uid, -1, "", "on_turn_end")))
        if entries:
            push_entries(e, entries)
        return GO


class HandRule(Step):
    """2. ... then the cleanup of the hand as it is now, card by card (a HAND_END frame,
    ``step_hand_end``). Run here, the frame is made only if a card's move queued work (it goes
    under that work, where the loop would have it): nobody can look at the stack before then
    (no subscriber)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        if not s.hand:
            return GO
        if e.stepwise or e.subs:
            h = e.push(K.HAND_END, 0, s.hand.copy())
            if not call(e):
                return GO
            step_hand_end(e, h)
            return settled(e, f)
        ids = s.hand.copy()
        stack = s.stack
        if s.steps >= e.step_limit:  # (``call``: the loop's count of this step, which raises)
            e.push(K.HAND_END, 0, ids)
            e.count()
        s.steps += 1
        mark = len(stack)
        j = hand_end(e, ids, 0, mark)
        if j < 0:  # (every card done, nothing queued: ``f`` is on top, as after a frame's call)
            return settled(e, f)
        stack.insert(mark, Frame(K.HAND_END, None, j, ids, None))
        return GO


def step_hand_end(e: Engine, f: Frame) -> None:
    """The HAND_END frame: the turn-end hand from card ``f.pc`` of ``f.data`` on (``hand_end``);
    popped when every card is done, else it waits, at the next card, under the work queued."""
    stack = e.s.stack
    j = hand_end(e, f.data, f.pc, len(stack))
    if j < 0:
        stack.pop()  # (done; never the last frame: EndPlayerTurn's is under it)
    else:
        f.pc = j


def hand_end(e: Engine, ids: list[int], start: int, mark: int) -> int:
    """The turn-end hand from card ``start`` of ``ids`` on, one card at a time in hand order
    (seed 004: a regular card to Discard through the discard event and lifecycle, Retain stays
    and publishes OnCardRetained, Ethereal to Exhaust; Persist keeps every card but the
    Ethereal ones, each publishing OnCardRetained). A card no longer in hand (its On Turn End
    moved it) is skipped. A card whose move queued lifecycle branches (the stack is longer
    than ``mark``) or paused stops it: they run before the next card, whose index it returns;
    -1 when every card is done."""
    s = e.s
    stack = s.stack
    cards = s.cards
    persist = s.hand_rule is HAND_RULE_PERSIST
    # (a discard changes no status: whether one reacts is read once, until queued work runs)
    player = s.units[0]
    reacting = roles_of(e, player) & ON_DISCARD if player.statuses else 0
    for j in range(start, len(ids)):
        uid = ids[j]
        inst = cards[uid]
        if inst.pile is not PILE_HAND:
            continue
        rule = inst.active.at_turn_end
        if rule == AT_TURN_END_EXHAUST:
            move(e, inst, SCOPE_EXHAUST)
        elif persist or rule == AT_TURN_END_RETAIN:
            if e.hot:
                e.record(CardRetained(uid, inst.card_id, SCOPE_HAND, SCOPE_HAND))
            continue
        else:
            discard_from_hand(e, inst, reacting)
        if len(stack) != mark or s.pause:
            return j + 1
    return -1


class StatusesTurnEnd(Step):
    """3. 执行玩家状态的回合结束行为 (the turn-end behaviours of the player's statuses)."""

    def run(self, e: Engine, f: Frame) -> int:
        player = e.s.units[0]
        if player.statuses and roles_of(e, player) & ON_TURN_END:
            run_status_entries(e, player, "on_turn_end")
        return GO


class DecayCostsDelayed(Step):
    """4. 处理状态衰减、临时费用规则与延迟触发 (status decay, the temporary cost rules and the
    delayed triggers): the player's statuses that decay at the turn end, every ``duration:
    turn`` cost modifier ends, then the continuations due at this PlayerTurnEnd resume."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        player = s.units[0]
        if player.statuses and roles_of(e, player) & DECAY_TURN_END:
            decay_statuses(e, player)
        end_turn_costs(e)
        if s.delayed:
            fire_delayed(e, "player_turn_end", s.player_turns)
        return GO


def end_turn_costs(e: Engine) -> None:
    """Every ``duration: turn`` cost modifier ends, in instance order (creation order)."""
    hot = e.hot
    for inst in e.s.cards.values():
        if inst.turn_delta or inst.turn_set is not None:
            inst.turn_delta = 0
            inst.turn_set = None
            if hot:
                e.record(CardModified(inst.uid, inst.card_id, "cost", inst.upgraded))


class PublishTurnEnded(Step):
    """5. 发布 OnTurnEnded (OnTurnEnded)."""

    def run(self, e: Engine, f: Frame) -> int:
        if e.hot:
            e.record(TurnEnded(e.s.turn))
        return GO


class NextPhase(Step):
    """6. 有额外回合时返回 PlayerTurnStart，否则进入 EnemyPhase (with an extra turn, back to
    PlayerTurnStart; else EnemyPhase)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        if s.extra_turns > 0:
            s.extra_turns -= 1
            return become(e, f, K.TURN_START, K.TURN_START_HOOKS)
        return become(e, f, K.ENEMY_PHASE, K.ENEMY_PHASE_TURNS)


END_PLAYER_TURN: Final = Procedure("EndPlayerTurn", K.TURN_END, {
    K.TURN_END_DISCARD_PHASE: DiscardPhaseStep(),
    K.TURN_END_CARDS: CardsTurnEnd(),
    K.TURN_END_HAND_RULE: HandRule(),
    K.TURN_END_STATUSES: StatusesTurnEnd(),
    K.TURN_END_DECAY: DecayCostsDelayed(),
    K.TURN_END_ENDED: PublishTurnEnded(),
    K.TURN_END_NEXT: NextPhase(),
}, rereads_end=True)

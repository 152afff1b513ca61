"""PlayerTurnStart (seed 001, steps 1-8): the player's turn is made ready."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..battle import frames as K
from ..battle.cards import push_draw, push_entries, step_draw
from ..battle.combat import armor_decay, run_status_entries, status_entries
from ..battle.hooks import draw_count, enemy_scoped, energy_per_turn
from ..battle.intents import resolve_intents
from ..battle.roles import roles_of
from ..battle.state import Ctx, Frame
from ..content.roles import ON_DRAW_PHASE, ON_TURN_START
from ..enums import PHASE_PLAYER_PHASE, PHASE_PLAYER_TURN_START
from ..events import DrawPhase, TurnStarted
from ..interp.pause import fire_delayed
from .runner import END, GO, Procedure, Step, become, call, enter, settled

if TYPE_CHECKING:
    from ..engine import Engine


class ExpireHooks(Step):
    """1. 移除已经到期的 Scope = Turns Card Hook (the expired Scope = Turns card hooks are
    removed; a hook that counts enemy turns expires at its enemy's turn end instead)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        enter(e, PHASE_PLAYER_TURN_START)
        s.player_turns += 1
        if s.hooks:
            n = s.player_turns
            kept = [h for h in s.hooks if h.expires_turn is None or h.expires_turn > n
                    or enemy_scoped(h)]
            if len(kept) != len(s.hooks):
                s.hooks = kept
                resolve_intents(e)
        return GO


class Armor(Step):
    """2. 按 BattleRules.ArmorDecayRule 处理玩家护甲 (the player's armor by the ArmorDecayRule)."""

    def run(self, e: Engine, f: Frame) -> int:
        player = e.s.units[0]
        if player.block:  # (no block: every rule leaves it at 0)
            armor_decay(e, player)
        return GO


class Energy(Step):
    """3. 计算并补充本回合能量 (this turn's energy, computed and refilled, not added:
    ``BattleRules.energy_per_turn`` through the energy hooks)."""

    def run(self, e: Engine, f: Frame) -> int:
        e.s.energy = energy_per_turn(e)
        return GO


class DelayedTriggers(Step):
    """4. 执行安排在 PlayerTurnStart 的延迟触发 (the delayed continuations due at this
    PlayerTurnStart resume)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        if s.delayed:
            fire_delayed(e, "player_turn_start", s.player_turns)
        return GO


class ClearPlayed(Step):
    """5. 清空本回合出牌记录 (the played-this-turn record is cleared)."""

    def run(self, e: Engine, f: Frame) -> int:
        e.s.played.clear()
        return GO


class TurnStartBehaviours(Step):
    """6. 执行玩家状态和手牌卡牌的回合开始行为 (the turn-start behaviours of the player's
    statuses, in snapshot order, then of the cards in hand, in hand order)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        player = s.units[0]
        entries = (status_entries(e, player, "on_turn_start")
                   if player.statuses and roles_of(e, player) & ON_TURN_START else [])
        cards = s.cards
        for uid in s.hand:
            node = cards[uid].active.on_turn_start
            if node is not None:
                entries.append((node, Ctx(0, uid, -1, "", "on_turn_start")))
        if entries:
            push_entries(e, entries)
        return GO


class DrawPhaseStep(Step):
    """7. 从第二回合起进入抽牌阶段 (from the second turn, the draw phase; seed 004: "clears
    DrawnThisTurn, publishes OnDrawPhase, executes draw-phase behaviors", then draws). The
    first turn has no draw phase: its hand was drawn at StartBattle."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        if s.player_turns < 2:
            f.pc = K.TURN_START_STARTED
            return GO
        s.drawn.clear()
        if e.hot:
            e.record(DrawPhase(s.turn))
        player = s.units[0]
        if player.statuses and roles_of(e, player) & ON_DRAW_PHASE:
            run_status_entries(e, s.units[0], "on_draw_phase")
        return GO


class TurnDraw(Step):
    """7. ... 并按规则抽牌 (and draws by the rules; seed 004: "draws according to
    BattleRules.DrawPerTurn", through the draw hooks), an automatic draw."""

    def run(self, e: Engine, f: Frame) -> int:
        d = push_draw(e, draw_count(e), automatic=True)
        if d is None or not call(e):
            return GO
        step_draw(e, d)
        return settled(e, f)


class IntoPlayerPhase(Step):
    """8. 发布 OnTurnStarted，再进入 PlayerPhase (OnTurnStarted, then PlayerPhase); a turn end
    that a behaviour asked for during the turn start follows."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        e.pop()
        if e.hot:
            e.record(TurnStarted(s.turn))
        enter(e, PHASE_PLAYER_PHASE)
        if s.end_turn:
            s.end_turn = False
            s.stack.append(f)
            return become(e, f, K.TURN_END, K.TURN_END_DISCARD_PHASE)
        return END


PLAYER_TURN_START: Final = Procedure("PlayerTurnStart", K.TURN_START, {
    K.TURN_START_HOOKS: ExpireHooks(),
    K.TURN_START_ARMOR: Armor(),
    K.TURN_START_ENERGY: Energy(),
    K.TURN_START_DELAYED: DelayedTriggers(),
    K.TURN_START_PLAYED: ClearPlayed(),
    K.TURN_START_BEHAVIOURS: TurnStartBehaviours(),
    K.TURN_START_DRAW_PHASE: DrawPhaseStep(),
    K.TURN_START_DRAW: TurnDraw(),
    K.TURN_START_STARTED: IntoPlayerPhase(),
}, rereads_end=True)

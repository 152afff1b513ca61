"""EnemyPhase (seed 001): each living enemy's turn (steps 1-4, an ENEMY_TURN frame each) in
encounter order, then steps 5-6."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..battle import frames as K
from ..battle.combat import (
    apply_status,
    armor_decay,
    deal_damage,
    decay_statuses,
    gain_block,
    negated,
    run_status_entries,
)
from ..battle.folds import attack_damage, block_amount
from ..battle.hooks import enemy_scoped
from ..battle.intents import plan_intent, resolve_intents
from ..battle.roles import roles_of
from ..battle.state import ActiveHook, Ctx, Frame, Unit
from ..content.db import PLAIN_BLOCK, PLAIN_HIT, PLAIN_STATUS_SELF, PlainIntent
from ..content.defs import MoveDef
from ..content.roles import (
    DECAY_ROUND_END,
    DECAY_TURN_END,
    ON_TURN_END,
    ON_TURN_START,
    SKIP_TURN,
)
from ..enums import PHASE_ENEMY_PHASE
from ..flow.nodes import Node
from ..interp.pause import fire_delayed
from ..interp.run import ENTRY_ROOTS, start_entry
from .runner import END, GO, RESUMED, Procedure, Step, become, call, enter, settled, steps

if TYPE_CHECKING:
    from ..engine import Engine


class EnemyTurns(Step):
    """1-4. EnemyPhase 会按 Encounter 中的顺序处理每个存活敌人 (each living enemy, in
    encounter order): the next one's turn, an ENEMY_TURN frame. "Living" is read as each is
    reached; the enemies are those present when the phase began (one summoned during it acts
    from the next round). One reached dead keeps its planned intent into the next round."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        units = s.units
        data: list[Any] | None = f.data
        if data is None:
            enter(e, PHASE_ENEMY_PHASE)
            # (the enemy ids: a unit's id is its index)
            data = f.data = [[uid for uid in range(1, len(units))], [], 0]
        ids: list[int] = data[0]
        i: int = data[2]
        while i < len(ids):
            uid = ids[i]
            i += 1
            data[2] = i
            if units[uid].alive:
                f.pc = K.ENEMY_PHASE_TURNS  # (back here for the next enemy)
                t = e.push(K.ENEMY_TURN, K.ENEMY_TURN_START, uid)
                if not call(e):
                    return GO
                steps(e, t, ENEMY_TURN)
                return settled(e, f)
            ids[i - 1] = -1 - uid  # dead when reached: it keeps its intent
        return GO


class EnemyPhaseDelayed(Step):
    """5. 完成所有敌人后，执行敌人阶段结束的延迟触发 (after every enemy, the delayed triggers of
    the end of EnemyPhase)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        if s.delayed:
            fire_delayed(e, "enemy_phase_end", s.turn)
        return GO


class RoundEnd(Step):
    """6. 规划下一轮 Intent，增加回合数并返回 PlayerTurnStart (plan the next intents, increment
    the turn number, back to PlayerTurnStart). First the statuses that decay at the round's end
    (the player's, then each living enemy's in encounter order), except those an enemy applied
    during this phase (Slay the Spire's "just applied"); only the enemies that took their turn
    plan (one summoned, revived, dead when reached or skipping keeps its intent)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        units = s.units
        data: list[Any] = f.data
        fresh: list[list[object]] = data[1]
        ids: list[int] = data[0]
        for u in units:
            if u.alive and u.statuses and roles_of(e, u) & DECAY_ROUND_END:
                decay_statuses(e, u, "round_end", fresh)
        for uid in ids:
            if uid >= 0:
                plan_intent(e, units[uid])
        s.turn += 1
        return become(e, f, K.TURN_START, K.TURN_START_HOOKS)


class _EnemyPhase(Procedure):
    def started(self, f: Frame) -> bool:
        return f.data is not None  # (its first step stays the current one, enemy by enemy)


# ---------------------------------------------------------------- one enemy's turn
def _over(e: Engine, u: Unit) -> int:
    """A dead enemy's turn is over (wherever it goes on): it keeps its intent; its frame is
    popped: ``END``."""
    stack = e.s.stack
    K.keep_intent(stack, u.uid)
    stack.pop()
    return END


class TurnStartStatuses(Step):
    """1. 处理该敌人的护甲和回合开始状态 (the enemy's armor, by the ArmorDecayRule, and its
    turn-start statuses)."""

    def run(self, e: Engine, f: Frame) -> int:
        uid: int = f.data
        u = e.s.units[uid]
        if not u.alive:
            return _over(e, u)
        if u.block:
            armor_decay(e, u)
        if u.statuses and roles_of(e, u) & ON_TURN_START:
            run_status_entries(e, u, "on_turn_start")
        return GO


class Control(Step):
    """2. 检查跳过回合等控制状态 (control statuses such as skip-turn): a skipped turn makes no
    move (step 3) and keeps the planned intent for the next round."""

    def run(self, e: Engine, f: Frame) -> int:
        uid: int = f.data
        u = e.s.units[uid]
        if not u.alive:
            return _over(e, u)
        if u.statuses and roles_of(e, u) & SKIP_TURN:
            K.keep_intent(e.s.stack, u.uid)
            f.pc = K.ENEMY_TURN_END
        return GO


class Intent(Step):
    """3. 执行已规划的 Intent Behavior (the planned Intent Behavior), as an entry the enemy owns,
    its scope holding the move's damage, hits and block. A plain move (``Content.plain_intents``,
    derived at load) runs as the combat primitives its actions call."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        c = e.c
        uid: int = f.data
        u = s.units[uid]
        m = c.moves[u.def_id, u.move] if u.move else None
        if m is None or m.behaviour is None:
            return GO
        node = m.behaviour
        stepwise = e.stepwise
        if not stepwise:
            plan = c.plain_intents.get(id(node))
            if plan is not None and run_plain_intent(e, u, m, plan):
                return RESUMED if plan.entry else GO
        start_intent(e, u, m, node, not stepwise)
        if s.stack[-1] is not f or s.pause:
            return GO
        # a composite ran here, its ENTRY frame's steps counted (``start_entry``): the resume
        return RESUMED if type(node) in ENTRY_ROOTS else GO


class TurnEndStatuses(Step):
    """4. 处理回合结束状态、状态衰减和 Hook (its turn-end statuses, status decay and hooks):
    first the turn-end statuses' behaviours, ..."""

    def run(self, e: Engine, f: Frame) -> int:
        uid: int = f.data
        u = e.s.units[uid]
        if not u.alive:
            return _over(e, u)
        if u.statuses and roles_of(e, u) & ON_TURN_END:
            run_status_entries(e, u, "on_turn_end")
        return GO


class DecayHooks(Step):
    """4. ... then its statuses that decay at its turn end, and the card hooks that count enemy
    turns count this one (one that reaches 0 is removed)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        uid: int = f.data
        u = s.units[uid]
        if not u.alive:
            return _over(e, u)
        if u.statuses and roles_of(e, u) & DECAY_TURN_END:
            decay_statuses(e, u)
        if s.hooks:
            _count_enemy_turn(e)
        s.stack.pop()
        return END


def start_intent(e: Engine, u: Unit, m: MoveDef, node: Node, inline: bool) -> None:
    """Step 3 through the interpreter: the move ``m``'s behaviour ``node`` as an entry owned by
    ``u``, its scope holding the move's damage, hits and block."""
    ctx = Ctx(u.uid, -1, 0, "", "intent")
    dmg = m.damage if m.damage_max is None else u.rolled.get(m.id, m.damage)
    if dmg is not None:
        ctx.vals["damage"] = dmg
    ctx.vals["hits"] = m.hits
    if m.block is not None:
        ctx.vals["block"] = m.block
    start_entry(e, node, ctx, inline)


def run_plain_intent(e: Engine, u: Unit, m: MoveDef, plan: PlainIntent) -> bool:
    """Step 3 for a move whose behaviour is plain (``Content.plain_intents``): its actions as
    the combat primitives their executors call for the move's scope (owner ``u``, target the
    player, no card, no status), with the engine steps ``start_entry`` counts for it inline.
    None of them can queue work: a hit on a player holding no ``hit_or_death_statuses`` queues
    no reaction, block on an enemy holding no ``block_gained_statuses`` queues nothing, an
    applied status has no On Apply branch. True when
    done; False, with nothing done, when not sure (the interpreter runs it then: the player
    holds such a status, the step guard stops it part-way, or it reads a slot the move lacks)."""
    s = e.s
    player = s.units[0]
    held = player.statuses
    if held and not e.c.hit_or_death_statuses.isdisjoint(held):
        return False
    mine = u.statuses
    if mine:  # (its own block would queue its on_block_gained branches)
        reacts = e.c.block_gained_statuses
        if reacts and not reacts.isdisjoint(mine):
            return False
    steps_ = plan.steps
    if s.steps + steps_ > e.step_limit:
        return False
    dmg = m.damage if m.damage_max is None else u.rolled.get(m.id, m.damage)
    block = m.block
    if (plan.reads_damage and dmg is None) or (plan.reads_block and block is None):
        return False
    for kind, amount, var, sid in plan.acts:
        if var:
            got = dmg if var == "damage" else block if var == "block" else m.hits
            amount = 0 if got is None else got  # (None only for a slot no action reads)
        if kind == PLAIN_HIT:
            if player.alive:
                deal_damage(e, u, player, attack_damage(e, amount, u, player), None, True)
        elif kind == PLAIN_BLOCK:
            gain_block(e, u, block_amount(e, amount, u))
        else:
            dst = u if kind == PLAIN_STATUS_SELF else player
            if not negated(e, dst, sid, amount):
                apply_status(e, dst, sid, amount, source=u.uid)
    s.steps += steps_
    return True


def _count_enemy_turn(e: Engine) -> None:
    """Step 4 for hooks: an enemy turn counted down on every hook whose scope counts enemy
    turns; those that reach 0 are removed (and the intents re-resolved)."""
    s = e.s
    kept = []
    gone = False
    for h in s.hooks:
        if h.expires_turn is not None and enemy_scoped(h):
            if h.expires_turn <= 1:
                gone = True
                continue
            h = ActiveHook(h.node, h.source, h.expires_turn - 1, h.seq)
        kept.append(h)
    s.hooks = kept
    if gone:
        resolve_intents(e)


ENEMY_PHASE: Final = _EnemyPhase("EnemyPhase", K.ENEMY_PHASE, {
    K.ENEMY_PHASE_TURNS: EnemyTurns(),
    K.ENEMY_PHASE_DELAYED: EnemyPhaseDelayed(),
    K.ENEMY_PHASE_ROUND_END: RoundEnd(),
}, rereads_end=True)

ENEMY_TURN: Final = Procedure("EnemyTurn", K.ENEMY_TURN, {
    K.ENEMY_TURN_START: TurnStartStatuses(),
    K.ENEMY_TURN_CONTROL: Control(),
    K.ENEMY_TURN_INTENT: Intent(),
    K.ENEMY_TURN_END: TurnEndStatuses(),
    K.ENEMY_TURN_DECAY: DecayHooks(),
}, rereads_end=True)

"""How good a battle state is for the player, read from content: what every built-in agent
weighs its options with.

``assess`` answers in HP: the player's HP now, less what the enemies will still take from it,
estimated from what the player may see (shown intents, the enemies' move lists and statuses,
each status's modifiers and how it decays). ``outcome`` maps a state to [0, 1], the value the
search backs up: a win is worth 0.5 + 0.5 x HP left / max HP, a loss at most 0.25.
Nothing here reads the draw order or a random stream.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..battle.folds import attack_damage
from ..battle.state import Ctx, State, Unit
from ..enums import (
    ARMOR_HALVE,
    ARMOR_RESET,
    DECAY_MINUS_ONE,
    DECAY_NONE,
    KW_UNPLAYABLE,
    PHASE_BATTLE_LOST,
)
from ..interp.values import test
from ..rng import Rng

if TYPE_CHECKING:
    from ..content.defs import EnemyDef, MoveDef
    from ..engine import Engine

# The player's damage per turn before any status, and how many attack hits a turn lands (what
# a point of Strength is worth): the starter deck's numbers (three attacks of 6 and a Bash a
# turn, half of them blocked or spent elsewhere, come to about 10-12 a turn).
BASE_DAMAGE: Final = 11.0
HITS_PER_TURN: Final = 2.5
# The share of the enemies' damage in the turns to come that the player takes: it blocks the
# rest (counted whole, killing fast looks better than blocking what is shown: the heuristic
# kept 66 HP against the Blue Slaver and 96% of Act 1 runs; at 0.7, 70 HP and 97%)
FUTURE_TAKEN: Final = 0.7
# What an enemy's block that goes at its turn start counts for against the turns to kill it:
# it soaks this turn's damage only. Counted whole, hitting a Louse looked bad (Curl Up gives it
# more block than the hit takes off: one heuristic battle in 2,000 never ended); not at all, a
# first hit into a Jaw Worm's block looked worthless (500 battles: Jaw Worm 76.4 HP left at
# 0, 77.3 at 0.5, 77.1 at 1; Two Louses 79.5 at 0 and 0.5, 78.2 at 1).
VANISHING_BLOCK: Final = 0.5
# What a living enemy costs a turn, at least, whatever its moves deal: a battle that does
# not end is charged for every turn it lasts, so an enemy that deals nothing now (it blocks
# for the others, buffs, or waits on a rule) is still worth the energy left after blocking.
# Without it (and the AI rules read by ``threat``) the heuristic Defended for 100-200 turns
# against a Shield Gremlin: one Gremlin Gang battle in six. 300 Gremlin Gang battles, all
# won: at 1, 9.7 turns on average (at most 37) and 59.4 HP left; at 2, 8.9 (24) and 60.0; at
# 3, 8.6 (19) and 60.1.
STANDING: Final = 2.0
HAND_CARD: Final = 1.5  # a playable card drawn this turn
DEAD_CARD: Final = -1.0  # an Unplayable card drawn this turn
EXCESS_BLOCK: Final = 0.1  # a point of block beyond what is shown incoming
WIN: Final = 1000.0  # assess() of a won battle, on top of the HP left
MAX_TURNS: Final = 30.0

_MOVE_MIX: dict[int, tuple[EnemyDef, list[tuple[int, float]]]] = {}


def move_mix(d: EnemyDef) -> list[tuple[int, float]]:
    """(index into ``d.moves``, probability) of the moves an enemy makes in the long run: its
    weighted table's weights, else its cycle, else every move alike; a move that names its
    ``next`` brings the chain that follows it (each move of the chain a turn, the walk
    stopped where it comes round: The Guardian's cycle is its first move alone). Cached per
    definition."""
    got = _MOVE_MIX.get(id(d))
    if got is not None and got[0] is d:
        return got[1]
    index = {m.id: i for i, m in enumerate(d.moves)}
    weights: dict[int, float] = {}
    ai = d.ai
    if ai.weighted:
        for w in ai.weighted:
            if w.move in index:
                weights[index[w.move]] = weights.get(index[w.move], 0.0) + float(w.weight)
    elif ai.cycle:
        for mid in ai.cycle:
            if mid in index:
                weights[index[mid]] = weights.get(index[mid], 0.0) + 1.0
    if not weights:
        for i in range(len(d.moves)):
            weights[i] = 1.0
    turns: dict[int, float] = {}
    for i, share in weights.items():
        chain = [i]
        nxt = d.moves[i].next
        while nxt is not None and nxt in index and index[nxt] not in chain:
            chain.append(index[nxt])
            nxt = d.moves[index[nxt]].next
        for j in chain:
            turns[j] = turns.get(j, 0.0) + share
    total = sum(turns.values()) or 1.0
    mix = [(i, n / total) for i, n in sorted(turns.items())]
    if len(_MOVE_MIX) > 4096:
        _MOVE_MIX.clear()
    _MOVE_MIX[id(d)] = (d, mix)
    return mix


def threat(e: Engine, u: Unit) -> float:
    """The damage an enemy deals per turn in the long run, through its and the player's
    modifiers as they are now: its move mix's, or if it deals more, the move of the AI rule
    that holds now (a rule may hold for the rest of the battle: a Shield Gremlin left alone
    bashes every turn though its cycle is all Protect; one that spares the player, as a
    sleep does, is taken to pass)."""
    d = e.c.enemies.get(u.def_id)
    if d is None:
        return 0.0
    player = e.s.units[0]
    total = 0.0
    moves = d.moves
    for i, p in move_mix(d):
        total += p * _hit(e, u, player, moves[i])
    if d.ai.rules:
        ruled = rule_move(e, u, d)
        if ruled is not None:
            total = max(total, _hit(e, u, player, ruled))
    return total


def rule_move(e: Engine, u: Unit, d: EnemyDef) -> MoveDef | None:
    """The move of the first of the enemy's AI rules whose condition holds now (what it plans
    next, unless an HP rule comes first), or None. A condition that reads a random stream
    reads a copy of it: assessing a state changes nothing in it."""
    s = e.s
    stream = s.rng_cards
    s.rng_cards = Rng(stream.state)
    try:
        ctx = Ctx(u.uid, -1, 0, "", "ai")
        for rule in d.ai.rules:
            if test(e, rule.when, ctx):
                for m in d.moves:
                    if m.id == rule.move:
                        return m
                return None
    finally:
        s.rng_cards = stream
    return None


def _hit(e: Engine, u: Unit, player: Unit, m: MoveDef) -> float:
    """The damage ``u``'s move ``m`` deals the player now (all its hits)."""
    base = m.damage if m.damage_max is None else u.rolled.get(m.id, m.damage)
    if base is None:
        return 0.0
    return float(attack_damage(e, base, u, player) * m.hits)


def lasting(e: Engine, u: Unit, stage: str, horizon: float) -> tuple[float, float]:
    """``(add per hit, multiplier)`` of a unit's ``stage`` modifiers averaged over the next
    ``horizon`` turns: a status that loses a stack a turn lasts its stacks, one removed at its
    decay lasts one turn, one that does not decay lasts the whole horizon."""
    add = 0.0
    mul = 1.0
    if not u.statuses:
        return add, mul
    statuses = e.c.statuses
    for sid, n in u.statuses.items():
        st = statuses.get(sid)
        if st is None or not st.modifiers:
            continue
        if st.decay is DECAY_NONE:
            share = 1.0
        elif st.decay is DECAY_MINUS_ONE:
            share = min(1.0, abs(n) / horizon)
        else:
            share = min(1.0, 1.0 / horizon)
        for m in st.modifiers:
            if m.stage != stage:
                continue
            if m.op == "add":
                add += (m.amount * n if m.per_stack else m.amount) * share
            else:
                mul *= 1.0 + (m.num / m.den - 1.0) * share
    return add, mul


def assess(e: Engine) -> float:
    """The state in HP: the player's HP, less the unblocked damage shown now and the share
    ``FUTURE_TAKEN`` of what each enemy deals until it dies (killed quickest first), plus a
    little for the cards drawn this turn.
    A won battle is ``WIN`` + HP; a lost one minus the enemies' HP left."""
    s = e.s
    units = s.units
    if not units:
        return 0.0
    player = units[0]
    if s.phase is PHASE_BATTLE_LOST or player.hp <= 0 or not player.alive:
        return -WIN - _enemy_hp(s)
    alive = [u for u in units[1:] if u.alive]
    if not alive:
        return WIN + player.hp
    incoming = 0
    for u in alive:
        it = u.intent
        if it is not None and it.damage:
            incoming += it.damage * it.hits
    unblocked = incoming - player.block
    value = float(player.hp)
    if unblocked > 0:
        value -= unblocked
    else:
        value -= unblocked * EXCESS_BLOCK  # (a little for block beyond the shown damage)
    # what each enemy deals until it dies, the quickest to kill first (the share the player
    # will not block)
    elapsed = 0.0
    for turns, per_turn in _spans(e, alive):
        elapsed += turns
        value -= FUTURE_TAKEN * per_turn * elapsed
    value += _hand(e)
    return value


def _spans(e: Engine, alive: list[Unit]) -> list[tuple[float, float]]:
    """(turns to kill it, damage it deals per turn) of each living enemy, quickest first: the
    player's damage per turn through both sides' modifiers over the turns they last."""
    add, mul = lasting(e, e.s.units[0], "deal", 4.0)
    spans: list[tuple[float, float]] = []
    for u in alive:
        t_add, t_mul = lasting(e, u, "take", 4.0)
        dpt = (BASE_DAMAGE + (add + t_add) * HITS_PER_TURN) * mul * t_mul
        turns = (u.hp + kept_block(e, u)) / dpt if dpt > 1.0 else MAX_TURNS
        spans.append((min(turns, MAX_TURNS), max(STANDING, threat(e, u))))
    spans.sort()
    return spans


def kept_block(e: Engine, u: Unit) -> float:
    """What an enemy's block counts for against the turns to kill it: the block it keeps past
    its own turn start (``BattleRules.armor_decay`` then, unless a status keeps it) in full,
    the block that goes then (Curl Up's, a move's: it soaks only this turn's damage) at
    ``VANISHING_BLOCK``."""
    b = u.block
    if not b or (u.statuses and not e.c.block_keeping_statuses.isdisjoint(u.statuses)):
        return b
    rule = e.rules.armor_decay
    if rule is ARMOR_RESET:
        return VANISHING_BLOCK * b
    if rule is ARMOR_HALVE:
        return b // 2 + VANISHING_BLOCK * (b - b // 2)
    return b


def turns_left(e: Engine) -> float:
    """About how many turns the battle still has: the turns to kill every living enemy."""
    alive = [u for u in e.s.units[1:] if u.alive]
    total = 0.0
    for turns, _ in _spans(e, alive):
        total += turns
    return total


def _enemy_hp(s: State) -> float:
    total = 0
    for u in s.units[1:]:
        if u.alive and u.hp > 0:
            total += u.hp
    return float(total)


def _hand(e: Engine) -> float:
    """The cards drawn this turn (a draw is worth a playable card; playing a card takes
    nothing off, as it would if the hand itself were counted)."""
    s = e.s
    cards = s.cards
    v = 0.0
    for uid in s.drawn:
        if KW_UNPLAYABLE in cards[uid].active.keywords:
            v += DEAD_CARD
        else:
            v += HAND_CARD
    return v


def outcome(e: Engine, enemy_hp: float) -> float:
    """The state as a value in [0, 1]: a win 0.5 + 0.5 x HP / max HP; a loss at most 0.25 (the
    share of the enemies' HP ``enemy_hp`` taken off since the search began); a battle still
    going, the same from the HP ``assess`` expects it to end with (below 0.5 if none)."""
    s = e.s
    units = s.units
    if not units:
        return 0.0
    player = units[0]
    top = float(max(1, player.max_hp))
    left = _enemy_hp(s)
    progress = 0.0 if enemy_hp <= 0 else max(0.0, min(1.0, 1.0 - left / enemy_hp))
    if s.phase is PHASE_BATTLE_LOST or player.hp <= 0:
        return 0.25 * progress
    if left <= 0:
        return 0.5 + 0.5 * min(1.0, player.hp / top)
    # a battle still going: the HP ``assess`` expects the player to end it with, on the scale
    # of a win (it expects the worst: no block in the turns to come), kept above a loss's 0
    hp = assess(e) - _hand(e)
    return max(0.01, min(1.0, 0.5 + 0.5 * hp / top))


def battle_hp(e: Engine) -> float:
    """The enemies' HP left (what ``outcome`` measures progress against)."""
    return _enemy_hp(e.s)


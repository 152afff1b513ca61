"""Enemies: creation, move selection (HP rules, openers, cycles, weighted random), intents.

An intent is planned (the move is picked, once) and then displayed: its damage goes through
the enemy's and the player's modifiers. Re-resolution recomputes the displayed values of
the planned move; it never picks another move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..content.defs import AiDef, EnemyDef, MoveDef
from ..enums import IntentKind
from .combat import apply_status, attack_damage
from .state import Intent, Unit

if TYPE_CHECKING:
    from ..engine import Engine


def make_enemy(e: Engine, d: EnemyDef, *, spawned: bool = False) -> Unit:
    """A new enemy unit (HP rolled on the AI stream), appended after every existing unit.

    Its starting statuses are set up, not applied by an effect: ``on_apply`` does not run.
    """
    s = e.s
    hp = d.hp_min if d.hp_max <= d.hp_min else s.rng_ai.between(d.hp_min, d.hp_max)
    u = Unit(len(s.units), d.id, d.name, hp, hp)
    s.units.append(u)
    if spawned and e.hot:
        e.emit(ev.UnitSpawned(u.uid, d.id))
    for sid, n in d.statuses.items():
        apply_status(e, u, sid, n, trigger=False)
    for sid, (lo, hi) in d.status_ranges.items():
        apply_status(e, u, sid, s.rng_ai.between(lo, hi), trigger=False)
    return u


def spawn_enemy(e: Engine, d: EnemyDef) -> Unit:
    """Summon an enemy mid-battle: last in encounter order, with its first intent at once."""
    u = make_enemy(e, d, spawned=True)
    plan_intent(e, u)
    return u


def _expected(ai: AiDef, pos: int) -> str | None:
    """The scripted (opener, then cycle) move at position ``pos``; None once it is random."""
    if pos < len(ai.opener):
        return ai.opener[pos]
    if ai.cycle:
        return ai.cycle[(pos - len(ai.opener)) % len(ai.cycle)]
    return None


def script_position(ai: AiDef, history: list[str]) -> int:
    """How many scripted (opener/cycle) moves ``history`` has used; HP-rule picks do not count."""
    pos = 0
    done = len(ai.opener) if not ai.cycle else -1  # an opener-only script ends there
    for m in history:
        if pos == done:
            break
        if m == _expected(ai, pos):
            pos += 1
    return pos


def choose_move(e: Engine, u: Unit, d: EnemyDef) -> str:
    """Pick the next move: HP rules first, then the opener, then the cycle or weighted random.

    An HP rule fires when HP <= ``below_percent`` of max HP (a ``once`` rule only the first
    time) and does not advance the opener or the cycle. Weighted random leaves out a move that
    was already picked ``max_in_row`` times in a row, then draws by weight on the AI stream.
    """
    ai = d.ai
    hist = u.history
    for r in ai.hp_rules:
        if u.hp * 100 <= r.below_percent * u.max_hp and not (r.once and r.move in u.rules_used):
            if r.once:
                u.rules_used.append(r.move)
            return r.move
    scripted = _expected(ai, script_position(ai, hist))
    if scripted is not None:
        return scripted
    options = []
    total = 0
    for w in ai.weighted:
        row = w.max_in_row
        if row and len(hist) >= row and hist[-row:].count(w.move) == row:
            continue
        options.append(w)
        total += w.weight
    if not options:
        options = list(ai.weighted)
        total = sum(w.weight for w in options)
    if not options:
        return d.moves[0].id
    k = e.s.rng_ai.below(total) if total > 0 else 0
    for w in options:
        if k < w.weight:
            return w.move
        k -= w.weight
    return options[-1].move


def skips_turn(e: Engine, u: Unit) -> bool:
    """Does a control status (``skip_turn``) make this unit skip its next turn?"""
    if not u.statuses:
        return False
    statuses = e.c.statuses
    return any(statuses[sid].skip_turn for sid in u.statuses)


def display(e: Engine, u: Unit, m: MoveDef) -> Intent:
    """The intent as shown now: damage per hit through the enemy's and the player's modifiers;
    a STUN intent (no damage, the planned move kept) while a control status makes it skip."""
    if skips_turn(e, u):
        return Intent(m.id, m.name, IntentKind.STUN, None, 0, None)
    dmg = None
    if m.damage is not None:
        dmg = attack_damage(e, m.damage, u, e.s.units[0])
    return Intent(m.id, m.name, m.intent, dmg, m.hits, m.block)


def plan_intent(e: Engine, u: Unit) -> None:
    """Plan a living enemy's next move (recorded in its history) and publish its intent."""
    if not u.alive:
        return
    d = e.c.enemies[u.def_id]
    move_id = choose_move(e, u, d)
    u.move = move_id
    u.history.append(move_id)
    u.intent = display(e, u, e.c.moves[d.id, move_id])
    if e.hot:
        it = u.intent
        e.emit(ev.EnemyUnitIntentChanged(u.uid, it.move, it.damage, it.hits))


def resolve_intents(e: Engine) -> None:
    """Re-resolve the displayed intent of every living enemy; publish only what changed."""
    s = e.s
    units = s.units
    if len(units) < 2:
        return
    moves = e.c.moves
    player = units[0]
    stunned = IntentKind.STUN
    for u in units[1:]:
        it = u.intent
        if it is None or not u.alive:
            continue
        m = moves[u.def_id, u.move]
        if it.kind is stunned or skips_turn(e, u):
            new = display(e, u, m)  # a control status came or went: the whole intent changes
            if new == it:
                continue
            u.intent = new
        else:
            if it.damage is None or m.damage is None:
                continue
            dmg = attack_damage(e, m.damage, u, player)
            if dmg == it.damage:
                continue
            u.intent = new = Intent(it.move, it.name, it.kind, dmg, it.hits, it.block)
        if e.hot:
            e.emit(ev.EnemyUnitIntentChanged(u.uid, new.move, new.damage, new.hits))

"""Enemies: creation, move selection (openers, HP rules, cycles, weighted random), intents."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..content.defs import EnemyDef, MoveDef
from .combat import apply_status, attack_damage
from .state import Intent, Unit

if TYPE_CHECKING:
    from ..engine import Engine


def make_enemy(e: Engine, d: EnemyDef) -> Unit:
    """A new enemy unit (HP rolled on the AI stream), appended in encounter order."""
    s = e.s
    hp = d.hp_min if d.hp_max <= d.hp_min else s.rng_ai.between(d.hp_min, d.hp_max)
    u = Unit(len(s.units), d.id, d.name, hp, hp)
    s.units.append(u)
    for sid, n in d.statuses.items():
        apply_status(e, u, sid, n)
    for sid, (lo, hi) in d.status_ranges.items():
        apply_status(e, u, sid, s.rng_ai.between(lo, hi))
    return u


def spawn_enemy(e: Engine, d: EnemyDef) -> Unit:
    """Summon an enemy mid-battle; it gets its first intent at once."""
    u = make_enemy(e, d)
    if e.hot:
        e.emit(ev.UnitSpawned(u.uid, d.id))
    plan_intent(e, u)
    return u


def choose_move(e: Engine, u: Unit, d: EnemyDef) -> str:
    """Pick the next move: HP rules, then openers, then the cycle or weighted random."""
    ai = d.ai
    hist = u.history
    for r in ai.hp_rules:
        if u.hp * 100 <= r.below_percent * u.max_hp and not (r.once and r.move in u.rules_used):
            if r.once:
                u.rules_used.append(r.move)
            return r.move
    n = len(hist)
    if n < len(ai.opener):
        return ai.opener[n]
    if ai.cycle:
        return ai.cycle[(n - len(ai.opener)) % len(ai.cycle)]
    options = []
    for w in ai.weighted:
        k = w.max_in_row
        if k and len(hist) >= k and all(m == w.move for m in hist[-k:]):
            continue
        options.append(w)
    if not options:
        options = list(ai.weighted)
    if not options:
        return d.moves[0].id
    total = sum(w.weight for w in options)
    k = e.s.rng_ai.below(total) if total > 0 else 0
    for w in options:
        if k < w.weight:
            return w.move
        k -= w.weight
    return options[-1].move


def display(e: Engine, u: Unit, m: MoveDef) -> Intent:
    """The intent as shown now: damage through the enemy's and the player's modifiers."""
    dmg = None
    if m.damage is not None:
        dmg = attack_damage(e, m.damage, u, e.s.units[0])
    return Intent(m.id, m.name, m.intent, dmg, m.hits, m.block)


def plan_intent(e: Engine, u: Unit) -> None:
    """Plan a living enemy's next move and publish its intent."""
    if not u.alive:
        return
    d = e.c.enemies[u.def_id]
    move_id = choose_move(e, u, d)
    u.move = move_id
    u.history.append(move_id)
    u.intent = display(e, u, d.move(move_id))
    if e.hot:
        it = u.intent
        e.emit(ev.EnemyUnitIntentChanged(u.uid, it.move, it.damage, it.hits))


def resolve_intents(e: Engine) -> None:
    """Re-resolve the displayed intent of every living enemy; publish only what changed."""
    s = e.s
    units = s.units
    if len(units) < 2:
        return
    enemies = e.c.enemies
    for u in units[1:]:
        it = u.intent
        if it is None or not u.alive or it.damage is None:
            continue
        m = enemies[u.def_id].move(u.move)
        if m.damage is None:
            continue
        dmg = attack_damage(e, m.damage, u, units[0])
        if dmg != it.damage:
            u.intent = Intent(it.move, it.name, it.kind, dmg, it.hits, it.block)
            if e.hot:
                e.emit(ev.EnemyUnitIntentChanged(u.uid, it.move, dmg, it.hits))

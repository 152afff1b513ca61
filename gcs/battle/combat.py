"""Units in combat: the damage and block folds, HP, block, statuses and death."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.defs import EnemyDef, StatusDef
from ..content.roles import KEEPS_BLOCK
from ..enums import (
    ARMOR_HALVE,
    ARMOR_RESET,
    DECAY_MINUS_ONE,
    DECAY_NONE,
    DECAY_REMOVE,
    PHASE_ENEMY_PHASE,
)
from ..events import (
    BlockChanged,
    BlockGained,
    DamageDealt,
    DebuffNegated,
    Healed,
    HpLost,
    MaxHpGained,
    StatusApplied,
    StatusRemoved,
    UnitDied,
    UnitRevived,
    UnitSpawned,
)
from ..flow.nodes import Node
from . import frames as K
from .cards import push_entries
from .credit import NONE, Credit, credit_loss, move_label, restack
from .intents import hp_lost, plan_intent, resolve_intents
from .roles import forget_roles, roles_of
from .state import Ctx, State, Unit

if TYPE_CHECKING:
    from ..engine import Engine


# ---------------------------------------------------------------- status entries
def status_entries(e: Engine, u: Unit, entry: str, target: int = -1,
                   amount: int | None = None, attack: int = -1) -> list[tuple[Node, Ctx]]:
    """The ``entry`` branches of a unit's statuses, in snapshot (application) order; ``amount``
    and (``on_damage_taken``: 1 for an attack's damage, else 0) ``attack`` fill their slots."""
    out: list[tuple[Node, Ctx]] = []
    having = e.c.entry_statuses.get(entry)
    if not having or not u.statuses or having.isdisjoint(u.statuses):
        return out
    statuses = e.c.statuses
    for sid in list(u.statuses):
        node = statuses[sid].entries.get(entry)
        if node is not None:
            ctx = Ctx(u.uid, -1, target, sid, entry)
            if amount is not None:
                ctx.vals["amount"] = amount
            if attack >= 0:
                ctx.vals["attack"] = attack
            out.append((node, ctx))
    return out


def run_status_entries(e: Engine, u: Unit, entry: str, target: int = -1,
                       amount: int | None = None) -> None:
    """Queue a unit's ``entry`` branches (snapshot order) as one batch."""
    having = e.c.entry_statuses.get(entry)
    if not having or having.isdisjoint(u.statuses):
        return
    entries = status_entries(e, u, entry, target, amount)
    if entries:
        push_entries(e, entries)


# ---------------------------------------------------------------- HP and block
def deal_damage(e: Engine, src: Unit | None, dst: Unit, amount: int, card_id: str | None,
                attack: bool, credit: Credit | None = None) -> None:
    """Damage after folds: block absorbs first, then HP; reactive statuses run afterwards.

    ``DamageDealt.hp_lost`` and the ``on_damage_taken`` amount are the HP actually lost
    (overkill is not counted). ``on_attacked`` runs for an attack even when fully blocked.
    Then, in this order: ``on_attacked``, ``on_damage_taken``, ``on_death`` branches.
    The HP an enemy lost is counted in the battle's damage by ``credit`` (gcs/battle/credit.py;
    None: all to ``card_id``, or to "(none)" without a card).
    """
    if not dst.alive:
        return
    blocked = dst.block if dst.block < amount else amount
    if blocked:
        dst.block -= blocked
    loss = amount - blocked
    if loss:
        before = dst.hp
        dst.hp = before - loss if before > loss else 0
        loss = before - dst.hp
        dst.hp_losses += 1
        if dst.uid != 0:
            if credit is None:  # (all to the card: the usual hit, inline)
                dmg = e.s.damage
                key = NONE if card_id is None else card_id
                dmg[key] = dmg.get(key, 0) + loss
            else:
                credit_loss(e.s.damage, credit, loss, amount)
    if e.hot:
        e.record(DamageDealt(None if src is None else src.uid, dst.uid, amount, blocked, loss,
                  card_id))
    if loss and dst.uid != 0 and dst.hp > 0 and dst.def_id in e.c.hp_rule_enemies:
        _hp_rules_now(e, dst)  # (only an enemy with HP rules: no call for the others)
    statuses = dst.statuses
    if statuses and not e.c.hit_statuses.isdisjoint(statuses):
        # a status with an on_attacked or on_damage_taken branch: they run, then on_death
        entries = []
        if attack and src is not None:
            entries += status_entries(e, dst, "on_attacked", src.uid, amount)
        if loss:
            entries += status_entries(e, dst, "on_damage_taken",
                                      -1 if src is None else src.uid, loss, 1 if attack else 0)
        if dst.hp <= 0:
            entries += die(e, dst)
        if entries:
            push_entries(e, entries)
    elif dst.hp <= 0:
        # no status reacts to the hit (both ``status_entries`` above would be empty): only
        # the on_death branches, if any
        entries = die(e, dst)
        if entries:
            push_entries(e, entries)


def lose_hp(e: Engine, u: Unit, amount: int, src: int = -1, credit: Credit = NONE) -> None:
    """HP loss that ignores block; ``src`` is the unit whose behaviour caused it (-1: none),
    the ``target`` of the ``on_damage_taken`` branches, as an attacker is for damage. The HP an
    enemy lost is counted in the battle's damage by ``credit``, as ``deal_damage`` does."""
    if not u.alive or amount <= 0:
        return
    before = u.hp
    u.hp = max(0, u.hp - amount)
    if u.hp < before:
        u.hp_losses += 1
        if u.uid != 0:
            credit_loss(e.s.damage, credit, before - u.hp, before - u.hp)
    if e.hot:
        e.record(HpLost(u.uid, before - u.hp))
    if u.uid != 0 and u.hp > 0:
        _hp_rules_now(e, u)
    entries = status_entries(e, u, "on_damage_taken", src, before - u.hp, 0)
    if u.hp <= 0:
        entries += die(e, u)
    if entries:
        push_entries(e, entries)


def _hp_rules_now(e: Engine, u: Unit) -> None:
    """An enemy lost HP: let an ``at_once`` HP rule of its AI re-plan its move now."""
    if e.c.enemies[u.def_id].ai.hp_rules:
        hp_lost(e, u)


def heal(e: Engine, u: Unit, amount: int) -> None:
    """Restore HP up to max HP (a dead unit is not healed)."""
    if not u.alive or amount <= 0:
        return
    before = u.hp
    u.hp = min(u.max_hp, u.hp + amount)
    if e.hot and u.hp != before:
        e.record(Healed(u.uid, u.hp - before))


def gain_max_hp(e: Engine, u: Unit, amount: int) -> None:
    """Raise a living unit's Max HP, and its HP by as much (the player's run Max HP follows at
    the battle's end)."""
    if not u.alive or amount <= 0:
        return
    u.max_hp += amount
    u.hp += amount
    if e.hot:
        e.record(MaxHpGained(u.uid, amount, u.max_hp))


def gain_block(e: Engine, u: Unit, amount: int) -> None:
    """Add block that was already folded (see ``folds.block_amount``); then the holder's
    ``on_block_gained`` branches, with the block gained in ``$amount``."""
    if not u.alive or amount <= 0:
        return
    u.block += amount
    if e.hot:
        e.record(BlockGained(u.uid, amount, u.block))
    statuses = u.statuses
    if statuses:
        having = e.c.block_gained_statuses
        if having and not having.isdisjoint(statuses):
            push_entries(e, status_entries(e, u, "on_block_gained", -1, amount))


def armor_decay(e: Engine, u: Unit) -> None:
    """The unit's block by ``BattleRules.armor_decay``, unless a status keeps it."""
    if not u.block:
        return  # no block: every rule leaves it at 0 (and publishes nothing)
    if u.statuses and roles_of(e, u) & KEEPS_BLOCK:
        return
    rule = e.rules.armor_decay
    if rule is ARMOR_RESET:
        set_block(e, u, 0)
    elif rule is ARMOR_HALVE:
        set_block(e, u, u.block // 2)


def set_block(e: Engine, u: Unit, value: int) -> None:
    """Set block directly (armor decay); publishes BlockChanged if it changed."""
    if u.block != value:
        old = u.block
        u.block = value
        if e.hot:
            e.record(BlockChanged(u.uid, old, value))


def die(e: Engine, u: Unit) -> list[tuple[Node, Ctx]]:
    """Mark a unit dead; returns its statuses' on_death entries (stacks frozen) to run.

    An enemy loses its statuses and intent. The player keeps its statuses, so that its
    battle-end branches still run after a defeat and a revive (Death -> Wait -> Revive)
    finds them again.
    """
    entries = status_entries(e, u, "on_death")
    for _, ctx in entries:
        ctx.vals["stacks"] = u.statuses.get(ctx.status, 0)
    u.alive = False
    u.hp = 0
    u.block = 0
    if u.uid != 0:
        u.statuses.clear()
        u.sources.clear()
        forget_roles(e)
    u.intent = None
    if e.hot:
        e.record(UnitDied(u.uid))
    return entries


def revive(e: Engine, u: Unit, hp: int) -> None:
    """Bring a dead unit back with ``hp`` (at least 1); a revived enemy plans a new intent."""
    if u.alive:
        return
    u.alive = True
    u.hp = max(1, min(hp, u.max_hp))
    if e.hot:
        e.record(UnitRevived(u.uid, u.hp))
    if u.uid != 0:
        plan_intent(e, u)


# ---------------------------------------------------------------- statuses
def apply_status(e: Engine, u: Unit, sid: str, delta: int, *, trigger: bool = True,
                 source: int = -1, credit: Credit | None = None) -> None:
    """Add ``delta`` stacks (may be negative), clamped to +-``max_stacks``.

    A status that reaches 0 (or goes below 0 without ``allow_negative``) is removed. When the
    stacks grow away from 0 and ``trigger`` is set, the status's ``on_apply`` branch runs with
    ``amount`` = the stacks added. Every change re-resolves the enemies' displayed intents.
    ``source`` is the unit whose behaviour applies it: a round-end status that an enemy newly
    applies during the EnemyPhase (the unit had none) is "just applied" and skips this
    round's decay; stacks added to a status the unit already has do not reset its decay.
    ``credit`` is who applies the stacks (gcs/battle/credit.py ``restack``; None: an enemy
    ``source``'s current move, else no one).
    """
    if not u.alive or delta == 0:
        return
    sd: StatusDef = e.c.statuses[sid]
    old = u.statuses.get(sid, 0)
    new = old + delta
    cap = sd.max_stacks
    if new > cap:
        new = cap
    elif new < -cap:
        new = -cap
    if new == 0 or (new < 0 and not sd.allow_negative):
        if not old:
            return
        del u.statuses[sid]
        srcs = u.sources
        if sid in srcs:
            del srcs[sid]
        forget_roles(e)
        if e.hot:
            e.record(StatusApplied(u.uid, sid, -old, 0))
            e.record(StatusRemoved(u.uid, sid))
    else:
        if new == old:
            return
        u.statuses[sid] = new
        if credit is None and source > 0:
            credit = move_label(e.s.units[source])
        restack(u, sid, old, new, credit)
        if not old:
            forget_roles(e)
        if e.hot:
            e.record(StatusApplied(u.uid, sid, new - old, new))
        if source > 0 and old == 0 and sd.decay_at == "round_end" and (
                e.s.phase is PHASE_ENEMY_PHASE):
            K.just_applied(e.s.stack, u.uid, sid)
        if trigger and abs(new) > abs(old):
            node = sd.entries.get("on_apply")
            if node is not None:
                ctx = Ctx(u.uid, -1, -1, sid, "on_apply")
                ctx.vals["amount"] = new - old
                push_entries(e, [(node, ctx)])
    resolve_intents(e)


def negated(e: Engine, u: Unit, sid: str, delta: int) -> bool:
    """An ``apply`` of ``delta`` stacks of ``sid`` to ``u``: if it is a debuff (a ``debuff``
    status added, or an ``allow_negative`` one taken below what it was, as -1 Strength) and
    ``u`` holds a status that ``negates_debuffs``, that status loses a stack (the first such
    in application order), ``DebuffNegated`` is published and True says: apply nothing."""
    held = u.statuses
    negating = e.c.negating_statuses
    if not held or not negating or negating.isdisjoint(held) or not u.alive or delta == 0:
        return False
    sd = e.c.statuses[sid]
    if not ((sd.debuff and delta > 0) or (sd.allow_negative and delta < 0)):
        return False
    by = next(k for k in held if k in negating)
    if e.hot:
        e.record(DebuffNegated(u.uid, sid, by))
    apply_status(e, u, by, -1 if held[by] > 0 else 1)
    return True


def remove_status(e: Engine, u: Unit, sid: str, amount: int | None = None) -> None:
    """Remove ``amount`` stacks (towards 0), or the whole status when ``amount`` is None."""
    have = u.statuses.get(sid, 0)
    if not have:
        return
    if amount is None:
        apply_status(e, u, sid, -have)
    else:
        apply_status(e, u, sid, -min(amount, have) if have > 0 else min(amount, -have))


def decay_statuses(e: Engine, u: Unit, moment: str = "turn_end",
                   skip: list[list[object]] | None = None) -> None:
    """Decay of the holder's statuses whose decay moment is ``moment``, in snapshot order.

    ``DECAY_MINUS_ONE`` moves the stacks one step towards 0, ``DECAY_REMOVE`` removes the
    status, ``DECAY_NONE`` keeps it. ``skip`` lists ``[unit, status]`` pairs just applied
    this round (they decay from the next round on).
    """
    if not u.statuses:
        return
    having = e.c.decaying_statuses.get(moment)
    if not having or having.isdisjoint(u.statuses):
        return  # none of its statuses decays at this moment
    statuses = e.c.statuses
    for sid in list(u.statuses):
        sd = statuses[sid]
        d = sd.decay
        if d is DECAY_NONE or sd.decay_at != moment or (skip and [u.uid, sid] in skip):
            continue
        if d is DECAY_MINUS_ONE:
            n = u.statuses.get(sid, 0)
            apply_status(e, u, sid, -1 if n > 0 else 1)
        elif d is DECAY_REMOVE:
            remove_status(e, u, sid)


# ---------------------------------------------------------------- enemies
def random_enemy(s: State) -> int:
    """A living enemy drawn from the card stream (a random-enemy target or hit), or -1."""
    alive = [u.uid for u in s.units[1:] if u.alive]
    return alive[s.rng_cards.below(len(alive))] if alive else -1


def make_enemy(e: Engine, d: EnemyDef, *, spawned: bool = False, hp: int | None = None) -> Unit:
    """A new enemy unit (HP rolled on the AI stream, unless ``hp`` is given: then it is both
    its max and current HP), appended after every existing unit.

    Its starting statuses are set up, not applied by an effect: ``on_apply`` does not run.
    Then the damage of each move with a ``[lo, hi]`` damage is rolled (AI stream, move order).
    """
    s = e.s
    if hp is None:
        hp = d.hp_min if d.hp_max <= d.hp_min else s.rng_ai.between(d.hp_min, d.hp_max)
    u = Unit(len(s.units), d.id, d.name, hp, hp)
    s.units.append(u)
    if spawned and e.hot:
        e.record(UnitSpawned(u.uid, d.id))
    for sid, n in d.statuses.items():
        apply_status(e, u, sid, n, trigger=False)
    for sid, (lo, hi) in d.status_ranges.items():
        apply_status(e, u, sid, s.rng_ai.between(lo, hi), trigger=False)
    for m in d.moves:
        if m.damage_max is not None and m.damage is not None and m.damage_value is None:
            u.rolled[m.id] = s.rng_ai.between(m.damage, m.damage_max)
    return u


def spawn_enemy(e: Engine, d: EnemyDef, *, hp: int | None = None) -> Unit:
    """Summon an enemy mid-battle: last in encounter order, with its first intent at once."""
    u = make_enemy(e, d, spawned=True, hp=hp)
    plan_intent(e, u)
    return u

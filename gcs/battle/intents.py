"""Enemies: creation, move selection (HP rules, openers, cycles, weighted random), intents.

An intent is planned (the move is picked, once) and then displayed: its damage goes through
the enemy's and the player's modifiers (``display``, in combat.py with the folds it reads).
Re-resolution recomputes the displayed values of the planned move; it never picks another
move. The one exception is an ``at_once`` HP rule, which replaces the planned move the moment
the enemy's HP reaches its threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..content.db import PlainDraw, PlainTable
from ..content.defs import AiDef, EnemyDef, MoveDef, WeightedMove
from ..enums import INTENT_STUN, PHASE_ENEMY_PHASE
from ..events import EnemyUnitIntentChanged
from ..flow.exprs import Cond, Value
from . import frames as K
from .folds import attack_damage
from .state import Ctx, Intent, Unit, new_intent

if TYPE_CHECKING:
    from ..engine import Engine

# The interpreter's condition test (``interp.values.test``), for an AI's ``rules``: set by
# gcs/engine.py, as it registers every handler (this layer does not import the interpreter).
COND_TEST: list[Callable[[Engine, Cond, Ctx], bool]] = []
# ... and its value reader (``interp.values.val``), for a move's damage read at planning
VALUE_OF: list[Callable[[Engine, Value, Ctx], int]] = []


# ---------------------------------------------------------------- intents as shown
# (a status change re-resolves them: ``combat.apply_status``)
def move_damage(u: Unit, m: MoveDef) -> int | None:
    """The move's base damage for this unit: its own roll for a ``[lo, hi]`` damage."""
    if m.damage_max is None:
        return m.damage
    return u.rolled.get(m.id, m.damage)


def skips_turn(e: Engine, u: Unit) -> bool:
    """Does a control status (``skip_turn``) make this unit skip its next turn?"""
    # (this runs for every enemy turn and intent: one set test on the content's control ids)
    return bool(u.statuses) and not e.c.skip_statuses.isdisjoint(u.statuses)


def display(e: Engine, u: Unit, m: MoveDef) -> Intent:
    """The intent as shown now: damage per hit through the enemy's and the player's modifiers;
    a STUN intent (no damage, the planned move kept) while a control status makes it skip."""
    statuses = u.statuses
    c = e.c
    # (every plan and re-resolution runs this: ``skips_turn``, ``move_damage`` and
    # ``new_intent`` inlined, and no ``attack_damage`` call when it would fold nothing)
    if statuses and not c.skip_statuses.isdisjoint(statuses):
        return tuple.__new__(Intent, (m.id, m.name, INTENT_STUN, None, 0, None))
    dmg = None
    base = m.damage if m.damage_max is None else u.rolled.get(m.id, m.damage)
    if base is not None:
        player = e.s.units[0]
        held = player.statuses
        if ((statuses and not c.deal_statuses.isdisjoint(statuses))
                or (held and not c.take_statuses.isdisjoint(held))):
            dmg = attack_damage(e, base, u, player)
        else:
            # neither side has a modifier at its stage (``attack_damage`` would fold nothing):
            # the base, floored at 0
            dmg = base if base > 0 else 0
    return tuple.__new__(Intent, (m.id, m.name, m.intent, dmg, m.hits, m.block))


def resolve_intents(e: Engine) -> None:
    """Re-resolve the displayed intent of every living enemy; publish only what changed."""
    s = e.s
    units = s.units
    if len(units) < 2:
        return
    moves = e.c.moves
    player = units[0]
    stunned = INTENT_STUN
    skip = e.c.skip_statuses
    for i in range(1, len(units)):  # (an index loop: no copy of the list per status change)
        u = units[i]
        it = u.intent
        if it is None or not u.alive:
            continue
        m = moves[u.def_id, u.move]
        statuses = u.statuses
        # (``skips_turn``, inlined: this runs for every enemy at every status change)
        if it.kind is stunned or (statuses and not skip.isdisjoint(statuses)):
            new = display(e, u, m)  # a control status came or went: the whole intent changes
            if new == it:
                continue
            u.intent = new
        else:
            base = move_damage(u, m)
            if it.damage is None or base is None:
                continue
            dmg = attack_damage(e, base, u, player)
            if dmg == it.damage:
                continue
            u.intent = new = new_intent(it.move, it.name, it.kind, dmg, it.hits, it.block)
        if e.hot:
            e.record(EnemyUnitIntentChanged(u.uid, new.move, new.damage, new.hits))


# ---------------------------------------------------------------- planning
def _expected(ai: AiDef, pos: int) -> str | None:
    """The scripted (opener, then cycle) move at position ``pos``; None once it is random."""
    if pos < len(ai.opener):
        return ai.opener[pos]
    if ai.cycle:
        return ai.cycle[(pos - len(ai.opener)) % len(ai.cycle)]
    return None


def script_position(ai: AiDef, history: list[str]) -> int:
    """How many scripted (opener/cycle) moves ``history`` has used; HP-rule picks do not count."""
    opener = ai.opener
    cycle = ai.cycle
    n_open = len(opener)
    n_cycle = len(cycle)
    pos = 0
    done = n_open if not n_cycle else -1  # an opener-only script ends there
    for m in history:
        if pos == done:
            break
        # ``_expected(ai, pos)``, inlined (this runs at every plan of a scripted enemy)
        if m == (opener[pos] if pos < n_open else cycle[(pos - n_open) % n_cycle]):
            pos += 1
    return pos


def _eligible(w: WeightedMove, hist: list[str]) -> bool:
    """``once`` / ``after`` / ``before`` conditions on the moves planned so far."""
    if w.once and w.move in hist:
        return False
    if w.after is not None and w.after not in hist:
        return False
    return w.before is None or w.before not in hist


def _blocked(w: WeightedMove, hist: list[str]) -> bool:
    """The move was planned ``max_in_row`` times in a row just now."""
    row = w.max_in_row
    n = len(hist)
    if not row or n < row:
        return False
    move = w.move
    # the last ``row`` entries, read in place (a loop: no slice, no generator)
    for i in range(n - row, n):  # noqa: SIM110
        if hist[i] != move:
            return False
    return True


def _plain_pick(e: Engine, table: PlainTable, hist: list[str]) -> str | None:
    """``_weighted_pick`` for a plain table (``Content.plain_tables``), with the same AI-stream
    calls; None when every entry is blocked (the general draw takes them all then). The
    entries are those not blocked by their repeat limit, and only the entry of the last
    planned move can be: the table lists a move once."""
    draws = table.draws
    draw = draws[-1]  # the whole table
    n = len(hist)
    if n:
        last = hist[-1]
        got = table.limits.get(last)
        if got is not None:
            row, index = got
            if n >= row:
                # ``_blocked``, inlined: the last ``row`` entries, read in place
                i = n - row
                while i < n and hist[i] == last:
                    i += 1
                if i == n:
                    fb = table.fallbacks.get(last)
                    if fb is not None:  # blocked, it stays in the draw: drawn, it re-picks
                        move = _plain_draw(e, draw)
                        if move != last:
                            return move
                        return fb[1][0][1] if len(fb[1]) == 1 else _plain_draw(e, fb)
                    if len(draws) == 2:
                        return None  # a one-entry table, blocked
                    draw = draws[index]  # the draw of the other entries
    return _plain_draw(e, draw)


def _plain_draw(e: Engine, draw: PlainDraw) -> str:
    """The draw of ``_weighted_pick`` over a precomputed table: the first row whose cumulative
    weight exceeds ``k``; the last one takes what is left."""
    total, rows = draw
    k = e.s.rng_ai.below(total) if total > 0 else 0
    for cum, move in rows:
        if k < cum:
            return move
    return rows[-1][1]


def _weighted_pick(e: Engine, ai: AiDef, hist: list[str]) -> str | None:
    """The weighted table's pick (see ``choose_move``); None when the table is empty."""
    plain = True
    for w in ai.weighted:
        if w.fallback or w.once or w.after is not None or w.before is not None:
            plain = False
            break
    if plain:  # the historical draw: no fallbacks, no conditions (the same AI-stream calls)
        options = [w for w in ai.weighted if not _blocked(w, hist)]
    else:
        eligible = [w for w in ai.weighted if _eligible(w, hist)]
        options = [w for w in eligible if w.fallback or not _blocked(w, hist)] or eligible
    if not options:
        options = list(ai.weighted)
    if not options:
        return None
    total = 0
    for w in options:
        total += w.weight
    rng = e.s.rng_ai
    k = rng.below(total) if total > 0 else 0
    pick = options[-1]
    for w in options:
        if k < w.weight:
            pick = w
            break
        k -= w.weight
    if not pick.fallback or not _blocked(pick, hist):
        return pick.move
    fb = pick.fallback
    if len(fb) == 1:
        return fb[0][0]
    total = 0
    for _, wt in fb:
        total += wt
    k = rng.below(total) if total > 0 else 0
    for mid, wt in fb:
        if k < wt:
            return mid
        k -= wt
    return fb[-1][0]


def choose_move(e: Engine, u: Unit, d: EnemyDef) -> str:
    """Pick the next move: HP rules first, then the AI's ``rules``, then the last move's
    ``next``, then the opener, then the cycle or weighted random.

    An HP rule fires when HP <= ``below_percent`` of max HP (a ``once`` rule only the first
    time) and does not advance the opener or the cycle; nor does a rule (the first whose
    condition holds, ``self`` the enemy and ``target`` the player) or a ``next``. Weighted
    random: the entries whose ``once``/``after``/``before`` conditions hold take part; an
    entry planned ``max_in_row`` times in a row is left out unless it has a ``fallback``; one
    entry is drawn by weight on the AI stream, and a drawn entry that is blocked by its repeat
    limit plans a move drawn from its ``fallback`` table instead (a second draw).
    """
    ai = d.ai
    hist = u.history
    for r in ai.hp_rules:
        if u.hp * 100 <= r.below_percent * u.max_hp and not (r.once and r.move in u.rules_used):
            if r.once:
                u.rules_used.append(r.move)
            return r.move
    if ai.rules:
        ctx = Ctx(u.uid, -1, 0, "", "ai")
        test = COND_TEST[0]
        for rule in ai.rules:
            if test(e, rule.when, ctx):
                return rule.move
    if hist and e.c.next_moves:
        got = e.c.next_moves.get((d.id, hist[-1]))
        if got is not None:
            return got
    opener = ai.opener
    cycle = ai.cycle
    if opener or cycle:  # (with neither, ``_expected`` is None at every position)
        pos = script_position(ai, hist)
        # ``_expected(ai, pos)``, inlined (every plan of a scripted enemy reads it)
        if pos < len(opener):
            return opener[pos]
        if cycle:
            return cycle[(pos - len(opener)) % len(cycle)]
    table = e.c.plain_tables.get(d.id)
    picked = None if table is None else _plain_pick(e, table, hist)
    if picked is None:
        picked = _weighted_pick(e, ai, hist)
    return d.moves[0].id if picked is None else picked


def hp_lost(e: Engine, u: Unit) -> None:
    """After an enemy lost HP: an ``at_once`` HP rule whose threshold is now reached replaces
    the planned move at once (the intent is re-resolved and ``EnemyUnitIntentChanged`` is
    published). A unit with no planned move yet picks the rule at its planning. If its turn
    in this EnemyPhase already began, the move it made stays in its history and the new one
    is kept through the end of the phase (not re-planned), so it runs on its next turn."""
    if not u.alive or not u.move:
        return
    d = e.c.enemies[u.def_id]
    for r in d.ai.hp_rules:
        if not r.at_once or u.hp * 100 > r.below_percent * u.max_hp:
            continue
        if r.once and r.move in u.rules_used:
            continue
        if u.move == r.move:
            return
        if r.once:
            u.rules_used.append(r.move)
        set_move(e, u, r.move)
        return


def set_move(e: Engine, u: Unit, move: str) -> None:
    """Replace a living enemy's planned move with ``move`` at once: the intent is re-resolved
    and ``EnemyUnitIntentChanged`` published. If its turn in this EnemyPhase already began, the
    move it made stays in its history and the new one is kept through the end of the phase
    (not re-planned), so it runs on its next turn. A unit without that move (the player, or an
    enemy that has none of that id) is left as it is."""
    if not u.alive or u.uid == 0:
        return
    m = e.c.moves.get((u.def_id, move))
    if m is None:
        return
    made = False  # has the planned move already been made (its turn began this phase)?
    if e.s.phase is PHASE_ENEMY_PHASE:
        stack = e.s.stack
        made = K.turn_began(stack, u.uid)
        if made:
            K.keep_intent(stack, u.uid)  # (the new move is for its next turn)
    u.move = move
    if u.history and not made:
        u.history[-1] = move  # the replaced move was never made
    else:
        u.history.append(move)
    if m.damage_value is not None:
        read_damage(e, u, m, m.damage_value)
    u.intent = it = display(e, u, m)
    if e.hot:
        e.record(EnemyUnitIntentChanged(u.uid, it.move, it.damage, it.hits))


def read_damage(e: Engine, u: Unit, m: MoveDef, v: Value) -> None:
    """A move whose damage is a value: read it now (``self`` the enemy, ``target`` the
    player), floored at 0, and keep it on the unit as a rolled damage is kept."""
    got = VALUE_OF[0](e, v, Ctx(u.uid, -1, 0, "", "ai"))
    u.rolled[m.id] = got if got > 0 else 0


def plan_intent(e: Engine, u: Unit) -> None:
    """Plan a living enemy's next move (recorded in its history) and publish its intent."""
    if not u.alive:
        return
    c = e.c
    d = c.enemies[u.def_id]
    move_id = choose_move(e, u, d)
    u.move = move_id
    u.history.append(move_id)
    m = c.moves[d.id, move_id]
    if m.damage_value is not None:
        read_damage(e, u, m, m.damage_value)
    u.intent = it = display(e, u, m)
    if e.hot:
        e.record(EnemyUnitIntentChanged(u.uid, it.move, it.damage, it.hits))

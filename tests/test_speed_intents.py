"""The enemy-AI shortcuts pick and show what the general code does.

A plain weighted table (``Content.plain_weight_totals``, re-pick fallbacks included) is drawn
by ``_plain_pick`` with the precomputed total weight; an intent's damage is shown without a
fold call when neither side has a modifier status. Each is compared with the general code on
seeded random cases: the same move, the same AI-stream state after it, the same displayed
damage.
"""

from __future__ import annotations

import random

from test_units_support import encounter, enemy, game, idle, pack, status

from gcs.battle import intents
from gcs.battle.folds import attack_damage
from gcs.battle.intents import display
from gcs.content.defs import AiDef, Modifier, WeightedMove

MOVES = ("a", "b", "c", "d")


def _fallback(rng: random.Random) -> tuple[tuple[str, int], ...]:
    """None, one move, or a re-pick table of several moves (weights 0 included)."""
    return tuple((m, rng.choice((0, 1, 40, 60))) for m in rng.sample(MOVES, rng.randint(0, 3)))


def _table(rng: random.Random) -> tuple[WeightedMove, ...]:
    """A plain table: distinct moves, weights (0 included), repeat limits (0: none), fallbacks."""
    moves = rng.sample(MOVES, rng.randint(1, len(MOVES)))
    return tuple(WeightedMove(m, rng.choice((0, 1, 5, 30, 45)), rng.choice((0, 0, 1, 2, 3)),
                              fallback=_fallback(rng))
                 for m in moves)


def test_a_plain_weighted_table_is_drawn_as_the_general_pick_draws_it() -> None:
    rng = random.Random(11)
    checked = blocked = every = repicked = 0
    for case in range(300):
        ai = AiDef(weighted=_table(rng))
        content = pack(enemies=[enemy("bot", 50, [idle(m) for m in MOVES], ai)],
                       encounters=[encounter("bot", "bot")])
        assert content.plain_weight_totals["bot"] == sum(w.weight for w in ai.weighted)
        g = game(content, "bot", seed=case)
        e = g._e
        d = content.enemies["bot"]
        u = e.s.units[1]
        for _ in range(8):
            hist = [rng.choice(MOVES) for _ in range(rng.randint(0, 4))]
            u.history = hist
            state = e.s.rng_ai.copy()
            fast = intents.choose_move(e, u, d)
            after = e.s.rng_ai.copy()
            e.s.rng_ai = state
            slow = intents._weighted_pick(e, ai, hist)  # the general path
            assert fast == slow, (ai, hist)
            assert e.s.rng_ai == after
            checked += 1
            blocked += any(intents._blocked(w, hist) for w in ai.weighted)
            repicked += any(intents._blocked(w, hist) and w.fallback for w in ai.weighted)
            every += all(intents._blocked(w, hist) for w in ai.weighted)
    # the repeat limits were exercised, a whole table blocked included, and the re-picks
    assert checked == 2400 and blocked > 200 and every > 10 and repicked > 100


def test_a_table_with_conditions_or_a_repeated_move_is_not_plain() -> None:
    tables = {
        "fallback": (WeightedMove("a", 1, 1, fallback=(("b", 1),)), WeightedMove("b", 1)),
        "once": (WeightedMove("a", 1, once=True), WeightedMove("b", 1)),
        "after": (WeightedMove("a", 1, after="b"), WeightedMove("b", 1)),
        "before": (WeightedMove("a", 1, before="b"), WeightedMove("b", 1)),
        "twice": (WeightedMove("a", 1, 1), WeightedMove("a", 2)),
        "empty": (),
        "plain": (WeightedMove("a", 2, 1), WeightedMove("b", 3)),
    }
    content = pack(enemies=[enemy(k, 10, [idle(m) for m in ("a", "b")], AiDef(weighted=t))
                            for k, t in tables.items()])
    assert {k: content.plain_weight_totals.get(k) for k in tables} == {
        "fallback": 2, "once": None, "after": None, "before": None, "twice": None,
        "empty": None, "plain": 5}


def test_an_intent_without_modifiers_shows_the_damage_the_fold_gives() -> None:
    strong = status("strong", modifiers=(Modifier("deal", "add", 3),))
    weak = status("weak", modifiers=(Modifier("deal", "mul", num=3, den=4),))
    frail = status("frail", modifiers=(Modifier("take", "mul", num=3, den=2),))
    calm = status("calm")  # no modifier: the shortcut applies
    content = pack(statuses=[strong, weak, frail, calm],
                   enemies=[enemy("bot", 50, [idle("a")], AiDef(cycle=("a",)))],
                   encounters=[encounter("bot", "bot")])
    rng = random.Random(5)
    g = game(content, "bot")
    e = g._e
    player, u = e.s.units[0], e.s.units[1]
    m = content.moves["bot", "a"]
    for base in (0, 1, 6, 11):
        m2 = type(m)(m.id, m.name, m.intent, damage=base, hits=2, block=3)
        for _ in range(40):
            u.statuses = {s: rng.randint(-2, 3) or 1 for s in rng.sample(
                ("strong", "weak", "calm"), rng.randint(0, 3))}
            player.statuses = {s: 1 for s in rng.sample(("frail", "calm"), rng.randint(0, 2))}
            it = display(e, u, m2)
            assert it.damage == attack_damage(e, base, u, player)
            assert (it.move, it.hits, it.block) == ("a", 2, 3)

"""A plain enemy move run directly plays as the interpreter runs it.

EnemyPhase step 3 runs a move whose behaviour is plain (``Content.plain_intents``: hits on the
player, block for itself, statuses with no On Apply branch) with the combat primitives, without
its scope or its program's ops (``steps.enemy_phase.run_plain_intent``). The twin of a game is the same
game with the table emptied, so that every move goes through ``start_entry`` as before: after
every decision both must have the same state (the step count included) and the same event log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from core_support import mark, pack, seq, watcher
from steps_support import play_pair as _play_twins
from steps_support import state as _state
from steps_support import step as _step

import gcs
from gcs.content.db import PLAIN_BLOCK, PLAIN_HIT, PLAIN_STATUS_PLAYER, PLAIN_STATUS_SELF, Content
from gcs.content.defs import AiDef, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import IntentKind
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel, Var
from gcs.steps import enemy_phase

PLAYER = UnitSel("player")
TARGET = UnitSel("target")
SELF = UnitSel("self")
# a status with an On Apply branch (its application queues work), and one that reacts when the
# player is hit (an enemy applying it to the player is not plain)
PRIMED = StatusDef("primed", "Primed", entries={"on_apply": mark(3)})
SPIKES = StatusDef("spikes", "Spikes", entries={"on_attacked": mark(4)})
MOVES = (
    MoveDef("bite", "Bite", IntentKind.ATTACK, damage=4, behaviour=N.DealDamage(4, TARGET)),
    MoveDef("rolled", "Rolled", IntentKind.ATTACK, damage=2, damage_max=6,
            behaviour=N.DealDamage(Var("damage"), PLAYER)),
    MoveDef("guard", "Guard", IntentKind.ATTACK_DEFEND, damage=3, block=4,
            behaviour=seq(N.DealDamage(3, TARGET), N.GainBlock(Var("block"), SELF))),
    MoveDef("curse", "Curse", IntentKind.DEBUFF,
            behaviour=seq(N.ApplyStatus("weak", 1, PLAYER), N.ApplyStatus("strength", 1, SELF))),
    MoveDef("nested", "Nested", IntentKind.ATTACK, damage=1,
            behaviour=seq(N.DealDamage(1, TARGET), seq(N.GainBlock(2, SELF), N.GainBlock(1, SELF)))),
    # not plain: several hits, a status with On Apply, a reacting status on the player, a branch
    MoveDef("flurry", "Flurry", IntentKind.ATTACK, damage=1, hits=2,
            behaviour=N.DealDamage(1, PLAYER, hits=2)),
    MoveDef("prime", "Prime", IntentKind.BUFF, behaviour=N.ApplyStatus("primed", 1, SELF)),
    MoveDef("spike", "Spike", IntentKind.DEBUFF, behaviour=N.ApplyStatus("spikes", 1, PLAYER)),
    MoveDef("gold", "Gold", IntentKind.BUFF, behaviour=seq(N.GainBlock(1, SELF), mark(5))),
)
ENEMY = EnemyDef("mixer", "Mixer", 40, 40, moves=MOVES,
                 ai=AiDef(cycle=tuple(m.id for m in MOVES)))
# the player is hit by a move that reads a damage slot the move does not set: the interpreter's
# error, on both paths
BROKEN = EnemyDef("broken", "Broken", 20, 20, ai=AiDef(cycle=("odd",)), moves=(
    MoveDef("odd", "Odd", IntentKind.ATTACK, behaviour=N.DealDamage(Var("damage"), PLAYER)),))
ENCOUNTERS = (EncounterDef("mixer", "Mixer", ("mixer",)),
              EncounterDef("mixers", "Mixers", ("mixer", "jaw_worm", "mixer")),
              EncounterDef("broken", "Broken", ("broken",)))


def _content(player_statuses: dict[str, int] | None = None) -> Content:
    return pack(statuses=(PRIMED, SPIKES, watcher("watch", 50)), enemies=(ENEMY, BROKEN),
                encounters=ENCOUNTERS, player_statuses=player_statuses)


@contextmanager
def _interpreted(content: Content) -> Iterator[None]:
    """Every move goes through the interpreter while this is open (the table emptied)."""
    plans = content.plain_intents
    content.plain_intents = {}
    try:
        yield
    finally:
        content.plain_intents = plans


def _twins(content: Content, deck: list[str], seed: int,
           rules: gcs.BattleRules | None = None) -> tuple[gcs.Game, gcs.Game]:
    """Two games with no subscriber (so the enemy turns run inline in both)."""
    fast = gcs.Game(content, seed=seed, rules=rules)
    slow = gcs.Game(content, seed=seed, rules=rules)
    for g in (fast, slow):
        g.set_master_deck(deck)
    return fast, slow


# the pure engine: a compiled module calls its functions directly, past any patch
PURE = hasattr(enemy_phase.run_plain_intent, "__code__")


def _count_plain(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What every ``run_plain_intent`` call returned from now on (pure engine only)."""
    seen: list[bool] = []
    real = enemy_phase.run_plain_intent

    def counted(*args: object) -> bool:
        out = real(*args)  # type: ignore[arg-type]
        seen.append(out)
        return out

    monkeypatch.setattr(enemy_phase, "run_plain_intent", counted)
    return seen


def test_plain_intents_lists_the_moves_whose_actions_cannot_queue_work() -> None:
    content = _content()
    plans = {m.id: content.plain_intents.get(id(m.behaviour)) for m in MOVES}
    bite, rolled, guard, curse, nested = (plans[k] for k in ("bite", "rolled", "guard", "curse",
                                                              "nested"))
    assert bite is not None and bite.steps == 0 and bite.acts == ((PLAIN_HIT, 4, "", ""),)
    assert rolled is not None and rolled.reads_damage and rolled.acts == ((PLAIN_HIT, 0, "damage", ""),)
    # a composite counts its entry's two steps and the ticks of its sequences
    assert guard is not None and guard.steps == 4 and guard.reads_block
    assert guard.acts == ((PLAIN_HIT, 3, "", ""), (PLAIN_BLOCK, 0, "block", ""))
    assert curse is not None and curse.acts == ((PLAIN_STATUS_PLAYER, 1, "", "weak"),
                                                (PLAIN_STATUS_SELF, 1, "", "strength"))
    assert nested is not None and nested.steps == 6 and len(nested.acts) == 3
    for not_plain in ("flurry", "prime", "spike", "gold"):
        assert plans[not_plain] is None, not_plain
    jaw = content.enemies["jaw_worm"]
    assert all(id(m.behaviour) in content.plain_intents for m in jaw.moves)


@pytest.mark.parametrize("player_statuses", [None, {"watch": 1}, {"spikes": 1}])
def test_a_plain_move_run_directly_plays_as_the_interpreter_runs_it(
        monkeypatch: pytest.MonkeyPatch, player_statuses: dict[str, int] | None) -> None:
    content = _content(player_statuses)
    seen = _count_plain(monkeypatch)
    rng = random.Random(7)
    ids = sorted(content.cards)
    decks = [["strike"] * 5 + ["defend"] * 5] + [
        [rng.choice(ids) for _ in range(rng.randint(5, 14))] for _ in range(6)]
    for i, deck in enumerate(decks):
        for encounter in ("mixer", "mixers", "jaw_worm"):
            fast, slow = _twins(content, deck, seed=31 * i + len(encounter))
            _play_twins(fast, slow, encounter, seed=i, b_context=lambda: _interpreted(content))
    if not PURE:
        assert not seen
    elif player_statuses is not None and "spikes" in player_statuses:
        assert False in seen  # a player that reacts to a hit: the interpreter runs the move
    else:
        assert seen.count(True) > 100


def test_a_plain_move_run_directly_plays_as_the_interpreter_on_the_bundled_pack() -> None:
    content = gcs.builtin_content()
    rng = random.Random(9)
    cards = sorted(content.cards)
    encounters = sorted(content.encounters)
    for i in range(2 * len(encounters)):
        deck = [rng.choice(cards) for _ in range(rng.randint(5, 15))]
        encounter = encounters[i % len(encounters)]
        fast, slow = _twins(content, deck, seed=i)
        _play_twins(fast, slow, encounter, seed=i, max_decisions=80,
                    b_context=lambda: _interpreted(content))


def test_a_plain_move_stops_at_the_same_step_as_the_interpreter() -> None:
    """Near the step guard the direct run gives way: the same error at the same step."""
    content = _content()
    stopped = 0
    for limit in range(30, 120, 2):
        rules = gcs.BattleRules(step_limit=limit)
        fast, slow = _twins(content, ["strike"] * 5 + ["defend"] * 5, seed=limit, rules=rules)
        _play_twins(fast, slow, "mixers", seed=limit, b_context=lambda: _interpreted(content))
        out = _step(fast, lambda g: g.end_player_turn())
        with _interpreted(content):
            assert out == _step(slow, lambda g: g.end_player_turn())
        assert _state(fast) == _state(slow)
        stopped += "StepLimitError" in out
    assert stopped


def test_a_move_reading_an_unset_slot_fails_as_in_the_interpreter() -> None:
    content = _content()
    fast, slow = _twins(content, ["strike"] * 5 + ["defend"] * 5, seed=1)
    for g in (fast, slow):
        g.start_battle("broken")
    out = _step(fast, lambda g: g.end_player_turn())
    with _interpreted(content):
        assert out == _step(slow, lambda g: g.end_player_turn())
    assert "damage" in out
    assert _state(fast) == _state(slow)


def test_a_plain_table_holds_its_draw_with_each_entry_left_out() -> None:
    """Jaw Worm's table as ``_plain_pick`` draws it: the repeat limits by move (with the
    entry's index), then per blocked entry the draw over the others, the whole table last."""
    t = gcs.builtin_content().plain_tables["jaw_worm"]
    assert t.limits == {"bellow": (1, 0), "thrash": (2, 1), "chomp": (1, 2)}
    assert t.draws == (
        (55, ((30, "thrash"), (55, "chomp"))),
        (70, ((45, "bellow"), (70, "chomp"))),
        (75, ((45, "bellow"), (75, "thrash"))),
        (100, ((45, "bellow"), (75, "thrash"), (100, "chomp"))))

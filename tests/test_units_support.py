"""Helpers for the unit rule tests (tests/test_units_*.py); this module holds no tests.

* ``pack(...)``: the minipack plus test statuses, enemies, encounters, cards, reward tables
  and player (character) statuses, built straight from definitions.
* ``mark(tag)`` / ``probe(tag, value)``: behaviour nodes that publish ``GoldGained`` with an
  amount of ``tag * 1000`` (+ 500 + a value read when it ran), so a test sees in the event
  log *when* a behaviour ran and what it saw.
* ``trace(game)``: the event log as compact tuples; ``in_order(tr, *items)`` checks that
  items appear in that order.
* ``autoplay(game)``: a simple seeded player that plays until the battle ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from minipack import card, mini

import gcs
from gcs import events as ev
from gcs.content.db import Content
from gcs.content.defs import (
    AiDef,
    CharacterDef,
    DeckEntry,
    EncounterDef,
    EnemyDef,
    GameCard,
    MoveDef,
    RewardTable,
    StatusDef,
)
from gcs.enums import IntentKind, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import BinOp, UnitSel, Value, Var

__all__ = ["card"]

PLAYER = UnitSel("player")
SELF = UnitSel("self")
TARGET = UnitSel("target")
ALL_ENEMIES = UnitSel("all_enemies")


def mark(tag: int) -> N.Node:
    """A behaviour that only publishes GoldGained(amount=tag*1000)."""
    return N.GainGold(tag * 1000)


def probe(tag: int, value: Value) -> N.Node:
    """GoldGained(amount=tag*1000 + 500 + value): what a behaviour saw when it ran (-500 < value
    < 500); traced as ``("mark", tag, value)``."""
    return N.GainGold(BinOp("add", tag * 1000 + 500, value))


def seq(*nodes: N.Node) -> N.Node:
    return N.Sequence(tuple(nodes))


def attack(damage: int, hits: int = 1) -> N.Node:
    """An enemy move behaviour: its planned damage (``Var('damage')``) to the player."""
    return N.DealDamage(Var("damage"), PLAYER, hits)


def enemy(eid: str, hp: int, moves: Sequence[MoveDef], ai: AiDef | None = None,
          statuses: Mapping[str, int] | None = None) -> EnemyDef:
    return EnemyDef(eid, eid.title(), hp, hp, moves=tuple(moves),
                    ai=ai or AiDef(cycle=(moves[0].id,)), statuses=dict(statuses or {}))


def hit(mid: str, damage: int, hits: int = 1) -> MoveDef:
    return MoveDef(mid, mid.title(), IntentKind.ATTACK, damage=damage, hits=hits,
                   behaviour=N.DealDamage(Var("damage"), PLAYER, Var("hits")))


def idle(mid: str = "idle", behaviour: N.Node | None = None) -> MoveDef:
    return MoveDef(mid, mid.title(), IntentKind.UNKNOWN, behaviour=behaviour)


def pack(*, statuses: Iterable[StatusDef] = (), enemies: Iterable[EnemyDef] = (),
         encounters: Iterable[EncounterDef] = (), cards: Iterable[GameCard] = (),
         player_statuses: Mapping[str, int] | None = None,
         deck: Sequence[DeckEntry] | None = None, max_hp: int = 80,
         reward_tables: Iterable[RewardTable] | None = None,
         graphs: Mapping[str, N.Node] | None = None) -> Content:
    """The minipack with extra definitions; the player starts with ``player_statuses``."""
    base = mini(extra_cards=tuple(cards), extra_statuses=tuple(statuses),
                extra_enemies=tuple(enemies), extra_encounters=tuple(encounters),
                graphs=dict(graphs or {}), deck=tuple(deck) if deck else None)
    ch = base.characters["ironclad"]
    char = CharacterDef(ch.id, ch.name, max_hp, ch.starting_deck,
                        statuses=dict(player_statuses or {}), gold=0)
    tables = list(base.reward_tables.values()) + list(reward_tables or ())
    return Content(pack_id="units", cards=base.cards.values(), statuses=base.statuses.values(),
                   enemies=base.enemies.values(), encounters=base.encounters.values(),
                   characters=[char], reward_tables=tables, graphs=base.graphs)


def encounter(eid: str, *enemy_ids: str, rewards: str | None = None) -> EncounterDef:
    return EncounterDef(eid, eid.title(), tuple(enemy_ids) or (eid,), rewards=rewards)


def status(sid: str, **kw: Any) -> StatusDef:
    return StatusDef(sid, sid.title(), **kw)


def game(content: Content, encounter_id: str | None = None, *, seed: int = 1,
         rules: gcs.BattleRules | None = None) -> gcs.Game:
    """A game on ``content``; starts ``encounter_id`` when given."""
    g = gcs.Game(content, seed=seed, rules=rules)
    if encounter_id is not None:
        g.start_battle(encounter_id)
    return g


# ---------------------------------------------------------------- traces
def _item(e: ev.Event) -> tuple[Any, ...]:
    if isinstance(e, ev.GoldGained):
        if e.amount >= 1000:
            tag, rest = divmod(e.amount, 1000)
            return ("mark", tag) if rest == 0 else ("mark", tag, rest - 500)
        return ("gold", e.amount)
    if isinstance(e, ev.PhaseChanged):
        return ("phase", e.new.name)
    if isinstance(e, ev.DamageDealt):
        return ("dmg", e.source, e.target, e.amount, e.blocked, e.hp_lost)
    if isinstance(e, ev.StatusApplied):
        return ("status", e.unit, e.status, e.delta, e.stacks)
    if isinstance(e, ev.StatusRemoved):
        return ("removed", e.unit, e.status)
    if isinstance(e, ev.EnemyUnitIntentChanged):
        return ("intent", e.unit, e.move, e.damage)
    if isinstance(e, (ev.UnitDied, ev.UnitSpawned)):
        return (type(e).__name__, e.unit)
    if isinstance(e, ev.BlockGained):
        return ("block", e.unit, e.amount)
    if isinstance(e, ev.BlockChanged):
        return ("block_set", e.unit, e.new)
    if isinstance(e, ev.BattleEnded):
        return ("BattleEnded", e.won)
    if isinstance(e, (ev.CardDrawn, ev.CardDiscarded, ev.CardExhausted, ev.CardRetained,
                      ev.CardAddedToHand)):
        return (type(e).__name__, e.card_id)
    if isinstance(e, ev.CardPlayed):
        return ("CardPlayed", e.card_id)
    return (type(e).__name__,)


def trace(g: gcs.Game, since: int = 0) -> list[tuple[Any, ...]]:
    """The event log (from index ``since``) as compact tuples."""
    return [_item(e) for e in g.event_log[since:]]


def in_order(tr: Sequence[tuple[Any, ...]], *items: tuple[Any, ...]) -> bool:
    """Do ``items`` occur in ``tr`` in this order (as a subsequence)?"""
    it = iter(tr)
    return all(any(x == want for x in it) for want in items)


def marks(g: gcs.Game, since: int = 0) -> list[tuple[Any, ...]]:
    return [t[1:] for t in trace(g, since) if t[0] == "mark"]


def between(tr: Sequence[tuple[Any, ...]], first: tuple[Any, ...],
            last: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The items strictly between the first ``first`` and the next ``last`` after it."""
    i = list(tr).index(first)
    j = list(tr).index(last, i + 1)
    return list(tr[i + 1:j])


# ---------------------------------------------------------------- playing
def play(g: gcs.Game, card_id: str, target: Any = None) -> bool:
    """Play the first hand card with this id (target: the first living enemy if it needs one)."""
    inst = next(c for c in g.hand() if c.card_id == card_id)
    if target is None and g.requires_target(inst):
        target = next(u for u in g.enemies if u.alive)
    return g.try_play_card(inst, target)


def autoplay(g: gcs.Game, max_turns: int = 60) -> int:
    """Play until the battle ends: every playable card (first living enemy as target), then
    end the turn; rewards are skipped. Returns the number of turns taken."""
    turns = 0
    while g.is_battle_active:
        g.settle()
        if g.is_waiting_for_reward:
            g.skip_reward()
            break
        if g.is_waiting_for_choice:
            pc = g.pending_choice
            assert pc is not None
            g.choose(list(range(pc.min)))
            continue
        played = False
        for inst in g.hand():
            target = None
            if inst.active.target is TargetMode.SINGLE_ENEMY:
                alive = [u for u in g.enemies if u.alive]
                if not alive:
                    break
                target = alive[0]
            if g.can_play_card(inst) and g.try_play_card(inst, target):
                played = True
                break
        if played:
            continue
        if g.is_battle_active and not g.is_waiting_for_reward:
            assert g.end_player_turn(), f"end_player_turn refused in {g!r}"
            turns += 1
            assert turns <= max_turns, f"no end after {max_turns} turns: {g!r}"
    return turns

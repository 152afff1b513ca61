"""Helpers for the core rule tests (tests/test_core_*.py).

* ``pack(...)``: the minipack plus a few keyword cards, probe statuses and optional player
  statuses, built straight from definitions.
* ``mark(tag)`` / ``probe(tag, value)``: behaviour nodes that publish ``GoldGained`` with an
  amount of ``tag * 1000`` (+ a value read at that moment), so a test can see in the event
  log *when* a behaviour ran and what it saw.
* ``trace(events)``: the event log as compact tuples, to assert the order of events.
* ``check_invariants(game)``: the pile and state invariants of the core rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from minipack import card, mini

import gcs
from gcs import events as ev
from gcs.battle import frames as K
from gcs.battle.frames import PLAY
from gcs.battle.state import NO_PAUSE
from gcs.content.db import Content
from gcs.content.defs import (
    AiDef,
    CharacterDef,
    DeckEntry,
    EncounterDef,
    EnemyDef,
    GameCard,
    MoveDef,
    StatusDef,
)
from gcs.enums import BattlePhase, CardType, IntentKind, Keyword, Pile, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import BinOp, CardSel, CountOf, UnitSel, Value, XCost

PLAYER = UnitSel("player")
ALL_ENEMIES = UnitSel("all_enemies")
TARGET = UnitSel("target")
THIS = CardSel("this")
HAND = CardSel("hand")


def mark(tag: int) -> N.Node:
    """A behaviour that only publishes GoldGained(amount=tag*1000)."""
    return N.GainGold(tag * 1000)


def probe(tag: int, value: Value) -> N.Node:
    """GoldGained(amount=tag*1000 + value): records what a behaviour saw when it ran."""
    return N.GainGold(BinOp("add", tag * 1000, value))


def seq(*nodes: N.Node) -> N.Node:
    return N.Sequence(tuple(nodes))


def hand_count() -> Value:
    return CountOf(HAND)


# Cards with one keyword each (cost 1 unless named otherwise).
STANDARD: tuple[GameCard, ...] = (
    card("zero", 0),
    card("two", 2),
    card("innate", 1, keywords=(Keyword.INNATE,)),
    card("innate_b", 1, keywords=(Keyword.INNATE,)),
    card("innate_c", 1, keywords=(Keyword.INNATE,)),
    card("retain", 1, keywords=(Keyword.RETAIN,)),
    card("ethereal", 1, keywords=(Keyword.ETHEREAL,)),
    card("spectral", 1, keywords=(Keyword.RETAIN, Keyword.ETHEREAL)),
    card("burn", 1, keywords=(Keyword.EXHAUST,)),
    # a Power authors its destination, as the bundled Powers do (no card type decides it)
    card("power", 1, type=CardType.POWER, on_play=seq(N.ApplyStatus("strength", 1, PLAYER),
                                                      N.RemoveFromBattle(THIS))),
    card("plain_power", 1, type=CardType.POWER, on_play=N.ApplyStatus("strength", 1, PLAYER)),
    card("curse", 0, type=CardType.CURSE, keywords=(Keyword.UNPLAYABLE,)),
    card("xburst", 0, x_cost=True, on_play=probe(90, XCost())),
    card("zap", 0, type=CardType.ATTACK, target=TargetMode.SINGLE_ENEMY,
         on_play=N.DealDamage(3, TARGET)),
    card("nuke", 0, type=CardType.ATTACK, target=TargetMode.ALL_ENEMIES,
         on_play=N.DealDamage(999, ALL_ENEMIES)),
    card("randy", 0, type=CardType.ATTACK, target=TargetMode.RANDOM_ENEMY,
         on_play=N.DealDamage(1, TARGET)),
    card("drawer", 0, on_play=N.DrawCards(2)),
)

WATCHER_ENTRIES = ("on_drawn", "on_discard", "on_exhaust", "on_play", "on_turn_start",
                   "on_turn_end", "on_draw_phase", "on_discard_phase", "on_battle_start",
                   "on_battle_end")


def watcher(sid: str, base: int) -> StatusDef:
    """A player status whose every entry publishes mark(base + index of the entry)."""
    return StatusDef(sid, sid.title(),
                     entries={name: mark(base + i) for i, name in enumerate(WATCHER_ENTRIES)})


def watch_tag(base: int, entry: str) -> int:
    """The GoldGained amount ``watcher(_, base)`` publishes for ``entry``."""
    return (base + WATCHER_ENTRIES.index(entry)) * 1000


def idle_enemy(eid: str, hp: int = 10) -> EnemyDef:
    return EnemyDef(eid, eid.title(), hp, hp, moves=(MoveDef("idle", "Idle", IntentKind.UNKNOWN),),
                    ai=AiDef(cycle=("idle",)))


def pack(*cards: GameCard, statuses: Iterable[StatusDef] = (),
         enemies: Iterable[EnemyDef] = (), encounters: Iterable[EncounterDef] = (),
         deck: Sequence[DeckEntry] | None = None,
         player_statuses: Mapping[str, int] | None = None,
         graphs: Mapping[str, N.Node] | None = None) -> Content:
    """The minipack, the STANDARD cards and ``cards``; player statuses at battle start.

    ``deck`` is the character's starting deck (``()``: an empty one).
    """
    m = mini(extra_cards=STANDARD + tuple(cards), extra_statuses=tuple(statuses),
             extra_enemies=tuple(enemies), extra_encounters=tuple(encounters),
             graphs=dict(graphs or {}), deck=tuple(deck) if deck else None)
    empty_deck = deck is not None and len(deck) == 0
    if not player_statuses and not empty_deck:
        return m
    ch = m.characters["ironclad"]
    starting = () if empty_deck else ch.starting_deck
    return Content(pack_id=m.pack_id, cards=m.cards.values(), statuses=m.statuses.values(),
                   enemies=m.enemies.values(), encounters=m.encounters.values(),
                   characters=[CharacterDef(ch.id, ch.name, ch.max_hp, starting,
                                            statuses=dict(player_statuses or {}))],
                   reward_tables=m.reward_tables.values(), graphs=m.graphs)


def start(content: Content, deck: Sequence[str | tuple[str, bool]] | None = None, *,
          encounter: str = "dummy", seed: int = 1, rules: gcs.BattleRules | None = None,
          hand: int | None = None) -> gcs.Game:
    """A Game whose master deck is ``deck`` (if given), in the first PlayerPhase of ``encounter``.

    ``hand`` sets ``starting_hand_size`` (and ``draw_per_turn``) for a known opening hand.
    """
    if hand is not None:
        rules = gcs.BattleRules(starting_hand_size=hand, draw_per_turn=hand)
    g = gcs.Game(content, seed=seed, rules=rules)
    if deck is not None:
        g.set_master_deck(list(deck))
    g.start_battle(encounter)
    return g


# ---------------------------------------------------------------- traces
_SIMPLE = (ev.CardPlayed,)
_LIFE = (ev.CardDrawn, ev.CardDiscarded, ev.CardExhausted, ev.CardRetained,
         ev.CardAddedToHand, ev.CardMoved, ev.CardCreated)


def trace(events: Iterable[ev.Event]) -> list[tuple[Any, ...]]:
    """Events as compact tuples: ('CardDrawn', uid), ('mark', amount), ('phase', NAME), ..."""
    out: list[tuple[Any, ...]] = []
    for x in events:
        name = type(x).__name__
        if isinstance(x, ev.GoldGained):
            out.append(("mark", x.amount))
        elif isinstance(x, ev.PhaseChanged):
            out.append(("phase", x.new.name))
        elif isinstance(x, (*_LIFE, *_SIMPLE)):
            out.append((name, x.instance_id))
        elif isinstance(x, ev.EnergySpent):
            out.append((name, x.amount))
        else:
            out.append((name,))
    return out


def new_events(g: gcs.Game, before: int) -> list[ev.Event]:
    return g.event_log[before:]


def marks(events: Iterable[ev.Event]) -> list[int]:
    return [x.amount for x in events if isinstance(x, ev.GoldGained)]


def only(tr: list[tuple[Any, ...]], *names: str) -> list[tuple[Any, ...]]:
    """The entries of a trace whose first item is one of ``names``."""
    return [t for t in tr if t[0] in names]


def index(tr: list[tuple[Any, ...]], item: tuple[Any, ...]) -> int:
    return tr.index(item)


def uids(cards: Iterable[gcs.CardInstance]) -> list[int]:
    return [c.uid for c in cards]


def find(g: gcs.Game, card_id: str) -> gcs.CardInstance:
    """The first hand card with ``card_id``."""
    for c in g.hand():
        if c.card_id == card_id:
            return c
    raise AssertionError(f"{card_id} not in hand {g.hand()}")


def snapshot(g: gcs.Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


# ---------------------------------------------------------------- invariants
# the frame that runs each phase's steps (the player phase has none)
PHASE_STEP_FRAME = {
    BattlePhase.INITIALIZE: K.START, BattlePhase.PLAYER_TURN_START: K.TURN_START,
    BattlePhase.PLAYER_TURN_END: K.TURN_END, BattlePhase.ENEMY_PHASE: K.ENEMY_PHASE,
    BattlePhase.BATTLE_WON: K.WON, BattlePhase.BATTLE_LOST: K.LOST,
}


def check_invariants(g: gcs.Game, content: Content | None = None) -> None:
    """Every core invariant that must hold between facade calls."""
    e = g._e
    s = e.s
    piles = {Pile.HAND: s.hand, Pile.DRAW: s.draw, Pile.DISCARD: s.discard,
             Pile.EXHAUST: s.exhaust}
    seen: dict[int, Pile] = {}
    for p, ids in piles.items():
        for uid in ids:
            assert uid not in seen, f"card {uid} is in {seen[uid].name} and {p.name}"
            seen[uid] = p
            assert s.cards[uid].pile is p, f"card {uid} listed in {p.name}, says {s.cards[uid].pile}"
    playing = {f.data[0] for f in s.stack if f.kind == PLAY}
    for uid, inst in s.cards.items():
        assert inst.uid == uid
        if inst.pile is Pile.LIMBO:
            assert uid in playing, f"card {uid} in flight outside its own On Play"
        elif inst.pile is Pile.REMOVED:
            assert uid not in seen
        else:
            assert seen.get(uid) is inst.pile, f"card {uid} ({inst.pile.name}) not in its pile"
    for uid in s.played + s.drawn:
        assert uid in s.cards, f"played/drawn id {uid} is not a card of the battle"
    if not s.active:
        assert not s.cards and not any(piles.values()) and g.current_hand is None
    # between calls a wave has ended or is paused; paused outside the player phase, it runs on
    # its phase's step frame, at the bottom (docs/rules/boundary.md, saves)
    assert bool(s.stack) == (s.pause != NO_PAUSE), (s.pause, s.stack)
    kinds = [f.kind for f in s.stack]
    step = PHASE_STEP_FRAME.get(s.phase)
    assert not (set(kinds[1:]) & set(PHASE_STEP_FRAME.values())), kinds
    assert not kinds or kinds[0] == step or (step is None
                                             and kinds[0] not in PHASE_STEP_FRAME.values()), kinds
    assert s.energy >= 0
    for u in s.units:
        assert 0 <= u.hp <= u.max_hp, u
    assert 0 <= s.hp <= s.max_hp
    c = g.clone()
    assert c == g
    assert c.event_log == g.event_log
    if content is not None:
        data = json.loads(json.dumps(g.to_json()))
        assert gcs.Game.from_json(content, data) == g


SELF_UNIT = UnitSel("self")


def autoplay(g: gcs.Game, max_calls: int = 200) -> None:
    """A fixed policy: play the first playable hand card (at the first living enemy), else
    end the turn; take the first reward; answer Choices with their first candidate."""
    for _ in range(max_calls):
        if not g.is_battle_active:
            return
        if g.is_waiting_for_reward:
            g.apply_reward(0) if g.offered_rewards else g.skip_reward()
            continue
        if g.is_waiting_for_choice:
            ch = g.pending_choice
            assert ch is not None
            g.choose(list(range(ch.min)))
            continue
        if g.is_waiting:
            g.settle()
            continue
        for c in g.hand():
            target = next((u for u in g.enemies if u.alive), None)
            if g.requires_target(c):
                if target is not None and g.try_play_card(c, target):
                    break
            elif g.try_play_card(c):
                break
        else:
            g.end_player_turn()


def autoplay_log(seed: int) -> str:
    """The event log of a fixed scripted battle (minipack, jaw worm), one event a line."""
    g = gcs.Game(mini(), seed=seed)
    g.start_battle("jaw_worm")
    autoplay(g)
    return "\n".join(repr(x) for x in g.event_log)


# ---------------------------------------------------------------- conformance helpers
BATTLE_PILES = (Pile.HAND, Pile.DRAW, Pile.DISCARD, Pile.EXHAUST)


def card_piles(g: gcs.Game) -> dict[int, Pile]:
    """Instance id -> pile code of every card instance the battle knows (REMOVED included)."""
    return {uid: c.pile for uid, c in g._e.s.cards.items()}


def check_pile_views(g: gcs.Game) -> None:
    """The public pile reads agree with the pile codes: ``pile(ALL)`` lists every instance
    whose code is Hand/Draw/Discard/Exhaust exactly once, and each ``pile(scope)`` holds only
    instances with that code."""
    scope = gcs.PileScope
    codes = card_piles(g)
    everything = [c.uid for c in g.pile(scope.ALL)]
    assert len(everything) == len(set(everything)), f"an instance is listed twice: {everything}"
    in_piles = sorted(uid for uid, p in codes.items() if p in BATTLE_PILES)
    assert sorted(everything) == in_piles, (sorted(everything), in_piles)
    views = {scope.HAND: g.hand(), scope.DRAW: g.draw_pile(),
             scope.DISCARD: g.discard_pile(), scope.EXHAUST: g.exhaust_pile()}
    for sc, pile in views.items():
        assert [c.uid for c in pile] == [c.uid for c in g.pile(sc)], sc
        for c in pile:
            assert codes[c.uid] is Pile[sc.name], f"{c!r} read in {sc.name}, code {c.pile}"
    for c in g.pile(scope.ALL):
        assert c is g._e.s.cards[c.uid], f"{c!r} is not the battle's instance"


def check_conserved(before: dict[int, Pile], g: gcs.Game, events: Sequence[ev.Event]) -> None:
    """Between two calls inside one battle, instances are conserved except by documented
    creation (an event with ``from_pile`` None: CardCreated, CardAddedToHand or CardDiscarded
    of a new id) and documented removal (CardMoved with ``to_pile`` None)."""
    after = card_piles(g)
    made = {x.instance_id for x in events
            if isinstance(x, (ev.CardCreated, ev.CardAddedToHand, ev.CardDiscarded))
            and x.from_pile is None}
    gone = {x.instance_id for x in events if isinstance(x, ev.CardMoved) and x.to_pile is None}
    vanished = set(before) - set(after)
    assert not vanished, f"instances vanished without a trace: {sorted(vanished)}"
    new = set(after) - set(before)
    assert new <= made, f"instances {sorted(new - made)} appeared without a creation event"
    removed = {u for u, p in after.items() if p is Pile.REMOVED and before.get(u) is not Pile.REMOVED}
    assert removed <= gone, f"instances {sorted(removed - gone)} left the battle unannounced"
    assert gone <= removed | {u for u, p in before.items() if p is Pile.REMOVED}, \
        f"announced removals {sorted(gone)} are still in the battle"
    assert len(after) == len(before) + len(new)

"""Helpers for the behaviour-graph tests (tests/test_flow_*.py); no tests here.

* ``M(k)``: a marker node, ``GainGold(k)``; it shows in ``trace`` as ``"m<k>"``, so a test
  sees *when* a branch ran.
* ``seq(...)``: a Sequence of nodes.
* ``flow_pack(...)`` / ``start(...)``: the minipack plus test cards, statuses and enemies
  (a 500-HP "post" enemy that does nothing), a battle started against ``encounter``.
* ``trace(events, *kinds)``: the event log as short strings (``"play c"``, ``"m3"``,
  ``"phase PLAYER_TURN_END"``...), optionally only the given kinds (first word).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from minipack import card, mini

from gcs import events as ev
from gcs.battle.state import CardInstance
from gcs.content.db import Content
from gcs.content.defs import (
    AiDef,
    DeckEntry,
    EncounterDef,
    EnemyDef,
    GameCard,
    MoveDef,
    StatusDef,
)
from gcs.enums import IntentKind
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel, UnitSel
from gcs.game import Game

__all__ = ["ALL", "HAND", "PLAYER", "SELF", "TARGET", "THIS", "M", "add", "card", "enemy",
           "flow_pack", "seq", "start", "status", "trace"]

PLAYER = UnitSel("player")
SELF = UnitSel("self")
TARGET = UnitSel("target")
ALL = UnitSel("all_enemies")
THIS = CardSel("this")
HAND = CardSel("hand")


def M(k: int) -> N.GainGold:
    """A marker: GainGold(k), traced as ``m<k>``."""
    return N.GainGold(k)


def seq(*steps: N.Node) -> N.Sequence:
    return N.Sequence(tuple(steps))


def status(sid: str, **entries: N.Node) -> StatusDef:
    """A status with behaviour entries (``on_play=...``, ``on_turn_end=...``)."""
    return StatusDef(sid, sid.title(), entries=dict(entries))


def enemy(eid: str, hp: int = 500, behaviour: N.Node | None = None,
          statuses: Mapping[str, int] | None = None) -> EnemyDef:
    """An enemy whose only move runs ``behaviour`` (none: it idles)."""
    return EnemyDef(eid, eid.title(), hp, hp,
                    moves=(MoveDef("act", "Act", IntentKind.UNKNOWN, behaviour=behaviour),),
                    ai=AiDef(cycle=("act",)), statuses=dict(statuses or {}))


def flow_pack(cards: Iterable[GameCard] = (), statuses: Iterable[StatusDef] = (),
              enemies: Iterable[EnemyDef] = (), graphs: Mapping[str, N.Node] | None = None,
              deck: tuple[DeckEntry, ...] | None = None) -> Content:
    """The minipack + test cards; encounters ``post`` (one idle 500-HP enemy), ``two_posts``,
    and ``foe`` / ``post_foe`` when an enemy named ``foe`` is given."""
    enemies = list(enemies)
    ids = {x.id for x in enemies}
    encs = [EncounterDef("post", "Post", ("post",)),
            EncounterDef("two_posts", "Two Posts", ("post", "post"))]
    if "foe" in ids:
        encs += [EncounterDef("foe", "Foe", ("foe",)),
                 EncounterDef("post_foe", "Post and Foe", ("post", "foe"))]
    if "post" not in ids:
        enemies.append(enemy("post"))
    return mini(extra_cards=tuple(cards), extra_statuses=tuple(statuses),
                extra_enemies=tuple(enemies), extra_encounters=tuple(encs),
                graphs=dict(graphs or {}),
                deck=deck or (DeckEntry("defend", count=10),))


def start(*cards: GameCard, statuses: Iterable[StatusDef] = (),
          enemies: Iterable[EnemyDef] = (), graphs: Mapping[str, N.Node] | None = None,
          deck: tuple[DeckEntry, ...] | None = None, encounter: str = "post",
          presenter: bool = True, seed: int = 7, player_statuses: Mapping[str, int] | None = None,
          ) -> Game:
    """A game in the first PlayerPhase against ``encounter``, event log cleared.

    ``player_statuses`` are put on the player directly (no behaviour runs for them).
    """
    g = Game(flow_pack(cards, statuses, enemies, graphs, deck), seed=seed, presenter=presenter)
    g.start_battle(encounter)
    player = g.player
    assert player is not None
    for sid, n in (player_statuses or {}).items():
        player.statuses[sid] = n
    g.clear_event_log()
    return g


def add(g: Game, card_id: str) -> CardInstance:
    """Create ``card_id`` in hand and forget the events that made it."""
    inst = g.add_card_to_hand(card_id)
    g.clear_event_log()
    return inst


def _fmt(e: ev.Event) -> str:
    if isinstance(e, ev.GoldGained):
        return f"m{e.amount}"
    if isinstance(e, ev.CardPlayed):
        return f"play {e.card_id}"
    if isinstance(e, ev.PhaseChanged):
        return f"phase {e.new.name}"
    if isinstance(e, ev.WaitStarted):
        return f"wait {e.seconds:g}"
    if isinstance(e, ev.EffectResumed):
        return f"resume {e.kind}"
    if isinstance(e, ev.AnimationGateOpened):
        return f"gate {e.name}"
    if isinstance(e, ev.ChoiceOpened):
        return f"choice {len(e.candidates)}"
    if isinstance(e, ev.ChoiceMade):
        return "skipped" if e.skipped else f"chosen {len(e.chosen)}"
    if isinstance(e, ev.CardDrawn):
        return f"draw {e.card_id}"
    if isinstance(e, ev.CardDiscarded):
        return f"discard {e.card_id}"
    if isinstance(e, ev.CardExhausted):
        return f"exhaust {e.card_id}"
    if isinstance(e, ev.CardAddedToHand):
        return f"tohand {e.card_id}"
    if isinstance(e, ev.CardCreated):
        return f"created {e.card_id} {e.to_pile.name if e.to_pile else None}"
    if isinstance(e, ev.CardMoved):
        return f"moved {e.card_id} {e.to_pile.name if e.to_pile else None}"
    if isinstance(e, ev.CardModified):
        return f"modified {e.card_id} {e.change}"
    if isinstance(e, ev.DamageDealt):
        return f"dmg {e.target} {e.amount}"
    if isinstance(e, ev.HpLost):
        return f"hplost {e.unit} {e.amount}"
    if isinstance(e, ev.Healed):
        return f"healed {e.unit} {e.amount}"
    if isinstance(e, ev.BlockGained):
        return f"block {e.unit} {e.amount}"
    if isinstance(e, ev.EnergyGained):
        return f"energy {e.amount}"
    if isinstance(e, ev.StatusApplied):
        return f"status {e.unit} {e.status} {e.stacks}"
    if isinstance(e, ev.StatusRemoved):
        return f"unstatus {e.unit} {e.status}"
    if isinstance(e, ev.UnitDied):
        return f"died {e.unit}"
    if isinstance(e, ev.UnitRevived):
        return f"revived {e.unit} {e.hp}"
    if isinstance(e, ev.UnitSpawned):
        return f"spawn {e.unit} {e.enemy}"
    if isinstance(e, ev.EnemyUnitIntentChanged):
        return f"intent {e.unit}"
    if isinstance(e, ev.TurnStarted):
        return f"turnstart {e.turn}"
    if isinstance(e, ev.TurnEnded):
        return f"turnend {e.turn}"
    if isinstance(e, ev.BattleEnded):
        return f"ended {e.won}"
    if isinstance(e, ev.BattleRewardOffered):
        return "rewards"
    return type(e).__name__


def trace(events: Iterable[ev.Event | str] | Game, *kinds: str) -> list[str]:
    """Events as short strings; with ``kinds``, only those whose first word is one of them
    (``"m"`` keeps the markers). Strings (an earlier trace) pass through."""
    if isinstance(events, Game):
        events = events.event_log
    out = [e if isinstance(e, str) else _fmt(e) for e in events]
    if not kinds:
        return out
    keep = set(kinds)
    res = []
    for t in out:
        head = t.split(" ", 1)[0]
        if head in keep or ("m" in keep and t[0] == "m" and t[1:].isdigit()):
            res.append(t)
    return res


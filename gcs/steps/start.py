"""StartBattle (seed 001): steps 1-3 in ``begin_battle``, then 4-7 as the START frame's steps.

The frame's steps are one engine step each (``each_step_a_call``), as saves count them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..battle import frames as K
from ..battle.cards import push_draw, push_entries, shuffle_pile, step_draw
from ..battle.combat import apply_status, make_enemy, status_entries
from ..battle.intents import plan_intent
from ..battle.state import CardInstance, Frame, MasterEntry, Unit
from ..content.defs import CharacterDef, EncounterDef
from ..enums import KW_INNATE, PHASE_INITIALIZE, PILE_DRAW
from ..events import BattleStarted
from ..rng import Rng, derive, derive_each
from .runner import DECIDED, GO, Procedure, Step, become, call, check_end, enter, settled

if TYPE_CHECKING:
    from ..engine import Engine


_STREAMS = ("shuffle", "ai", "cards")  # the battle's random streams, derived from its seed


def roll_enemies(enc: EncounterDef, rng: Rng) -> tuple[str, ...]:
    """The encounter's enemies for one battle: ``draw`` ids drawn one at a time without
    replacement from ``draw_from`` (each uniformly among those left); else a group picked
    uniformly, then one id per slot picked uniformly (each roll only where there is a choice);
    ``enemies`` when not rolled."""
    if enc.draw:
        bag = list(enc.draw_from)
        return tuple(bag.pop(rng.below(len(bag))) for _ in range(enc.draw))
    if not enc.groups:
        return enc.enemies
    groups = enc.groups
    group = groups[rng.below(len(groups))] if len(groups) > 1 else groups[0]
    return tuple(slot[rng.below(len(slot))] if len(slot) > 1 else slot[0] for slot in group)


def begin_battle(e: Engine, enc: EncounterDef, char: CharacterDef | None, seed: int) -> None:
    """StartBattle steps 1-3, then its frame for steps 4-7 (the caller runs the loop)."""
    s = e.s
    c = e.c
    # 1. clear any battle state left from a previous battle
    s.reset_battle()
    s.battles += 1
    base = derive(seed, f"battle{s.battles}")
    shuffle, ai, cards_seed = derive_each(base, _STREAMS)  # (``derive(base, name)`` each)
    s.rng_shuffle = Rng(shuffle)
    s.rng_ai = Rng(ai)
    s.rng_cards = Rng(cards_seed)
    s.active = True
    s.encounter = enc.id
    # the encounter's own hand rule, else the game's (BattleRules.hand_discard)
    s.hand_rule = enc.hand_discard if enc.hand_discard is not None else e.rules.hand_discard
    enter(e, PHASE_INITIALIZE)
    # 2. runtime units for the player and the enemies of the encounter
    player = Unit(0, s.character or "player", char.name if char else "Player", max(1, s.hp),
                  s.max_hp)
    s.units.append(player)  # (reset_battle left the list empty)
    if char is not None:
        for sid, n in char.statuses.items():
            apply_status(e, player, sid, n, trigger=False)  # set up, not applied
    # the encounter stream exists only to roll: deriving it is pure and draws nothing, so an
    # encounter with no groups (roll_enemies returns its enemies untouched) skips it
    enemies = (roll_enemies(enc, Rng(derive(base, "encounter"))) if enc.groups or enc.draw
               else enc.enemies)
    for eid in enemies:
        make_enemy(e, c.enemies[eid])
    # 3. the draw pile from the run master deck (else the starting deck), shuffled
    entries = s.master
    if not entries and char is not None:
        entries = [MasterEntry(d.card, d.upgraded) for d in char.starting_deck
                   for _ in range(d.count)]
    # each entry becomes a new instance (cards.new_instance, inlined: the next uid, registered)
    # put on the draw pile in deck order
    cards = s.cards
    draw = s.draw
    uid = s.next_card
    token = s.token
    card_of = c.cards
    for card_id, upgraded, cost_delta, origin in entries:  # (a MasterEntry, unpacked)
        try:
            card = card_of[card_id]  # (a subscript: the mapping's own ``get`` is a method call)
        except KeyError:
            card = c.card(card_id)  # raises UnknownCardError
        inst = CardInstance(uid, card, upgraded, cost_delta, origin, PILE_DRAW, token)
        cards[uid] = inst
        draw.append(uid)
        uid += 1
    s.next_card = uid
    shuffle_pile(e, draw)  # (Fisher-Yates, or keyed: BattleRules.keyed_shuffle)
    e.push(K.START, K.START_OPENING_HAND, None)


class OpeningHand(Step):
    """4. 优先安排 Innate 卡，再抽取起手牌 (Innate cards first, then the opening hand): the
    Innate cards go on top of Draw in master-deck order (the first of the deck is drawn first),
    then the hand is drawn to ``BattleRules.starting_hand_size`` (the Innate cards count; more
    of them than that are all drawn), an automatic draw (seed 004: overflow is discarded)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        cards = s.cards
        innate = [u for u in s.draw if KW_INNATE in cards[u].active.keywords]
        if innate:
            innate.sort()
            chosen = set(innate)
            s.draw[:] = [u for u in s.draw if u not in chosen] + innate[::-1]
        d = push_draw(e, max(e.rules.starting_hand_size, len(innate)), automatic=True)
        if d is None or not call(e):
            return GO
        step_draw(e, d)
        return settled(e, f)


class TurnOne(Step):
    """5. 将 TurnNumber 设为 1 并发布 OnBattleStarted (TurnNumber = 1, then OnBattleStarted,
    while the phase is still Initialize)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        s.turn = 1
        if e.hot:
            e.record(BattleStarted(s.encounter, s.turn))
        return GO


class FirstIntents(Step):
    """6. 解析第一组敌人 Intent，执行战斗开始状态行为 (the first enemy intents, then the
    battle-start status behaviours: the player's, then each enemy's in encounter order)."""

    def run(self, e: Engine, f: Frame) -> int:
        s = e.s
        for u in s.units[1:]:
            plan_intent(e, u)
        if "on_battle_start" in e.c.entry_statuses:  # (else every unit's list is empty)
            entries = []
            for u in s.units:
                entries += status_entries(e, u, "on_battle_start")
            if entries:
                push_entries(e, entries)
        return GO


class FirstTurn(Step):
    """7. 进入 PlayerTurnStart，随后开放首个 PlayerPhase (PlayerTurnStart, then the first
    PlayerPhase), unless the battle is already decided."""

    def run(self, e: Engine, f: Frame) -> int:
        if check_end(e):
            return DECIDED
        return become(e, f, K.TURN_START, K.TURN_START_HOOKS)


START_BATTLE: Final = Procedure("StartBattle", K.START, {
    K.START_OPENING_HAND: OpeningHand(),
    K.START_TURN_ONE: TurnOne(),
    K.START_INTENTS: FirstIntents(),
    K.START_TURN_START: FirstTurn(),
}, each_step_a_call=True)

"""StartBattle steps 1-3 (seed 001): clear, create the units, build and shuffle the draw pile.
Steps 4-7 follow as the START frame (gcs/battle/phases.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.defs import CharacterDef, EncounterDef
from ..enums import PHASE_INITIALIZE, PILE_DRAW
from ..rng import Rng, derive, derive_each
from . import frames as K
from .combat import apply_status
from .intents import make_enemy
from .phases import enter
from .state import CardInstance, Frame, MasterEntry, Unit

if TYPE_CHECKING:
    from ..engine import Engine


_STREAMS = ("shuffle", "ai", "cards")  # the battle's random streams, derived from its seed


def roll_enemies(enc: EncounterDef, rng: Rng) -> tuple[str, ...]:
    """The encounter's enemies for one battle: a group picked uniformly, then one id per slot
    picked uniformly (each roll only where there is a choice); ``enemies`` when not rolled."""
    if not enc.groups:
        return enc.enemies
    groups = enc.groups
    group = groups[rng.below(len(groups))] if len(groups) > 1 else groups[0]
    return tuple(slot[rng.below(len(slot))] if len(slot) > 1 else slot[0] for slot in group)


def begin_battle(e: Engine, enc: EncounterDef, char: CharacterDef | None, seed: int) -> None:
    """Steps 1-3 of StartBattle, then queue steps 4-7 (the caller runs the loop)."""
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
    s.hand_rule = enc.hand_discard
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
    enemies = roll_enemies(enc, Rng(derive(base, "encounter"))) if enc.groups else enc.enemies
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
    card_of = c.cards
    for card_id, upgraded, cost_delta, origin in entries:  # (a MasterEntry, unpacked)
        try:
            card = card_of[card_id]  # (a subscript: the mapping's own ``get`` is a method call)
        except KeyError:
            card = c.card(card_id)  # raises UnknownCardError
        inst = CardInstance(uid, card, upgraded, cost_delta, origin, PILE_DRAW)
        cards[uid] = inst
        draw.append(uid)
        uid += 1
    s.next_card = uid
    s.rng_shuffle.shuffle(draw)
    # 4-7 run as frames: Innate + opening draw, BattleStarted, intents, PlayerTurnStart
    s.stack.append(Frame(K.START, None, 0, None, None))

"""Immutable content definitions. A ``GameCard`` is the authored card; battles use ``CardInstance``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from ..enums import (
    KW_ETHEREAL,
    KW_RETAIN,
    KW_UNPLAYABLE,
    TARGET_SINGLE_ENEMY,
    CardType,
    Decay,
    HandDiscardRule,
    IntentKind,
    Keyword,
    Rarity,
    TargetMode,
)
from ..flow.exprs import Cond, Value
from ..flow.nodes import HookDef, Node

_EMPTY: Mapping[str, int] = MappingProxyType({})
_NO_FORMULAS: Mapping[str, Value] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class GameCard:
    """An authored card definition. ``upgrade`` is the upgraded variant (itself a ``GameCard``)."""

    id: str
    name: str
    cost: int
    type: CardType = CardType.SKILL
    rarity: Rarity = Rarity.COMMON
    target: TargetMode = TargetMode.NONE
    text: str = ""
    keywords: frozenset[Keyword] = frozenset()
    tags: tuple[str, ...] = ()
    x_cost: bool = False
    numbers: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    on_play: Node | None = None
    on_drawn: Node | None = None
    on_discard: Node | None = None
    on_exhaust: Node | None = None
    on_turn_start: Node | None = None
    on_turn_end: Node | None = None
    hooks: tuple[HookDef, ...] = ()  # active while the card is in hand (e.g. a curse's rule)
    upgrade: GameCard | None = None
    is_upgraded: bool = False
    character: str | None = None
    art: str | None = None  # the card's picture: a path in the pack or a URL (the UI resolves it)
    # a condition the play gate also asks (``self`` the player, ``this`` the card): Clash
    playable_if: Cond | None = None
    # a value added to the printed cost before the cost modifiers and hooks: Blood for Blood
    cost_adjust: Value | None = None
    # an upgraded variant that can be upgraded again and again (Searing Blow), its numbers
    # then ``formulas`` of the times upgraded (``numbers`` holds them for one upgrade)
    repeatable: bool = False
    formulas: Mapping[str, Value] = field(default_factory=lambda: _NO_FORMULAS)
    # How the legal actions check a play of this card, derived from the fields above when the
    # card is made (``__post_init__`` replaces any value given; no part of equality, hashing
    # or repr): PLAY_CHECKED (an X cost or Unplayable: the full checks), PLAY_PLAIN (a fixed
    # cost, playable by its keywords, no play condition, no target) or PLAY_PLAIN_SINGLE (the
    # same, one enemy)
    play_gate: int = field(default=0, repr=False, compare=False)
    # What the turn-end cleanup of the hand does with it by its keywords (seed 004), derived
    # in the same way: AT_TURN_END_EXHAUST (Ethereal), AT_TURN_END_RETAIN (Retain) or
    # AT_TURN_END_DISCARD (the Hand Rule decides)
    at_turn_end: int = field(default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "play_gate", play_gate(self))
        object.__setattr__(self, "at_turn_end", (
            AT_TURN_END_EXHAUST if KW_ETHEREAL in self.keywords
            else AT_TURN_END_RETAIN if KW_RETAIN in self.keywords else AT_TURN_END_DISCARD))

    def has(self, keyword: Keyword) -> bool:
        return keyword in self.keywords

    def __hash__(self) -> int:
        return hash((self.id, self.is_upgraded))


AT_TURN_END_DISCARD: Final = 0
AT_TURN_END_RETAIN: Final = 1
AT_TURN_END_EXHAUST: Final = 2

PLAY_CHECKED: Final = 0
PLAY_PLAIN: Final = 1
PLAY_PLAIN_SINGLE: Final = 2


def play_gate(card: GameCard) -> int:
    """``card.play_gate``: PLAY_CHECKED for an X cost, an Unplayable card, a play condition or a
    cost adjustment, else PLAY_PLAIN, or PLAY_PLAIN_SINGLE for a single-enemy card."""
    if (card.x_cost or KW_UNPLAYABLE in card.keywords or card.playable_if is not None
            or card.cost_adjust is not None):
        return PLAY_CHECKED
    return PLAY_PLAIN_SINGLE if card.target is TARGET_SINGLE_ENEMY else PLAY_PLAIN


@dataclass(frozen=True, slots=True)
class Modifier:
    """One step of a damage or block fold.

    ``stage``: ``deal`` (attacker's outgoing attack damage), ``take`` (defender's incoming attack
    damage) or ``block`` (block gained). ``op``: ``add`` (``amount`` per stack, or flat) or ``mul``
    (multiply by ``num/den``). Within a fold, adds come before muls.
    """

    stage: str
    op: str
    amount: int = 1
    num: int = 1
    den: int = 1
    per_stack: bool = True


STAGES = ("deal", "take", "block")

STATUS_ENTRIES = (
    "on_battle_start", "on_turn_start", "on_draw_phase", "on_drawn", "on_play", "on_discard",
    "on_exhaust", "on_discard_phase", "on_turn_end", "on_battle_end", "on_damage_taken",
    "on_attacked", "on_death", "on_apply", "on_block_gained",
)


DECAY_MOMENTS = ("turn_end", "round_end")


@dataclass(frozen=True, slots=True)
class StatusDef:
    """A status (buff, debuff, power or relic-like rule) that a unit carries with stacks."""

    id: str
    name: str
    text: str = ""
    debuff: bool = False
    decay: Decay = Decay.NONE
    allow_negative: bool = False
    max_stacks: int = 999
    modifiers: tuple[Modifier, ...] = ()
    hooks: tuple[HookDef, ...] = ()
    skip_turn: bool = False
    keeps_block: bool = False
    entries: Mapping[str, Node] = field(default_factory=lambda: MappingProxyType({}))
    decay_at: str = "turn_end"  # the decay moment: the holder's turn end, or the round's end
    hidden: bool = False  # works as any status; views and observations do not list it
    negates_debuffs: bool = False  # an ``apply`` of a debuff to its holder is cancelled (Artifact)

    def entry(self, name: str) -> Node | None:
        return self.entries.get(name)


@dataclass(frozen=True, slots=True)
class MoveDef:
    """An enemy move: the intent it telegraphs and the behaviour it runs."""

    id: str
    name: str
    intent: IntentKind
    damage: int | None = None
    hits: int = 1
    block: int | None = None
    behaviour: Node | None = None
    damage_max: int | None = None  # set: damage is rolled in [damage, damage_max] per enemy unit
    next: str | None = None  # the move planned after this one is made (before any other AI)
    # set: the damage is this value, read when the move is planned (``self`` the enemy,
    # ``target`` the player) and kept on the unit as a rolled damage is (``damage_max`` is 0)
    damage_value: Value | None = None


@dataclass(frozen=True, slots=True)
class WeightedMove:
    """One entry of a weighted AI table.

    ``max_in_row`` (0: no limit) blocks the move after that many plans in a row; a blocked
    entry with a ``fallback`` still takes part in the draw and, when drawn, plans a move drawn
    from ``fallback`` (move, weight) instead. ``once``: only while the move was never planned;
    ``after``/``before``: only once / until the named move has been planned.
    """

    move: str
    weight: int
    max_in_row: int = 0  # 0: no limit
    fallback: tuple[tuple[str, int], ...] = ()
    once: bool = False
    after: str | None = None
    before: str | None = None


@dataclass(frozen=True, slots=True)
class HpRule:
    """When the enemy's HP is at or below ``below_percent`` of max, plan ``move`` (once if ``once``)."""

    below_percent: int
    move: str
    once: bool = True
    at_once: bool = False  # also re-plan the moment HP drops to the threshold (not only at planning)


@dataclass(frozen=True, slots=True)
class AiRule:
    """Plan ``move`` when ``when`` holds at planning (``self`` the enemy, ``target`` the player)."""

    when: Cond
    move: str


@dataclass(frozen=True, slots=True)
class AiDef:
    """How an enemy picks its next move: HP rules, then its rules, then the last move's ``next``,
    then openers, then a cycle or weighted random."""

    opener: tuple[str, ...] = ()
    cycle: tuple[str, ...] = ()
    weighted: tuple[WeightedMove, ...] = ()
    hp_rules: tuple[HpRule, ...] = ()
    rules: tuple[AiRule, ...] = ()


@dataclass(frozen=True, slots=True)
class EnemyDef:
    id: str
    name: str
    hp_min: int
    hp_max: int
    moves: tuple[MoveDef, ...]
    ai: AiDef
    statuses: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    status_ranges: Mapping[str, tuple[int, int]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def move(self, move_id: str) -> MoveDef:
        for m in self.moves:
            if m.id == move_id:
                return m
        raise KeyError(move_id)


@dataclass(frozen=True, slots=True)
class EncounterDef:
    id: str
    name: str
    enemies: tuple[str, ...]
    # the encounter's own hand rule; None: the game's ``BattleRules.hand_discard``
    hand_discard: HandDiscardRule | None = None
    rewards: str | None = None
    kind: str = "normal"  # normal, elite, boss
    # Rolled compositions: one group is picked uniformly, then each slot picks one of its enemy
    # ids uniformly. Empty: always ``enemies``. ``enemies`` is then the first option of group 0.
    groups: tuple[tuple[tuple[str, ...], ...], ...] = ()
    # The act's encounter lists a run draws from (data only: the battle never reads them):
    # ``pool`` is weak, strong, elite or boss (None: in no pool), ``weight`` its relative weight
    # there, and ``exclusions`` the encounters the first draw from the next pool may not roll
    # right after this one (Slay the Spire's generateExclusions).
    pool: str | None = None
    weight: int = 1
    exclusions: tuple[str, ...] = ()
    # Slots drawn without replacement: ``draw`` ids drawn one at a time from ``draw_from`` (an
    # id listed twice can be drawn twice); 0: not drawn. ``enemies`` is then its first ``draw``.
    draw: int = 0
    draw_from: tuple[str, ...] = ()

    def enemy_ids(self) -> tuple[str, ...]:
        """Every enemy id this encounter can field, in first-seen order."""
        seen = dict.fromkeys(self.enemies)
        for g in self.groups:
            for slot in g:
                seen.update(dict.fromkeys(slot))
        seen.update(dict.fromkeys(self.draw_from))
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class DeckEntry:
    card: str
    upgraded: bool = False
    count: int = 1


@dataclass(frozen=True, slots=True)
class CharacterDef:
    id: str
    name: str
    max_hp: int
    starting_deck: tuple[DeckEntry, ...]
    statuses: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    gold: int = 99


@dataclass(frozen=True, slots=True)
class RewardTable:
    """What a won battle offers: ``cards`` card choices drawn by rarity weight from ``pool``."""

    id: str
    cards: int = 3
    rarity_weights: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    pool: tuple[str, ...] = ()
    gold_min: int = 0
    gold_max: int = 0
    upgrade: bool = False
    remove: bool = False

"""Event classes: each is a frozen dataclass that is its own payload (``OnX`` -> ``X``).

Payloads carry ids and values, never live objects, so an event stays true after the state
moves on: read the Game for the current facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import BattlePhase, PileScope


class Event:
    """Base class of every event."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    encounter: str
    turn: int


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """The battle's result, published while its final state can still be read (phase
    BATTLE_WON or BATTLE_LOST): ``enemy_hp`` in encounter order, ``reward`` the applied
    reward (``str(Reward)``) or None (skipped, or a defeat)."""

    won: bool
    turns: int
    player_hp: int
    player_max_hp: int = 0
    enemy_hp: tuple[int, ...] = ()
    reward: str | None = None


@dataclass(frozen=True, slots=True)
class BattleRewardOffered(Event):
    rewards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RewardApplied(Event):
    reward: str


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    old: BattlePhase
    new: BattlePhase
    turn: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    turn: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    turn: int


@dataclass(frozen=True, slots=True)
class DrawPhase(Event):
    turn: int


@dataclass(frozen=True, slots=True)
class DiscardPhase(Event):
    turn: int


@dataclass(frozen=True, slots=True)
class EnergySpent(Event):
    amount: int
    remaining: int


@dataclass(frozen=True, slots=True)
class EnergyGained(Event):
    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """CardPlayedEventArgs: the played instance, its card, cost paid and target."""

    instance_id: int
    card_id: str
    upgraded: bool
    cost: int
    target: int | None


@dataclass(frozen=True, slots=True)
class CardModified(Event):
    """CardModifiedEventArgs: cost, upgrade or transform of an instance (or master entry)."""

    instance_id: int
    card_id: str
    change: str  # "cost", "upgrade", "transform"
    upgraded: bool


@dataclass(frozen=True, slots=True)
class _Lifecycle(Event):
    """CardLifecycleEventArgs: the instance, its card and where it is now / came from."""

    instance_id: int
    card_id: str
    from_pile: PileScope | None
    to_pile: PileScope | None


@dataclass(frozen=True, slots=True)
class CardDrawn(_Lifecycle):
    pass


@dataclass(frozen=True, slots=True)
class CardDiscarded(_Lifecycle):
    pass


@dataclass(frozen=True, slots=True)
class CardExhausted(_Lifecycle):
    pass


@dataclass(frozen=True, slots=True)
class CardRetained(_Lifecycle):
    pass


@dataclass(frozen=True, slots=True)
class CardAddedToHand(_Lifecycle):
    pass


@dataclass(frozen=True, slots=True)
class CardMoved(_Lifecycle):
    """A move with no lifecycle of its own (into Hand or Draw, or out of the battle)."""


@dataclass(frozen=True, slots=True)
class CardCreated(_Lifecycle):
    """A new instance created directly in a pile (Add Cards): placement, not a lifecycle."""


@dataclass(frozen=True, slots=True)
class CardAddedToDeck(Event):
    card_id: str
    upgraded: bool
    deck_size: int


@dataclass(frozen=True, slots=True)
class CardRemovedFromDeck(Event):
    card_id: str
    count: int


@dataclass(frozen=True, slots=True)
class DrawPileShuffled(Event):
    pass


@dataclass(frozen=True, slots=True)
class EnemyUnitIntentChanged(Event):
    unit: int
    move: str
    damage: int | None
    hits: int


@dataclass(frozen=True, slots=True)
class DamageDealt(Event):
    source: int | None
    target: int
    amount: int
    blocked: int
    hp_lost: int
    card_id: str | None


@dataclass(frozen=True, slots=True)
class HpLost(Event):
    unit: int
    amount: int


@dataclass(frozen=True, slots=True)
class Healed(Event):
    unit: int
    amount: int


@dataclass(frozen=True, slots=True)
class BlockGained(Event):
    unit: int
    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class BlockChanged(Event):
    unit: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class StatusApplied(Event):
    unit: int
    status: str
    delta: int
    stacks: int


@dataclass(frozen=True, slots=True)
class StatusRemoved(Event):
    unit: int
    status: str


@dataclass(frozen=True, slots=True)
class UnitDied(Event):
    unit: int


@dataclass(frozen=True, slots=True)
class UnitRevived(Event):
    unit: int
    hp: int


@dataclass(frozen=True, slots=True)
class UnitSpawned(Event):
    unit: int
    enemy: str


@dataclass(frozen=True, slots=True)
class GoldGained(Event):
    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class ChoiceOpened(Event):
    prompt: str
    candidates: tuple[int, ...]
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class ChoiceMade(Event):
    chosen: tuple[int, ...]
    skipped: bool


@dataclass(frozen=True, slots=True)
class WaitStarted(Event):
    seconds: float


@dataclass(frozen=True, slots=True)
class AnimationGateOpened(Event):
    """A gate now holds the effect wave until ``complete_animation``."""

    name: str


@dataclass(frozen=True, slots=True)
class EffectResumed(Event):
    kind: str


ALL_EVENTS: tuple[type[Event], ...] = tuple(
    c for c in list(globals().values())
    if isinstance(c, type) and issubclass(c, Event) and c is not Event and not c.__name__.startswith("_")
)

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
    """StartBattle step 5: TurnNumber is 1, the phase is still INITIALIZE."""

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
    """Victory: the offered rewards (``str(Reward)`` each); waiting for apply/skip."""

    rewards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RewardApplied(Event):
    """The reward taken by ``apply_reward`` (``str(Reward)``)."""

    reward: str


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    """A phase transition (also recorded in ``phase_history`` as ``(new, turn)``)."""

    old: BattlePhase
    new: BattlePhase
    turn: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """PlayerTurnStart step 8, just before PlayerPhase."""

    turn: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """PlayerTurnEnd step 5."""

    turn: int


@dataclass(frozen=True, slots=True)
class DrawPhase(Event):
    """PlayerTurnStart step 7 (from turn 2): the draw phase begins."""

    turn: int


@dataclass(frozen=True, slots=True)
class DiscardPhase(Event):
    """PlayerTurnEnd step 1."""

    turn: int


@dataclass(frozen=True, slots=True)
class EnergySpent(Event):
    """Play step 2, when the cost paid is positive; ``remaining`` is the energy left."""

    amount: int
    remaining: int


@dataclass(frozen=True, slots=True)
class EnergyGained(Event):
    """Energy gained by a behaviour (Gain Energy); ``total`` after it."""

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
    change: str  # "cost", "upgrade", "transform", "numbers" (a number grew)
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
    """A card actually drawn (Draw -> Hand), before its On Drawn branches."""

    pass


@dataclass(frozen=True, slots=True)
class CardDiscarded(_Lifecycle):
    """A card went to Discard through the discard lifecycle (not the post-play placement)."""

    pass


@dataclass(frozen=True, slots=True)
class CardExhausted(_Lifecycle):
    """A card went to Exhaust through the exhaust lifecycle."""

    pass


@dataclass(frozen=True, slots=True)
class CardRetained(_Lifecycle):
    """A card stayed in hand at turn end (Retain, or the Persist hand rule)."""

    pass


@dataclass(frozen=True, slots=True)
class CardAddedToHand(_Lifecycle):
    """A card entered the hand other than by a draw (moved, created, added)."""

    pass


@dataclass(frozen=True, slots=True)
class CardMoved(_Lifecycle):
    """A move with no lifecycle of its own (into Hand or Draw, or out of the battle)."""


@dataclass(frozen=True, slots=True)
class CardCreated(_Lifecycle):
    """A new instance created directly in a pile (Add Cards): placement, not a lifecycle."""


@dataclass(frozen=True, slots=True)
class CardAddedToDeck(_Lifecycle):
    """A card was added to the run master deck: CardLifecycleEventArgs (seed 000's events
    table), with ``instance_id`` -1 (a master entry, as in ``CardModified``), ``from_pile``
    None and ``to_pile`` MASTER, then the entry's ``upgraded`` and the new ``deck_size``."""

    upgraded: bool
    deck_size: int


@dataclass(frozen=True, slots=True)
class CardRemovedFromDeck(Event):
    """``count`` entries of ``card_id`` were removed from the master deck."""

    card_id: str
    count: int


@dataclass(frozen=True, slots=True)
class DrawPileShuffled(Event):
    """The draw pile was shuffled (a reshuffle of Discard, or ``shuffle_draw_pile``)."""

    pass


@dataclass(frozen=True, slots=True)
class EnemyUnitIntentChanged(Event):
    """An enemy's shown intent changed: read ``unit.pending_intents`` for the rest."""

    unit: int
    move: str
    damage: int | None
    hits: int


@dataclass(frozen=True, slots=True)
class DamageDealt(Event):
    """Damage after folds: ``amount`` before block, ``blocked``, ``hp_lost`` (no overkill)."""

    source: int | None
    target: int
    amount: int
    blocked: int
    hp_lost: int
    card_id: str | None


@dataclass(frozen=True, slots=True)
class HpLost(Event):
    """HP lost ignoring block (Lose HP)."""

    unit: int
    amount: int


@dataclass(frozen=True, slots=True)
class Healed(Event):
    """HP restored (up to max HP)."""

    unit: int
    amount: int


@dataclass(frozen=True, slots=True)
class MaxHpGained(Event):
    """Max HP raised by ``amount`` (and HP with it); ``max_hp`` after it."""

    unit: int
    amount: int
    max_hp: int


@dataclass(frozen=True, slots=True)
class BlockGained(Event):
    """Block gained; ``total`` after it."""

    unit: int
    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class BlockChanged(Event):
    """Block set directly (armor decay at turn start)."""

    unit: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class StatusApplied(Event):
    """A status changed by ``delta`` to ``stacks`` (0 when it is removed)."""

    unit: int
    status: str
    delta: int
    stacks: int


@dataclass(frozen=True, slots=True)
class StatusRemoved(Event):
    """A status is gone from a unit."""

    unit: int
    status: str


@dataclass(frozen=True, slots=True)
class DebuffNegated(Event):
    """An ``apply`` of the debuff ``status`` to ``unit`` was cancelled by its status ``by``
    (one that negates debuffs, as Artifact), which loses a stack for it."""

    unit: int
    status: str
    by: str


@dataclass(frozen=True, slots=True)
class UnitDied(Event):
    """A unit died (HP 0)."""

    unit: int


@dataclass(frozen=True, slots=True)
class UnitRevived(Event):
    """A dead unit came back with ``hp``."""

    unit: int
    hp: int


@dataclass(frozen=True, slots=True)
class UnitSpawned(Event):
    """An enemy joined the battle mid-battle (last in encounter order)."""

    unit: int
    enemy: str


@dataclass(frozen=True, slots=True)
class GoldGained(Event):
    """Gold gained (or lost, negative); ``total`` after it."""

    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class RewardGoldAdded(Event):
    """Gold put into this battle's rewards (``reward_gold``: a Looter's loot, granted with the
    reward table's gold if the battle is won); ``total`` is what the rewards now hold."""

    amount: int
    total: int


@dataclass(frozen=True, slots=True)
class ChoiceOpened(Event):
    """A Choice paused the wave: candidates are instance or unit ids."""

    prompt: str
    candidates: tuple[int, ...]
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class ChoiceMade(Event):
    """The open Choice was answered (``chosen`` ids) or skipped."""

    chosen: tuple[int, ...]
    skipped: bool


@dataclass(frozen=True, slots=True)
class WaitStarted(Event):
    """A Wait paused the wave for ``seconds`` of game clock."""

    seconds: float


@dataclass(frozen=True, slots=True)
class AnimationGateOpened(Event):
    """A gate now holds the effect wave until ``complete_animation``."""

    name: str


@dataclass(frozen=True, slots=True)
class EffectResumed(Event):
    """A paused wave resumed (``kind``: ``"wait"`` or ``"gate"``)."""

    kind: str


ALL_EVENTS: tuple[type[Event], ...] = tuple(
    c for c in list(globals().values())
    if isinstance(c, type) and issubclass(c, Event) and c is not Event and not c.__name__.startswith("_")
)

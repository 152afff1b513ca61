"""Node kinds of a behaviour graph (FlowGraph). Nodes are immutable; a graph is a tree of them.

Composite nodes (Sequence, Branch, Loop, Foreach, While, Choice, Call) hold other nodes.
Pausing nodes (Choice, Wait, AnimationGate) suspend the whole effect wave; WaitUntil
detaches the rest of the entry as a delayed continuation. Everything else is an action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..enums import DrawPilePosition, PileScope
from .exprs import CardFilter, CardSel, Cond, UnitSel, Value


@dataclass(frozen=True, slots=True)
class HookDef:
    """A rule that changes play: ``cost``, ``playable`` (forbid), ``hand_size``, ``draw``, ``energy``.

    ``draw`` with ``add``/``set`` changes the per-turn draw; ``draw`` with ``forbid`` stops every
    further draw (Draw Cards, ``draw_cards``) while it is active.
    """

    kind: str
    op: str = "add"
    amount: int = 0
    where: CardFilter | None = None


HOOK_KINDS = ("cost", "playable", "hand_size", "draw", "energy")
HOOK_OPS = ("add", "set", "forbid")


# ---------------------------------------------------------------- control flow
@dataclass(frozen=True, slots=True)
class Sequence:
    steps: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Branch:
    cond: Cond
    then: Node
    otherwise: Node | None = None


@dataclass(frozen=True, slots=True)
class Loop:
    count: Value
    body: Node
    var: str | None = None  # iteration index slot


@dataclass(frozen=True, slots=True)
class Foreach:
    select: CardSel | UnitSel
    var: str
    body: Node


@dataclass(frozen=True, slots=True)
class While:
    cond: Cond
    body: Node
    max_iterations: int = 100


@dataclass(frozen=True, slots=True)
class Call:
    graph: str


@dataclass(frozen=True, slots=True)
class SetVar:
    name: str
    value: Value


@dataclass(frozen=True, slots=True)
class SetObj:
    name: str
    select: CardSel | UnitSel


# ---------------------------------------------------------------- pausing
@dataclass(frozen=True, slots=True)
class Choice:
    """Ask the player to pick ``min``..``max`` of the candidates; ``skipped`` when none or no presenter."""

    select: CardSel | UnitSel
    var: str
    then: Node | None = None
    skipped: Node | None = None
    min: int = 1
    max: int = 1
    prompt: str = ""


@dataclass(frozen=True, slots=True)
class Wait:
    """Pause the whole effect wave for ``seconds`` of game clock."""

    seconds: float


WAIT_UNTIL = ("player_turn_start", "player_turn_end", "enemy_phase_end")
WAVE_END = "wave_end"
# what ``wait_until`` accepts: a phase point (a delayed continuation) or the end of the wave
WAIT_UNTIL_WHEN = (*WAIT_UNTIL, WAVE_END)


@dataclass(frozen=True, slots=True)
class WaitUntil:
    """Delayed continuation: the rest of this entry resumes at a later phase point, or
    (``wave_end``) once the work already queued in the current effect wave has resolved (the
    game's ``addToBottom`` from inside a reaction)."""

    when: str
    turns: int = 1


@dataclass(frozen=True, slots=True)
class AnimationGate:
    """Pause the whole effect wave until ``complete_animation`` opens the gate."""

    name: str = ""


# ---------------------------------------------------------------- cards
@dataclass(frozen=True, slots=True)
class DrawCards:
    count: Value


@dataclass(frozen=True, slots=True)
class AddCards:
    """``count`` new instances of ``card``, or with ``copy_of`` copies of each selected
    instance (the game's makeStatEquivalentCopy: upgrades, own numbers, cost changes)."""

    card: str
    pile: PileScope = PileScope.HAND
    position: DrawPilePosition = DrawPilePosition.RANDOM
    upgraded: bool = False
    count: Value = 1
    var: str | None = None
    copy_of: CardSel | None = None


@dataclass(frozen=True, slots=True)
class MoveCard:
    select: CardSel
    pile: PileScope
    position: DrawPilePosition = DrawPilePosition.TOP


@dataclass(frozen=True, slots=True)
class ExhaustCard:
    select: CardSel


@dataclass(frozen=True, slots=True)
class DiscardCard:
    select: CardSel


@dataclass(frozen=True, slots=True)
class RemoveFromBattle:
    """Take the selected cards out of the battle (in no pile; ``CardMoved`` to None), e.g. a
    played Power that authors its own destination."""

    select: CardSel


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play each selected card (or a new copy of it) as a nested play: seed 004 steps 2-5.

    ``free`` plays at no cost (else at its effective cost, skipped without the energy);
    ``target`` picks the unit a single-enemy card hits (default: a random living enemy);
    ``to`` is the authored destination (else step 5's rule); ``var`` binds the played cards.
    ``replay`` (with ``copy``): the copy is a replay, which ends in no pile and which a card
    filter's ``replay: false`` leaves out; ``same_x``: an X cost counts the scope's X (the
    played card's, in a status's On Play) instead of the energy left (Double Tap).
    """

    select: CardSel
    free: bool = True
    copy: bool = False
    target: UnitSel | None = None
    to: PileScope | None = None
    var: str | None = None
    replay: bool = False
    same_x: bool = False


@dataclass(frozen=True, slots=True)
class ModifyCost:
    """Change the cost of cards: by ``amount`` or to ``set_to``, for ``turn``, ``battle`` or ``run``."""

    select: CardSel
    amount: Value = 0
    set_to: Value | None = None
    duration: str = "battle"


COST_DURATIONS = ("turn", "battle", "run")


@dataclass(frozen=True, slots=True)
class UpgradeCard:
    select: CardSel


@dataclass(frozen=True, slots=True)
class GrowNumber:
    """Add ``amount`` to a number of the card instance whose behaviour runs, for the rest of
    the battle (Rampage): its text shows it and a copy of it keeps it."""

    number: str
    amount: Value


@dataclass(frozen=True, slots=True)
class TransformCard:
    """Replace each selected instance by ``into``, or by a random card matching ``pool``."""

    select: CardSel
    into: str | None = None
    pool: CardFilter | None = None


@dataclass(frozen=True, slots=True)
class RegisterCardHook:
    """A Card Hook; from a played card it registers after every deferred branch completes."""

    hook: HookDef
    turns: int | None = None
    scope: str = "player_turns"  # what ``turns`` counts: player turns or enemy turns


HOOK_SCOPES = ("player_turns", "enemy_turns")


# ---------------------------------------------------------------- units
@dataclass(frozen=True, slots=True)
class DealDamage:
    """``kind``: ``attack`` (folded, ``on_attacked``) or ``thorns`` (not an attack: the game's
    THORNS damage type, which skips the folds and ``on_attacked``; Block still absorbs it);
    None: an attack in a card or a move, thorns in a status."""

    amount: Value
    target: UnitSel
    hits: Value = 1
    kind: str | None = None


DAMAGE_KINDS = ("attack", "thorns")


@dataclass(frozen=True, slots=True)
class GainBlock:
    """``raw``: the amount as it is, without the block folds (Dexterity, Frail) a card's
    block goes through (a status's block never does)."""

    amount: Value
    target: UnitSel
    raw: bool = False


@dataclass(frozen=True, slots=True)
class LoseHp:
    amount: Value
    target: UnitSel


@dataclass(frozen=True, slots=True)
class Heal:
    amount: Value
    target: UnitSel


@dataclass(frozen=True, slots=True)
class GainEnergy:
    amount: Value


@dataclass(frozen=True, slots=True)
class ApplyStatus:
    status: str
    amount: Value
    target: UnitSel


@dataclass(frozen=True, slots=True)
class RemoveStatus:
    status: str
    target: UnitSel
    amount: Value | None = None


@dataclass(frozen=True, slots=True)
class SpawnEnemy:
    """Summon ``enemy``; ``hp`` (when set) is its max and current HP instead of a roll."""

    enemy: str
    var: str | None = None
    hp: Value | None = None


@dataclass(frozen=True, slots=True)
class Kill:
    target: UnitSel


@dataclass(frozen=True, slots=True)
class Revive:
    target: UnitSel
    hp: Value


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Ask to end the player turn once the current whole effect wave has resolved."""


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """Grant the player an extra turn after this one (PlayerTurnEnd step 6)."""


@dataclass(frozen=True, slots=True)
class GainMaxHp:
    """Raise the units' Max HP by ``amount``, and their HP by as much (the game's
    ``increaseMaxHp(amount, true)``); the player's carries over to the run."""

    amount: Value
    target: UnitSel


@dataclass(frozen=True, slots=True)
class GainGold:
    """Gold gained, or lost (negative): the gold never falls below 0."""

    amount: Value


@dataclass(frozen=True, slots=True)
class RewardGold:
    """Put ``amount`` gold into this battle's rewards (granted with the table's gold on a
    victory, lost on a defeat)."""

    amount: Value


@dataclass(frozen=True, slots=True)
class SetMove:
    """Replace the scope owner's planned move with ``move`` at once (an enemy's ``setMove``)."""

    move: str


Node = Union[
    Sequence, Branch, Loop, Foreach, While, Call, SetVar, SetObj,
    Choice, Wait, WaitUntil, AnimationGate,
    DrawCards, AddCards, MoveCard, ExhaustCard, DiscardCard, RemoveFromBattle, PlayCard,
    ModifyCost, UpgradeCard, GrowNumber,
    TransformCard, RegisterCardHook,
    DealDamage, GainBlock, LoseHp, Heal, GainEnergy, ApplyStatus, RemoveStatus,
    SpawnEnemy, Kill, Revive, EndTurn, ExtraTurn, GainGold, RewardGold, SetMove, GainMaxHp,
]

NODE_TYPES: tuple[type, ...] = Node.__args__  # type: ignore[attr-defined]


def children(node: Node) -> list[Node]:
    """The direct child nodes of ``node`` (in execution order)."""
    if isinstance(node, Sequence):
        return list(node.steps)
    if isinstance(node, Branch):
        return [node.then] + ([node.otherwise] if node.otherwise is not None else [])
    if isinstance(node, (Loop, Foreach, While)):
        return [node.body]
    if isinstance(node, Choice):
        return [n for n in (node.then, node.skipped) if n is not None]
    return []


def walk(node: Node) -> list[Node]:
    """All nodes of a graph in pre-order (the order that numbers them)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(children(n)))
    return out

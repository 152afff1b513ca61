"""The heuristic agent: each option tried once on a sampled world, the best state kept.

At a play decision the agent draws the hidden information afresh (``Game.determinize``, so it
never sees the draw order or a random stream), plays each distinct option on a copy of that
world (Choices it opens answered the same way) and keeps the one whose state ``assess`` rates
highest, a Power's lasting effect counted for the turns the battle still has; it ends the turn
when no play beats ending it. Lethal plays, blocking what is shown, killing what can die and
not feeding a status that punishes a play all follow from the states the plays lead to:
nothing here names a card, a status or an enemy. Rewards are picked by ``gcs.agents.deck``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..agent import CHOOSE, END, PLAY, REWARD, Action, apply, legal_actions
from ..battle.state import CHOICE, State
from ..enums import CardType
from ..errors import GameError
from ..rng import mix
from .assess import assess, turns_left
from .deck import pick_reward
from .worth import worth

if TYPE_CHECKING:
    from ..engine import Engine
    from ..game import Game

EPSILON: Final = 0.01  # a play must beat ending the turn by this much
POWER_TURN: Final = 1.5  # a Power's lasting effect, per turn the battle still has (up to 8)
TIE: Final = 0.01  # the cards' worth, to break ties between Choice answers
MAX_ANSWERS: Final = 24  # Choice answers tried (the first ones, in legal order)
MAX_NESTED: Final = 2  # Choice levels answered by trying (a Choice, and one its answer opens)
_MASK: Final = (1 << 64) - 1


def action_key(s: State, a: Action) -> tuple[int, ...]:
    """One key for the actions that do the same: the same card definition and cost at the same
    target, the same chosen cards, the same reward (identical hand cards share one key)."""
    kind = a.kind
    if kind == PLAY:
        inst = s.cards[s.hand[a.card]]
        return (1, id(inst.active), inst.cost_delta, inst.battle_delta,
                -1 if inst.battle_set is None else inst.battle_set, inst.turn_delta,
                -1 if inst.turn_set is None else inst.turn_set, a.target)
    if kind == END:
        return (0,)
    if kind == CHOOSE:
        ids = s.choice_ids
        if s.choice_kind == "c":
            cards = s.cards
            return (2, *sorted(id(cards[ids[i]].active) for i in a.choice))
        return (3, *[ids[i] for i in a.choice])
    if kind == REWARD:
        return (4, a.reward)
    return (5,)


def distinct(s: State, legal: list[Action]) -> list[Action]:
    """The first action of each key, in legal order."""
    seen: set[tuple[int, ...]] = set()
    out: list[Action] = []
    for a in legal:
        k = action_key(s, a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def play_bonus(e: Engine, a: Action) -> float:
    """What ``assess`` cannot see of a play: a Power's lasting effect, for the turns left."""
    s = e.s
    if a.kind == PLAY and s.cards[s.hand[a.card]].active.type is CardType.POWER:
        return POWER_TURN * min(8.0, turns_left(e))
    return 0.0


def tie_break(e: Engine) -> float:
    """The worth of the cards in hand and of those known to be on top of the draw pile (half):
    which card a Choice should keep, exhaust, upgrade or put on top."""
    s = e.s
    c = e.c
    cards = s.cards
    v = 0.0
    for uid in s.hand:
        v += worth(c, cards[uid].active)
    draw = s.draw
    n = len(draw)
    for i in range(n - s.known_top, n):
        v += 0.5 * worth(c, cards[draw[i]].active)
    return v


def answer(world: Game, legal: list[Action], depth: int = 0) -> Action:
    """The best answer of an open Choice: each distinct answer tried on a copy (the Choices it
    opens answered one level deeper), the best state (``assess``, ties broken by the cards'
    worth) kept."""
    s = world._e.s
    best = legal[0]
    best_v = -1e18
    for a in distinct(s, legal)[:MAX_ANSWERS]:
        w = world.clone()
        if not tried(w, a, depth + 1):
            continue
        we = w._e
        v = assess(we) + TIE * tie_break(we)
        if v > best_v:
            best, best_v = a, v
    return best


def tried(w: Game, a: Action, depth: int) -> bool:
    """Play ``a`` on the copy ``w`` and answer the Choices it opens; False if the content
    failed doing it (a ``FlowError``, the step guard): that option is not taken."""
    try:
        apply(w._e, a)
        settle_choices(w, depth)
    except GameError:
        return False
    return True


def settle_choices(w: Game, depth: int) -> None:
    """Answer the Choices a tried option opened: by ``answer`` while ``depth`` (the Choices
    already open around this one) is below ``MAX_NESTED``, then the first answer, so one
    decision tries at most (options) x ``MAX_ANSWERS`` copies whatever the content nests."""
    s = w._e.s
    while s.pause == CHOICE and s.rewards is None:
        legal = legal_actions(w._e)
        if not legal:
            return
        apply(w._e, answer(w, legal, depth) if depth < MAX_NESTED else legal[0])
        depth += 1


def best_play(world: Game, legal: list[Action]) -> Action:
    """The option whose state is best on ``world`` (already sampled): End Turn unless a play
    beats it; a Choice's best answer while one is open."""
    e = world._e
    s = e.s
    if s.pause == CHOICE:
        return answer(world, legal)
    end: Action | None = None
    for a in legal:
        if a.kind == END:
            end = a
    best = end
    best_v = assess(e) + EPSILON if end is not None else -1e18
    for a in distinct(s, legal):
        if a.kind != PLAY:
            continue
        w = world.clone()
        if not tried(w, a, 1):
            continue
        v = assess(w._e) + play_bonus(e, a)
        if v > best_v:
            best, best_v = a, v
    return best if best is not None else legal[0]


def decide(game: Game, legal: list[Action], seed: int) -> Action:
    """The heuristic's action for ``game`` (the real one: hidden information is drawn afresh
    from ``seed`` before anything is tried)."""
    if len(legal) == 1:
        return legal[0]
    s = game._e.s
    if s.rewards is not None:
        return pick_reward(game, legal)
    if s.pause != CHOICE:
        only = True
        for a in legal:
            if a.kind == PLAY:
                only = False
                break
        if only:
            return legal[0]
    return best_play(game.determinize(seed), legal)


class HeuristicAgent:
    """The built-in heuristic (``--policy heuristic``): each distinct option tried once on a
    sampled world, the state ``assess`` rates best kept (see the module). ``seed`` seeds the
    worlds it samples; it never reads hidden information."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed & _MASK
        self.decisions = 0

    def __call__(self, game: Game, legal: list[Action]) -> Action:
        self.decisions += 1
        try:
            return decide(game, legal, mix(self.seed ^ self.decisions))
        except GameError:
            raise
        except Exception as exc:
            raise GameError(f"internal error in HeuristicAgent: {type(exc).__name__}: {exc} "
                            "(please report this)") from exc

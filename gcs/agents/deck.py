"""Deck building: which offered reward an agent takes, from what the cards are worth.

Every option is scored against the master deck as it is, in the units of ``worth`` (HP per
play): a new card by how much it beats the deck's typical (median) card (a weaker one would dilute
the deck, so it is not taken), an upgrade by what it adds to that card every time it is drawn,
a removal by how much the removed card is below the typical one, gold by a little per coin.
Skipping scores 0, so the agent skips when nothing helps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..agent import REWARD, SKIP, Action
from .worth import worth

if TYPE_CHECKING:
    from ..content.db import Content
    from ..content.defs import GameCard
    from ..game import Game

UPGRADE: Final = 1.5  # an upgrade's gain, weighed against a new card's (it never dilutes)
UPGRADE_BASE: Final = 1.0  # ... and a little more: an upgraded card is never worse
DILUTE: Final = 2.0  # a new card must beat the average card by this much
REMOVE: Final = 1.0
REMOVE_COST: Final = 2.0  # a removal must beat it by this much (a thin deck is brittle)
GOLD: Final = 0.02  # per coin (gold buys nothing in a pack without shops)


def _card(c: Content, card_id: str, upgraded: bool) -> GameCard | None:
    base = c.cards.get(card_id)
    if base is None:
        return None
    return base.upgrade if upgraded and base.upgrade is not None else base


def deck_worths(game: Game) -> list[float]:
    """The worth of each master-deck card, in deck order."""
    c = game.content
    out = []
    for m in game._e.s.master:
        card = _card(c, m.card_id, m.upgraded)
        out.append(worth(c, card) if card is not None else 0.0)
    return out


def typical(values: list[float]) -> float:
    """The deck's typical card: the median worth (a few strong cards do not lift it)."""
    if not values:
        return 0.0
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def reward_scores(game: Game) -> list[float]:
    """The score of each offered reward, in offer order (skip scores 0)."""
    e = game._e
    c = game.content
    s = e.s
    rewards = s.rewards or []
    values = deck_worths(game)
    avg = typical(values)
    out = []
    for r in rewards:
        v = 0.0
        if r.kind == "card" and r.card_id is not None:
            card = c.cards.get(r.card_id)
            if card is not None:
                v = worth(c, card) - avg - DILUTE
        elif r.kind == "gold":
            v = GOLD * r.amount
        elif r.kind in ("upgrade", "remove") and r.deck_index is not None \
                and 0 <= r.deck_index < len(s.master):
            m = s.master[r.deck_index]
            if r.kind == "upgrade":
                base = _card(c, m.card_id, False)
                up = _card(c, m.card_id, True)
                if base is not None and up is not None and up is not base:
                    v = UPGRADE * (worth(c, up) - worth(c, base)) + UPGRADE_BASE
            else:
                v = REMOVE * (avg - values[r.deck_index]) - REMOVE_COST
        out.append(v)
    return out


def pick_reward(game: Game, legal: list[Action]) -> Action:
    """The best-scoring offered reward, or skip when none scores above 0 (ties: the first)."""
    scores = reward_scores(game)
    best: Action | None = None
    best_v = 0.0
    for a in legal:
        if a.kind == REWARD and 0 <= a.reward < len(scores) and scores[a.reward] > best_v:
            best, best_v = a, scores[a.reward]
    if best is not None:
        return best
    for a in legal:
        if a.kind == SKIP:
            return a
    return legal[0]

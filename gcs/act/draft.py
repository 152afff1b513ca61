"""A deck drawn as an Act 1 run would draw it, for single-fight tasks against elites and bosses.

A run reaches its elites and its boss with the starter deck plus the cards it drafted from its
rewards and the upgrades of its rest sites. ``drafted_deck`` draws that deck without playing
the fights: ``rewards`` card rewards in the act's order, every sixth an elite's (the rest
hallway rewards), each drawn by the act's rarity odds with the rarity factor carried from one
to the next (gcs/act/draws.py), one card taken uniformly of the three offered; then
``rewards // 4`` smiths, each upgrading a master-deck card drawn uniformly among the
upgradable ones. (A run that plays well drafts better; this is the deck of a player who drafts
at random: docs/run.md.)
"""

from __future__ import annotations

from ..content.db import Content
from ..rng import Rng
from . import draws


def drafted_deck(content: Content, character: str | None, rng: Rng,
                 rewards: int) -> list[tuple[str, bool]]:
    """The starter deck of ``character`` (None: the pack's first) plus ``rewards`` drafted
    cards and ``rewards // 4`` upgrades, as (card id, upgraded) pairs."""
    if character is None:
        character = min(content.characters)
    deck = [(d.card, d.upgraded) for d in content.character(character).starting_deck
            for _ in range(d.count)]
    cards = draws.card_pool(content)
    factor = draws.RARITY_START
    for i in range(rewards):
        room = "elite" if i % 6 == 5 else "normal"
        offer, factor = draws.card_reward(rng, cards, factor, room)
        deck.append((offer[rng.below(len(offer))], False))
    for _ in range(rewards // 4):
        can = [k for k, (cid, up) in enumerate(deck)
               if not up and content.cards[cid].upgrade is not None]
        if not can:
            break
        k = can[rng.below(len(can))]
        deck[k] = (deck[k][0], True)
    return deck

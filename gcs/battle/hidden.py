"""Hidden information: what the player cannot know, drawn afresh (``Game.determinize``).

The player knows the hand, the discard and exhaust piles, the *contents* of the draw pile,
every unit's HP, block and statuses, the intents shown, the enemies' move history, the master
deck, the offered rewards and any paused effect. Hidden are: the order of the draw pile
(except the cards at either end whose places the player saw, ``State.known_top`` and
``known_bottom``), the future of every random stream (shuffles, enemy moves, card generation
and random targets, rewards, and the seeds of battles to come), and the rolled damage of an
enemy move the enemy has not planned yet. ``redraw`` replaces exactly those, from a seed, and
reads nothing else: two states that differ only there redraw to equal states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rng import Rng, derive, derive_each

if TYPE_CHECKING:
    from ..content.db import Content
    from .state import State

# the streams a redraw makes, derived from its seed by name (stable across processes)
_STREAMS: Final = ("draw", "rolls", "shuffle", "ai", "cards", "run", "game")


def redraw(c: Content, s: State, seed: int) -> int:
    """Draw everything hidden in ``s`` afresh from ``seed`` (in place); returns the new game
    seed (the seed the battles to come derive their streams from)."""
    draw_seed, rolls_seed, shuffle, ai, cards, run, game = derive_each(
        derive(seed, "determinize"), _STREAMS)
    # the draw pile: the known places stay, the rest is put in a canonical order (by instance
    # id: a set the player knows) and shuffled, so the hidden order in ``s`` is never read
    draw = s.draw
    lo = s.known_bottom
    hi = len(draw) - s.known_top
    if hi - lo > 1:
        middle = sorted(draw[lo:hi])
        Rng(draw_seed).shuffle(middle)
        draw[lo:hi] = middle
    # an enemy's rolled damage of a move it has not planned yet: rolled again, as at its creation
    rolls = Rng(rolls_seed)
    for u in s.units[1:]:
        d = c.enemies.get(u.def_id)
        if d is None or not u.rolled:
            continue
        history = u.history
        for m in d.moves:
            if (m.damage_max is not None and m.damage is not None and m.id in u.rolled
                    and m.id not in history):
                u.rolled[m.id] = rolls.between(m.damage, m.damage_max)
    # every random stream's future, and the seed the next battles derive theirs from
    s.rng_shuffle = Rng(shuffle)
    s.rng_ai = Rng(ai)
    s.rng_cards = Rng(cards)
    s.run_rng = Rng(run)
    s.seed = game
    return game

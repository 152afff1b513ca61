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

from ..rng import Rng, derive, mix

if TYPE_CHECKING:
    from ..content.db import Content
    from .state import State

# the streams a redraw makes: each the mixed seed of the redraw with a key of its own flipped
# in, fixed here once (the 64-bit keys of derive(0, name): stable across processes and engines)
_DRAW: Final = derive(0, "determinize:draw")
_ROLLS: Final = derive(0, "determinize:rolls")
_SHUFFLE: Final = derive(0, "determinize:shuffle")
_AI: Final = derive(0, "determinize:ai")
_CARDS: Final = derive(0, "determinize:cards")
_RUN: Final = derive(0, "determinize:run")
_GAME: Final = derive(0, "determinize:game")
_MASK: Final = (1 << 64) - 1


def redraw(c: Content, s: State, seed: int) -> int:
    """Draw everything hidden in ``s`` afresh from ``seed`` (in place); returns the new game
    seed (the seed the battles to come derive their streams from)."""
    base = mix(seed & _MASK)
    # the draw pile: the known places stay, the rest is put in a canonical order (by instance
    # id: a set the player knows) and shuffled, so the hidden order in ``s`` is never read
    draw = s.draw
    lo = s.known_bottom
    hi = len(draw) - s.known_top
    if hi - lo > 1:
        middle = sorted(draw[lo:hi])
        Rng(base ^ _DRAW).shuffle_short(middle)  # (fewer draws than ``shuffle``: rng.py)
        draw[lo:hi] = middle
    # an enemy's rolled damage of a move it has not planned yet: rolled again, as at its creation
    rolls: Rng | None = None
    for u in s.units[1:]:
        if not u.rolled:
            continue
        d = c.enemies.get(u.def_id)
        if d is None:
            continue
        history = u.history
        for m in d.moves:
            if (m.damage_max is not None and m.damage is not None and m.id in u.rolled
                    and m.id not in history):
                if rolls is None:
                    rolls = Rng(base ^ _ROLLS)
                u.rolled[m.id] = rolls.between(m.damage, m.damage_max)
    # every random stream's future, and the seed the next battles derive theirs from: each
    # the (already mixed) base with its own key flipped in, no mix of its own (SplitMix64
    # mixes its output, ``derive`` its seed: the states need only differ from each other)
    s.rng_shuffle = Rng(base ^ _SHUFFLE)
    s.rng_ai = Rng(base ^ _AI)
    s.rng_cards = Rng(base ^ _CARDS)
    s.run_rng = Rng(base ^ _RUN)
    s.seed = game = base ^ _GAME
    return game

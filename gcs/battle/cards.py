"""Primitive card operations: create, place, move (with lifecycles), draw, shuffle.

Every change to a pile goes through this module, which also publishes the events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.defs import GameCard
from ..content.roles import ON_DISCARD, ON_DRAWN
from ..enums import (
    PILE_DISCARD,
    PILE_DRAW,
    PILE_EXHAUST,
    PILE_HAND,
    PILE_LIMBO,
    PILE_REMOVED,
    POS_BOTTOM,
    POS_TOP,
    SCOPE_ALL,
    SCOPE_DISCARD,
    SCOPE_DRAW,
    SCOPE_EXHAUST,
    SCOPE_HAND,
    SCOPE_MASTER,
    DrawPilePosition,
    Pile,
    PileScope,
)
from ..events import (
    CardAddedToHand,
    CardCreated,
    CardDiscarded,
    CardDrawn,
    CardExhausted,
    CardMoved,
    DrawPileShuffled,
)
from ..flow.nodes import Node
from ..rng import derive
from . import frames as K
from .hooks import draws_forbidden, hand_size, hooks_possible
from .roles import roles_of
from .state import CardInstance, Ctx, Frame, State

if TYPE_CHECKING:
    from ..engine import Engine


PILE_SCOPE = {
    PILE_HAND: SCOPE_HAND,
    PILE_DRAW: SCOPE_DRAW,
    PILE_DISCARD: SCOPE_DISCARD,
    PILE_EXHAUST: SCOPE_EXHAUST,
}


def scope_of(pile: Pile) -> PileScope | None:
    return PILE_SCOPE.get(pile)


def new_instance(e: Engine, card: GameCard, upgraded: bool = False, cost_delta: int = 0,
                 origin: int = -1) -> CardInstance:
    """A new instance registered in the battle but in no pile yet."""
    s = e.s
    inst = CardInstance(s.next_card, card, upgraded, cost_delta, origin, PILE_REMOVED, s.token)
    s.next_card += 1
    s.cards[inst.uid] = inst
    return inst


def detach(e: Engine, inst: CardInstance) -> None:
    """Take an instance out of its pile (it is then in flight)."""
    p = inst.pile
    if p is PILE_HAND:
        e.s.hand.remove(inst.uid)  # (the usual one: a played card)
    elif p is PILE_DRAW:
        _take_from_draw(e.s, inst.uid)
    elif p <= PILE_EXHAUST:
        e.s.pile_list(p).remove(inst.uid)
    inst.pile = PILE_LIMBO


# ---------------------------------------------------------------- known places in Draw
# The player sees every card put on top of Draw or at its bottom, and never the order a shuffle
# or a random insertion makes: ``State.known_top`` / ``known_bottom`` count the cards at each
# end whose places the player knows (``Game.determinize`` keeps them and reshuffles the rest).
def _take_from_draw(s: State, uid: int) -> None:
    """Take ``uid`` out of Draw (from any place); a known place it held is known no more."""
    draw = s.draw
    i = draw.index(uid)
    n = len(draw)
    if i >= n - s.known_top:
        s.known_top -= 1
    elif i < s.known_bottom:
        s.known_bottom -= 1
    del draw[i]


def _took_top(s: State, n: int) -> None:
    """``n`` cards left the top of Draw (drawn): the known places go with them, and the known
    bottom is at most what is left."""
    top = s.known_top
    if top:
        s.known_top = top - n if top > n else 0
    if s.known_bottom > len(s.draw):
        s.known_bottom = len(s.draw)


def place(e: Engine, inst: CardInstance, pile: Pile,
          position: DrawPilePosition = DrawPilePosition.TOP) -> None:
    """Put an in-flight instance into a pile, with no event (the callers publish)."""
    s = e.s
    inst.pile = pile
    if pile is PILE_DRAW:
        if position is POS_TOP:
            s.draw.append(inst.uid)
            s.known_top += 1  # (the player sees it go on top)
        elif position is POS_BOTTOM:
            s.draw.insert(0, inst.uid)
            s.known_bottom += 1
        else:
            s.draw.insert(s.rng_shuffle.below(len(s.draw) + 1), inst.uid)
            # a place the player does not see, which may be above or below any known one
            s.known_top = s.known_bottom = 0
    elif pile is PILE_DISCARD:
        s.discard.append(inst.uid)  # (the usual one: a played card)
    else:
        s.pile_list(pile).append(inst.uid)


def remove_from_battle(e: Engine, inst: CardInstance) -> None:
    """Take an instance out of the battle for good: in no pile, still known by id (REMOVED).

    It stays listed in played/drawn-this-turn, and every later move of it is ignored.
    """
    old = inst.pile
    detach(e, inst)
    inst.pile = PILE_REMOVED
    if e.hot:
        e.record(CardMoved(inst.uid, inst.card_id, scope_of(old), None))


def hand_limit(e: Engine) -> int:
    return hand_size(e)


# ---------------------------------------------------------------- lifecycles
def lifecycle_entries(e: Engine, inst: CardInstance, entry: str) -> list[tuple[Node, Ctx]]:
    """Status branches (snapshot order) then the card's own behaviour for one card lifecycle."""
    out: list[tuple[Node, Ctx]] = []
    player = e.s.units[0]
    having = e.c.entry_statuses.get(entry)
    if having and player.statuses and not having.isdisjoint(player.statuses):
        statuses = e.c.statuses
        for sid in list(player.statuses):
            node = statuses[sid].entries.get(entry)
            if node is not None:
                ctx = Ctx(0, inst.uid, -1, sid, entry)
                ctx.objs["card"] = ["c", [inst.uid]]
                out.append((node, ctx))
    own = getattr(inst.active, entry)
    if own is not None:
        out.append((own, Ctx(0, inst.uid, -1, "", entry)))
    return out


def push_entries(e: Engine, entries: list[tuple[Node, Ctx]]) -> None:
    """Queue entries so that they run in list order, before the current wave continues."""
    stack = e.s.stack
    for node, ctx in reversed(entries):
        stack.append(Frame(K.ENTRY, node, 0, None, ctx))


def to_discard(e: Engine, inst: CardInstance, from_pile: Pile, reacting: int = -1) -> None:
    """An in-flight instance goes to Discard through the discard lifecycle. ``reacting``: the
    caller's read of whether a player status reacts to discards (its ``ON_DISCARD`` bit), or
    -1 to read it here."""
    s = e.s
    inst.pile = PILE_DISCARD  # (``place`` in Discard)
    s.discard.append(inst.uid)
    if e.hot:
        e.record(CardDiscarded(inst.uid, inst.card_id, scope_of(from_pile), SCOPE_DISCARD))
    if reacting < 0:
        player = s.units[0]
        reacting = roles_of(e, player) & ON_DISCARD if player.statuses else 0
    if reacting or inst.active.on_discard is not None:
        entries = lifecycle_entries(e, inst, "on_discard")
        if entries:
            push_entries(e, entries)


def discard_from_hand(e: Engine, inst: CardInstance, reacting: int = -1) -> None:
    """A card in hand moved to Discard (``move``): out of the hand, into Discard through the
    discard lifecycle (``reacting``: as ``to_discard``)."""
    hand = e.s.hand
    uid = inst.uid
    if hand[0] == uid:
        del hand[0]  # (the turn-end hand leaves front first)
    else:
        hand.remove(uid)
    to_discard(e, inst, PILE_HAND, reacting)


def to_exhaust(e: Engine, inst: CardInstance, from_pile: Pile) -> None:
    """An in-flight instance goes to Exhaust through the exhaust lifecycle."""
    place(e, inst, PILE_EXHAUST)
    if e.hot:
        e.record(CardExhausted(inst.uid, inst.card_id, scope_of(from_pile), SCOPE_EXHAUST))
    entries = lifecycle_entries(e, inst, "on_exhaust")
    if entries:
        push_entries(e, entries)


def to_hand(e: Engine, inst: CardInstance, from_pile: Pile | None) -> None:
    """An in-flight instance enters the hand, or overflows to Discard (with lifecycle) if full."""
    if len(e.s.hand) >= hand_limit(e):
        to_discard(e, inst, from_pile if from_pile is not None else PILE_LIMBO)
        return
    place(e, inst, PILE_HAND)
    if e.hot:
        e.record(CardAddedToHand(inst.uid, inst.card_id,
                  scope_of(from_pile) if from_pile is not None else None,
                  SCOPE_HAND))


def move(e: Engine, inst: CardInstance, target: PileScope,
         position: DrawPilePosition = DrawPilePosition.TOP) -> None:
    """Move an existing instance with the full lifecycle; moving to its own pile is a no-op."""
    old = inst.pile
    if old is PILE_HAND and target is SCOPE_DISCARD:
        discard_from_hand(e, inst)  # (the usual move: a discard from the hand)
        return
    if old is PILE_REMOVED:
        return  # a card that left the battle stays out of it
    if target is SCOPE_MASTER or target is SCOPE_ALL:
        remove_from_battle(e, inst)
        return
    if old is _PILE_OF[target]:
        return
    detach(e, inst)
    if target is SCOPE_DISCARD:
        to_discard(e, inst, old)
    elif target is SCOPE_EXHAUST:
        to_exhaust(e, inst, old)
    elif target is SCOPE_HAND:
        to_hand(e, inst, old)
    else:
        place(e, inst, PILE_DRAW, position)
        if e.hot:
            e.record(CardMoved(inst.uid, inst.card_id, scope_of(old), SCOPE_DRAW))


_PILE_OF = {
    SCOPE_HAND: PILE_HAND,
    SCOPE_DRAW: PILE_DRAW,
    SCOPE_DISCARD: PILE_DISCARD,
    SCOPE_EXHAUST: PILE_EXHAUST,
}


def create(e: Engine, card: GameCard, pile: PileScope, position: DrawPilePosition,
           upgraded: bool, like: CardInstance | None = None) -> CardInstance:
    """Create a new instance in place (no lifecycle); into a full hand it overflows to Discard.
    With ``like``, a copy of that instance (``card`` and ``upgraded`` its own)."""
    inst = new_instance(e, card, upgraded)
    if like is not None:
        inst.copy_stats(like)
    if pile is SCOPE_HAND:
        inst.pile = PILE_LIMBO
        to_hand(e, inst, None)
        return inst
    target = _PILE_OF.get(pile)
    if target is None:
        raise ValueError(f"cannot create a card in {pile.name}")
    place(e, inst, target, position)
    if e.hot:
        e.record(CardCreated(inst.uid, inst.card_id, None, pile))
    return inst



def close_piles(e: Engine) -> None:
    """The battle is over: every instance leaves it (REMOVED) and the piles are emptied, the
    places in Draw the player knew with them."""
    s = e.s
    for inst in s.cards.values():
        inst.pile = PILE_REMOVED
    s.cards = {}
    s.hand, s.draw, s.discard, s.exhaust = [], [], [], []
    s.known_top = s.known_bottom = 0
    s.played, s.drawn = [], []


# ---------------------------------------------------------------- shuffling
def shuffle_pile(e: Engine, pile: list[int]) -> None:
    """Shuffle ``pile`` (instance ids) by the game's rule: Fisher-Yates from the shuffle
    stream, or with ``BattleRules.keyed_shuffle`` ``keyed_order``."""
    if e.rules.keyed_shuffle:
        keyed_order(e.s, pile)
    else:
        e.s.rng_shuffle.shuffle(pile)


def keyed_order(s: State, pile: list[int]) -> None:
    """The keyed shuffle: one draw of the shuffle stream per shuffle, whatever the pile's size,
    and each card sorted by a key derived from that draw and the card's identity, its card id
    and its occurrence among the battle's instances of that id (the first Strike made is
    ``strike#0``), never its uid. Two battles of one seed whose decks differ by a card (a paired
    comparison's arms) draw the same numbers and give the cards they share the same keys, so
    those keep one relative order; each key is a 64-bit hash, so every order is as likely
    (a tie, about one in 2**60 for a deck of 40, falls to the uid)."""
    base = s.rng_shuffle.next64()
    cards = s.cards
    inside = set(pile)
    seen: dict[str, int] = {}
    keys: dict[int, int] = {}
    for uid in sorted(cards):  # (the occurrences in the order the instances were made)
        cid = cards[uid].card_id
        n = seen.get(cid, 0)
        seen[cid] = n + 1
        if uid in inside:
            keys[uid] = derive(base, f"{cid}#{n}")
    pile.sort(key=lambda u: (keys[u], u))


# ---------------------------------------------------------------- drawing
def reshuffle(e: Engine) -> None:
    """Discard shuffled back into Draw (only when a draw finds Draw empty)."""
    s = e.s
    cards = s.cards
    discard = s.discard
    for uid in discard:
        cards[uid].pile = PILE_DRAW
    s.draw.extend(discard)
    discard.clear()
    shuffle_pile(e, s.draw)
    s.known_top = s.known_bottom = 0
    if e.hot:
        e.record(DrawPileShuffled())


def shuffle_draw(e: Engine) -> None:
    shuffle_pile(e, e.s.draw)
    e.s.known_top = e.s.known_bottom = 0
    if e.hot:
        e.record(DrawPileShuffled())


def take_top(e: Engine) -> CardInstance | None:
    """The top card of Draw, reshuffling Discard in if Draw is empty; None if both are empty."""
    s = e.s
    if not s.draw:
        if not s.discard:
            return None
        reshuffle(e)
    inst = s.cards[s.draw.pop()]
    _took_top(s, 1)
    inst.pile = PILE_LIMBO
    return inst


def push_draw(e: Engine, count: int, automatic: bool) -> Frame | None:
    """Queue ``count`` draws (their DRAW frame, or None for none); automatic draws overflow to
    Discard, the others stop at a full hand."""
    if count <= 0:
        return None
    return e.push(K.DRAW, 0, [count, 1 if automatic else 0])


def step_draw(e: Engine, f: Frame) -> None:
    """The DRAW frame: cards drawn one by one (seed 004: for every actual draw, OnCardDrawn,
    then the player-status On Drawn branches in snapshot order, then the card's own, before
    the next card). A full hand stops a requested draw; an automatic one sends the card from
    the top of Draw to Discard with the discard lifecycle. Draw empty: Discard is shuffled in."""
    s = e.s
    data: list[int] = f.data
    left = data[0]
    automatic = data[1] == 1
    if hooks_possible(e, True):
        limit = hand_size(e)
        if draws_forbidden(e):
            e.pop()
            return
    else:
        limit = e.max_hand_size
    # (a draw changes no status: whether one reacts is read once, until queued work runs)
    player = s.units[0]
    reacting = roles_of(e, player) & ON_DRAWN if player.statuses else 0
    stack = s.stack
    hand = s.hand
    draw = s.draw
    drawn = s.drawn
    cards = s.cards
    while left > 0:
        if len(hand) >= limit:
            if not automatic:
                break  # DrawCards stops early at a full hand
            e.charge(1, "an automatic draw into a full hand")
            inst = take_top(e)
            if inst is None:
                break
            left -= 1
            to_discard(e, inst, PILE_DRAW)  # overflow: not drawn, discarded with lifecycle
        else:
            if draw:
                inst = cards[draw.pop()]
                if s.known_top or s.known_bottom:  # (else no place in Draw is known to go)
                    _took_top(s, 1)
            else:
                inst = take_top(e)  # reshuffles Discard into Draw, or None
                if inst is None:
                    break
            left -= 1
            uid = inst.uid
            inst.pile = PILE_HAND
            hand.append(uid)
            drawn.append(uid)
            if e.hot:
                e.record(CardDrawn(uid, inst.card_id, SCOPE_DRAW, SCOPE_HAND))
            if reacting or inst.active.on_drawn is not None:
                entries = lifecycle_entries(e, inst, "on_drawn")
                if entries:
                    push_entries(e, entries)
        if stack[-1] is not f or s.pause:
            data[0] = left
            return  # lifecycle branches run before the next draw
    data[0] = left
    e.pop()

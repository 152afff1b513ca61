"""Primitive card operations: create, place, move (with lifecycles), draw, shuffle.

Every change to a pile goes through this module, which also publishes the events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.defs import GameCard
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
from . import frames as K
from .hooks import draws_forbidden, hand_size, hooks_possible
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
        e.record((CardMoved, inst.uid, inst.card_id, scope_of(old), None))


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


def to_discard(e: Engine, inst: CardInstance, from_pile: Pile) -> None:
    """An in-flight instance goes to Discard through the discard lifecycle."""
    place(e, inst, PILE_DISCARD)
    if e.hot:
        e.record((CardDiscarded, inst.uid, inst.card_id, scope_of(from_pile), SCOPE_DISCARD))
    entries = lifecycle_entries(e, inst, "on_discard")
    if entries:
        push_entries(e, entries)


def to_exhaust(e: Engine, inst: CardInstance, from_pile: Pile) -> None:
    """An in-flight instance goes to Exhaust through the exhaust lifecycle."""
    place(e, inst, PILE_EXHAUST)
    if e.hot:
        e.record((CardExhausted, inst.uid, inst.card_id, scope_of(from_pile), SCOPE_EXHAUST))
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
        e.record((CardAddedToHand, inst.uid, inst.card_id,
                  scope_of(from_pile) if from_pile is not None else None,
                  SCOPE_HAND))


def move(e: Engine, inst: CardInstance, target: PileScope,
         position: DrawPilePosition = DrawPilePosition.TOP) -> None:
    """Move an existing instance with the full lifecycle; moving to its own pile is a no-op."""
    old = inst.pile
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
            e.record((CardMoved, inst.uid, inst.card_id, scope_of(old), SCOPE_DRAW))


_PILE_OF = {
    SCOPE_HAND: PILE_HAND,
    SCOPE_DRAW: PILE_DRAW,
    SCOPE_DISCARD: PILE_DISCARD,
    SCOPE_EXHAUST: PILE_EXHAUST,
}


def create(e: Engine, card: GameCard, pile: PileScope, position: DrawPilePosition,
           upgraded: bool) -> CardInstance:
    """Create a new instance in place (no lifecycle); into a full hand it overflows to Discard."""
    inst = new_instance(e, card, upgraded)
    if pile is SCOPE_HAND:
        inst.pile = PILE_LIMBO
        to_hand(e, inst, None)
        return inst
    target = _PILE_OF.get(pile)
    if target is None:
        raise ValueError(f"cannot create a card in {pile.name}")
    place(e, inst, target, position)
    if e.hot:
        e.record((CardCreated, inst.uid, inst.card_id, None, pile))
    return inst


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
    s.rng_shuffle.shuffle(s.draw)
    s.known_top = s.known_bottom = 0
    if e.hot:
        e.record((DrawPileShuffled,))


def shuffle_draw(e: Engine) -> None:
    e.s.rng_shuffle.shuffle(e.s.draw)
    e.s.known_top = e.s.known_bottom = 0
    if e.hot:
        e.record((DrawPileShuffled,))


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


def push_draw(e: Engine, count: int, automatic: bool) -> None:
    """Queue ``count`` draws; automatic draws overflow to Discard, others stop at a full hand."""
    if count > 0:
        e.s.stack.append(Frame(K.DRAW, None, 0, [count, 1 if automatic else 0], None))


def draw_at_once(e: Engine, count: int, hooks: bool | None = None) -> bool:
    """``push_draw(e, count, automatic=True)`` done here, not queued for the loop, when its DRAW
    step is sure to be ``step_draw``'s batch: no hook may be active (so the hand limit is
    MaxHandSize, no draw is forbidden, and the turn's count is DrawPerTurn), no status reacts to
    a draw, and the hand has room for every card. The same draws; its engine step is counted.
    A card's own On Drawn ends the batch: the DRAW frame with the draws still to do goes under
    its branch, where the loop has it. False, and nothing done, when it is not sure. ``hooks``:
    ``hooks_possible(e)`` when the caller knows it."""
    s = e.s
    limit = e.rules.max_hand_size
    if hooks is None:
        hooks = hooks_possible(e)
    if count <= 0 or len(s.hand) + count > limit or hooks:
        return False
    statuses = s.units[0].statuses
    if statuses and not e.c.drawn_statuses.isdisjoint(statuses):
        return False
    stack = s.stack
    depth = len(stack)
    data = [count, 1]
    _draw_batch(e, data, limit)
    s.steps += 1
    if len(stack) != depth:
        stack.insert(depth, Frame(K.DRAW, None, 0, data, None))
    return True


def step_draw(e: Engine, f: Frame) -> None:
    """Draw cards one by one; each card's On Drawn branches complete before the next draw."""
    s = e.s
    data = f.data
    stack = s.stack
    automatic = data[1] == 1
    hooks = hooks_possible(e)
    if hooks:
        limit = hand_size(e)
        forbidden = draws_forbidden(e)
    else:
        limit = e.rules.max_hand_size
        forbidden = False
    player = s.units[0]
    status_hooks = e.c.entry_statuses.get("on_drawn")
    if not forbidden and not e.subs and (
            not status_hooks or status_hooks.isdisjoint(player.statuses)):
        # the same draws at once: no status reacts to a draw, and nothing can add one or look
        # at the battle before a card's own On Drawn runs (that ends the batch)
        _draw_batch(e, data, limit)
        if stack[-1] is not f or len(s.hand) < limit or data[0] <= 0:
            if stack[-1] is f:
                stack.pop()  # done: the count is drawn, or both piles are empty
            return
    draw = s.draw
    cards = s.cards
    while True:
        if data[0] <= 0 or forbidden:
            stack.pop()
            return
        if len(s.hand) >= limit:
            if not automatic:
                stack.pop()  # DrawCards stops early at a full hand
                return
            e.charge(1, "an automatic draw into a full hand")
            inst = take_top(e)
            if inst is None:
                stack.pop()
                return
            data[0] -= 1
            to_discard(e, inst, PILE_DRAW)  # overflow: not drawn, discarded with lifecycle
        else:
            if draw:
                inst = cards[draw.pop()]
                _took_top(s, 1)
            else:
                inst = take_top(e)  # reshuffles Discard into Draw, or None
                if inst is None:
                    stack.pop()
                    return
            data[0] -= 1
            inst.pile = PILE_HAND
            s.hand.append(inst.uid)
            s.drawn.append(inst.uid)
            if e.hot:
                e.record((CardDrawn, inst.uid, inst.card_id, SCOPE_DRAW, SCOPE_HAND))
            if inst.active.on_drawn is not None or (
                    status_hooks and not status_hooks.isdisjoint(player.statuses)):
                entries = lifecycle_entries(e, inst, "on_drawn")
                if entries:
                    push_entries(e, entries)
        if stack[-1] is not f or s.pause:
            return  # lifecycle branches run before the next draw


def _draw_batch(e: Engine, data: list[int], limit: int) -> None:
    """``step_draw``'s draws into the room the hand has, when no status reacts to a draw and no
    subscriber can look at the battle in between: the same cards in the same order as one by
    one (Draw's top first; Discard reshuffled in when Draw runs out), each published as drawn.
    A card with its own On Drawn ends the batch: its branch is queued to run before the next
    draw. Stops at the count, a full hand, or with both piles empty."""
    s = e.s
    hand = s.hand
    draw = s.draw
    cards = s.cards
    hot = e.hot
    record = e.record
    count = data[0]
    while count > 0 and len(hand) < limit:
        if not draw:
            if not s.discard:
                return
            reshuffle(e)
        k = limit - len(hand)  # min(count, room in hand, cards in Draw)
        if count < k:
            k = count
        if len(draw) < k:
            k = len(draw)
        taken = draw[-k:]
        taken.reverse()  # the top of Draw is the end of the list
        own = None  # the first card with its own On Drawn: the last one of this batch
        for uid in taken:
            inst = cards[uid]
            inst.pile = PILE_HAND
            if hot:  # (no subscriber: the log alone sees the events, in the same order)
                record((CardDrawn, uid, inst.card_id, SCOPE_DRAW, SCOPE_HAND))
            if inst.active.on_drawn is not None:
                own = inst
                del taken[taken.index(uid) + 1:]  # (an id is in a pile once)
                break
        n = len(taken)
        del draw[len(draw) - n:]
        _took_top(s, n)
        hand.extend(taken)
        s.drawn.extend(taken)
        data[0] = count = count - n
        if own is not None:
            push_entries(e, lifecycle_entries(e, own, "on_drawn"))
            return

"""Battle rewards: candidates from the encounter's reward table, then apply one or skip.

On victory the table's gold is granted at once, and with it the gold the battle put into its
rewards (``reward_gold``: a Looter's loot, ``State.loot``); the offer is a list of alternatives
(card choices, upgrade a master-deck card, remove a master-deck card), of which the player
applies exactly one, or skips. Randomness comes from the run stream, so a reward depends on
the seed and the battles before it, never on what happened inside this battle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.defs import GameCard, RewardTable
from ..errors import RewardError
from ..events import BattleRewardOffered, GoldGained, RewardApplied
from .run import add_entry, remove_entry_at, upgrade_entry_at
from .state import Reward

if TYPE_CHECKING:
    from ..engine import Engine


def card_choices(e: Engine, table: RewardTable) -> list[str]:
    """``table.cards`` distinct card ids: each a rarity by weight, then a card of it uniformly.

    Rarities are those of the cards still left in the pool, in sorted order. A rarity without
    a positive weight is never drawn (fewer choices are offered if only such cards are left),
    unless the table gives no positive weight at all: then every rarity is equally likely.
    """
    # The rule, one pick at a time (tests/test_speed_setup.py keeps that loop and plays both),
    # with its per-pick work done once: the sorted
    # rarities and their weights (Content.reward_draw, once per table) are kept in parallel
    # lists and change only when a rarity runs out (its entry is deleted, which keeps them
    # sorted: what sorted(groups) gives again), and a rarity's cards are copied only when a
    # card is first taken from it. The weights' sum and how many are positive change only
    # then too: both are kept, not summed again per pick. Same draws, same order, same ids.
    rng = e.s.run_rng
    draw = e.c.reward_draw(table)
    any_weight = draw.any_weight
    w = list(draw.weights)  # one entry per rarity left (draw.rarities, in order)
    groups = list(draw.groups)
    left: list[list[GameCard] | None] = [None] * len(w)  # None: untouched, groups[i] as is
    total = 0  # sum(w)
    positive = 0  # how many of w are > 0
    for x in w:
        total += x
        if x > 0:
            positive += 1
    picked: list[str] = []
    while w and len(picked) < table.cards:
        if any_weight and not positive:
            break  # only unweighted rarities are left
        # a rarity by its weight in ``w`` (uniform when the weights sum to 0 or less)
        if total <= 0:
            i = rng.below(len(w))
        else:
            k = rng.below(total)
            i = 0
            for x in w:
                if k < x:
                    break
                k -= x
                i += 1
            else:
                i = len(w) - 1  # (unreachable with weights >= 0: k < total)
        of_rarity = left[i]
        if of_rarity is None:
            of_rarity = left[i] = list(groups[i])
        card = of_rarity.pop(rng.below(len(of_rarity)))
        if not of_rarity:
            x = w[i]
            total -= x
            if x > 0:
                positive -= 1
            del w[i], groups[i], left[i]
        picked.append(card.id)
    return picked


# A card reward is a frozen value that depends on its card id alone, and building one runs the
# dataclass's interpreted __init__ (about 1 us even compiled): each is built once per id and
# then shared, as equal strings are (no caller can change it; equality and hashing are by
# value, so a shared one compares as a new one would). Bounded for processes that load many
# packs.
_CARD_REWARDS: dict[str, Reward] = {}


def _card_reward(card_id: str) -> Reward:
    r = _CARD_REWARDS.get(card_id)
    if r is None:
        if len(_CARD_REWARDS) >= 4096:
            _CARD_REWARDS.clear()
        r = _CARD_REWARDS[card_id] = Reward("card", card_id=card_id)
    return r


def candidates(e: Engine, table: RewardTable) -> list[Reward]:
    """The alternatives a table offers: card choices, then upgrades, then removals (deck order)."""
    s = e.s
    cards = e.c.cards
    offers = [_card_reward(c) for c in card_choices(e, table)]
    if table.upgrade:
        offers += [Reward("upgrade", card_id=m.card_id, deck_index=i)
                   for i, m in enumerate(s.master)
                   if not m.upgraded and cards[m.card_id].upgrade is not None]
    if table.remove:
        offers += [Reward("remove", card_id=m.card_id, deck_index=i)
                   for i, m in enumerate(s.master)]
    return offers


def offer_rewards(e: Engine) -> None:
    """Grant the table's gold, then the loot, generate the candidates, publish
    BattleRewardOffered.

    ``is_waiting_for_reward`` is True from here until ``apply``/skip; an encounter without a
    reward table offers an empty list (the player still skips it to end the battle), and still
    grants the loot.
    """
    s = e.s
    enc = e.c.encounters.get(s.encounter)
    table = e.c.reward_tables.get(enc.rewards) if enc is not None and enc.rewards else None
    offers: list[Reward] = []
    if table is not None and table.gold_max > 0:
        gold = s.run_rng.between(table.gold_min, table.gold_max)
        s.gold += gold
        if e.hot:
            e.record(GoldGained(gold, s.gold))
    loot = s.loot
    if loot > 0:
        s.loot = 0
        s.gold += loot
        if e.hot:
            e.record(GoldGained(loot, s.gold))
    if table is not None:
        offers = candidates(e, table)
    s.rewards = offers
    if e.hot:
        e.record(BattleRewardOffered(tuple(str(r) for r in offers)))


def replace_offers(e: Engine, offers: list[Reward]) -> None:
    """Offer ``offers`` instead of the table's alternatives (a run layer drawing its own card
    rewards); publishes BattleRewardOffered again. The caller checked a reward is offered."""
    e.s.rewards = list(offers)
    if e.hot:
        e.record(BattleRewardOffered(tuple(str(r) for r in offers)))


def card_offer(card_id: str) -> Reward:
    """The card reward of ``card_id`` (one shared value per id)."""
    return _card_reward(card_id)


def _entry_index(e: Engine, reward: Reward) -> int:
    """The master-deck index a reward names, checked against the deck as it is now."""
    s = e.s
    i = reward.deck_index
    if i is None or not 0 <= i < len(s.master) or s.master[i].card_id != reward.card_id:
        raise RewardError(f"{reward} no longer names a {reward.card_id!r} card of the master "
                          f"deck (the deck changed after the reward was offered)")
    return i


def apply(e: Engine, reward: Reward) -> None:
    """Apply one offered reward to the run (the caller checked that it was offered).

    ``card`` adds the card to the master deck (CardAddedToDeck), ``upgrade`` upgrades that
    entry (CardModified), ``remove`` removes it (CardRemovedFromDeck), ``gold`` adds gold.
    A stale deck index raises RewardError and changes nothing.
    """
    s = e.s
    kind = reward.kind
    if kind == "card":
        if reward.card_id is None:
            raise RewardError(f"{reward} names no card")
        add_entry(e, reward.card_id)
    elif kind == "upgrade":
        i = _entry_index(e, reward)
        if s.master[i].upgraded:
            raise RewardError(f"{reward}: that card is already upgraded")
        upgrade_entry_at(e, i)
    elif kind == "remove":
        remove_entry_at(e, _entry_index(e, reward))
    elif kind == "gold":
        s.gold += reward.amount
        if e.hot:
            e.record(GoldGained(reward.amount, s.gold))
    else:
        raise RewardError(f"unknown reward kind {kind!r}")
    if e.hot:
        e.record(RewardApplied(str(reward)))

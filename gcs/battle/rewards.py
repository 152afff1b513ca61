"""Battle rewards: candidates from the encounter's reward table, then apply one or skip.

On victory the table's gold is granted at once; the offer is a list of alternatives
(card choices, upgrade a master-deck card, remove a master-deck card), of which the player
applies exactly one, or skips. Randomness comes from the run stream, so a reward depends on
the seed and the battles before it, never on what happened inside this battle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..content.defs import RewardTable
from ..errors import RewardError
from ..rng import Rng
from .run import add_entry, remove_entry_at, upgrade_entry_at
from .state import Reward

if TYPE_CHECKING:
    from ..engine import Engine


def _pick_rarity(rng: Rng, rarities: list[str], weights: dict[str, int]) -> str:
    """A rarity by weight (uniform when every weight is 0)."""
    w = [weights.get(r, 0) for r in rarities]
    total = sum(w)
    if total <= 0:
        return rarities[rng.below(len(rarities))]
    k = rng.below(total)
    for r, x in zip(rarities, w, strict=True):
        if k < x:
            return r
        k -= x
    return rarities[-1]  # unreachable: k < total


def card_choices(e: Engine, table: RewardTable) -> list[str]:
    """``table.cards`` distinct card ids: each a rarity by weight, then a card of it uniformly.

    Rarities are those of the cards still left in the pool, in sorted order. A rarity without
    a positive weight is never drawn (fewer choices are offered if only such cards are left),
    unless the table gives no positive weight at all: then every rarity is equally likely.
    """
    rng = e.s.run_rng
    groups = {r: list(cs) for r, cs in e.c.reward_pool(table).items()}
    weights = dict(table.rarity_weights)
    picked: list[str] = []
    while groups and len(picked) < table.cards:
        rarities = sorted(groups)
        if not any(weights.get(r, 0) > 0 for r in rarities) and any(weights.values()):
            break  # only unweighted rarities are left
        rarity = _pick_rarity(rng, rarities, weights)
        of_rarity = groups[rarity]
        card = of_rarity.pop(rng.below(len(of_rarity)))
        if not of_rarity:
            del groups[rarity]
        picked.append(card.id)
    return picked


def candidates(e: Engine, table: RewardTable) -> list[Reward]:
    """The alternatives a table offers: card choices, then upgrades, then removals (deck order)."""
    s = e.s
    cards = e.c.cards
    offers = [Reward("card", card_id=c) for c in card_choices(e, table)]
    if table.upgrade:
        offers += [Reward("upgrade", card_id=m.card_id, deck_index=i)
                   for i, m in enumerate(s.master)
                   if not m.upgraded and cards[m.card_id].upgrade is not None]
    if table.remove:
        offers += [Reward("remove", card_id=m.card_id, deck_index=i)
                   for i, m in enumerate(s.master)]
    return offers


def offer_rewards(e: Engine) -> None:
    """Grant the table's gold, generate the candidates, publish BattleRewardOffered.

    ``is_waiting_for_reward`` is True from here until ``apply``/skip; an encounter without a
    reward table offers an empty list (the player still skips it to end the battle).
    """
    s = e.s
    enc = e.c.encounters.get(s.encounter)
    table = e.c.reward_tables.get(enc.rewards) if enc is not None and enc.rewards else None
    offers: list[Reward] = []
    if table is not None:
        if table.gold_max > 0:
            gold = s.run_rng.between(table.gold_min, table.gold_max)
            s.gold += gold
            if e.hot:
                e.record((ev.GoldGained, gold, s.gold))
        offers = candidates(e, table)
    s.rewards = offers
    if e.hot:
        e.record((ev.BattleRewardOffered, tuple(str(r) for r in offers)))


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
            e.record((ev.GoldGained, reward.amount, s.gold))
    else:
        raise RewardError(f"unknown reward kind {kind!r}")
    if e.hot:
        e.record((ev.RewardApplied, str(reward)))

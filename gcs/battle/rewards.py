"""Battle rewards: candidates from the encounter's reward table, then apply or skip."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as ev
from ..content.defs import GameCard, RewardTable
from .run import add_entry, remove_entries, upgrade_entry
from .state import Reward

if TYPE_CHECKING:
    from ..engine import Engine


def card_choices(e: Engine, table: RewardTable) -> list[str]:
    """``table.cards`` distinct cards, each drawn by rarity weight then uniformly in rarity."""
    rng = e.s.run_rng
    pool: list[GameCard] = [e.c.cards[c] for c in table.pool if c in e.c.cards]
    picked: list[str] = []
    weights = dict(table.rarity_weights)
    for _ in range(table.cards):
        left = [c for c in pool if c.id not in picked]
        if not left:
            break
        rarities = sorted({c.rarity.value for c in left})
        w = [(r, weights.get(r, 0)) for r in rarities]
        total = sum(x for _, x in w)
        if total <= 0:
            rarity = rarities[rng.below(len(rarities))]
        else:
            k = rng.below(total)
            rarity = w[-1][0]
            for r, x in w:
                if k < x:
                    rarity = r
                    break
                k -= x
        of_rarity = [c for c in left if c.rarity.value == rarity]
        picked.append(of_rarity[rng.below(len(of_rarity))].id)
    return picked


def offer_rewards(e: Engine) -> None:
    """Generate the candidates, grant the gold, publish BattleRewardOffered."""
    s = e.s
    enc = e.c.encounters.get(s.encounter)
    table = e.c.reward_tables.get(enc.rewards) if enc is not None and enc.rewards else None
    offers: list[Reward] = []
    if table is not None:
        if table.gold_max > 0:
            gold = s.run_rng.between(table.gold_min, table.gold_max)
            s.gold += gold
            if e.hot:
                e.emit(ev.GoldGained(gold, s.gold))
        offers += [Reward("card", card_id=c) for c in card_choices(e, table)]
        if table.upgrade:
            offers += [Reward("upgrade", card_id=m.card_id, deck_index=i)
                       for i, m in enumerate(s.master)
                       if not m.upgraded and e.c.cards[m.card_id].upgrade is not None]
        if table.remove:
            offers += [Reward("remove", card_id=m.card_id, deck_index=i)
                       for i, m in enumerate(s.master)]
    s.rewards = offers
    if e.hot:
        e.emit(ev.BattleRewardOffered(tuple(str(r) for r in offers)))


def apply(e: Engine, reward: Reward) -> None:
    """Apply one offered reward to the run (the caller validated it was offered)."""
    s = e.s
    if reward.kind == "card" and reward.card_id is not None:
        add_entry(e, reward.card_id)
    elif reward.kind == "gold":
        s.gold += reward.amount
    elif reward.kind == "upgrade" and reward.deck_index is not None:
        m = s.master[reward.deck_index]
        # upgrade exactly that entry: move it first among equals, then upgrade the first
        s.master.insert(0, s.master.pop(reward.deck_index))
        upgrade_entry(e, m.card_id)
        s.master.insert(reward.deck_index, s.master.pop(0))
    elif reward.kind == "remove" and reward.deck_index is not None:
        m = s.master.pop(reward.deck_index)
        s.master.insert(0, m)
        remove_entries(e, m.card_id, first_only=True)
    if e.hot:
        e.emit(ev.RewardApplied(str(reward)))

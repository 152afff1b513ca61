"""The act's draws: its fight lists, card rewards and what an unknown room turns out to be.

Each follows the game (Exordium.generateMonsters, AbstractDungeon.getRewardCards and
rollRarity, EventHelper.roll at A0; read in sts_lightspeed's GameContext), on this package's
seeded integer streams; docs/run.md states the rules and what is simplified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..content.db import Content
from ..enums import Rarity
from ..errors import ContentError
from ..rng import Rng

WEAK_FIGHTS: Final = 3
STRONG_FIGHTS: Final = 12
ELITE_FIGHTS: Final = 10

# card rewards: the rarity factor ("blizzard") starts at 5, drops by 1 per common shown down to
# -40 and is back at 5 on a rare; a roll of 0..99 plus the factor under the rare chance is a
# rare, under rare + uncommon an uncommon, else a common
RARITY_START: Final = 5
RARITY_FLOOR: Final = -40
CHANCES: Final = {"normal": (3, 37), "elite": (10, 40)}  # (rare, uncommon) in percent

# unknown rooms: starting chances in percent and what each gains when not rolled
UNKNOWN_START: Final = {"monster": 10, "shop": 3, "treasure": 2}


def _weighted(rng: Rng, ids: Sequence[str], weights: Sequence[int]) -> str:
    k = rng.below(sum(weights))
    for cid, w in zip(ids, weights, strict=True):
        if k < w:
            return cid
        k -= w
    return ids[-1]  # (unreachable: k < the sum)


def pool(content: Content, name: str) -> list[str]:
    """The encounter ids of pool ``name``, sorted (a ContentError when the pool is empty)."""
    ids = sorted(e.id for e in content.encounters.values() if e.pool == name)
    if not ids:
        raise ContentError(f"the pack has no encounter in the {name!r} pool: an act needs "
                           f"weak, strong, elite and boss fights (docs/content.md)")
    return ids


def _extend(content: Content, rng: Rng, fights: list[str], name: str, n: int,
            elites: bool) -> None:
    """``n`` draws from pool ``name`` appended to ``fights``, never the last one again (nor the
    one before it, unless ``elites``)."""
    ids = pool(content, name)
    weights = [content.encounters[i].weight for i in ids]
    start = len(fights)
    while len(fights) < start + n:
        got = _weighted(rng, ids, weights)
        if fights and got == fights[-1]:
            continue
        if not elites and len(fights) > 1 and got == fights[-2]:
            continue
        fights.append(got)


def monster_list(content: Content, rng: Rng) -> list[str]:
    """The act's hallway fights in order: 3 weak ones, then 12 strong ones (the first never one
    of the last weak fight's exclusions; none a repeat of either of the two before it)."""
    fights: list[str] = []
    _extend(content, rng, fights, "weak", WEAK_FIGHTS, False)
    strong = pool(content, "strong")
    weights = [content.encounters[i].weight for i in strong]
    excluded = content.encounters[fights[-1]].exclusions
    first = _weighted(rng, strong, weights)
    while first in excluded:
        first = _weighted(rng, strong, weights)
    fights.append(first)
    _extend(content, rng, fights, "strong", STRONG_FIGHTS - 1, False)
    return fights


def elite_list(content: Content, rng: Rng) -> list[str]:
    """The act's elite fights in order (never the same one twice in a row)."""
    fights: list[str] = []
    _extend(content, rng, fights, "elite", ELITE_FIGHTS, True)
    return fights


def boss(content: Content, rng: Rng) -> str:
    """The act's boss, known from the start (each of the pool equally likely)."""
    ids = pool(content, "boss")
    return ids[rng.below(len(ids))]


def card_pool(content: Content) -> dict[str, list[str]]:
    """The reward cards by rarity (common, uncommon, rare): the ``normal`` reward table's pool."""
    table = content.reward_tables.get("normal")
    if table is None:
        raise ContentError("an act needs the pack's 'normal' reward table (its card pool)")
    out: dict[str, list[str]] = {"common": [], "uncommon": [], "rare": []}
    for cid in table.pool:
        r = content.card(cid).rarity
        if r in (Rarity.COMMON, Rarity.UNCOMMON, Rarity.RARE):
            out[r.value].append(cid)
    for rarity, ids in out.items():
        if not ids:
            raise ContentError(f"the 'normal' reward table's pool has no {rarity} card")
    return out


def rarity(roll: int, room: str) -> str:
    """The rarity of a card reward roll (0..99 plus the rarity factor) in a ``room``
    (normal, elite or boss: a boss's cards are all rare)."""
    if room == "boss":
        return "rare"
    rare, uncommon = CHANCES[room]
    if roll < rare:
        return "rare"
    return "uncommon" if roll < rare + uncommon else "common"


def card_reward(rng: Rng, cards: dict[str, list[str]], factor: int, room: str,
                n: int = 3) -> tuple[list[str], int]:
    """``n`` distinct reward cards for ``room`` and the rarity factor after them.

    Per card: a rarity (``rarity``), the factor updated by it, then a card of that rarity
    uniformly, drawn again while it is already offered (the game's rule: same rarity)."""
    picked: list[str] = []
    for _ in range(n):
        r = rarity(rng.below(100) + factor, room)
        if r == "rare":
            factor = RARITY_START
        elif r == "common":
            factor = max(RARITY_FLOOR, factor - 1)
        group = cards[r]
        if all(c in picked for c in group):
            continue  # (a pool this small cannot fill the offer: fewer cards)
        card = group[rng.below(len(group))]
        while card in picked:
            card = group[rng.below(len(group))]
        picked.append(card)
    return picked, factor


def unknown_room(rng: Rng, chances: dict[str, int], after_shop: bool) -> str:
    """What an unknown room is (monster, shop, treasure or event); updates ``chances``.

    A roll of 0..99 falls in the monster band, then the shop band (none right after a shop),
    then the treasure band, else it is an event. The rolled kind's chance goes back to its
    start; each other one grows by its start (10, 3 and 2 points)."""
    idx = rng.below(100)
    monster = chances["monster"]
    shop = monster + (0 if after_shop else chances["shop"])
    treasure = shop + chances["treasure"]
    got = ("monster" if idx < monster else "shop" if idx < shop
           else "treasure" if idx < treasure else "event")
    for kind, start in UNKNOWN_START.items():
        chances[kind] = start if kind == got else chances[kind] + start
    return got

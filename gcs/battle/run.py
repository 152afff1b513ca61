"""The run master deck: persistent across battles, never retroactive to a live battle."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..content.db import Content
from ..content.defs import CharacterDef
from ..enums import SCOPE_MASTER
from ..errors import GameError
from ..events import CardAddedToDeck, CardModified, CardRemovedFromDeck, Healed
from .state import MasterEntry

if TYPE_CHECKING:
    from ..engine import Engine


# The starting master deck of a character, as ``add_entry`` built it for the first game of that
# (content, character): later games copy the list (content is immutable and a MasterEntry is a
# value). Keyed by the definition's id; the objects kept in the value make the key safe.
_STARTING_DECKS: dict[int, tuple[Content, CharacterDef, tuple[MasterEntry, ...]]] = {}


def begin_run(e: Engine, character: str | None) -> CharacterDef | None:
    """A new run for ``character`` (None: the content's first, in sorted order; a content
    with none: an 80 HP run and no deck): its HP, gold and starting master deck."""
    c = e.c
    s = e.s
    if character is None and c.characters:
        character = min(c.characters)
    if character is None:
        s.hp = s.max_hp = 80
        return None
    ch = c.character(character)
    s.character = ch.id
    s.hp = s.max_hp = ch.max_hp
    s.gold = ch.gold
    known = _STARTING_DECKS.get(id(ch))
    if known is not None and known[0] is c and known[1] is ch:
        s.master = list(known[2])  # what the loop below makes, built once
        s.next_entry += len(known[2])
        return ch
    logging = e.logging
    e.logging = False
    for d in ch.starting_deck:
        for _ in range(d.count):
            add_entry(e, d.card, d.upgraded)
    e.logging = logging
    if len(_STARTING_DECKS) >= 64:
        _STARTING_DECKS.clear()  # a bound for processes that load many packs
    _STARTING_DECKS[id(ch)] = (c, ch, tuple(s.master))
    return ch


def add_entry(e: Engine, card_id: str, upgraded: bool = False, cost_delta: int = 0) -> MasterEntry:
    e.c.card(card_id)  # raises UnknownCardError
    s = e.s
    entry = MasterEntry(card_id, upgraded, cost_delta, s.next_entry)
    s.next_entry += 1
    s.master.append(entry)
    if e.hot:
        e.record(CardAddedToDeck(-1, card_id, None, SCOPE_MASTER, upgraded, len(s.master)))
    return entry


def set_entries(e: Engine, entries: Iterable[object]) -> None:
    """Replace the master deck (validated first: an unknown id changes nothing).

    Entries are MasterEntry values, card ids or (card id, upgraded) pairs; they are typed
    ``object`` because this is where user input is checked."""
    norm: list[tuple[str, bool, int]] = []
    for x in entries:
        if isinstance(x, MasterEntry):
            norm.append((x.card_id, x.upgraded, x.cost_delta))
        elif isinstance(x, str):
            norm.append((x, False, 0))
        elif (isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)
              and isinstance(x[1], bool)):
            norm.append((x[0], x[1], 0))
        else:
            raise GameError(f"a master deck entry is a MasterEntry, a card id or a "
                            f"(card id, upgraded) pair, got {x!r}")
    for cid, _, _ in norm:
        e.c.card(cid)
    e.s.master = []
    for cid, up, delta in norm:
        add_entry(e, cid, up, delta)


def remove_entries(e: Engine, card_id: str, first_only: bool) -> int:
    """Remove the first (or every) entry of ``card_id``; an id the content lacks raises."""
    e.c.card(card_id)  # raises UnknownCardError
    s = e.s
    keep: list[MasterEntry] = []
    removed = 0
    for m in s.master:
        if m.card_id == card_id and (not first_only or removed == 0):
            removed += 1
        else:
            keep.append(m)
    s.master = keep
    if removed and e.hot:
        e.record(CardRemovedFromDeck(card_id, removed))
    return removed


def upgrade_entry(e: Engine, card_id: str) -> bool:
    """Upgrade the first not-yet-upgraded entry of ``card_id``; False if there is none."""
    s = e.s
    card = e.c.card(card_id)
    if card.upgrade is None:
        return False
    for i, m in enumerate(s.master):
        if m.card_id == card_id and not m.upgraded:
            s.master[i] = m._replace(upgraded=True)
            if e.hot:
                e.record(CardModified(-1, card_id, "upgrade", True))
            return True
    return False


def change_master_cost(e: Engine, entry_uid: int, delta: int) -> None:
    s = e.s
    for i, m in enumerate(s.master):
        if m.uid == entry_uid:
            s.master[i] = m._replace(cost_delta=m.cost_delta + delta)
            return


def upgrade_entry_at(e: Engine, index: int) -> MasterEntry:
    """Upgrade the master-deck entry at ``index`` (it must be upgradable and not yet upgraded)."""
    s = e.s
    m = s.master[index]
    s.master[index] = new = m._replace(upgraded=True)
    if e.hot:
        e.record(CardModified(-1, m.card_id, "upgrade", True))
    return new


def remove_entry_at(e: Engine, index: int) -> MasterEntry:
    """Remove the master-deck entry at ``index``; returns it."""
    m = e.s.master.pop(index)
    if e.hot:
        e.record(CardRemovedFromDeck(m.card_id, 1))
    return m


def heal_run(e: Engine, amount: int) -> int:
    """Heal the run's HP between battles by ``amount`` (up to max HP; a rest site, a relic);
    publishes Healed for the player (unit 0); returns the HP gained."""
    s = e.s
    gained = max(0, min(amount, s.max_hp - s.hp))
    s.hp += gained
    if gained and e.hot:
        e.record(Healed(0, gained))
    return gained

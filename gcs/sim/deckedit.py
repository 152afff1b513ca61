"""Deck edits for comparisons: ``+carnage`` (add a copy), ``-defend`` (remove one), ``bash+``
(upgrade one), and the edits of a card-value sweep (each candidate added, each card of the deck
removed, each upgraded).

A deck is a tuple of entries, ``id`` or ``id+`` for an upgraded copy (as ``--deck`` and pack
YAML write them). Edits apply in order to a copy of the base deck: an added card goes to the end,
a removed or upgraded one is the first copy that matches, so the deck keeps its order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..content.db import Content
from ..content.limits import MAX_DECK
from ..enums import Rarity
from ..errors import GameError
from .jobs import parse_deck

Deck = tuple[str, ...]

#: The rarities of the cards that "--add all" tries: what a card reward offers a character.
CANDIDATE_RARITIES = (Rarity.COMMON, Rarity.UNCOMMON, Rarity.RARE)


class DeckEditError(GameError):
    """A deck edit that cannot be read or applied (the message names the entry)."""


@dataclass(frozen=True)
class Edit:
    """One change to a deck: ``op`` is ``add``, ``remove`` or ``upgrade``; ``card`` an entry
    (``id``, or ``id+`` for an upgraded copy); ``count`` how many copies."""

    op: str
    card: str
    count: int = 1

    @property
    def text(self) -> str:
        """The edit as written: ``+carnage``, ``-defend*2``, ``bash+``."""
        times = f"*{self.count}" if self.count != 1 else ""
        if self.op == "upgrade":
            return f"{self.card}+{times}"
        return f"{'+' if self.op == 'add' else '-'}{self.card}{times}"


def unknown_card(cid: str, content: Content) -> str:
    """``unknown card 'x'``, with the pack's closest ids when some are close."""
    import difflib

    close = difflib.get_close_matches(cid, list(content.cards), n=3, cutoff=0.6)
    return f"unknown card {cid!r}" + (f"; did you mean {' or '.join(map(repr, close))}?"
                                      if close else "")


def _entry(text: str, where: str) -> tuple[str, int]:
    name, star, count = text.partition("*")
    name = name.strip()
    if star and not count.strip().isdigit():
        raise DeckEditError(f"{where}: the count after '*' is a whole number")
    n = int(count) if star else 1
    if not name or name == "+" or n < 1:
        raise DeckEditError(f"{where}: not a card entry")
    if n > MAX_DECK:
        raise DeckEditError(f"{where}: a deck holds at most {MAX_DECK} cards")
    return name, n


def parse_edits(text: str) -> tuple[Edit, ...] | None:
    """The edits of ``text`` (``+carnage,-defend,bash+``), or None if ``text`` is a whole deck
    (plain entries such as ``strike*5,defend*4,bash+``; a leading ``=`` forces a whole deck).
    Mixing edits and plain entries is an error."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise DeckEditError(f"empty deck or edit {text!r}")
    if text.lstrip().startswith("="):
        return None
    edits: list[Edit] = []
    plain: list[str] = []
    for part in parts:
        where = f"deck edit {part!r}"
        if part[0] in "+-":
            name, n = _entry(part[1:], where)
            edits.append(Edit("add" if part[0] == "+" else "remove", name, n))
        elif part.partition("*")[0].strip().endswith("+"):
            name, n = _entry(part, where)
            edits.append(Edit("upgrade", name[:-1], n))
        else:
            plain.append(part)
    if edits and plain:
        raise DeckEditError(f"{text!r} mixes edits ({edits[0].text}) with whole-deck entries "
                            f"({plain[0]}): write +card, -card and card+ only, or a whole deck")
    # a deck made only of upgraded cards ("bash+") reads as an edit; "=bash+" is that deck
    return tuple(edits) if edits else None


def whole_deck(text: str) -> Deck:
    """The whole deck of ``text`` (``strike*5,defend*4,bash``, with or without a leading ``=``)."""
    deck = parse_deck(text.lstrip().removeprefix("="))
    if not deck:
        raise DeckEditError(f"empty deck {text!r}")
    return deck


def apply_edits(deck: Sequence[str], edits: Iterable[Edit], content: Content) -> Deck:
    """``deck`` with ``edits`` applied in order; DeckEditError for a card the pack lacks, a
    card without an upgrade, or a copy the deck does not hold."""
    out = list(deck)
    for e in edits:
        cid = e.card[:-1] if e.card.endswith("+") else e.card
        card = content.cards.get(cid)
        if card is None:
            raise DeckEditError(f"{e.text}: {unknown_card(cid, content)}")
        if (e.op == "upgrade" or e.card.endswith("+")) and card.upgrade is None:
            raise DeckEditError(f"{e.text}: card {cid!r} has no upgrade")
        if e.op == "add":
            if len(out) + e.count > MAX_DECK:
                raise DeckEditError(f"{e.text}: a deck holds at most {MAX_DECK} cards")
            out.extend([e.card] * e.count)
            continue
        hits = [i for i, c in enumerate(out) if c == e.card][:e.count]
        if len(hits) < e.count:
            held = out.count(e.card + "+") if e.op == "remove" and not hits else 0
            hint = f" (it holds {e.card}+: write -{e.card}+)" if held else ""
            raise DeckEditError(f"{e.text}: the deck holds no{' more' if hits else ''} "
                                f"{e.card} to {e.op}{hint}")
        if e.op == "remove":
            gone = set(hits)
            out = [c for i, c in enumerate(out) if i not in gone]
        else:
            for i in hits:
                out[i] = e.card + "+"
    if not out:
        raise DeckEditError("the edits leave an empty deck")
    return tuple(out)


def starting_deck(content: Content, character: str | None) -> Deck:
    """The character's starting deck as entries (None: the pack's default character)."""
    char = content.characters[character] if character else next(iter(content.characters.values()))
    return tuple(e.card + ("+" if e.upgraded else "") for e in char.starting_deck
                 for _ in range(e.count))


def character_of(content: Content, character: str | None) -> str:
    """The id of ``character`` or of the pack's default one."""
    return character or next(iter(content.characters))


def candidates(content: Content, character: str | None) -> list[str]:
    """The cards "--add all" tries: the character's common, uncommon and rare cards, in pack
    order (Slay the Spire's card rewards offer these; basics, curses and statuses are left out)."""
    who = character_of(content, character)
    return [cid for cid, c in content.cards.items()
            if c.character == who and c.rarity in CANDIDATE_RARITIES]


def _ids(spec: str, every: Sequence[str], content: Content, what: str) -> list[str]:
    if spec.strip() == "all":
        return list(every)
    out = [x.strip() for x in spec.split(",") if x.strip()]
    for cid in out:
        if cid.removesuffix("+") not in content.cards:
            raise DeckEditError(f"--{what}: {unknown_card(cid, content)}")
    return out


def card_value_edits(content: Content, deck: Sequence[str], character: str | None, *,
                     add: str | None = None, remove: str | None = None,
                     upgrade: str | None = None) -> list[tuple[Edit, ...]]:
    """The one-edit variants of a card-value sweep: ``add`` (``all`` or ids) each added,
    ``remove`` each removed, ``upgrade`` each upgraded (``all``: every distinct card of the deck
    that can be; an upgrade of a card the deck does not hold is an error)."""
    out: list[tuple[Edit, ...]] = []
    if add:
        out += [(Edit("add", cid),) for cid in _ids(add, candidates(content, character),
                                                     content, "add")]
    distinct = list(dict.fromkeys(deck))
    if remove:
        out += [(Edit("remove", cid),) for cid in _ids(remove, distinct, content, "remove")]
    if upgrade:
        plain = [c for c in distinct if not c.endswith("+") and content.cards[c].upgrade]
        ids = _ids(upgrade, plain, content, "upgrade")
        out += [(Edit("upgrade", cid),) for cid in ids]
    return out

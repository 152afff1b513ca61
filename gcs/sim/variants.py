"""The arms of a comparison from what a designer asks: the baseline (a pack, its starting deck or
another deck, a policy) and the variants (other packs, the pack as committed in git, deck edits,
a card-value sweep's edits, other policies), each checked against its pack."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..content.db import Content
from ..content.loader import BUILTIN, pack_content
from .compare import Arm, CompareError
from .deckedit import (
    Deck,
    DeckEditError,
    apply_edits,
    card_value_edits,
    parse_edits,
    starting_deck,
    whole_deck,
)
from .jobs import parse_deck


@dataclass
class Request:
    """What to compare. ``packs[0]`` (or the bundled pack) is the baseline's pack; ``git``: the
    baseline is that pack as committed at this revision, and the pack on disk the first
    variant; each further pack is a variant; each of ``decks`` is a variant deck (an edit of
    the baseline deck such as ``+carnage,-defend`` or ``bash+``, or a whole deck); ``add``,
    ``remove``, ``upgrade`` (``all`` or card ids) make a card-value sweep's one-edit variants;
    each of ``policies`` is the baseline played by another policy."""

    policy: str
    packs: Sequence[str] = ()
    git: str | None = None
    base_deck: str | None = None
    decks: Sequence[str] = ()
    add: str | None = None
    remove: str | None = None
    upgrade: str | None = None
    policies: Sequence[str] = ()
    character: str | None = None
    workdir: Path | None = None  # where a --git pack is written (the caller removes it)
    contents: dict[str | None, Content] = field(default_factory=dict)

    def content(self, pack: str | None) -> Content:
        """The pack at ``pack`` (None: bundled), loaded once."""
        got = self.contents.get(pack)
        if got is None:
            got = self.contents[pack] = pack_content(pack)
        return got


def _pack_path(pack: str) -> str:
    return str(Path(pack).resolve())


def build_arms(req: Request) -> tuple[Arm, ...]:
    """The baseline and the variants of ``req``, in the order given (packs, decks, card-value
    edits, policies); CompareError when there is nothing to compare or a label repeats."""
    packs = [_pack_path(p) for p in req.packs]
    base_pack: str | None = packs[0] if packs else None
    arms: list[Arm] = []
    if req.git is not None:
        from .gitpack import pack_at

        if req.workdir is None:
            raise CompareError("--git needs a directory to write the committed pack to")
        on_disk = Path(base_pack) if base_pack is not None else BUILTIN
        committed, sha = pack_at(on_disk, req.git, req.workdir)
        name = req.packs[0] if req.packs else "the bundled pack"
        base = _baseline(req, str(committed), f"{name} at {req.git} ({sha})")
        arms.append(dataclasses.replace(base, origin=f"{on_disk.resolve()}@{sha}"))
        arms.append(Arm(f"{name} (working copy)", "pack", base_pack, arms[0].deck, req.policy))
    else:
        arms.append(_baseline(req, base_pack, req.packs[0] if req.packs else ""))
    base = arms[0]
    for given, path in zip(req.packs[1:], packs[1:], strict=True):
        arms.append(Arm(given, "pack", path, base.deck, req.policy))
    content = req.content(base.pack)
    deck0 = base.deck if base.deck is not None else starting_deck(content, req.character)
    for text in req.decks:
        try:
            edits = parse_edits(text)
            deck = whole_deck(text) if edits is None else apply_edits(deck0, edits, content)
        except DeckEditError as exc:
            raise DeckEditError(f"--deck {text!r}: {exc}") from None
        arms.append(Arm(text.strip(), "deck", base.pack, deck, req.policy))
    for edits in card_value_edits(content, deck0, req.character, add=req.add,
                                  remove=req.remove, upgrade=req.upgrade):
        arms.append(Arm(edits[0].text, edits[0].op, base.pack,
                        apply_edits(deck0, edits, content), req.policy, edits[0].card))
    for p in req.policies:
        arms.append(Arm(f"policy {p}", "policy", base.pack, base.deck, p))
    if len(arms) < 2:
        raise CompareError("nothing to compare: give a variant (--deck +card, a second --pack, "
                           "--git REV, --add/--remove/--upgrade, or --policy-variant)")
    seen: dict[str, int] = {}
    for i, a in enumerate(arms):
        if a.label in seen:
            raise CompareError(f"the variant {a.label!r} is given twice")
        seen[a.label] = i
    return tuple(arms)


def _baseline(req: Request, pack: str | None, where: str) -> Arm:
    """The baseline arm, labelled by its pack (``where``, if not the bundled one) and deck."""
    deck: Deck | None = None
    what = "starter deck"
    if req.base_deck is not None:
        deck = parse_deck(req.base_deck)
        if not deck:
            raise CompareError(f"--base-deck {req.base_deck!r} is empty")
        what = req.base_deck.strip()
    label = what if not where else where if deck is None else f"{where}: {what}"
    return Arm(label, "baseline", pack, deck, req.policy)

"""``gcs validate``, ``gcs cards`` and ``gcs encounters``: check and browse a content pack."""

from __future__ import annotations

from typing import Annotated

import typer

from ..content.defs import GameCard
from .common import Pack, console, escape, load_pack


def register(app: typer.Typer) -> None:
    """Add ``validate``, ``cards`` and ``encounters``."""
    app.command("validate", help="validate a content pack directory")(validate)
    app.command("cards", help="list a pack's cards: cost, type, keywords, text")(cards)
    app.command("encounters", help="list a pack's encounters: enemies with HP and moves")(encounters)


def validate(path: Annotated[str, typer.Argument(help="pack directory")]) -> None:
    """Print every problem with file and line; exit 1 if there is any."""
    from ..content.loader import validate_path

    ok, lines = validate_path(path)
    for line in lines:
        print(line)
    if not ok:
        raise typer.Exit(1)


def cards(query: Annotated[str | None, typer.Argument(
              help="show cards whose id, name, type, keyword or text contains this")] = None,
          pack: Pack = None) -> None:
    """A table of the pack's cards (optionally filtered)."""
    from rich.table import Table

    content = load_pack(pack)
    t = Table(title=f"cards of pack {content.pack_id!r}", header_style="bold")
    for col in ("id", "name", "cost", "type", "rarity", "keywords", "text"):
        t.add_column(col, justify="right" if col == "cost" else "left",
                     overflow="fold", max_width=60 if col == "text" else None)
    q = (query or "").lower()
    shown = 0
    for cid in sorted(content.cards):
        c = content.cards[cid]
        kws = ", ".join(sorted(k.value for k in c.keywords))
        cost = "X" if c.x_cost else str(c.cost)
        fields = (c.id, c.name, c.type.value, kws, card_text(c), c.rarity.value)
        if q and not any(q in f.lower() for f in fields):
            continue
        shown += 1
        t.add_row(escape(c.id), escape(c.name), cost, c.type.value, c.rarity.value, escape(kws),
                  escape(card_text(c)))
    con = console()
    if not shown:
        con.print(f"no card matches {query!r} in pack {content.pack_id!r}")
        raise typer.Exit(2)
    con.print(t)
    con.print(f"{shown} of {len(content.cards)} cards")


def card_text(card: GameCard) -> str:
    """The card's text with its numbers filled in (``Deal 6 damage.``), as on its face."""
    from ..battle.describe import fill

    return fill(card)


def encounters(pack: Pack = None) -> None:
    """A table of the pack's encounters, their enemies (HP range) and moves."""
    from rich.table import Table

    content = load_pack(pack)
    t = Table(title=f"encounters of pack {content.pack_id!r}", header_style="bold")
    for col in ("id", "kind", "enemy", "hp", "moves"):
        t.add_column(col, overflow="fold")
    for eid in sorted(content.encounters):
        enc = content.encounters[eid]
        for n, uid in enumerate(enc.enemies):
            e = content.enemies.get(uid)
            if e is None:
                continue
            hp = str(e.hp_min) if e.hp_min == e.hp_max else f"{e.hp_min}-{e.hp_max}"
            moves = "; ".join(_move(m) for m in e.moves)
            t.add_row(escape(eid) if n == 0 else "", enc.kind if n == 0 else "", escape(e.name), hp,
                      escape(moves), end_section=n == len(enc.enemies) - 1)
    console().print(t)
    console().print(f"{len(content.encounters)} encounters, {len(content.enemies)} enemies")


def _move(m: object) -> str:
    from ..content.defs import MoveDef

    assert isinstance(m, MoveDef)
    parts = [m.name, m.intent.value]
    if m.damage is not None:
        parts.append(f"{m.damage}x{m.hits}" if m.hits > 1 else str(m.damage))
    if m.block is not None:
        parts.append(f"block {m.block}")
    return " ".join(parts)

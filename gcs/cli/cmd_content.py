"""``gcs validate``, ``gcs cards`` and ``gcs encounters``: check and browse a content pack."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from ..content.db import Content
from ..content.defs import EncounterDef, GameCard, MoveDef
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
    """A table of the pack's encounters: the compositions they roll, then each enemy that can
    appear (HP range, starting statuses) with its moves and what each does."""
    from rich.table import Table

    content = load_pack(pack)
    t = Table(title=f"encounters of pack {content.pack_id!r}", header_style="bold")
    for col in ("id", "kind", "enemies", "enemy", "hp", "moves"):
        t.add_column(col, overflow="fold")
    for eid in sorted(content.encounters):
        enc = content.encounters[eid]
        ids = [x for x in enc.enemy_ids() if x in content.enemies]
        for n, uid in enumerate(ids):
            e = content.enemies[uid]
            hp = str(e.hp_min) if e.hp_min == e.hp_max else f"{e.hp_min}-{e.hp_max}"
            starts = ", ".join([f"{k} {v}" for k, v in e.statuses.items()]
                               + [f"{k} {lo}-{hi}" for k, (lo, hi) in e.status_ranges.items()])
            moves = "\n".join(_move(content, m) for m in e.moves)
            t.add_row(escape(eid) if n == 0 else "", enc.kind if n == 0 else "",
                      escape(composition(content, enc)) if n == 0 else "",
                      escape(e.name), hp + (f"\n{escape(starts)}" if starts else ""),
                      escape(moves), end_section=n == len(ids) - 1)
    console().print(t)
    console().print(f"{len(content.encounters)} encounters, {len(content.enemies)} enemies")


def composition(content: Content, enc: EncounterDef) -> str:
    """Which enemies an encounter fields: fixed, one roll per slot (``A or B``), or one of
    several groups, each written out (``one of: A + B | C + D``)."""
    def name(uid: str) -> str:
        e = content.enemies.get(uid)
        return e.name if e is not None else uid

    def group(slots: tuple[tuple[str, ...], ...]) -> str:
        return " + ".join(" or ".join(name(x) for x in slot) for slot in slots)

    if enc.draw:
        counts = dict.fromkeys(enc.draw_from, 0)
        for x in enc.draw_from:
            counts[x] += 1
        return f"{enc.draw} drawn from " + ", ".join(
            name(x) + (f" x{n}" if n > 1 else "") for x, n in counts.items())
    if not enc.groups:
        return " + ".join(name(x) for x in enc.enemies)
    if len(enc.groups) == 1:
        rolled = any(len(slot) > 1 for slot in enc.groups[0])
        return group(enc.groups[0]) + (" (each slot rolled)" if rolled else "")
    return "one of: " + " | ".join(group(g) for g in enc.groups)


def _move(content: Content, m: MoveDef) -> str:
    """A move: name, intent, damage and block, then what the rest of it does."""
    from ..content.dump import DumpError, move

    parts = [m.name, f"({m.intent.value})"]
    if m.damage is not None:
        dmg = str(m.damage) if m.damage_max is None else f"{m.damage}-{m.damage_max}"
        parts.append(f"{dmg}x{m.hits}" if m.hits > 1 else dmg)
    if m.block is not None:
        parts.append(f"block {m.block}")
    try:
        do = move(m).get("do")
    except DumpError:  # (a behaviour no YAML can write: say only what the intent says)
        do = None
    if do is not None:
        parts.append("- " + _effect(content, do, 0))
    return " ".join(parts)


def _effect(content: Content, eff: object, depth: int) -> str:
    """An effect as its YAML reads (``apply strength 3 to self``), a called graph written out."""
    if isinstance(eff, list):
        return "; ".join(_effect(content, x, depth) for x in eff)
    if not isinstance(eff, dict) or len(eff) != 1:
        return _value(eff)
    (verb, fields), = eff.items()
    verb = str(verb)
    if not isinstance(fields, dict):
        return f"{verb} {_value(fields)}"
    f = dict(fields)
    if verb == "call" and depth < 3 and f.get("graph") in content.graphs:
        from ..content.dump import DumpError, effect

        try:
            inner = _effect(content, effect(content.graphs[f["graph"]]), depth + 1)
        except DumpError:
            inner = "..."
        return f"{f['graph']}: {inner}"
    if verb == "apply":
        return f"apply {f.get('status')} {_value(f.get('amount'))} to {_value(f.get('to'))}"
    if verb == "deal":
        hits = f.get("hits", 1)
        return (f"deal {_value(f.get('amount'))}{'' if hits == 1 else 'x' + _value(hits)} "
                f"to {_value(f.get('to'))}")
    short: dict[str, Callable[[dict[str, Any]], str]] = {
        "add_card": lambda f: f"add {_value(f.get('count', 1))} {f.get('card')} to {f.get('to')}",
        "set": lambda f: f"{f.get('name')} = {_value(f.get('to'))}",
        "kill": lambda f: f"kill {_value(f.get('unit'))}",
        "spawn": lambda f: f"spawn {f.get('enemy')}" + (f" (hp {_value(f['hp'])})" if "hp" in f else ""),
        "remove_status": lambda f: f"remove {f.get('status')} from {_value(f.get('from'))}",
        "gain_gold": lambda f: f"gain {_value(f.get('amount'))} gold",
        "reward_gold": lambda f: f"add {_value(f.get('amount'))} gold to the rewards",
        "wait_until": lambda f: f"then at {f.get('when')}:",
    }
    if verb in short:
        return str(short[verb](f))
    return f"{verb} " + " ".join(f"{k} {_value(v)}" for k, v in f.items() if v is not None)


def _value(v: object) -> str:
    if isinstance(v, dict):
        return " ".join(f"{k} {_value(x)}" for k, x in v.items())
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)

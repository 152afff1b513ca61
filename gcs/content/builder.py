"""Content in Python: builder calls that read like card text.

Every call returns the same plain data a YAML file would hold (``deal("$damage")`` is
``{"deal": {"amount": "$damage"}}``), and :func:`pack` compiles it with the YAML compiler, so
the builder and YAML give equal definitions::

    strike = card("strike", "Strike", cost=1, type="attack", target="single_enemy",
                  numbers={"damage": 6}, text="Deal {damage} damage.",
                  on_play=[deal("$damage")], upgrade={"numbers": {"damage": 9}})
    content = pack("mine", strike, status("vulnerable", decay="minus_one", ...))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

from ..errors import ContentError
from .db import Content
from .loader import load_content

Data = dict[str, Any]
Effect = str | Mapping[str, Any]
Effects = Effect | Sequence[Effect]
ValueLike = int | str | Mapping[str, Any]
Selection = str | Mapping[str, Any]
X = "x"  # the energy paid for an X-cost card


class Def(NamedTuple):
    """One definition: its section (``cards``, ``statuses``, ...), id and YAML-shaped data."""

    section: str
    id: str
    data: Data


def _given(**fields: Any) -> Data:
    """The fields that were given, with ``as_``/``from_`` spelled as in YAML."""
    return {k.rstrip("_"): v for k, v in fields.items() if v is not None}


def _body(e: Effects) -> Any:
    return e if isinstance(e, (str, Mapping)) else list(e)


def _with_cards(verb: str, cards: Selection, **fields: Any) -> Data:
    """A verb whose main argument is a card selection: the selection's fields merge in."""
    sel = dict(cards) if isinstance(cards, Mapping) else {"from": cards}
    return {verb: {**sel, **_given(**fields)}}


# ---------------------------------------------------------------- values and conditions


def var(name: str) -> str:
    """A value slot (or the card's number ``name``): ``$name``."""
    return "$" + name


def count(sel: Selection) -> Data:
    return {"count": sel}


def stacks(status_id: str, of: str | None = None) -> Data:
    return {"stacks": status_id, **_given(of=of)}


def stat(name: str, unit: str = "self") -> Data:
    """``hp``, ``max_hp``, ``block`` or ``missing_hp`` of a unit."""
    return {name: unit}


def hp(unit: str = "self") -> Data:
    return {"hp": unit}


def _op(op: str, a: ValueLike, b: ValueLike) -> Data:
    return {op: [a, b]}


def add(a: ValueLike, b: ValueLike) -> Data:
    return _op("add", a, b)


def sub(a: ValueLike, b: ValueLike) -> Data:
    return _op("sub", a, b)


def mul(a: ValueLike, b: ValueLike) -> Data:
    return _op("mul", a, b)


def div(a: ValueLike, b: ValueLike) -> Data:
    return _op("div", a, b)


def minimum(a: ValueLike, b: ValueLike) -> Data:
    return _op("min", a, b)


def maximum(a: ValueLike, b: ValueLike) -> Data:
    return _op("max", a, b)


def random_int(lo: ValueLike, hi: ValueLike) -> Data:
    return _op("random", lo, hi)


def compare(op: str, a: ValueLike, b: ValueLike) -> Data:
    """``lt``, ``le``, ``eq``, ``ne``, ``ge`` or ``gt``."""
    return _op(op, a, b)


def has_status(status_id: str, on: str | None = None) -> Data:
    return {"has_status": status_id, **_given(on=on)}


def all_of(*conds: Any) -> Data:
    return {"all": list(conds)}


def any_of(*conds: Any) -> Data:
    return {"any": list(conds)}


def not_(cond: Any) -> Data:
    return {"not": cond}


def exists(sel: Selection) -> Data:
    return {"exists": sel}


# ---------------------------------------------------------------- selections


def where(*, tags: Sequence[str] | None = None, type: str | None = None,
          keyword: str | None = None, card: str | None = None, upgraded: bool | None = None,
          exclude_self: bool | None = None, upgradable: bool | None = None) -> Data:
    """A card filter."""
    return _given(tags=list(tags) if tags is not None else None, type=type, keyword=keyword,
                  card=card, upgraded=upgraded, exclude_self=exclude_self,
                  upgradable=upgradable)


def cards(from_: str, *, where: Mapping[str, Any] | None = None, random: ValueLike | None = None,
          top: ValueLike | None = None) -> Data:
    """A card selection: a pile (``hand``, ``draw``, ...), ``this`` or ``$slot``, narrowed."""
    return _given(from_=from_, where=dict(where) if where is not None else None, random=random,
                  top=top)


def units(slot: str) -> Data:
    """Units held in an object slot (``$spawned``) where a card slot would be assumed."""
    return {"units": slot}


# ---------------------------------------------------------------- effects


def deal(amount: ValueLike, *, to: str | None = None, hits: ValueLike | None = None,
         kind: str | None = None) -> Data:
    """``kind``: ``attack`` or ``thorns`` (not an attack: no folds, no ``on_attacked``)."""
    return {"deal": _given(amount=amount, to=to, hits=hits, kind=kind)}


def block(amount: ValueLike, *, to: str | None = None, raw: bool | None = None) -> Data:
    """``raw``: without the block folds (Dexterity, Frail)."""
    return {"block": _given(amount=amount, to=to, raw=raw)}


def lose_hp(amount: ValueLike, *, to: str | None = None) -> Data:
    return {"lose_hp": _given(amount=amount, to=to)}


def heal(amount: ValueLike, *, to: str | None = None) -> Data:
    return {"heal": _given(amount=amount, to=to)}


def gain_energy(amount: ValueLike) -> Data:
    return {"gain_energy": {"amount": amount}}


def gain_gold(amount: ValueLike) -> Data:
    return {"gain_gold": {"amount": amount}}


def reward_gold(amount: ValueLike) -> Data:
    """Put gold into this battle's rewards (granted with the table's gold on a victory)."""
    return {"reward_gold": {"amount": amount}}


def apply(status_id: str, amount: ValueLike, *, to: str | None = None) -> Data:
    return {"apply": _given(status=status_id, amount=amount, to=to)}


def remove_status(status_id: str, amount: ValueLike | None = None, *,
                  from_: str | None = None) -> Data:
    return {"remove_status": _given(status=status_id, amount=amount, from_=from_)}


def draw(count: ValueLike) -> Data:
    return {"draw": {"count": count}}


def add_card(card_id: str, *, to: str | None = None, position: str | None = None,
             upgraded: bool | None = None, count: ValueLike | None = None,
             as_: str | None = None) -> Data:
    return {"add_card": _given(card=card_id, to=to, position=position, upgraded=upgraded,
                               count=count, as_=as_)}


def move(sel: Selection, *, to: str, position: str | None = None) -> Data:
    return _with_cards("move", sel, to=to, position=position)


def exhaust(sel: Selection) -> Data:
    return _with_cards("exhaust", sel)


def discard(sel: Selection) -> Data:
    return _with_cards("discard", sel)


def remove_from_battle(sel: Selection) -> Data:
    """Take the selected cards out of the battle (a played Power's own destination)."""
    return _with_cards("remove_from_battle", sel)


def play_card(sel: Selection, *, free: bool | None = None, copy: bool | None = None,
              target: str | None = None, to: str | None = None,
              as_: str | None = None) -> Data:
    """Play the selected cards (or copies) as nested plays: seed 004 steps 2-5."""
    return _with_cards("play_card", sel, free=free, copy=copy, target=target, to=to, as_=as_)


def upgrade(sel: Selection) -> Data:
    return _with_cards("upgrade", sel)


def modify_cost(sel: Selection, *, amount: ValueLike | None = None,
                set_to: ValueLike | None = None, duration: str | None = None) -> Data:
    return _with_cards("modify_cost", sel, amount=amount, set_to=set_to, duration=duration)


def transform(sel: Selection, *, into: str | None = None,
              pool: Mapping[str, Any] | None = None) -> Data:
    return _with_cards("transform", sel, into=into, pool=dict(pool) if pool else None)


def card_hook(kind: str, *, op: str | None = None, amount: int | None = None,
              where: Mapping[str, Any] | None = None, turns: int | None = None,
              scope: str | None = None) -> Data:
    return {"card_hook": _given(kind=kind, op=op, amount=amount,
                                where=dict(where) if where is not None else None, turns=turns,
                                scope=scope)}


def spawn(enemy_id: str, *, as_: str | None = None) -> Data:
    return {"spawn": _given(enemy=enemy_id, as_=as_)}


def kill(unit: str) -> Data:
    return {"kill": {"unit": unit}}


def revive(unit: str, hp: ValueLike) -> Data:
    return {"revive": {"unit": unit, "hp": hp}}


def set_move(move: str) -> Data:
    return {"set_move": {"move": move}}


def end_turn() -> str:
    return "end_turn"


def extra_turn() -> str:
    return "extra_turn"


def wait(seconds: float) -> Data:
    return {"wait": {"seconds": seconds}}


def wait_until(when: str, turns: int | None = None) -> Data:
    """``when``: a phase point, or ``wave_end`` (after the work already queued in the
    current effect wave)."""
    return {"wait_until": _given(when=when, turns=turns)}


def animation(name: str = "") -> Data:
    return {"animation": {"name": name}} if name else {"animation": None}


def call(graph_id: str) -> Data:
    return {"call": {"graph": graph_id}}


def set_var(name: str, to: ValueLike) -> Data:
    return {"set": {"name": name, "to": to}}


def select(sel: Selection, *, as_: str) -> Data:
    base = dict(sel) if isinstance(sel, Mapping) else {"from": sel}
    return {"select": {**base, "as": as_}}


def choose(sel: Selection, *, as_: str, min: int | None = None, max: int | None = None,
           prompt: str | None = None, then: Effects | None = None,
           skipped: Effects | None = None) -> Data:
    base = dict(sel) if isinstance(sel, Mapping) else {"from": sel}
    return {"choose": {**base, **_given(as_=as_, min=min, max=max, prompt=prompt,
                                        then=None if then is None else _body(then),
                                        skipped=None if skipped is None else _body(skipped))}}


def branch(cond: Any, then: Effects, otherwise: Effects | None = None) -> Data:
    """``if: cond, then: ..., else: ...``"""
    out: Data = {"if": cond, "then": _body(then)}
    if otherwise is not None:
        out["else"] = _body(otherwise)
    return out


def repeat(times: ValueLike, do: Effects, *, as_: str | None = None) -> Data:
    return {"repeat": times, "do": _body(do), **_given(as_=as_)}


def for_each(sel: Selection, do: Effects, *, as_: str) -> Data:
    return {"for_each": sel, "as": as_, "do": _body(do)}


def while_(cond: Any, do: Effects, *, max_iterations: int) -> Data:
    return {"while": cond, "do": _body(do), "max_iterations": max_iterations}


# ---------------------------------------------------------------- definitions


def card(card_id: str, name: str, *, cost: int | str, type: str, rarity: str | None = None,
         target: str | None = None, numbers: Mapping[str, int] | None = None,
         text: str | None = None, keywords: Sequence[str] | None = None,
         tags: Sequence[str] | None = None, on_play: Effects | None = None,
         on_drawn: Effects | None = None, on_discard: Effects | None = None,
         on_exhaust: Effects | None = None, on_turn_start: Effects | None = None,
         on_turn_end: Effects | None = None, hooks: Sequence[Mapping[str, Any]] | None = None,
         upgrade: Mapping[str, Any] | None = None, character: str | None = None,
         art: str | None = None, playable_if: Any = None, cost_adjust: Any = None) -> Def:
    """A card; ``upgrade`` states only what the upgraded variant changes; ``art`` its picture;
    ``playable_if`` a condition its play also needs, ``cost_adjust`` a value added to its cost."""
    entries = {k: _body(v) for k, v in (
        ("on_play", on_play), ("on_drawn", on_drawn), ("on_discard", on_discard),
        ("on_exhaust", on_exhaust), ("on_turn_start", on_turn_start),
        ("on_turn_end", on_turn_end)) if v is not None}
    data = _given(name=name, cost=cost, type=type, rarity=rarity, target=target,
                  numbers=dict(numbers) if numbers is not None else None, text=text,
                  keywords=list(keywords) if keywords is not None else None,
                  tags=list(tags) if tags is not None else None,
                  hooks=[dict(h) for h in hooks] if hooks is not None else None,
                  upgrade=dict(upgrade) if upgrade is not None else None, character=character,
                  art=art, playable_if=playable_if, cost_adjust=cost_adjust)
    return Def("cards", card_id, {**data, **entries})


def hook(kind: str, *, op: str | None = None, amount: int | None = None,
         where: Mapping[str, Any] | None = None) -> Data:
    """A rule active while its card is in hand or its status is held."""
    return _given(kind=kind, op=op, amount=amount, where=dict(where) if where else None)


def status(status_id: str, name: str | None = None, *, text: str | None = None,
           debuff: bool | None = None, decay: str | None = None, decay_at: str | None = None,
           allow_negative: bool | None = None, max_stacks: int | None = None,
           modifiers: Sequence[str | Mapping[str, Any]] | None = None,
           hooks: Sequence[Mapping[str, Any]] | None = None, skip_turn: bool | None = None,
           keeps_block: bool | None = None, hidden: bool | None = None,
           negates_debuffs: bool | None = None, **entries: Effects) -> Def:
    """A status; entries (``on_turn_end=...``) run with ``self`` = the holder."""
    data = _given(name=name, text=text, debuff=debuff, decay=decay, decay_at=decay_at,
                  allow_negative=allow_negative,
                  max_stacks=max_stacks, modifiers=list(modifiers) if modifiers else None,
                  hooks=[dict(h) for h in hooks] if hooks else None, skip_turn=skip_turn,
                  keeps_block=keeps_block, hidden=hidden, negates_debuffs=negates_debuffs)
    return Def("statuses", status_id, {**data, **{k: _body(v) for k, v in entries.items()}})


def enemy_move(move_id: str, intent: str, *, name: str | None = None,
               damage: int | tuple[int, int] | Mapping[str, Any] | None = None,
               hits: int | None = None, block: int | None = None,
               do: Effects | None = None, next_: str | None = None) -> tuple[str, Data]:
    """A move: deals ``damage`` (a ``(lo, hi)`` pair: rolled per enemy unit; a value mapping:
    read when the move is planned) ``hits`` times,
    gains ``block``, then runs ``do``; ``next_`` is the move planned after it is made."""
    return move_id, _given(name=name, intent=intent,
                           damage=list(damage) if isinstance(damage, tuple)
                           else dict(damage) if isinstance(damage, Mapping) else damage,
                           hits=hits, block=block, do=None if do is None else _body(do),
                           next_=next_)


def ai(*, opener: Sequence[str] | None = None, cycle: Sequence[str] | None = None,
       weighted: Mapping[str, int | Mapping[str, Any]] | Sequence[Mapping[str, Any]] | None = None,
       hp_rules: Sequence[Mapping[str, Any]] | None = None,
       rules: Sequence[Mapping[str, Any]] | None = None) -> Data:
    """An enemy AI; ``weighted`` is a mapping move -> weight or entry, or a list of entries
    ``{"move": ..., "weight": ..., "max_in_row": ..., "fallback": {...}, "once": True, ...}``;
    ``rules`` a list of ``{"when": <condition>, "move": ...}``."""
    table: object = None
    if isinstance(weighted, Mapping):
        table = {k: dict(v) if isinstance(v, Mapping) else v for k, v in weighted.items()} or None
    elif weighted:
        table = [dict(w) for w in weighted]
    return _given(opener=list(opener) if opener else None, cycle=list(cycle) if cycle else None,
                  weighted=table, hp_rules=[dict(r) for r in hp_rules] if hp_rules else None,
                  rules=[dict(r) for r in rules] if rules else None)


def enemy(enemy_id: str, *, hp: int | tuple[int, int], moves: Sequence[tuple[str, Data]],
          ai: Mapping[str, Any], name: str | None = None,
          statuses: Mapping[str, int | tuple[int, int]] | None = None) -> Def:
    stat_data = {k: list(v) if isinstance(v, tuple) else v for k, v in (statuses or {}).items()}
    return Def("enemies", enemy_id, _given(
        name=name, hp=list(hp) if isinstance(hp, tuple) else hp, moves=dict(moves),
        ai=dict(ai), statuses=stat_data or None))


def encounter(encounter_id: str,
              enemies: Sequence[str | Sequence[str]] | Mapping[str, Any] | None = None, *,
              name: str | None = None, hand_discard: str | None = None,
              rewards: str | None = None, kind: str | None = None,
              groups: Sequence[Sequence[str | Sequence[str]]] | None = None,
              pool: str | None = None, weight: int | None = None,
              exclusions: Sequence[str] | None = None) -> Def:
    """An encounter: ``enemies`` left to right (a slot given as a list of ids rolls one of them
    per battle; ``{"draw": 4, "from": [...]}`` draws the slots without replacement), or
    ``groups``: one of these enemy lists is rolled per battle; ``pool``, ``weight`` and
    ``exclusions`` place it in its act's encounter pools."""
    def slots(g: Sequence[str | Sequence[str]]) -> list[object]:
        return [s if isinstance(s, str) else list(s) for s in g]

    drawn = ({"draw": enemies["draw"], "from": list(enemies["from"])}
             if isinstance(enemies, Mapping) else None)
    return Def("encounters", encounter_id, _given(
        name=name, enemies=drawn if drawn is not None or enemies is None
        else slots(cast("Sequence[str | Sequence[str]]", enemies)),
        groups=None if groups is None else [slots(g) for g in groups],
        hand_discard=hand_discard, rewards=rewards, kind=kind, pool=pool, weight=weight,
        exclusions=None if exclusions is None else list(exclusions)))


def character(character_id: str, *, max_hp: int, deck: Mapping[str, int],
              name: str | None = None, statuses: Mapping[str, int] | None = None,
              gold: int | None = None) -> Def:
    """A character; deck entries ``{"strike": 5, "bash+": 1}`` (``+``: upgraded)."""
    return Def("characters", character_id, _given(
        name=name, max_hp=max_hp, deck=dict(deck),
        statuses=dict(statuses) if statuses else None, gold=gold))


def reward_table(table_id: str, *, cards: int | None = None,
                 rarity_weights: Mapping[str, int] | None = None,
                 pool: Sequence[str] | None = None, gold: int | tuple[int, int] | None = None,
                 upgrade: bool | None = None, remove: bool | None = None) -> Def:
    return Def("rewards", table_id, _given(
        cards=cards, rarity_weights=dict(rarity_weights) if rarity_weights else None,
        pool=list(pool) if pool is not None else None,
        gold=list(gold) if isinstance(gold, tuple) else gold, upgrade=upgrade, remove=remove))


def graph(graph_id: str, effects: Effects) -> Def:
    """A named behaviour graph, run by ``call(graph_id)``."""
    return Def("graphs", graph_id, {"graph": _body(effects)})


def pack_data(pack_id: str, *defs: Def, name: str | None = None) -> Data:
    """The mapping ``load_content`` takes (what the pack's YAML files would hold)."""
    out: Data = {"pack": _given(id=pack_id, name=name)}
    dups: list[str] = []
    for d in defs:
        section = out.setdefault(d.section, {})
        if d.id in section:
            dups.append(f"builder: {d.section}: {d.id!r}: duplicate id")
        section[d.id] = d.data["graph"] if d.section == "graphs" else d.data
    if dups:
        raise ContentError(dups)
    return out


def pack(pack_id: str, *defs: Def, name: str | None = None) -> Content:
    """Compile definitions into ``Content``, exactly as a YAML pack with the same data."""
    return load_content(pack_data(pack_id, *defs, name=name))

"""Dump a ``Content`` back into pack data: the inverse of :func:`gcs.content.loader.load_content`.

``load_content(dump_content(c), use_cache=False)`` gives definitions equal to those of ``c``.
Nodes are written in the long mapping form (``{deal: {amount: ..., to: ..., hits: ...}}``) with
every context-dependent default stated (``to:`` of ``deal``/``apply``, ``min``/``max`` of
``choose``), so the reload does not depend on where an effect sits. An upgrade is written as
only what differs from its base card. A definition the format cannot express (no loaded pack
has one) raises :class:`DumpError` naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml

from ..enums import Decay, Keyword, PileScope
from ..flow import exprs as E
from ..flow import nodes as N
from . import defs as D
from .db import Content
from .schema import CARD_ENTRIES, SECTIONS, title
from .textexprs import BATTLE_STATS, CARD_SOURCES, UNIT_SOURCES, UNIT_STATS

Data = dict[str, object]
T = TypeVar("T")


class DumpError(ValueError):
    """A definition the pack format cannot express exactly."""


def _fail(what: object) -> DumpError:
    return DumpError(f"cannot be written in the pack format: {what}")


def _given(**fields: object) -> Data:
    """The fields that are not None, with ``as_``/``from_``/``if_`` spelled as in YAML."""
    return {k.rstrip("_"): v for k, v in fields.items() if v is not None}


def _opt(write: Callable[[T], object], v: T | None) -> object:
    return None if v is None else write(v)


def _value(v: E.Value | None) -> object:
    return None if v is None else value(v)


def _effect(node: N.Node | None) -> object:
    return None if node is None else effect(node)


# ---------------------------------------------------------------- values, conditions, selections


def unit(u: E.UnitSel) -> object:
    """``self``, ``target``, ... or ``$slot``; a filtered selection as its mapping."""
    if u.source == "filtered" and u.of is not None:
        return _given(units=unit(u.of), exclude=u.exclude, random=u.random or None)
    if u.source == "var" and u.var:
        return "$" + u.var
    if u.source not in UNIT_SOURCES or u.var is not None:
        raise _fail(f"unit selection {u!r}")
    return u.source


def value(v: E.Value) -> object:
    """``6``, ``$name``, ``x``, ``energy``, ``{count: ...}``, ``{add: [a, b]}``, ..."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, E.Var):
        return "$" + v.name
    if isinstance(v, E.XCost):
        return "x"
    if isinstance(v, E.Upgrades):
        return {"upgrades": "this"}
    if isinstance(v, E.CountOf):
        return {"count": selector(v.select)}
    if isinstance(v, E.StacksOf):
        return {"stacks": v.status, "of": unit(v.unit)}
    if isinstance(v, E.UnitStat) and v.unit is None and v.stat in BATTLE_STATS:
        return v.stat
    if isinstance(v, E.UnitStat) and v.unit is not None and v.stat in UNIT_STATS:
        return {v.stat: unit(v.unit)}
    if isinstance(v, E.BinOp) and v.op in E.BIN_OPS:
        return {v.op: [value(v.a), value(v.b)]}
    if isinstance(v, E.RandInt):
        return {"random": [value(v.lo), value(v.hi)]}
    raise _fail(f"value {v!r}")


def cond(c: E.Cond) -> object:
    """``true``, ``{lt: [a, b]}``, ``{has_status: weak, on: target}``, ``{all: [...]}``, ..."""
    if isinstance(c, bool):
        return c
    if isinstance(c, E.Compare) and c.op == "gt" and isinstance(c.a, E.CountOf) and (
            type(c.b) is int and c.b == 0):
        return {"exists": selector(c.a.select)}  # what `exists` loads as
    if isinstance(c, E.Compare) and c.op in E.COMPARE_OPS:
        return {c.op: [value(c.a), value(c.b)]}
    if isinstance(c, E.HasStatus):
        return {"has_status": c.status, "on": unit(c.unit)}
    if isinstance(c, (E.AllOf, E.AnyOf)):
        return {"all" if isinstance(c, E.AllOf) else "any": [cond(x) for x in c.conds]}
    if isinstance(c, E.Not):
        return {"not": cond(c.cond)}
    if isinstance(c, E.Intends):
        return {"intends": c.kind, "on": unit(c.unit)}
    if isinstance(c, E.Same):
        return {"same": [unit(c.a), unit(c.b)]}
    raise _fail(f"condition {c!r}")


def card_filter(f: E.CardFilter) -> Data:
    types = [t.value for t in f.types] if f.types else None
    return _given(tags=list(f.tags) if f.tags else None,
                  type=_opt(lambda t: t.value, f.type) if types is None else types,
                  keyword=_opt(lambda k: k.value, f.keyword), card=f.card, upgraded=f.upgraded,
                  upgradable=f.upgradable, exclude_self=f.exclude_self or None,
                  rarity=[r.value for r in f.rarity] if f.rarity else None,
                  character=f.character,
                  exclude_tags=list(f.exclude_tags) if f.exclude_tags else None,
                  replay=f.replay)


def card_selection(s: E.CardSel) -> Data:
    """The ``from``/``where``/``random``/``top`` fields of a card selection."""
    if s.source == "var" and s.var:
        src = "$" + s.var
    elif s.source in CARD_SOURCES and s.var is None:
        src = s.source
    else:
        raise _fail(f"card selection {s!r}")
    return _given(from_=src, where=_opt(card_filter, s.where), random=_value(s.random),
                  top=_value(s.top))


def selector(s: E.CardSel | E.UnitSel) -> object:
    """Where cards or units fit (``count``, ``exists``, ``for_each``): ``$x`` means cards."""
    if isinstance(s, E.UnitSel):
        return {"units": unit(s)} if s.source == "var" else unit(s)
    fields = card_selection(s)
    return fields["from"] if len(fields) == 1 else fields


def _either(s: E.CardSel | E.UnitSel) -> Data:
    """The selection fields of ``select``/``choose``."""
    return {"units": unit(s)} if isinstance(s, E.UnitSel) else card_selection(s)


def hook(h: N.HookDef) -> Data:
    return _given(kind=h.kind, op=h.op, amount=h.amount, where=_opt(card_filter, h.where))


def modifier(m: D.Modifier) -> Data:
    return {"stage": m.stage, "op": m.op, "amount": m.amount, "num": m.num, "den": m.den,
            "per_stack": m.per_stack}


# ---------------------------------------------------------------- effects

_PILES = (PileScope.HAND, PileScope.DRAW, PileScope.DISCARD, PileScope.EXHAUST)


def _modify_cost(n: N.ModifyCost) -> Data:
    if n.set_to is not None and n.amount != 0:
        raise _fail(f"modify_cost with both amount and set_to: {n!r}")
    return {**card_selection(n.select), **_given(
        amount=value(n.amount) if n.set_to is None else None, set_to=_value(n.set_to)),
        "duration": n.duration}


def _transform(n: N.TransformCard) -> Data:
    if (n.into is None) == (n.pool is None):
        raise _fail(f"transform needs exactly one of into/pool: {n!r}")
    return {**card_selection(n.select), **_given(into=n.into, pool=_opt(card_filter, n.pool))}


def _add_card(n: N.AddCards) -> Data:
    if n.pile not in _PILES:
        raise _fail(f"add_card to {n.pile.value!r}")
    if n.copy_of is not None:
        return _given(copy_of=card_selection(n.copy_of), to=n.pile.value,
                      position=n.position.value, count=value(n.count), as_=n.var)
    return _given(card=n.card, to=n.pile.value, position=n.position.value, upgraded=n.upgraded,
                  count=value(n.count), as_=n.var)


def _choose(n: N.Choice) -> Data:
    if not n.var or n.max < 1 or n.min > n.max:
        raise _fail(f"choice {n!r}")
    return {**_either(n.select), **_given(as_=n.var, min=n.min, max=n.max, prompt=n.prompt or None,
                                          then=_effect(n.then), skipped=_effect(n.skipped))}


def _wait(n: N.Wait) -> Data:
    if n.seconds <= 0:
        raise _fail(f"wait of {n.seconds} seconds")
    return {"seconds": n.seconds}


def _amount_to(n: N.GainBlock | N.LoseHp | N.Heal | N.GainMaxHp) -> Data:
    return {"amount": value(n.amount), "to": unit(n.target)}


# node type -> (verb, its fields); control flow is written with its sibling keys instead
_VERBS: dict[type, tuple[str, Callable[[Any], Data]]] = {
    N.DealDamage: ("deal", lambda n: {"amount": value(n.amount), "to": unit(n.target),
                                      "hits": value(n.hits), **_given(kind=n.kind)}),
    N.GainBlock: ("block", lambda n: {**_amount_to(n), **_given(raw=True if n.raw else None)}),
    N.LoseHp: ("lose_hp", _amount_to),
    N.Heal: ("heal", _amount_to),
    N.GainMaxHp: ("gain_max_hp", _amount_to),
    N.GainEnergy: ("gain_energy", lambda n: {"amount": value(n.amount)}),
    N.GainGold: ("gain_gold", lambda n: {"amount": value(n.amount)}),
    N.RewardGold: ("reward_gold", lambda n: {"amount": value(n.amount)}),
    N.ApplyStatus: ("apply", lambda n: {"status": n.status, "amount": value(n.amount),
                                        "to": unit(n.target)}),
    N.RemoveStatus: ("remove_status", lambda n: _given(
        status=n.status, from_=unit(n.target), amount=_value(n.amount))),
    N.DrawCards: ("draw", lambda n: {"count": value(n.count)}),
    N.AddCards: ("add_card", _add_card),
    N.MoveCard: ("move", lambda n: {**card_selection(n.select), "to": n.pile.value,
                                    "position": n.position.value}),
    N.ExhaustCard: ("exhaust", lambda n: card_selection(n.select)),
    N.DiscardCard: ("discard", lambda n: card_selection(n.select)),
    N.RemoveFromBattle: ("remove_from_battle", lambda n: card_selection(n.select)),
    N.PlayCard: ("play_card", lambda n: {**card_selection(n.select), **_given(
        free=None if n.free else False, copy=True if n.copy else None,
        target=None if n.target is None else unit(n.target),
        to=None if n.to is None else n.to.value, as_=n.var,
        replay=True if n.replay else None, x="same" if n.same_x else None)}),
    N.UpgradeCard: ("upgrade", lambda n: card_selection(n.select)),
    N.GrowNumber: ("grow", lambda n: {"number": n.number, "by": value(n.amount)}),
    N.ModifyCost: ("modify_cost", _modify_cost),
    N.TransformCard: ("transform", _transform),
    N.RegisterCardHook: ("card_hook", lambda n: {**hook(n.hook), **_given(
        turns=n.turns, scope=None if n.scope == "player_turns" else n.scope)}),
    N.SpawnEnemy: ("spawn", lambda n: _given(enemy=n.enemy, as_=n.var,
                                             hp=None if n.hp is None else value(n.hp))),
    N.Kill: ("kill", lambda n: {"unit": unit(n.target)}),
    N.Revive: ("revive", lambda n: {"unit": unit(n.target), "hp": value(n.hp)}),
    N.SetMove: ("set_move", lambda n: {"move": n.move}),
    N.Call: ("call", lambda n: {"graph": n.graph}),
    N.SetVar: ("set", lambda n: {"name": n.name, "to": value(n.value)}),
    N.SetObj: ("select", lambda n: {**_either(n.select), "as": n.name}),
    N.Choice: ("choose", _choose),
    N.Wait: ("wait", _wait),
    N.WaitUntil: ("wait_until", lambda n: {"when": n.when} if n.when == N.WAVE_END
                  else {"when": n.when, "turns": n.turns}),
    N.AnimationGate: ("animation", lambda n: {"name": n.name}),
}


def effect(node: N.Node) -> object:
    """One node as an effect: a list (Sequence), a control mapping or ``{verb: {fields}}``."""
    if isinstance(node, N.Sequence):
        if len(node.steps) == 1:  # a list of one effect loads as that effect
            raise _fail("a Sequence of exactly one step")
        return [effect(step) for step in node.steps]
    if isinstance(node, (N.EndTurn, N.ExtraTurn)):
        return "end_turn" if isinstance(node, N.EndTurn) else "extra_turn"
    if isinstance(node, N.Branch):
        return _given(if_=cond(node.cond), then=effect(node.then),
                      else_=_effect(node.otherwise))
    if isinstance(node, N.Loop):
        return _given(repeat=value(node.count), as_=node.var, do=effect(node.body))
    if isinstance(node, N.Foreach):
        return {"for_each": selector(node.select), "as": node.var, "do": effect(node.body)}
    if isinstance(node, N.While):
        return {"while": cond(node.cond), "do": effect(node.body),
                "max_iterations": node.max_iterations}
    verb = _VERBS.get(type(node))
    if verb is None:
        raise _fail(f"node {node!r}")
    return {verb[0]: verb[1](node)}


# ---------------------------------------------------------------- cards


def _cost(c: D.GameCard) -> object:
    if c.x_cost:
        if c.cost != 0:
            raise _fail(f"an X-cost card with cost {c.cost}")
        return "x"
    return "unplayable" if c.cost == 0 and Keyword.UNPLAYABLE in c.keywords else c.cost


def _keywords(c: D.GameCard) -> list[str]:
    """The listed keywords (Unplayable is implied by ``cost: unplayable``)."""
    implied = _cost(c) == "unplayable"
    return [k.value for k in Keyword
            if k in c.keywords and not (implied and k is Keyword.UNPLAYABLE)]


def _card_fields(c: D.GameCard, base: D.GameCard | None) -> Data:
    """A card's fields; with ``base``, only those an upgrade of ``base`` changes."""
    def new(key: str, get: Callable[[D.GameCard], object] | None = None) -> bool:
        read = get or (lambda x: getattr(x, key))
        return base is None or read(c) != read(base)

    out: Data = {}
    up = base is not None  # an upgrade states a field only when it changes
    if base is None or c.name != f"{base.name or title(base.id)}+":
        if up and not c.name:
            raise _fail("an upgrade with an empty name")
        out["name"] = c.name
    if new("cost", _cost):
        out["cost"] = _cost(c)
    out.update({k: getattr(c, k).value for k in ("type", "rarity", "target") if new(k)})
    if not up and c.character is not None:
        out["character"] = c.character
    if (c.art is not None or up) and new("art"):
        if c.art is None:
            raise _fail("an upgrade that drops the base card's art")
        out["art"] = c.art
    if (c.tags or up) and new("tags"):
        out["tags"] = list(c.tags)
    if (_keywords(c) or up) and new("keywords", _keywords):
        out["keywords"] = _keywords(c)
    old = {} if base is None else base.numbers
    if any(k not in c.numbers for k in old):
        raise _fail(f"an upgrade that drops numbers {sorted(set(old) - set(c.numbers))}")
    numbers: dict[str, object] = {k: n for k, n in c.numbers.items() if old.get(k) != n}
    numbers.update({k: value(f) for k, f in c.formulas.items()})  # (a repeatable upgrade's)
    if numbers:
        out["numbers"] = numbers
    if c.repeatable:
        if not up:
            raise _fail("a repeatable base card (only an upgrade repeats)")
        out["repeatable"] = True
    if (c.text or up) and new("text"):
        out["text"] = c.text
    for entry in CARD_ENTRIES:
        node: N.Node | None = getattr(c, entry)
        if node is None and base is not None and getattr(base, entry) is not None:
            raise _fail(f"an upgrade without the base card's {entry}")
        if node is not None and new(entry):
            out[entry] = effect(node)
    if (c.hooks or up) and new("hooks"):
        out["hooks"] = [hook(h) for h in c.hooks]
    for key, write in (("playable_if", cond), ("cost_adjust", value)):
        expr = getattr(c, key)
        if (expr is not None or up) and new(key):
            if expr is None:
                raise _fail(f"an upgrade that drops the base card's {key}")
            out[key] = write(expr)
    return out


def card(c: D.GameCard) -> Data:
    up = c.upgrade
    if c.is_upgraded:
        raise _fail("a base card marked upgraded")
    if up is not None and (not up.is_upgraded or up.upgrade is not None or up.id != c.id
                           or up.character != c.character):
        raise _fail("an upgrade that is not a one-step variant of its card (same id, character)")
    return _given(**_card_fields(c, None), upgrade=_opt(lambda u: _card_fields(u, c), up))


# ---------------------------------------------------------------- other definitions


def status(s: D.StatusDef) -> Data:
    flags = ("debuff", "allow_negative", "skip_turn", "keeps_block", "hidden", "negates_debuffs")
    return {"name": s.name, **_given(
        text=s.text or None, **{k: True for k in flags if getattr(s, k)},
        decay=s.decay.value if s.decay is not Decay.NONE else None,
        decay_at=s.decay_at if s.decay_at != "turn_end" else None,
        max_stacks=s.max_stacks if s.max_stacks != 999 else None,
        modifiers=[modifier(m) for m in s.modifiers] or None,
        hooks=[hook(h) for h in s.hooks] or None),
        **{name: effect(node) for name, node in s.entries.items()}}


def _range(lo: int, hi: int) -> object:
    return lo if lo == hi else [lo, hi]


def move(m: D.MoveDef) -> Data:
    """A move; its behaviour is split back into the ``damage``/``block`` steps and ``do``."""
    b = m.behaviour
    steps = list(b.steps) if isinstance(b, N.Sequence) else [] if b is None else [b]
    implied: list[N.Node] = []
    if m.damage is not None:
        amount: E.Value = m.damage if m.damage_max is None else E.Var("damage")
        implied.append(N.DealDamage(amount, E.UnitSel("target"), m.hits))
    if m.block is not None:
        implied.append(N.GainBlock(m.block, E.UnitSel("self")))
    if steps[:len(implied)] != implied:
        raise _fail("a move whose behaviour does not start with its damage/block steps")
    rest = steps[len(implied):]
    if len(rest) == 1 and isinstance(rest[0], N.Sequence):
        raise _fail("a move whose 'do' is a single Sequence step (it would be flattened)")
    do = effect(rest[0]) if len(rest) == 1 else [effect(n) for n in rest] if rest else None
    damage: object = m.damage if m.damage is None or m.damage_max is None \
        else [m.damage, m.damage_max]
    if m.damage_value is not None:
        damage = value(m.damage_value)
    return _given(name=m.name, intent=m.intent.value, damage=damage,
                  hits=m.hits if m.hits != 1 else None, block=m.block, do=do, next=m.next)


def ai(a: D.AiDef) -> Data:
    if a.cycle and a.weighted:
        raise _fail("an ai with both a cycle and weighted moves")
    def entry(w: D.WeightedMove) -> Data:
        return _given(weight=w.weight, max_in_row=w.max_in_row or None,
                      fallback=dict(w.fallback) if w.fallback else None,
                      once=True if w.once else None, after=w.after, before=w.before)

    weighted: object
    if len({w.move for w in a.weighted}) != len(a.weighted):  # the list form
        weighted = [{"move": w.move, **entry(w)} for w in a.weighted]
    else:
        weighted = {w.move: w.weight if len(entry(w)) == 1 else entry(w) for w in a.weighted}
    rules = [{"below_percent": r.below_percent, "move": r.move, "once": r.once,
              **({"at_once": True} if r.at_once else {})} for r in a.hp_rules]
    when = [{"when": cond(r.when), "move": r.move} for r in a.rules]
    return _given(opener=list(a.opener) or None, cycle=list(a.cycle) or None,
                  weighted=None if a.cycle else weighted, hp_rules=rules or None,
                  rules=when or None)


def enemy(e: D.EnemyDef) -> Data:
    if set(e.statuses) & set(e.status_ranges):
        raise _fail("a status both fixed and rolled")
    stacks: Data = {**e.statuses, **{s: [lo, hi] for s, (lo, hi) in e.status_ranges.items()}}
    moves = {m.id: move(m) for m in e.moves}
    if len(moves) != len(e.moves):
        raise _fail("two moves with one id")
    return _given(name=e.name, hp=_range(e.hp_min, e.hp_max), statuses=stacks or None,
                  moves=moves, ai=ai(e.ai))


def encounter(x: D.EncounterDef) -> Data:
    rule = x.hand_discard
    groups = [[list(sl) if len(sl) > 1 else sl[0] for sl in g] for g in x.groups]
    enemies: object = None if len(groups) > 1 else groups[0] if groups else list(x.enemies)
    if x.draw:
        if groups:
            raise _fail("an encounter both drawn and rolled by groups")
        enemies = {"draw": x.draw, "from": list(x.draw_from)}
    return _given(name=x.name, enemies=enemies, groups=groups if len(groups) > 1 else None,
                  rewards=x.rewards,
                  kind=x.kind if x.kind != "normal" else None,
                  hand_discard=None if rule is None else rule.value, pool=x.pool,
                  weight=x.weight if x.pool is not None and x.weight != 1 else None,
                  exclusions=list(x.exclusions) or None)


def character(c: D.CharacterDef) -> Data:
    deck = {e.card + ("+" if e.upgraded else ""): e.count for e in c.starting_deck}
    if len(deck) != len(c.starting_deck):
        raise _fail("a deck listing one card twice")
    return _given(name=c.name, max_hp=c.max_hp, gold=c.gold, deck=deck,
                  statuses=dict(c.statuses) or None)


def reward_table(r: D.RewardTable) -> Data:
    return {"cards": r.cards, "rarity_weights": dict(r.rarity_weights), "pool": list(r.pool),
            "gold": _range(r.gold_min, r.gold_max), "upgrade": r.upgrade, "remove": r.remove}


# ---------------------------------------------------------------- the whole pack


def _section(defs: Mapping[str, T], write: Callable[[T], object], label: str) -> Data:
    out: Data = {}
    for ident, d in defs.items():
        try:
            out[ident] = write(d)
        except DumpError as exc:
            raise DumpError(f"{label} {ident!r}: {exc}") from None
    return out


def dump_content(content: Content) -> dict[str, object]:
    """The pack as the mapping ``load_content`` reads: ``pack`` plus one entry per section."""
    return {
        "pack": {"id": content.pack_id},
        "cards": _section(content.cards, card, "card"),
        "statuses": _section(content.statuses, status, "status"),
        "enemies": _section(content.enemies, enemy, "enemy"),
        "encounters": _section(content.encounters, encounter, "encounter"),
        "characters": _section(content.characters, character, "character"),
        "rewards": _section(content.reward_tables, reward_table, "reward table"),
        "graphs": _section(content.graphs, effect, "graph"),
    }


def dump_yaml(content: Content, directory: Path) -> None:
    """Write the pack as ``pack.yaml``, ``cards.yaml``, ... into ``directory`` (created if need
    be; other YAML files already there are left alone, and would load with the pack)."""
    directory.mkdir(parents=True, exist_ok=True)
    data = dump_content(content)
    for name in ("pack", *SECTIONS):
        text = yaml.safe_dump(data[name], sort_keys=False, allow_unicode=True, width=100,
                              default_flow_style=None)
        (directory / f"{name}.yaml").write_text(text, encoding="utf-8")

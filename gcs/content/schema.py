"""The schema of each definition kind (cards, statuses, enemies, encounters, characters,
reward tables, graphs): YAML-shaped data -> frozen defs, with located problems. References to
other definitions are recorded here and checked by the loader once the whole pack is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import NamedTuple, TypeVar

from ..enums import CardType, Decay, HandDiscardRule, IntentKind, Keyword, Rarity, TargetMode
from ..flow import nodes as N
from ..flow.exprs import Cond, UnitSel, Value, Var, formula
from .defs import (
    DECAY_MOMENTS,
    STATUS_ENTRIES,
    AiDef,
    AiRule,
    CharacterDef,
    DeckEntry,
    EncounterDef,
    EnemyDef,
    GameCard,
    HpRule,
    MoveDef,
    RewardTable,
    StatusDef,
    WeightedMove,
)
from .limits import MAX_DECK, current
from .problems import (
    Ctx,
    Env,
    Key,
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_list,
    get_map,
    get_ref,
    get_str,
    get_word,
    listing,
    within,
)
from .textexprs import SELF, TARGET, cond, hook, modifier, value
from .textnodes import effect

T = TypeVar("T")
SECTIONS = ("cards", "statuses", "enemies", "encounters", "characters", "rewards", "graphs")
LABELS = {"cards": "card", "statuses": "status", "enemies": "enemy", "encounters": "encounter",
          "characters": "character", "rewards": "reward table", "graphs": "graph"}
ID_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-]*$")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Source(NamedTuple):
    """One section's definitions as read: ``data`` sits at key path ``root`` inside ``file``."""

    kind: str
    file: str
    root: tuple[Key, ...]
    data: object


class Parts(NamedTuple):
    """Everything ``Content`` is built from (picklable: the compiled cache stores it)."""

    pack_id: str
    cards: tuple[GameCard, ...]
    statuses: tuple[StatusDef, ...]
    enemies: tuple[EnemyDef, ...]
    encounters: tuple[EncounterDef, ...]
    characters: tuple[CharacterDef, ...]
    reward_tables: tuple[RewardTable, ...]
    graphs: Mapping[str, N.Node]


def title(ident: str) -> str:
    """A display name from an id: ``jaw_worm`` -> ``Jaw Worm``."""
    return " ".join(w.capitalize() for w in re.split(r"[_\-]+", ident) if w)


def _numbers(v: object, ctx: Ctx) -> dict[str, int] | None:
    m = get_map(v, ctx, "a mapping of number names to integers, like {damage: 6}")
    if m is None:
        return None
    out = {k: get_int(n, ctx.at(k)) for k, n in m.items()}
    return None if None in out.values() else {k: n for k, n in out.items() if n is not None}


def _items(v: object, ctx: Ctx, get: Callable[[object, Ctx], T | None],
           what: str) -> list[T] | None:
    """A list whose items ``get`` checks; None (after reporting) if it or any item is bad."""
    items = get_list(v, ctx, what)
    if items is None:
        return None
    out = [get(x, ctx.at(i)) for i, x in enumerate(items)]
    good = [x for x in out if x is not None]
    return good if len(good) == len(out) else None


def _range(v: object, ctx: Ctx, lo: int) -> tuple[int, int] | None:
    """``7`` or ``[5, 9]`` -> (low, high)."""
    if isinstance(v, list):
        if len(v) != 2:
            ctx.error("wrong type: expected an integer or a [low, high] pair")
            return None
        a, b = get_int(v[0], ctx.at(0), lo), get_int(v[1], ctx.at(1), lo)
        if a is None or b is None:
            return None
        if a > b:
            ctx.error(f"bad range [{a}, {b}]: low is greater than high")
            return None
        return a, b
    n = get_int(v, ctx, lo)
    return None if n is None else (n, n)


def _check_vars(env: Env, known: Iterable[str], what: str) -> None:
    names = set(known)
    allowed = names | env.bound
    for name, ctx in env.used:
        if name not in allowed:
            ctx.error(f"unknown number '${name}' ({what}: {listing(names, name) or 'none'})")
    _check_slot_types(env)


_HOLDS = {"value": "a value", "cards": "cards", "units": "units"}


def _check_slot_types(env: Env) -> None:
    """A slot bound to hold one kind (value, cards, units) must not be read as another."""
    for name, kind, ctx in env.typed:
        bound = env.kinds.get(name)
        if bound is not None and bound[0] != kind:
            ctx.error(f"wrong slot type: '${name}' holds {_HOLDS[bound[0]]} (bound at "
                      f"'{bound[1].where()[3]}') but is read here as {_HOLDS[kind]}")


# ---------------------------------------------------------------- cards

CARD_ENTRIES = ("on_play", "on_drawn", "on_discard", "on_exhaust", "on_turn_start", "on_turn_end")
CARD_FIELDS = ("name", "cost", "type", "rarity", "target", "text", "numbers", "keywords", "tags",
               *CARD_ENTRIES, "hooks", "upgrade", "character", "art", "playable_if", "cost_adjust")
UPGRADE_FIELDS = (*(f for f in CARD_FIELDS if f not in ("upgrade", "character")), "repeatable")


def card_env(target: TargetMode) -> Env:
    """Default units of a card's ``deal``/``apply`` by its target mode."""
    if target in (TargetMode.SINGLE_ENEMY, TargetMode.RANDOM_ENEMY):
        return Env(TARGET, TARGET)
    if target is TargetMode.ALL_ENEMIES:
        all_ = UnitSel("all_enemies")
        return Env(all_, all_)
    return Env(None, SELF)


@dataclass
class _CardSpec:
    """A card's fields as read so far (an upgrade starts from a copy of the base card's)."""

    name: str = ""
    cost: int = 0
    x_cost: bool = False
    unplayable: bool = False
    type: CardType = CardType.SKILL
    rarity: Rarity = Rarity.COMMON
    target: TargetMode = TargetMode.NONE
    text: str = ""
    numbers: dict[str, int] = field(default_factory=dict)
    keywords: tuple[Keyword, ...] = ()
    tags: tuple[str, ...] = ()
    hooks: tuple[N.HookDef, ...] = ()
    character: str | None = None
    art: str | None = None
    playable_if: Cond | None = None
    cost_adjust: Value | None = None
    repeatable: bool = False
    formulas: dict[str, Value] = field(default_factory=dict)

    def build(self, cid: str, entries: dict[str, N.Node | None], upgraded: bool,
              upgrade: GameCard | None) -> GameCard:
        kws = set(self.keywords) | ({Keyword.UNPLAYABLE} if self.unplayable else set())
        return GameCard(
            id=cid, name=self.name, cost=self.cost, type=self.type, rarity=self.rarity,
            target=self.target, text=self.text, keywords=frozenset(kws), tags=self.tags,
            x_cost=self.x_cost, numbers=MappingProxyType(dict(self.numbers)),
            on_play=entries["on_play"], on_drawn=entries["on_drawn"],
            on_discard=entries["on_discard"], on_exhaust=entries["on_exhaust"],
            on_turn_start=entries["on_turn_start"], on_turn_end=entries["on_turn_end"],
            hooks=self.hooks, upgrade=upgrade, is_upgraded=upgraded, character=self.character,
            art=self.art, playable_if=self.playable_if, cost_adjust=self.cost_adjust,
            repeatable=self.repeatable, formulas=MappingProxyType(dict(self.formulas)))


def _card_fields(m: dict[str, object], ctx: Ctx, spec: _CardSpec) -> bool:
    """Read the plain fields of a card (or of its upgrade, over the inherited ``spec``)."""
    bad = False
    if "name" in m:
        name = get_str(m["name"], ctx.at("name"))
        bad, spec.name = bad or name is None, name or spec.name
    if "cost" in m:
        raw = m["cost"]
        if raw in ("x", "unplayable"):
            spec.cost, spec.x_cost, spec.unplayable = 0, raw == "x", raw == "unplayable"
        elif type(raw) is int and raw >= 0:
            spec.cost, spec.x_cost, spec.unplayable = raw, False, False
        else:
            ctx.at("cost").error(f"wrong type: expected an integer >= 0, 'x' or 'unplayable', "
                                 f"got {raw!r}")
            bad = True
    if "type" in m:
        ctype = get_enum(m["type"], ctx.at("type"), CardType)
        bad, spec.type = bad or ctype is None, ctype or spec.type
    if "rarity" in m:
        rarity = get_enum(m["rarity"], ctx.at("rarity"), Rarity)
        bad, spec.rarity = bad or rarity is None, rarity or spec.rarity
    if "target" in m:
        target = get_enum(m["target"], ctx.at("target"), TargetMode)
        bad, spec.target = bad or target is None, target or spec.target
    if "text" in m:
        text = get_str(m["text"], ctx.at("text"))
        bad, spec.text = bad or text is None, text if text is not None else spec.text
    if "numbers" in m:
        nums = _numbers(m["numbers"], ctx.at("numbers"))
        bad, spec.numbers = bad or nums is None, {**spec.numbers, **(nums or {})}
    if "keywords" in m:
        kws = _items(m["keywords"], ctx.at("keywords"), lambda v, c: get_enum(v, c, Keyword),
                     "a list of keywords")
        bad, spec.keywords = bad or kws is None, tuple(kws or ())
    if "tags" in m:
        tags = _items(m["tags"], ctx.at("tags"), get_str, "a list of tags")
        bad, spec.tags = bad or tags is None, tuple(tags or ())
    if "hooks" in m:
        hooks = _items(m["hooks"], ctx.at("hooks"), hook, "a list of hooks")
        bad, spec.hooks = bad or hooks is None, tuple(hooks or ())
    if "character" in m:
        char = get_str(m["character"], ctx.at("character"))
        bad, spec.character = bad or char is None, char
    if "art" in m:
        art = _art(m["art"], ctx.at("art"))
        bad, spec.art = bad or art is None, art or spec.art
    return not bad


def _formulas(raw: object, ctx: Ctx, spec: _CardSpec) -> bool:
    """A repeatable upgrade's numbers: integers, or formulas of ``{upgrades: this}`` (the times
    upgraded) and arithmetic; ``numbers`` gets each one's value for one upgrade."""
    m = get_map(raw, ctx, "a mapping of number names to integers or formulas")
    if m is None:
        return False
    ok = True
    for k, raw_v in m.items():
        v = value(raw_v, ctx.at(k))
        once = None if v is None else formula(v, 1)
        if v is None or once is None:
            if v is not None:
                ctx.at(k).error("a repeatable upgrade's number is an integer or a formula of "
                                "{upgrades: this} (add, sub, mul, div, min, max)")
            ok = False
            continue
        spec.numbers[str(k)] = once
        if type(v) is not int:
            spec.formulas[str(k)] = v
    return ok


def _card_exprs(m: dict[str, object], ctx: Ctx, spec: _CardSpec) -> bool:
    """Read a card's own expressions, ``playable_if`` and ``cost_adjust`` (``ctx`` has the
    card's env: ``$name`` reads its numbers); an upgrade inherits those it does not state."""
    bad = False
    if "playable_if" in m:
        got = cond(m["playable_if"], ctx.at("playable_if"))
        bad, spec.playable_if = got is None, got
    if "cost_adjust" in m:
        adj = value(m["cost_adjust"], ctx.at("cost_adjust"))
        bad, spec.cost_adjust = bad or adj is None, adj
        if adj is not None and spec.x_cost:
            ctx.at("cost_adjust").error("an X-cost card pays all energy: it takes no cost_adjust")
            bad = True
    return not bad


MAX_ART = 2_000  # characters of a card's ``art`` reference


def _art(raw: object, ctx: Ctx) -> str | None:
    """A card's ``art``: a non-empty one-line reference (a path in the pack or a URL)."""
    art = get_str(raw, ctx)
    if art is None:
        return None
    if not art.strip() or len(art) > MAX_ART or any(ord(ch) < 32 for ch in art):
        ctx.error(f"bad art {art[:60]!r}: expected a path or URL of 1..{MAX_ART} characters "
                  "on one line")
        return None
    return art


def _check_text(spec: _CardSpec, ctx: Ctx) -> None:
    for name in _PLACEHOLDER.findall(spec.text):
        if name not in spec.numbers and name != "cost":
            ctx.error(f"text names {{{name}}} but the card has no such number "
                      f"(numbers: {listing(spec.numbers, name) or 'none'})")


def compile_card(cid: str, raw: object, ctx: Ctx) -> GameCard | None:
    m = get_map(raw, ctx, "a card mapping (name, cost, type, ...)")
    if m is None:
        return None
    ok = check_keys(m, ctx, CARD_FIELDS, ("name", "cost", "type"))
    base = _CardSpec()
    ok = _card_fields(m, ctx, base) and ok
    env = card_env(base.target)
    ectx = ctx.with_env(env)
    entries = {k: effect(m[k], ectx.at(k)) if k in m else None for k in CARD_ENTRIES}
    ok = ok and all(entries[k] is not None for k in CARD_ENTRIES if k in m)
    ok = _card_exprs(m, ectx, base) and ok
    _check_text(base, ctx.at("text") if "text" in m else ctx)
    _check_vars(env, base.numbers, "this card's numbers")
    upgrade: GameCard | None = None
    if "upgrade" in m:
        uctx = ctx.at("upgrade")
        um = get_map(m["upgrade"], uctx, "a mapping of what the upgrade changes")
        if um is None:
            return None
        ok = check_keys(um, uctx, UPGRADE_FIELDS) and ok
        up = replace(base, name=f"{base.name or title(cid)}+", numbers=dict(base.numbers),
                     formulas=dict(base.formulas))
        if "repeatable" in um:
            rep = get_bool(um["repeatable"], uctx.at("repeatable"))
            ok, up.repeatable = ok and rep is not None, rep is True
        if up.repeatable and "numbers" in um:  # (formulas of the times upgraded)
            ok = _formulas(um["numbers"], uctx.at("numbers"), up) and ok
            um = {k: v for k, v in um.items() if k != "numbers"}
        ok = _card_fields(um, uctx, up) and ok
        up_env = card_env(up.target)
        up_entries = dict(entries)
        ok = _card_exprs(um, uctx.with_env(up_env), up) and ok
        for k in CARD_ENTRIES:
            if k in um:
                up_entries[k] = effect(um[k], uctx.with_env(up_env).at(k))
                ok = ok and up_entries[k] is not None
            elif k in m and up.target is not base.target:
                up_entries[k] = effect(m[k], ctx.with_env(up_env).at(k))
        _check_text(up, uctx.at("text") if "text" in um else uctx)
        _check_vars(up_env, up.numbers, "the upgrade's numbers")
        if ok:
            upgrade = up.build(cid, up_entries, True, None)
    return base.build(cid, entries, False, upgrade) if ok else None


# ---------------------------------------------------------------- statuses

STATUS_FIELDS = ("name", "text", "debuff", "decay", "decay_at", "allow_negative", "max_stacks", "modifiers",
                 "hooks", "skip_turn", "keeps_block", "hidden", "negates_debuffs", *STATUS_ENTRIES)
_AMOUNT_ENTRIES = ("on_attacked", "on_damage_taken", "on_apply", "on_block_gained")


def compile_status(sid: str, raw: object, ctx: Ctx) -> StatusDef | None:
    m = get_map(raw, ctx, "a status mapping (name, decay, modifiers, on_turn_end, ...)")
    if m is None:
        return None
    ok = check_keys(m, ctx, STATUS_FIELDS)
    flags: dict[str, bool] = {}
    for key in ("debuff", "allow_negative", "skip_turn", "keeps_block", "hidden",
                "negates_debuffs"):
        got = get_bool(m[key], ctx.at(key)) if key in m else False
        ok = ok and got is not None
        flags[key] = bool(got)
    name = get_str(m["name"], ctx.at("name")) if "name" in m else title(sid)
    text = get_str(m["text"], ctx.at("text")) if "text" in m else ""
    decay = get_enum(m["decay"], ctx.at("decay"), Decay) if "decay" in m else Decay.NONE
    decay_at = get_word(m["decay_at"], ctx.at("decay_at"), DECAY_MOMENTS) \
        if "decay_at" in m else "turn_end"
    cap = get_int(m["max_stacks"], ctx.at("max_stacks"), 1, current().max_stacks) \
        if "max_stacks" in m else 999
    mods = _items(m["modifiers"], ctx.at("modifiers"), modifier, "a list of modifiers") \
        if "modifiers" in m else []
    hooks = _items(m["hooks"], ctx.at("hooks"), hook, "a list of hooks") if "hooks" in m else []
    ok = ok and mods is not None and hooks is not None
    entries: dict[str, N.Node] = {}
    for key in STATUS_ENTRIES:
        if key in m:
            env = Env(TARGET, None)
            node = effect(m[key], ctx.with_env(env).at(key))
            known = ("stacks", "amount", "attack") if key == "on_damage_taken" else \
                ("stacks", "amount") if key in _AMOUNT_ENTRIES else ("stacks",)
            _check_vars(env, known, "a status entry reads")
            if node is None:
                ok = False
            else:
                entries[key] = node
    if not ok or name is None or text is None or decay is None or cap is None or decay_at is None:
        return None
    return StatusDef(sid, name, text, flags["debuff"], decay, flags["allow_negative"], cap,
                     tuple(mods or ()), tuple(hooks or ()), flags["skip_turn"],
                     flags["keeps_block"], MappingProxyType(entries), decay_at, flags["hidden"],
                     flags["negates_debuffs"])


# ---------------------------------------------------------------- enemies

ENEMY_FIELDS = ("name", "hp", "moves", "ai", "statuses")
MOVE_FIELDS = ("name", "intent", "damage", "hits", "block", "do", "next")
AI_FIELDS = ("opener", "cycle", "weighted", "hp_rules", "rules")


def _move(mid: str, raw: object, ctx: Ctx, known: list[str]) -> MoveDef | None:
    m = get_map(raw, ctx, "a move mapping (intent, damage, hits, block, do, next)")
    if m is None:
        return None
    ok = check_keys(m, ctx, MOVE_FIELDS, ("intent",))
    name = get_str(m["name"], ctx.at("name")) if "name" in m else title(mid)
    intent = get_enum(m["intent"], ctx.at("intent"), IntentKind) if "intent" in m else None
    planned: Value | None = None
    if "damage" in m and isinstance(m["damage"], dict):
        # a value read when the move is planned (self the enemy, target the player)
        denv = Env(TARGET, None)
        planned = value(m["damage"], ctx.with_env(denv).at("damage"))
        _check_vars(denv, (), "a planned damage reads")
        rolled = None if planned is None else (0, 0)
    else:
        rolled = _range(m["damage"], ctx.at("damage"), 0) if "damage" in m else None
    damage = None if rolled is None else rolled[0]
    damage_max = rolled[1] if rolled is not None and (
        planned is not None or isinstance(m["damage"], list)) else None
    hits = get_int(m["hits"], ctx.at("hits"), 1) if "hits" in m else 1
    block = get_int(m["block"], ctx.at("block"), 0) if "block" in m else None
    nxt = get_str(m["next"], ctx.at("next")) if "next" in m else None
    if nxt is not None and nxt not in known:
        ctx.at("next").error(f"unknown move {nxt!r} (known: {listing(known, nxt)})")
        ok = False
    env = Env(TARGET, None)
    steps: list[N.Node] = []
    if damage is not None:
        # a [lo, hi] damage is rolled per enemy unit; the step reads it from the move's $damage
        amount: Value = damage if damage_max is None else Var("damage")
        steps.append(N.DealDamage(amount, TARGET, hits or 1))
    if block is not None:
        steps.append(N.GainBlock(block, SELF))
    if "do" in m:
        node = effect(m["do"], ctx.with_env(env).at("do"))
        ok = ok and node is not None
        if isinstance(node, N.Sequence):
            steps.extend(node.steps)
        elif node is not None:
            steps.append(node)
        _check_vars(env, [k for k in ("damage", "hits", "block") if k in m or k == "hits"],
                    "a move reads")
    bad = any(k in m and v is None for k, v in (("name", name), ("damage", damage),
                                                  ("hits", hits), ("block", block),
                                                  ("next", nxt)))
    if not ok or bad or intent is None:
        return None
    behaviour = None if not steps else steps[0] if len(steps) == 1 else N.Sequence(tuple(steps))
    return MoveDef(mid, str(name), intent, damage, hits or 1, block, behaviour, damage_max, nxt,
                   planned)


W_FIELDS = ("weight", "max_in_row", "fallback", "once", "after", "before")


def _weighted(mid: str, spec: Mapping[str, object], sub: Ctx | None, ctx: Ctx,
              move_id: Callable[[object, Ctx], str | None]) -> WeightedMove | None:
    """One weighted entry; ``sub`` is the context of its fields (None for a bare weight)."""
    def at(key: str) -> Ctx:
        return ctx if sub is None else sub.at(key)

    weight = get_int(spec.get("weight"), at("weight"), 0)
    row = get_int(spec.get("max_in_row", 0), at("max_in_row"), 0)
    once = get_bool(spec.get("once", False), at("once"))
    after = move_id(spec["after"], at("after")) if "after" in spec else None
    before = move_id(spec["before"], at("before")) if "before" in spec else None
    fallback: list[tuple[str, int]] = []
    good = not (("after" in spec and after is None) or ("before" in spec and before is None))
    if "fallback" in spec:
        fm = get_map(spec["fallback"], at("fallback"), "a mapping of move -> weight")
        good = good and bool(fm)
        if fm is not None and not fm:
            at("fallback").error("a fallback needs at least one move")
        for fk, fv in (fm or {}).items():
            fid = move_id(fk, at("fallback").at(fk))
            fw = get_int(fv, at("fallback").at(fk), 1)
            if fid is None or fw is None:
                good = False
            else:
                fallback.append((fid, fw))
    if not good or weight is None or row is None or once is None:
        return None
    return WeightedMove(mid, weight, row, tuple(fallback), once, after, before)


def _ai(raw: object, ctx: Ctx, moves: list[str]) -> AiDef | None:
    m = get_map(raw, ctx, "an ai mapping (opener, cycle or weighted, hp_rules)")
    if m is None:
        return None
    ok = check_keys(m, ctx, AI_FIELDS)
    if ("cycle" in m) == ("weighted" in m):
        ctx.error("ai needs exactly one of 'cycle' or 'weighted' (what to do after the opener)")
        ok = False

    def move_id(v: object, c: Ctx) -> str | None:
        s = get_str(v, c)
        if s is not None and s not in moves:
            c.error(f"unknown move {s!r} (known: {listing(moves, s)})")
            return None
        return s

    def ids(key: str) -> tuple[str, ...]:
        nonlocal ok
        if key not in m:
            return ()
        got = _items(m[key], ctx.at(key), move_id, "a list of move ids")
        ok = ok and got is not None
        return tuple(got or ())

    opener, cycle = ids("opener"), ids("cycle")
    if "cycle" in m and not cycle and ok:
        ctx.at("cycle").error("a cycle needs at least one move")
        ok = False
    weighted: list[WeightedMove] = []
    raw_w = m.get("weighted", {})
    if isinstance(raw_w, list):  # the list form: [{move: ..., weight: ...}, ...] (a move may repeat)
        entries: list[tuple[object, object, Ctx]] = []
        for i, v in enumerate(raw_w):
            ectx = ctx.at("weighted").at(i)
            em = get_map(v, ectx, "a weighted entry {move: ..., weight: ...}")
            if em is None or not check_keys(em, ectx, ("move", *W_FIELDS), ("move", "weight")):
                ok = False
                continue
            entries.append((em["move"], {k: x for k, x in em.items() if k != "move"}, ectx))
    else:
        wm = get_map(raw_w, ctx.at("weighted"), "a mapping of move -> weight")
        ok = ok and wm is not None
        entries = [(k, v, ctx.at("weighted").at(k)) for k, v in (wm or {}).items()]
    for k, v, wctx in entries:
        mid = move_id(k, wctx.at("move") if isinstance(raw_w, list) else wctx)
        if mid is None:
            ok = False
            continue
        spec = v if isinstance(v, dict) else {"weight": v}
        if isinstance(v, dict) and not isinstance(raw_w, list) and not check_keys(
                v, wctx, W_FIELDS, ("weight",)):
            ok = False
            continue
        got = _weighted(mid, spec, wctx if isinstance(v, dict) else None, wctx, move_id)
        if got is None:
            ok = False
        else:
            weighted.append(got)
    def hp_rule(r: object, rctx: Ctx) -> HpRule | None:
        rm = get_map(r, rctx, "an hp rule {below_percent: 50, move: split, once: true}")
        if rm is None or not check_keys(rm, rctx, ("below_percent", "move", "once", "at_once"),
                                        ("below_percent", "move")):
            return None
        pct = get_int(rm["below_percent"], rctx.at("below_percent"), 1)
        mv = move_id(rm["move"], rctx.at("move"))
        once = get_bool(rm.get("once", True), rctx.at("once"))
        now = get_bool(rm.get("at_once", False), rctx.at("at_once"))
        return None if pct is None or mv is None or once is None or now is None else HpRule(
            pct, mv, once, now)

    def ai_rule(r: object, rctx: Ctx) -> AiRule | None:
        rm = get_map(r, rctx, "an ai rule {when: <condition>, move: sleep}")
        if rm is None or not check_keys(rm, rctx, ("when", "move"), ("when", "move")):
            return None
        env = Env(TARGET, None)
        when = cond(rm["when"], rctx.with_env(env).at("when"))
        _check_vars(env, (), "an ai rule reads")
        mv = move_id(rm["move"], rctx.at("move"))
        return None if when is None or mv is None else AiRule(when, mv)

    rules = _items(m["hp_rules"], ctx.at("hp_rules"), hp_rule, "a list of hp rules") \
        if "hp_rules" in m else []
    when_rules = _items(m["rules"], ctx.at("rules"), ai_rule, "a list of ai rules") \
        if "rules" in m else []
    ok = ok and rules is not None and when_rules is not None
    return AiDef(opener, cycle, tuple(weighted), tuple(rules or ()),
                 tuple(when_rules or ())) if ok else None


def compile_enemy(eid: str, raw: object, ctx: Ctx) -> EnemyDef | None:
    m = get_map(raw, ctx, "an enemy mapping (name, hp, moves, ai, statuses)")
    if m is None:
        return None
    ok = check_keys(m, ctx, ENEMY_FIELDS, ("hp", "moves", "ai"))
    name = get_str(m["name"], ctx.at("name")) if "name" in m else title(eid)
    hp = _range(m["hp"], ctx.at("hp"), 1) if "hp" in m else None
    moves: list[MoveDef] = []
    mm = get_map(m["moves"], ctx.at("moves"), "a mapping of move id -> move") if "moves" in m \
        else None
    for mid, mv in (mm or {}).items():
        got = _move(mid, mv, ctx.at("moves").at(mid), list(mm or {}))
        ok = ok and got is not None
        if got is not None:
            moves.append(got)
    if mm is not None and not mm:
        ctx.at("moves").error("an enemy needs at least one move")
        ok = False
    ai = _ai(m["ai"], ctx.at("ai"), list(mm or {})) if "ai" in m else None
    fixed, ranges = {}, {}
    if "statuses" in m:
        sm = get_map(m["statuses"], ctx.at("statuses"), "a mapping of status -> stacks")
        ok = ok and sm is not None
        for sid, n in (sm or {}).items():
            sctx = ctx.at("statuses").at(sid)
            sctx.ref("status", sid)
            rng = _range(n, sctx, 1)
            if rng is None:
                ok = False
            elif isinstance(n, list):
                ranges[sid] = rng
            else:
                fixed[sid] = rng[0]
    if not ok or name is None or hp is None or ai is None or mm is None:
        return None
    return EnemyDef(eid, name, hp[0], hp[1], tuple(moves), ai, MappingProxyType(fixed),
                    MappingProxyType(ranges))


# ---------------------------------------------------------------- encounters, characters, rewards

ENCOUNTER_FIELDS = ("name", "enemies", "groups", "hand_discard", "rewards", "kind", "pool",
                    "weight", "exclusions")
ENCOUNTER_KINDS = ("normal", "elite", "boss")
# an act's encounter pools and the kind each holds (a run draws weak, then strong fights)
POOL_KINDS = {"weak": "normal", "strong": "normal", "elite": "elite", "boss": "boss"}
CHARACTER_FIELDS = ("name", "max_hp", "deck", "statuses", "gold")
REWARD_FIELDS = ("cards", "rarity_weights", "pool", "gold", "upgrade", "remove")


def compile_encounter(xid: str, raw: object, ctx: Ctx) -> EncounterDef | None:
    m = get_map(raw, ctx, "an encounter mapping (enemies, rewards, kind, ...)")
    if m is None:
        return None
    ok = check_keys(m, ctx, ENCOUNTER_FIELDS)
    if ("enemies" in m) == ("groups" in m):
        ctx.error("an encounter needs exactly one of 'enemies' or 'groups'")
        ok = False
    name = get_str(m["name"], ctx.at("name")) if "name" in m else title(xid)

    def slot(v: object, c: Ctx) -> tuple[str, ...] | None:
        """An enemy id, or a list of enemy ids (one is rolled per battle)."""
        if not isinstance(v, list):
            one = get_ref(v, c, "enemy")
            return None if one is None else (one,)
        got = _items(v, c, lambda x, cc: get_ref(x, cc, "enemy"), "a list of enemy ids")
        if got is not None and not got:
            c.error("a rolled slot needs at least one enemy id")
            return None
        return None if got is None else tuple(got)

    def group(v: object, c: Ctx) -> tuple[tuple[str, ...], ...] | None:
        got = _items(v, c, slot, "a list of enemy ids (a slot may be a list to roll from)")
        if got is not None and not got:
            c.error("an encounter needs at least one enemy")
            return None
        return None if got is None else tuple(got)

    groups: list[tuple[tuple[str, ...], ...]] | None = None
    draw = 0
    bag: tuple[str, ...] = ()
    if "enemies" in m and isinstance(m["enemies"], dict):
        # ``{draw: 4, from: [...]}``: slots drawn without replacement from a bag of ids
        dctx = ctx.at("enemies")
        dm = m["enemies"]
        if check_keys(dm, dctx, ("draw", "from"), ("draw", "from")):
            got = _items(dm["from"], dctx.at("from"), lambda x, cc: get_ref(x, cc, "enemy"),
                         "a list of enemy ids to draw from")
            n = get_int(dm["draw"], dctx.at("draw"), 1)
            if got is not None and n is not None and n > len(got):
                dctx.at("draw").error(f"draw {n} is more than the {len(got)} ids to draw from")
            elif got is not None and n is not None:
                draw, bag = n, tuple(got)
                groups = [tuple((i,) for i in bag[:n])]
    elif "enemies" in m:
        one = group(m["enemies"], ctx.at("enemies"))
        groups = None if one is None else [one]
    elif "groups" in m:
        groups = _items(m["groups"], ctx.at("groups"), group, "a list of enemy groups")
        if groups is not None and not groups:
            ctx.at("groups").error("'groups' needs at least one group")
            groups = None
    enemies = None if not groups else [sl[0] for sl in groups[0]]
    rolled = groups is not None and not draw and (
        len(groups) > 1 or any(len(sl) > 1 for sl in groups[0]))
    # (no hand_discard of its own: the game's BattleRules.hand_discard applies)
    rule = get_enum(m["hand_discard"], ctx.at("hand_discard"), HandDiscardRule) \
        if "hand_discard" in m else None
    rewards = get_ref(m["rewards"], ctx.at("rewards"), "reward table") if "rewards" in m else None
    kind = get_word(m["kind"], ctx.at("kind"), ENCOUNTER_KINDS) if "kind" in m else "normal"
    pool, weight, exclusions = _pool(m, ctx, kind)
    if not ok or enemies is None or name is None or kind is None or (
            "hand_discard" in m and rule is None) or ("rewards" in m and rewards is None) \
            or weight is None or exclusions is None:
        return None
    return EncounterDef(xid, name, tuple(enemies), rule, rewards, kind,
                        tuple(groups or ()) if rolled else (), pool, weight, exclusions,
                        draw, bag)


def _pool(m: dict[str, object], ctx: Ctx, kind: str | None,
          ) -> tuple[str | None, int | None, tuple[str, ...] | None]:
    """An encounter's place in its act's pools: ``pool``, ``weight`` (>= 1), ``exclusions``.
    A weight or exclusions need a pool, and the pool must hold the encounter's kind."""
    pool = get_word(m["pool"], ctx.at("pool"), POOL_KINDS) if "pool" in m else None
    weight = get_int(m["weight"], ctx.at("weight"), 1) if "weight" in m else 1
    got = _items(m["exclusions"], ctx.at("exclusions"),
                 lambda v, c: get_ref(v, c, "encounter"), "a list of encounter ids") \
        if "exclusions" in m else []
    exclusions = None if got is None else tuple(got)
    if "pool" not in m:
        for key in ("weight", "exclusions"):
            if key in m:
                ctx.at(key).error("needs 'pool' (the pool the encounter is drawn from)")
                return None, None, None
    elif pool is not None and kind is not None and POOL_KINDS[pool] != kind:
        ctx.at("pool").error(f"the {pool} pool holds {POOL_KINDS[pool]} encounters; "
                             f"this one is {kind}")
        return None, None, None
    if "pool" in m and pool is None:
        return None, None, None
    return pool, weight, exclusions


def _stacks(v: object, ctx: Ctx) -> dict[str, int] | None:
    m = get_map(v, ctx, "a mapping of status -> stacks")
    if m is None:
        return None
    out: dict[str, int] = {}
    for sid, n in m.items():
        ctx.at(sid).ref("status", sid)
        got = get_int(n, ctx.at(sid), 1)
        if got is None:
            return None
        out[sid] = got
    return out


def compile_character(cid: str, raw: object, ctx: Ctx) -> CharacterDef | None:
    m = get_map(raw, ctx, "a character mapping (name, max_hp, deck, statuses, gold)")
    if m is None:
        return None
    ok = check_keys(m, ctx, CHARACTER_FIELDS, ("max_hp", "deck"))
    name = get_str(m["name"], ctx.at("name")) if "name" in m else title(cid)
    max_hp = get_int(m["max_hp"], ctx.at("max_hp"), 1) if "max_hp" in m else None
    gold = get_int(m["gold"], ctx.at("gold"), 0) if "gold" in m else 99
    statuses = _stacks(m["statuses"], ctx.at("statuses")) if "statuses" in m else {}
    deck: list[DeckEntry] = []
    dm = get_map(m["deck"], ctx.at("deck"), "a mapping of card id -> count ('bash+' upgraded)") \
        if "deck" in m else None
    size = 0
    for key, n in (dm or {}).items():
        dctx = ctx.at("deck").at(key)
        card = key[:-1] if key.endswith("+") else key
        dctx.ref("card", card)
        # copies of one card: the count of cards one action may add (max_count), and the
        # whole deck at most MAX_DECK cards (what set_master_deck takes): each copy becomes a
        # master-deck entry and a card instance in every battle
        count = get_int(n, dctx, 1)
        if count is None or not within(count, dctx, current().max_count, "max_count"):
            ok = False
            continue
        size += count
        if size > MAX_DECK:
            dctx.error(f"the starting deck passes {MAX_DECK} cards here ({size} so far)")
            ok = False
            break
        deck.append(DeckEntry(card, key.endswith("+"), count))
    if not ok or None in (name, max_hp, gold, statuses, dm):
        return None
    return CharacterDef(cid, str(name), int(max_hp or 0), tuple(deck),
                        MappingProxyType(statuses or {}), int(gold or 0))


def compile_reward(rid: str, raw: object, ctx: Ctx) -> RewardTable | None:
    m = get_map(raw, ctx, "a reward table mapping (cards, rarity_weights, pool, gold, ...)")
    if m is None:
        return None
    ok = check_keys(m, ctx, REWARD_FIELDS)
    cards = get_int(m["cards"], ctx.at("cards"), 0) if "cards" in m else 3
    weights: dict[str, int] = {}
    if "rarity_weights" in m:
        wctx = ctx.at("rarity_weights")
        wm = get_map(m["rarity_weights"], wctx, "a mapping of rarity -> weight")
        ok = ok and wm is not None
        for k, w in (wm or {}).items():
            r = get_enum(k, wctx.at(k), Rarity)
            n = get_int(w, wctx.at(k), 0)
            if r is None or n is None:
                ok = False
            else:
                weights[r.value] = n
    pool = _items(m["pool"], ctx.at("pool"), lambda v, c: get_ref(v, c, "card"),
                  "a list of card ids") if "pool" in m else []
    gold = _range(m["gold"], ctx.at("gold"), 0) if "gold" in m else (0, 0)
    flags = [get_bool(m[k], ctx.at(k)) if k in m else False for k in ("upgrade", "remove")]
    if not ok or pool is None or cards is None or gold is None or None in flags:
        return None
    return RewardTable(rid, cards, MappingProxyType(weights), tuple(pool),
                       gold[0], gold[1], bool(flags[0]), bool(flags[1]))


def compile_graph(gid: str, raw: object, ctx: Ctx) -> N.Node | None:
    """A named graph; it shares its caller's scope, so only slot types are checked here."""
    gctx = ctx.with_env(Env(TARGET, None, graph=gid))
    node = effect(raw, gctx)
    _check_slot_types(gctx.env)
    return node


COMPILERS: dict[str, Callable[[str, object, Ctx], object]] = {
    "cards": compile_card, "statuses": compile_status, "enemies": compile_enemy,
    "encounters": compile_encounter, "characters": compile_character,
    "rewards": compile_reward, "graphs": compile_graph,
}

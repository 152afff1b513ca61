"""The expression language: values (``$damage``, ``{count: hand}``), conditions, selectors, card
filters, hooks and modifiers, from YAML-shaped data, with located problems.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..enums import CardType, IntentKind, Keyword, Rarity
from ..flow import nodes as N
from ..flow.exprs import (
    BIN_OPS,
    COMPARE_OPS,
    AllOf,
    AnyOf,
    BinOp,
    CardFilter,
    CardSel,
    Compare,
    Cond,
    CountOf,
    HasStatus,
    Intends,
    Not,
    RandInt,
    Same,
    StacksOf,
    UnitSel,
    UnitStat,
    Upgrades,
    Value,
    Var,
    XCost,
)
from .defs import Modifier
from .problems import (
    NAME_RE,
    Ctx,
    check_keys,
    expected,
    get_bool,
    get_enum,
    get_int,
    get_list,
    get_map,
    get_ref,
    get_str,
    get_word,
    within,
)

# ---------------------------------------------------------------- values and conditions

CARD_SOURCES = ("hand", "draw", "discard", "exhaust", "played", "drawn", "this", "all")
UNIT_SOURCES = ("self", "player", "target", "all_enemies", "random_enemy", "enemies_and_player")
UNIT_STATS = ("hp", "max_hp", "block", "missing_hp", "hp_losses")
BATTLE_STATS = ("energy", "turn", "hand_size", "gold")
SELF = UnitSel("self")
TARGET = UnitSel("target")
_X = XCost()
_VALUE_KINDS = ("count", "stacks", *UNIT_STATS, *BIN_OPS, "random", "upgrades")
_VALUE_HINT = ("a value (an integer, '$name', 'x', 'energy', 'turn', 'hand_size', 'gold' or a "
               "mapping like {add: [a, b]})")
_COND_KINDS = (*COMPARE_OPS, "has_status", "all", "any", "not", "exists", "intends", "same")
# what ``intends`` names: ``attack`` (any intent that deals damage) or one intent kind
INTENT_WORDS = ("attack", *(k.value for k in IntentKind if k is not IntentKind.ATTACK))


def var(name: str, ctx: Ctx) -> Var | None:
    if not NAME_RE.match(name):
        ctx.error(f"bad name '${name}': use letters, digits and underscores after '$'")
        return None
    ctx.env.used.append((name, ctx))
    ctx.env.typed.append((name, "value", ctx))
    return Var(name)


def _pair(v: object, ctx: Ctx) -> tuple[Value, Value] | None:
    if not isinstance(v, list) or len(v) != 2:
        expected(ctx, "a list of two values", v)
        return None
    a, b = value(v[0], ctx.at(0)), value(v[1], ctx.at(1))
    return None if a is None or b is None else (a, b)


def _head(m: dict[str, object], ctx: Ctx, kinds: tuple[str, ...], what: str) -> str | None:
    """The single kind key of a one-key mapping (``{add: [...]}``), reporting anything else."""
    head = next(iter(m))
    if len(m) != 1 or head not in kinds:
        bad = next((k for k in m if k not in kinds), None)
        if bad is None:
            ctx.error(f"a {what} mapping has exactly one key, got {', '.join(map(str, m))}")
        else:
            ctx.at(bad).error(f"unknown {what} kind {bad!r} (expected one of: {', '.join(kinds)})")
        return None
    return head


def value(v: object, ctx: Ctx) -> Value | None:
    """A number: ``6``, ``$damage``, ``x``, ``{count: hand}``, ``{stacks: weak, of: self}``, ..."""
    if type(v) is int:
        return v if within(v, ctx) else None
    if isinstance(v, str):
        if v.startswith("$"):
            return var(v[1:], ctx)
        if v == "x":
            return _X
        if v in BATTLE_STATS:
            return UnitStat(v)
        expected(ctx, _VALUE_HINT, v)
        return None
    if not isinstance(v, dict) or not v:
        expected(ctx, _VALUE_HINT, v)
        return None
    if "stacks" in v:
        if not check_keys(v, ctx, ("stacks", "of")):
            return None
        status = get_ref(v["stacks"], ctx.at("stacks"), "status")
        of = unit(v["of"], ctx.at("of")) if "of" in v else SELF
        return None if status is None or of is None else StacksOf(status, of)
    head = _head(v, ctx, _VALUE_KINDS, "value")
    if head is None:
        return None
    arg, actx = v[head], ctx.at(head)
    if head == "count":
        sel = selector(arg, actx)
        return None if sel is None else CountOf(sel)
    if head == "upgrades":
        if arg != "this":
            expected(actx, "'this' (the card whose behaviour runs)", arg)
            return None
        return Upgrades()
    if head in UNIT_STATS:
        u = unit(arg, actx)
        return None if u is None else UnitStat(head, u)
    pair = _pair(arg, actx)
    if pair is None:
        return None
    return RandInt(*pair) if head == "random" else BinOp(head, *pair)


def cond(v: object, ctx: Ctx) -> Cond | None:
    """A condition: ``true``, ``{lt: [a, b]}``, ``{has_status: weak, on: target}``, ..."""
    if isinstance(v, bool):
        return v
    if not isinstance(v, dict) or not v:
        expected(ctx, "a condition (true, false or a mapping like {lt: [a, b]})", v)
        return None
    if "has_status" in v:
        if not check_keys(v, ctx, ("has_status", "on")):
            return None
        status = get_ref(v["has_status"], ctx.at("has_status"), "status")
        on = unit(v["on"], ctx.at("on")) if "on" in v else SELF
        return None if status is None or on is None else HasStatus(status, on)
    if "intends" in v:
        if not check_keys(v, ctx, ("intends", "on")):
            return None
        kind = get_word(v["intends"], ctx.at("intends"), INTENT_WORDS)
        on = unit(v["on"], ctx.at("on")) if "on" in v else SELF
        return None if kind is None or on is None else Intends(kind, on)
    head = _head(v, ctx, _COND_KINDS, "condition")
    if head is None:
        return None
    arg, actx = v[head], ctx.at(head)
    if head in COMPARE_OPS:
        pair = _pair(arg, actx)
        return None if pair is None else Compare(head, *pair)
    if head == "not":
        inner = cond(arg, actx)
        return None if inner is None else Not(inner)
    if head == "exists":
        sel = selector(arg, actx)
        return None if sel is None else Compare("gt", CountOf(sel), 0)
    if head == "same":
        if not isinstance(arg, list) or len(arg) != 2:
            expected(actx, "a list of two units", arg)
            return None
        a, b = unit(arg[0], actx.at(0)), unit(arg[1], actx.at(1))
        return None if a is None or b is None else Same(a, b)
    items = get_list(arg, actx, "a list of conditions")
    if items is None:
        return None
    parts = [cond(c, actx.at(i)) for i, c in enumerate(items)]
    conds = tuple(p for p in parts if p is not None)
    if len(conds) != len(parts):
        return None
    return AllOf(conds) if head == "all" else AnyOf(conds)


# ---------------------------------------------------------------- selectors


def unit(v: object, ctx: Ctx) -> UnitSel | None:
    """A unit: self, player, target, all_enemies, random_enemy, enemies_and_player or ``$slot``;
    or ``{units: <unit>, exclude: <unit>, random: N}`` (those units but the excluded ones, then
    N of them at random)."""
    if isinstance(v, dict):
        if not check_keys(v, ctx, ("units", "exclude", "random"), ("units",)):
            return None
        of = unit(v["units"], ctx.at("units"))
        ex = unit(v["exclude"], ctx.at("exclude")) if "exclude" in v else None
        if ex is not None and ex.source not in UNIT_SOURCES:
            ctx.at("exclude").error(f"exclude takes one of: {', '.join(UNIT_SOURCES)}")
            return None
        n = get_int(v["random"], ctx.at("random"), 1) if "random" in v else 0
        if of is None or ("exclude" in v and ex is None) or n is None:
            return None
        return UnitSel("filtered", None, of, None if ex is None else ex.source, n)
    if isinstance(v, str):
        if v in UNIT_SOURCES:
            return UnitSel(v)
        if v.startswith("$") and NAME_RE.match(v[1:]):
            ctx.env.typed.append((v[1:], "units", ctx))
            return UnitSel("var", v[1:])
        ctx.error(f"bad value {v!r} (expected one of: {', '.join(UNIT_SOURCES)} or '$name')")
        return None
    expected(ctx, "a unit (" + ", ".join(UNIT_SOURCES) + " or '$name')", v)
    return None


_FILTER_KEYS = ("tags", "type", "keyword", "card", "upgraded", "exclude_self", "upgradable",
                "rarity", "character", "exclude_tags", "replay")


def card_filter(v: object, ctx: Ctx) -> CardFilter | None:
    """``{tags: [strike], type: attack, keyword: exhaust, card: id, upgraded: b, ...}``."""
    m = get_map(v, ctx, "a card filter mapping")
    if m is None or not check_keys(m, ctx, _FILTER_KEYS):
        return None
    bad = False

    def words(key: str, get: Callable[[object, Ctx], object], what: str) -> list[object]:
        """One item or a list of them (``tags: strike``, ``rarity: [common, rare]``)."""
        nonlocal bad
        if key not in m:
            return []
        raw, kctx = m[key], ctx.at(key)
        items = get_list(raw, kctx, what) if isinstance(raw, list) else [raw]
        got = [get(x, kctx.at(i) if isinstance(raw, list) else kctx)
               for i, x in enumerate(items or ())]
        bad = bad or items is None or None in got
        return [x for x in got if x is not None]

    tags = [str(t) for t in words("tags", get_str, "a list of tags")]
    exclude_tags = tuple(str(t) for t in words("exclude_tags", get_str, "a list of tags"))
    rarity = tuple(r for r in words("rarity", lambda x, c: get_enum(x, c, Rarity),
                                    "a list of rarities") if isinstance(r, Rarity))
    types: tuple[CardType, ...] = ()
    if isinstance(m.get("type"), list):  # any of several types
        types = tuple(t for t in words("type", lambda x, c: get_enum(x, c, CardType),
                                       "a list of card types") if isinstance(t, CardType))

    def opt(key: str, get: Callable[[object, Ctx], object]) -> object:
        nonlocal bad
        if key not in m:
            return None
        got = get(m[key], ctx.at(key))
        bad = bad or got is None
        return got

    ctype = None if types else opt("type", lambda x, c: get_enum(x, c, CardType))
    character = opt("character", get_str)
    kw = opt("keyword", lambda x, c: get_enum(x, c, Keyword))
    card = opt("card", lambda x, c: get_ref(x, c, "card"))
    upg = opt("upgraded", get_bool)
    excl = opt("exclude_self", get_bool)
    upgradable = opt("upgradable", get_bool)
    replay = opt("replay", get_bool)
    if bad:
        return None
    return CardFilter(tuple(tags), ctype if isinstance(ctype, CardType) else None,
                      kw if isinstance(kw, Keyword) else None,
                      card if isinstance(card, str) else None,
                      upg if isinstance(upg, bool) else None, excl is True,
                      upgradable if isinstance(upgradable, bool) else None, types, rarity,
                      character if isinstance(character, str) else None, exclude_tags,
                      replay if isinstance(replay, bool) else None)


SEL_KEYS = ("from", "where", "random", "top")


def selection(get: Callable[[str], object], has: Callable[[str], bool], at: Callable[[str], Ctx],
               cards_only: bool) -> CardSel | UnitSel | None:
    """A selection from the ``from``/``units``/``where``/``random``/``top`` fields of a mapping."""
    if has("units") and not cards_only:
        extra = next((k for k in SEL_KEYS if has(k)), None)
        if extra is not None:
            at(extra).error(f"a 'units' selection takes no {extra!r}")
            return None
        return unit(get("units"), at("units"))
    if not has("from"):
        at("from").error("missing required field")
        return None
    src, sctx = get("from"), at("from")
    if isinstance(src, str) and src in UNIT_SOURCES and not cards_only:
        extra = next((k for k in SEL_KEYS[1:] if has(k)), None)
        if extra is not None:
            at(extra).error(f"only card selections take {extra!r} ({src!r} is a unit)")
            return None
        return UnitSel(src)
    units = "" if cards_only else ", " + ", ".join(UNIT_SOURCES)
    hint = f"one of: {', '.join(CARD_SOURCES)}{units} or '$name'"
    if not isinstance(src, str):
        expected(sctx, hint, src)
        return None
    slot: str | None = None
    if src.startswith("$") and NAME_RE.match(src[1:]):
        source, slot = "var", src[1:]
        sctx.env.typed.append((slot, "cards", sctx))
    elif src in CARD_SOURCES:
        source = src
    else:
        sctx.error(f"bad value {src!r} (expected {hint})")
        return None
    where = card_filter(get("where"), at("where")) if has("where") else None
    rnd = value(get("random"), at("random")) if has("random") else None
    top = value(get("top"), at("top")) if has("top") else None
    if (has("where") and where is None) or (has("random") and rnd is None) or (
            has("top") and top is None):
        return None
    return CardSel(source, where, rnd, top, slot)


def selector(v: object, ctx: Ctx, cards_only: bool = False) -> CardSel | UnitSel | None:
    """``hand``, ``$picked``, ``all_enemies``, ``{from: hand, where: {...}, random: 1}``."""
    if isinstance(v, str):
        return selection(lambda k: v, lambda k: k == "from", ctx.virtual, cards_only)
    m = get_map(v, ctx, "a selection (a pile, a unit, '$name' or {from: ..., where: ...})")
    keys = SEL_KEYS if cards_only else (*SEL_KEYS, "units")
    if m is None or not check_keys(m, ctx, keys):
        return None
    return selection(m.get, m.__contains__, ctx.at, cards_only)


# ---------------------------------------------------------------- hooks and modifiers

HOOK_KEYS = ("kind", "op", "amount", "where")


def hook(v: object, ctx: Ctx) -> N.HookDef | None:
    """``{kind: playable, op: forbid, where: {type: attack}}`` -> HookDef."""
    m = get_map(v, ctx, "a hook mapping {kind: ..., op: ..., amount: ..., where: ...}")
    if m is None or not check_keys(m, ctx, HOOK_KEYS, ("kind",)):
        return None
    return hook_fields(m.get, m.__contains__, ctx.at)


def hook_fields(get: Callable[[str], object], has: Callable[[str], bool],
                 at: Callable[[str], Ctx]) -> N.HookDef | None:
    kind = get_word(get("kind"), at("kind"), N.HOOK_KINDS)
    op = get_word(get("op") if has("op") else "add", at("op"), N.HOOK_OPS)
    amount = get_int(get("amount") if has("amount") else 0, at("amount"))
    where = card_filter(get("where"), at("where")) if has("where") else None
    if kind is None or op is None or amount is None or (has("where") and where is None):
        return None
    allowed = HOOK_OPS_BY_KIND[kind]
    if op not in allowed:
        at("op").error(f"a hook of kind {kind!r} takes op "
                       f"{' or '.join(repr(o) for o in allowed)}, not {op!r}")
        return None
    return N.HookDef(kind, op, amount, where)


# what each hook kind can do: playability is only forbidden; draws can also be forbidden
HOOK_OPS_BY_KIND = {
    "cost": ("add", "set"), "playable": ("forbid",), "hand_size": ("add", "set"),
    "draw": ("add", "set", "forbid"), "energy": ("add", "set"),
}


_MOD = re.compile(  # at most 9 digits a number: a bounded integer
    r"^(deal|take|block)\s+(?:\+\s*(\d{0,9})\s*(\*?\s*stacks)?|\*\s*(\d{1,9})\s*/\s*(\d{1,9}))$")
_MOD_KEYS = ("stage", "op", "amount", "num", "den", "per_stack")


def modifier(v: object, ctx: Ctx) -> Modifier | None:
    """``deal +stacks``, ``block +2``, ``take *3/2`` or the mapping form -> Modifier."""
    if isinstance(v, str):
        mt = _MOD.match(v.strip())
        if mt is None:
            ctx.error(f"bad modifier {v!r} (write e.g. 'deal +stacks', 'block +2', 'take *3/2')")
            return None
        stage, amount, stacks, num, den = mt.groups()
        if num is not None:
            return Modifier(stage, "mul", 1, int(num), max(1, int(den)), True)
        if stacks:
            return Modifier(stage, "add", int(amount or 1), 1, 1, True)
        if not amount:
            ctx.error(f"bad modifier {v!r}: '+' needs a number or 'stacks'")
            return None
        return Modifier(stage, "add", int(amount), 1, 1, False)
    m = get_map(v, ctx, "a modifier ('deal +stacks', 'take *3/2' or a mapping)")
    if m is None or not check_keys(m, ctx, _MOD_KEYS, ("stage", "op")):
        return None
    stage = get_word(m["stage"], ctx.at("stage"), ("deal", "take", "block"))
    op = get_word(m["op"], ctx.at("op"), ("add", "mul"))
    amount = get_int(m.get("amount", 1), ctx.at("amount"))
    num = get_int(m.get("num", 1), ctx.at("num"))
    den = get_int(m.get("den", 1), ctx.at("den"), 1)
    per = get_bool(m.get("per_stack", True), ctx.at("per_stack"))
    if stage is None or op is None or amount is None or num is None or den is None or per is None:
        return None
    return Modifier(stage, op, amount, num, den, per)

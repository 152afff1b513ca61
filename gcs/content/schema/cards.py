"""The card and status schemas: YAML-shaped data -> ``GameCard`` / ``StatusDef``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from ...enums import CardType, Decay, Keyword, Rarity, TargetMode
from ...flow import nodes as N
from ...flow.exprs import Cond, UnitSel, Value, formula
from ..defs import (
    DECAY_MOMENTS,
    STATUS_ENTRIES,
    GameCard,
    StatusDef,
)
from ..limits import current
from ..problems import (
    Ctx,
    Env,
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_map,
    get_str,
    get_word,
    listing,
)
from ..textexprs import SELF, TARGET, cond, hook, modifier, value
from ..textnodes import effect
from .fields import check_vars, items, numbers, title

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


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
        nums = numbers(m["numbers"], ctx.at("numbers"))
        bad, spec.numbers = bad or nums is None, {**spec.numbers, **(nums or {})}
    if "keywords" in m:
        kws = items(m["keywords"], ctx.at("keywords"), lambda v, c: get_enum(v, c, Keyword),
                     "a list of keywords")
        bad, spec.keywords = bad or kws is None, tuple(kws or ())
    if "tags" in m:
        tags = items(m["tags"], ctx.at("tags"), get_str, "a list of tags")
        bad, spec.tags = bad or tags is None, tuple(tags or ())
    if "hooks" in m:
        hooks = items(m["hooks"], ctx.at("hooks"), hook, "a list of hooks")
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
    check_vars(env, base.numbers, "this card's numbers")
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
        check_vars(up_env, up.numbers, "the upgrade's numbers")
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
    mods = items(m["modifiers"], ctx.at("modifiers"), modifier, "a list of modifiers") \
        if "modifiers" in m else []
    hooks = items(m["hooks"], ctx.at("hooks"), hook, "a list of hooks") if "hooks" in m else []
    ok = ok and mods is not None and hooks is not None
    entries: dict[str, N.Node] = {}
    for key in STATUS_ENTRIES:
        if key in m:
            env = Env(TARGET, None)
            node = effect(m[key], ctx.with_env(env).at(key))
            known = ("stacks", "amount", "attack") if key == "on_damage_taken" else \
                ("stacks", "amount") if key in _AMOUNT_ENTRIES else ("stacks",)
            check_vars(env, known, "a status entry reads")
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

"""The effect language: YAML-shaped data (``deal $damage``) -> behaviour-graph nodes.

Each compile function takes a raw value and the :class:`Ctx` where it sits, and returns the
compiled node, or ``None`` after reporting every problem it found to the context's sink.
docs/content.md is the designer-facing description of everything accepted here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..enums import DrawPilePosition, PileScope
from ..flow import nodes as N
from ..flow.exprs import CardSel, UnitSel, Value
from .problems import (
    Ctx,
    Key,
    check_keys,
    expected,
    get_bool,
    get_int,
    get_name,
    get_ref,
    get_str,
    get_word,
    listing,
    within,
)
from .textexprs import (
    HOOK_KEYS,
    SEL_KEYS,
    SELF,
    card_filter,
    cond,
    hook_fields,
    selection,
    selector,
    unit,
    value,
)

# ---------------------------------------------------------------- nodes


class Args:
    """The fields of one node, whichever form it was written in; problems mark it failed."""

    __slots__ = ("ctx", "ok", "raw", "virtual", "ykeys")

    def __init__(self, raw: dict[str, object], ctx: Ctx, virtual: bool,
                 ykeys: dict[str, Key] | None = None) -> None:
        self.raw, self.ctx, self.virtual, self.ykeys = raw, ctx, virtual, ykeys
        self.ok = True

    def at(self, k: str) -> Ctx:
        if self.virtual:
            return self.ctx.virtual(k, self.ykeys.get(k) if self.ykeys else None)
        return self.ctx.at(k)

    def has(self, k: str) -> bool:
        return k in self.raw

    def check(self, got: object, k: str) -> None:
        if got is None and k in self.raw:
            self.ok = False

    def need(self, k: str, hint: str = "") -> object:
        if k not in self.raw:
            self.at(k).error("missing required field" + hint)
            self.ok = False
        return self.raw.get(k)

    def value(self, k: str, default: Value | None = None) -> Value:
        if k not in self.raw:
            if default is None:
                self.need(k)
            return default if default is not None else 0
        got = value(self.raw[k], self.at(k))
        cap = _CAPS.get(k)
        if type(got) is int and cap is not None and not within(got, self.at(k), None, cap):
            got = None
        self.check(got, k)
        return got if got is not None else 0

    def unit(self, k: str, default: UnitSel | None, hint: str = "") -> UnitSel:
        if k not in self.raw:
            if default is None:
                self.need(k, hint)
            return default or SELF
        got = unit(self.raw[k], self.at(k))
        self.check(got, k)
        return got or SELF

    def ref(self, k: str, kind: str) -> str:
        if k not in self.raw:
            self.need(k)
            return ""
        got = get_ref(self.raw[k], self.at(k), kind)
        self.check(got, k)
        return got or ""

    def name(self, k: str, required: bool = True, kind: str | None = None) -> str | None:
        """A slot name bound here; ``kind`` is what it holds: value, cards or units."""
        if k not in self.raw:
            if required:
                self.need(k)
            return None
        got = get_name(self.raw[k], self.at(k))
        self.check(got, k)
        if got is not None:
            env = self.ctx.env
            env.bound.add(got)
            if kind is not None:
                first = env.kinds.setdefault(got, (kind, self.at(k)))
                if first[0] != kind:
                    self.at(k).error(f"wrong slot type: '${got}' already holds {first[0]} "
                                     f"(bound at '{first[1].where()[3]}'), not {kind}")
                    self.ok = False
        return got

    def word(self, k: str, options: tuple[str, ...], default: str | None = None) -> str:
        if k not in self.raw:
            if default is None:
                self.need(k)
            return default or options[0]
        got = get_word(self.raw[k], self.at(k), options)
        self.check(got, k)
        return got or options[0]

    def int(self, k: str, default: int | None, lo: int | None = None) -> int | None:
        if k not in self.raw:
            if default is None:
                return None
            return default
        got = get_int(self.raw[k], self.at(k), lo)
        self.check(got, k)
        return got

    def effect(self, k: str) -> N.Node | None:
        if k not in self.raw:
            return None
        got = effect(self.raw[k], self.at(k))
        self.check(got, k)
        return got

    def cards(self) -> CardSel:
        sel = selection(self.raw.get, self.has, self.at, True)
        self.ok = self.ok and isinstance(sel, CardSel)
        return sel if isinstance(sel, CardSel) else CardSel("hand")

    def any_sel(self) -> CardSel | UnitSel:
        sel = selection(self.raw.get, self.has, self.at, False)
        self.ok = self.ok and sel is not None
        return sel or SELF


def _deal(a: Args) -> N.Node:
    hint = " (this card's target is none/self: say who is hit, e.g. 'to: all_enemies')"
    return N.DealDamage(a.value("amount"), a.unit("to", a.ctx.env.deal_to, hint),
                        a.value("hits", 1),
                        a.word("kind", N.DAMAGE_KINDS) if a.has("kind") else None)


def _block(a: Args) -> N.Node:
    return N.GainBlock(a.value("amount"), a.unit("to", SELF), _flag(a, "raw", False))


def _wait_until(a: Args) -> N.Node:
    when = a.word("when", N.WAIT_UNTIL_WHEN)
    turns = a.int("turns", 1, 1) or 1
    if when == N.WAVE_END and turns != 1:
        a.at("turns").error("the end of the wave comes once: 'wave_end' takes no 'turns'")
        a.ok = False
    return N.WaitUntil(when, turns)


def _apply(a: Args) -> N.Node:
    hint = " (say who gets it, e.g. 'to: self' or 'to: target')"
    return N.ApplyStatus(a.ref("status", "status"), a.value("amount"),
                         a.unit("to", a.ctx.env.apply_to, hint))


def _remove(a: Args) -> N.Node:
    amount = a.value("amount") if a.has("amount") else None
    return N.RemoveStatus(a.ref("status", "status"), a.unit("from", SELF), amount)


_PILES = ("hand", "draw", "discard", "exhaust")
_POSITIONS = tuple(p.value for p in DrawPilePosition)


def _add_card(a: Args) -> N.Node:
    upgraded = get_bool(a.raw["upgraded"], a.at("upgraded")) if a.has("upgraded") else False
    a.check(upgraded, "upgraded")
    copy_of = None
    if a.has("copy_of"):  # copies of instances: no card id, and their own upgrade state
        if a.has("card") or a.has("upgraded"):
            a.at("copy_of").error("add_card takes 'copy_of' (instances to copy) or 'card' "
                                  "(and 'upgraded'), not both")
            a.ok = False
        copy_of = selector(a.raw["copy_of"], a.at("copy_of"), cards_only=True)
        a.check(copy_of, "copy_of")
    return N.AddCards("" if a.has("copy_of") else a.ref("card", "card"),
                      PileScope(a.word("to", _PILES, "hand")),
                      DrawPilePosition(a.word("position", _POSITIONS, "random")),
                      upgraded is True, a.value("count", 1), a.name("as", False, "cards"),
                      copy_of if isinstance(copy_of, CardSel) else None)


def _move(a: Args) -> N.Node:
    piles = tuple(p.value for p in PileScope)
    return N.MoveCard(a.cards(), PileScope(a.word("to", piles)),
                      DrawPilePosition(a.word("position", _POSITIONS, "top")))


def _modify_cost(a: Args) -> N.Node:
    if a.has("amount") == a.has("set_to"):
        a.ctx.error("modify_cost needs exactly one of 'amount' or 'set_to'")
        a.ok = False
    set_to = a.value("set_to") if a.has("set_to") else None
    return N.ModifyCost(a.cards(), a.value("amount", 0), set_to,
                        a.word("duration", N.COST_DURATIONS, "battle"))


def _grow(a: Args) -> N.Node:
    """``grow: {number: damage, by: $increase}``: ``number`` is one of the card's numbers."""
    number = get_name(a.need("number"), a.at("number")) if a.has("number") else None
    if number is not None:
        a.ctx.env.used.append((number, a.at("number")))  # (checked against the card's numbers)
    a.check(number, "number")
    return N.GrowNumber(number or "", a.value("by"))


def _transform(a: Args) -> N.Node:
    if a.has("into") == a.has("pool"):
        a.ctx.error("transform needs exactly one of 'into' (a card id) or 'pool' (a card filter)")
        a.ok = False
    into = a.ref("into", "card") if a.has("into") else None
    pool = card_filter(a.raw["pool"], a.at("pool")) if a.has("pool") else None
    a.check(pool, "pool")
    return N.TransformCard(a.cards(), into, pool)


def _card_hook(a: Args) -> N.Node:
    hk = hook_fields(lambda k: a.raw.get(k), a.has, a.at) if a.has("kind") else None
    if hk is None:
        a.need("kind")
        a.ok = False
    return N.RegisterCardHook(hk or N.HookDef("cost"), a.int("turns", None, 1),
                              a.word("scope", N.HOOK_SCOPES, "player_turns"))


def _flag(a: Args, k: str, default: bool) -> bool:
    if not a.has(k):
        return default
    got = get_bool(a.raw[k], a.at(k))
    a.check(got, k)
    return got is True if got is not None else default


def _play_card(a: Args) -> N.Node:
    piles = tuple(p.value for p in PileScope)
    to = PileScope(a.word("to", piles)) if a.has("to") else None
    target = a.unit("target", None) if a.has("target") else None
    copy, replay = _flag(a, "copy", False), _flag(a, "replay", False)
    if replay and not copy:
        a.at("replay").error("a replay is a copy: play_card with 'replay: true' needs 'copy: true'")
        a.ok = False
    same_x = a.word("x", ("same", "energy"), "energy") == "same"
    return N.PlayCard(a.cards(), _flag(a, "free", True), copy, target, to,
                      a.name("as", False, "cards"), replay, same_x)


# literal numbers of these fields are bounded by the named pack limit (see content/limits.py)
_CAPS = {"count": "max_count", "repeat": "max_count", "hits": "max_count",
         "amount": "max_stacks"}


def _wait(a: Args) -> N.Node:
    secs = a.need("seconds")
    if (isinstance(secs, bool) or not isinstance(secs, (int, float)) or not secs > 0
            or (isinstance(secs, float) and not math.isfinite(secs))):
        if secs is not None:
            expected(a.at("seconds"), "a number of seconds > 0", secs)
        a.ok = False
        return N.Wait(0.0)
    if not within(secs, a.at("seconds"), None, "max_wait"):
        a.ok = False
        return N.Wait(0.0)
    return N.Wait(float(secs))


def _call(a: Args) -> N.Node:
    graph = a.ref("graph", "graph")
    env = a.ctx.env
    if env.graph is not None and graph:
        a.ctx.sink.calls.append((env.graph, graph, a.at("graph")))
    return N.Call(graph)


def _choose(a: Args) -> N.Node:
    sel = a.any_sel()
    var_ = a.name("as", True, _holds(sel)) or ""
    lo = a.int("min", 1, 0)
    hi = a.int("max", max(1, lo or 0), 1)
    if lo is not None and hi is not None and lo > hi:
        a.at("min").error(f"min {lo} is greater than max {hi}")
        a.ok = False
    prompt = get_str(a.raw["prompt"], a.at("prompt")) if a.has("prompt") else ""
    a.check(prompt, "prompt")
    return N.Choice(sel, var_, a.effect("then"), a.effect("skipped"), lo or 0, hi or 1,
                    prompt or "")


def _set(a: Args) -> N.Node:
    return N.SetVar(a.name("name", True, "value") or "", a.value("to"))


def _select(a: Args) -> N.Node:
    sel = a.any_sel()
    return N.SetObj(a.name("as", True, _holds(sel)) or "", sel)


def _holds(sel: object) -> str | None:
    """What a slot bound to this selection holds (None: the selection did not parse)."""
    if isinstance(sel, CardSel):
        return "cards"
    return "units" if isinstance(sel, UnitSel) else None


_UNIT_AMOUNT = ("amount", "to")
_CARDS = SEL_KEYS

# verb -> (positional fields of the short form, every field, builder)
VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...], Callable[[Args], N.Node]]] = {
    "deal": (("amount",), ("amount", "to", "hits", "kind"), _deal),
    "block": (("amount",), (*_UNIT_AMOUNT, "raw"), _block),
    "lose_hp": (("amount",), _UNIT_AMOUNT,
                lambda a: N.LoseHp(a.value("amount"), a.unit("to", SELF))),
    "heal": (("amount",), _UNIT_AMOUNT, lambda a: N.Heal(a.value("amount"), a.unit("to", SELF))),
    "gain_max_hp": (("amount",), _UNIT_AMOUNT,
                    lambda a: N.GainMaxHp(a.value("amount"), a.unit("to", SELF))),
    "gain_energy": (("amount",), ("amount",), lambda a: N.GainEnergy(a.value("amount"))),
    "gain_gold": (("amount",), ("amount",), lambda a: N.GainGold(a.value("amount"))),
    "reward_gold": (("amount",), ("amount",), lambda a: N.RewardGold(a.value("amount"))),
    "apply": (("status", "amount"), ("status", "amount", "to"), _apply),
    "remove_status": (("status", "amount"), ("status", "amount", "from"), _remove),
    "draw": (("count",), ("count",), lambda a: N.DrawCards(a.value("count"))),
    "add_card": (("card",), ("card", "to", "position", "upgraded", "count", "as", "copy_of"),
                 _add_card),
    "move": (("from",), (*_CARDS, "to", "position"), _move),
    "exhaust": (("from",), _CARDS, lambda a: N.ExhaustCard(a.cards())),
    "discard": (("from",), _CARDS, lambda a: N.DiscardCard(a.cards())),
    "remove_from_battle": (("from",), _CARDS, lambda a: N.RemoveFromBattle(a.cards())),
    "play_card": (("from",), (*_CARDS, "free", "copy", "target", "to", "as", "replay", "x"),
                  _play_card),
    "upgrade": (("from",), _CARDS, lambda a: N.UpgradeCard(a.cards())),
    "grow": (("number", "by"), ("number", "by"), _grow),
    "modify_cost": (("from",), (*_CARDS, "amount", "set_to", "duration"), _modify_cost),
    "transform": (("from",), (*_CARDS, "into", "pool"), _transform),
    "card_hook": (("kind", "op", "amount"), (*HOOK_KEYS, "turns", "scope"), _card_hook),
    "spawn": (("enemy",), ("enemy", "as", "hp"), lambda a: N.SpawnEnemy(
        a.ref("enemy", "enemy"), a.name("as", False, "units"), a.value("hp") if a.has("hp") else None)),
    "kill": (("unit",), ("unit",), lambda a: N.Kill(a.unit("unit", None))),
    "revive": (("unit", "hp"), ("unit", "hp"),
               lambda a: N.Revive(a.unit("unit", None), a.value("hp"))),
    "end_turn": ((), (), lambda a: N.EndTurn()),
    "extra_turn": ((), (), lambda a: N.ExtraTurn()),
    "set_move": (("move",), ("move",), lambda a: N.SetMove(a.ref("move", "move") or "")),
    "wait": (("seconds",), ("seconds",), _wait),
    "wait_until": (("when", "turns"), ("when", "turns"), _wait_until),
    "animation": (("name",), ("name",), lambda a: N.AnimationGate(
        (get_str(a.raw["name"], a.at("name")) or "") if a.has("name") else "")),
    "call": (("graph",), ("graph",), _call),
    "set": (("name", "to"), ("name", "to"), _set),
    "select": (("from",), (*_CARDS, "units", "as"), _select),
    "choose": (("from",), (*_CARDS, "units", "as", "min", "max", "prompt", "then", "skipped"),
               _choose),
}

# control head -> (every key, required keys)
CONTROL = {
    "if": (("if", "then", "else"), ("if", "then")),
    "repeat": (("repeat", "do", "as"), ("repeat", "do")),
    "for_each": (("for_each", "as", "do"), ("for_each", "as", "do")),
    "while": (("while", "do", "max_iterations"), ("while", "do")),
}
NODE_KINDS = tuple(sorted((*VERBS, *CONTROL)))
_INT = re.compile(r"^-?\d{1,30}$")  # bounded: a longer number stays a word (and is refused)
_FLOAT = re.compile(r"^-?\d+\.\d*$")


def _token(t: str) -> object:
    if _INT.match(t):
        return int(t)
    if _FLOAT.match(t):
        return float(t)
    return {"true": True, "false": False}.get(t, t)


def effect(v: object, ctx: Ctx) -> N.Node | None:
    """An effect: a short string (``deal 6``), a mapping (``{if: ..}``) or a list of effects."""
    if isinstance(v, list):
        nodes = [effect(item, ctx.at(i)) for i, item in enumerate(v)]
        good = tuple(n for n in nodes if n is not None)
        if len(good) != len(nodes):
            return None
        return good[0] if len(good) == 1 else N.Sequence(good)
    if isinstance(v, str):
        return _short(v, ctx)
    if isinstance(v, dict) and v:
        return _mapping(v, ctx)
    expected(ctx, "an effect (a string like 'deal 6', a mapping or a list of effects)", v)
    return None


def _unknown_kind(kind: object, ctx: Ctx) -> None:
    ctx.error(f"unknown node kind {kind!r} (known: {listing(NODE_KINDS, str(kind), 40)})")


def _short(text: str, ctx: Ctx) -> N.Node | None:
    words = text.split()
    if not words:
        expected(ctx, "an effect", text)
        return None
    verb, rest = words[0], words[1:]
    spec = VERBS.get(verb)
    if spec is None and (verb.rstrip(":") in VERBS or verb.rstrip(":") in CONTROL):
        ctx.error(f"{text!r} is a string: to write a mapping, drop the quotes around it")
        return None
    if spec is None:
        _unknown_kind(verb, ctx)
        return None
    positional, fields, build = spec
    raw: dict[str, object] = {}
    pos, i = 0, 0
    vctx = ctx.virtual(verb)
    while i < len(rest):
        word = rest[i]
        if word in fields and i + 1 < len(rest) and word not in raw:
            raw[word] = _token(rest[i + 1])
            i += 2
            continue
        while pos < len(positional) and positional[pos] in raw:
            pos += 1
        if pos >= len(positional):
            vctx.error(f"cannot read {word!r} in {text!r} (write '{verb}"
                       + "".join(f" <{p}>" for p in positional)
                       + "' then 'field value' pairs from: " + ", ".join(fields) + ")")
            return None
        raw[positional[pos]] = _token(word)
        pos += 1
        i += 1
    args = Args(raw, vctx, True)
    node = build(args)
    return node if args.ok else None


def _mapping(m: dict[str, object], ctx: Ctx) -> N.Node | None:
    for head, (keys, required) in CONTROL.items():
        if head in m:
            keys_ok = check_keys(m, ctx, keys, required)
            node = _control(head, m, ctx)  # still compiled: its own problems are reported too
            return node if keys_ok else None
    verbs = [k for k in m if k in VERBS]
    if not verbs:
        _unknown_kind(next(iter(m)), ctx.at(next(iter(m))))
        return None
    verb = verbs[0]
    if len(m) != 1:
        for k in m:
            if k != verb:
                ctx.at(k).error(f"unknown field next to {verb!r} (put the fields inside: "
                                f"'{verb}: {{field: value, ...}}')")
        return None
    positional, fields, build = VERBS[verb]
    arg, vctx = m[verb], ctx.at(verb)
    keys_ok = True
    if isinstance(arg, dict):
        keys_ok = check_keys(arg, vctx, fields)
        args = Args(arg, vctx, False)
    elif isinstance(arg, list) and len(positional) > 1:
        if len(arg) > len(positional):
            vctx.error(f"too many items: '{verb}' takes at most {len(positional)} "
                       f"({', '.join(positional)})")
            return None
        args = Args(dict(zip(positional, arg, strict=False)), vctx, True,
                    {p: i for i, p in enumerate(positional)})
    elif arg is None or not positional:
        if arg is not None:
            vctx.error(f"'{verb}' takes no value")
            return None
        args = Args({}, vctx, True)
    else:
        args = Args({positional[0]: arg}, vctx, True)
    node = build(args)
    return node if args.ok and keys_ok else None


def _control(head: str, m: dict[str, object], ctx: Ctx) -> N.Node | None:
    a = Args(m, ctx, False)
    body = a.effect("then" if head == "if" else "do")
    node: N.Node
    if head == "if":
        c = cond(m["if"], ctx.at("if"))
        a.check(c, "if")
        node = N.Branch(c if c is not None else False, body or N.EndTurn(), a.effect("else"))
    elif head == "repeat":
        node = N.Loop(a.value("repeat"), body or N.EndTurn(), a.name("as", False, "value"))
    elif head == "for_each":
        sel = selector(m["for_each"], ctx.at("for_each"))
        a.check(sel, "for_each")
        node = N.Foreach(sel or SELF, a.name("as", False, _holds(sel)) or "", body or N.EndTurn())
    else:
        c = cond(m["while"], ctx.at("while"))
        a.check(c, "while")
        cap = m.get("max_iterations")
        if type(cap) is int and cap >= 1 and not within(cap, ctx.at("max_iterations"), None,
                                                       "max_iterations"):
            a.ok, cap = False, 1
        elif type(cap) is not int or cap < 1:
            msg = "a While needs max_iterations >= 1"
            if "max_iterations" not in m:
                ctx.at("max_iterations").error("missing required field: " + msg)
            elif type(cap) is int:
                ctx.at("max_iterations").error(f"bad value {cap}: " + msg)
            else:
                expected(ctx.at("max_iterations"), "an integer >= 1", cap)
            a.ok, cap = False, 1
        node = N.While(c if c is not None else False, body or N.EndTurn(), cap)
    return node if a.ok and body is not None else None

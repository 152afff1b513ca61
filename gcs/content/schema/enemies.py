"""The enemy schema: YAML-shaped data -> ``EnemyDef`` (moves, their intents and the AI that
picks them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from ...enums import IntentKind
from ...flow import nodes as N
from ...flow.exprs import Value, Var
from ..defs import (
    AiDef,
    AiRule,
    EnemyDef,
    HpRule,
    MoveDef,
    WeightedMove,
)
from ..problems import (
    Ctx,
    Env,
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_map,
    get_str,
    listing,
)
from ..textexprs import SELF, TARGET, cond, value
from ..textnodes import effect
from .fields import bounds, check_vars, items, title

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
        check_vars(denv, (), "a planned damage reads")
        rolled = None if planned is None else (0, 0)
    else:
        rolled = bounds(m["damage"], ctx.at("damage"), 0) if "damage" in m else None
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
        check_vars(env, [k for k in ("damage", "hits", "block") if k in m or k == "hits"],
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
        got = items(m[key], ctx.at(key), move_id, "a list of move ids")
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
        check_vars(env, (), "an ai rule reads")
        mv = move_id(rm["move"], rctx.at("move"))
        return None if when is None or mv is None else AiRule(when, mv)

    rules = items(m["hp_rules"], ctx.at("hp_rules"), hp_rule, "a list of hp rules") \
        if "hp_rules" in m else []
    when_rules = items(m["rules"], ctx.at("rules"), ai_rule, "a list of ai rules") \
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
    hp = bounds(m["hp"], ctx.at("hp"), 1) if "hp" in m else None
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
            rng = bounds(n, sctx, 1)
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

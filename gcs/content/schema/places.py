"""The schemas of where a battle happens and what it gives: encounters, characters, reward
tables, and the named graphs behaviours share."""

from __future__ import annotations

from types import MappingProxyType

from ...enums import HandDiscardRule, Rarity
from ...flow import nodes as N
from ..defs import (
    CharacterDef,
    DeckEntry,
    EncounterDef,
    RewardTable,
)
from ..limits import MAX_DECK, current
from ..problems import (
    Ctx,
    Env,
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_map,
    get_ref,
    get_str,
    get_word,
    within,
)
from ..textexprs import TARGET
from ..textnodes import effect
from .fields import bounds, check_slot_types, items, title

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
        got = items(v, c, lambda x, cc: get_ref(x, cc, "enemy"), "a list of enemy ids")
        if got is not None and not got:
            c.error("a rolled slot needs at least one enemy id")
            return None
        return None if got is None else tuple(got)

    def group(v: object, c: Ctx) -> tuple[tuple[str, ...], ...] | None:
        got = items(v, c, slot, "a list of enemy ids (a slot may be a list to roll from)")
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
            got = items(dm["from"], dctx.at("from"), lambda x, cc: get_ref(x, cc, "enemy"),
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
        groups = items(m["groups"], ctx.at("groups"), group, "a list of enemy groups")
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
    got = items(m["exclusions"], ctx.at("exclusions"),
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
    pool = items(m["pool"], ctx.at("pool"), lambda v, c: get_ref(v, c, "card"),
                  "a list of card ids") if "pool" in m else []
    gold = bounds(m["gold"], ctx.at("gold"), 0) if "gold" in m else (0, 0)
    flags = [get_bool(m[k], ctx.at(k)) if k in m else False for k in ("upgrade", "remove")]
    if not ok or pool is None or cards is None or gold is None or None in flags:
        return None
    return RewardTable(rid, cards, MappingProxyType(weights), tuple(pool),
                       gold[0], gold[1], bool(flags[0]), bool(flags[1]))


def compile_graph(gid: str, raw: object, ctx: Ctx) -> N.Node | None:
    """A named graph; it shares its caller's scope, so only slot types are checked here."""
    gctx = ctx.with_env(Env(TARGET, None, graph=gid))
    node = effect(raw, gctx)
    check_slot_types(gctx.env)
    return node

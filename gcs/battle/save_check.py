"""Save validation: every field ``Game.from_json`` reads is checked before anything is built.

The check is in two passes. ``check_data`` walks the raw JSON (types, shapes, ranges, ids
against the content, node references) and ``check_state`` checks the cross-field invariants of
the loaded state (each card instance in exactly one pile, frames fitting their kinds, a paused
wave that can resume). The first problem raises :class:`SaveError` naming its JSON path
(``$.state.cards[3][1]``). See docs/rules/boundary.md.
"""

from __future__ import annotations

from typing import Any

from ..content.db import Content
from ..content.defs import GameCard
from ..enums import ArmorDecayRule, BattlePhase, HandDiscardRule, IntentKind, Pile, PileScope
from ..flow import nodes as N
from . import frames as K
from .save_format import FORMAT
from .save_need import (
    BIG,
    fail,
    need_bool,
    need_dict,
    need_enum,
    need_hex,
    need_id,
    need_int,
    need_list,
    need_num,
    need_str,
)
from .state import CHOICE, GATE, NO_PAUSE, WAIT, Frame, State

PAUSES = (NO_PAUSE, CHOICE, WAIT, GATE)
REWARD_KINDS = ("card", "gold", "upgrade", "remove")
_RULE_KEYS = ("starting_hand_size", "draw_per_turn", "max_hand_size", "energy_per_turn",
              "armor_decay", "hand_discard", "step_limit", "keyed_shuffle")
_TOP_KEYS = ("format", "pack", "digest", "seed", "rules", "logging", "presenter", "state")
STATE_KEYS = (
    "seed", "master", "next_entry", "gold", "hp", "max_hp", "character", "battles", "run_rng",
    "active", "phase", "history", "turn", "player_turns", "encounter", "hand_rule", "cards",
    "next_card", "hand", "draw", "known", "discard", "exhaust", "played", "drawn", "units",
    "energy", "rng", "stack", "delayed", "ctxs", "pause", "clock", "hooks", "next_seq",
    "end_turn", "extra_turns", "rewards", "result", "plays", "damage", "block", "steps", "loot",
)
_COMPOSITE = {N.Sequence: "Sequence", N.Loop: "Loop", N.Foreach: "Foreach", N.While: "While"}
_PHASE_KINDS = (K.START, K.TURN_START, K.TURN_END, K.WON, K.LOST)
# the frame that runs each phase's steps: while the phase's wave is paused it is the bottom
# frame (the player phase has none: its waves are the player's calls); the frames of one
# enemy's turn and of the turn-end hand run only above their phase's frame
_PHASE_FRAME = {
    BattlePhase.INITIALIZE: K.START, BattlePhase.PLAYER_TURN_START: K.TURN_START,
    BattlePhase.PLAYER_TURN_END: K.TURN_END, BattlePhase.ENEMY_PHASE: K.ENEMY_PHASE,
    BattlePhase.BATTLE_WON: K.WON, BattlePhase.BATTLE_LOST: K.LOST,
}
_STEP_KINDS = frozenset(_PHASE_FRAME.values())
_PHASE_OF = {K.ENEMY_TURN: BattlePhase.ENEMY_PHASE, K.HAND_END: BattlePhase.PLAYER_TURN_END}
_PLAY_DESTINATIONS = ("", *(p.value for p in PileScope))


def check_top(c: Content, data: object, allow_other_content: bool) -> dict[str, Any]:
    """The envelope: format, pack, digest, seed, rules, flags."""
    d = need_dict(data, "$")
    if d.get("format") != FORMAT:
        raise fail("$.format", f"unsupported save format {d.get('format')!r} (expected {FORMAT})")
    need_dict(d, "$", _TOP_KEYS)
    if d["pack"] != c.pack_id:
        raise fail("$.pack", f"save is for pack {d['pack']!r}, not {c.pack_id!r}")
    digest = need_str(d["digest"], "$.digest", 200)
    if digest != c.digest and not allow_other_content:
        raise fail("$.digest", f"save was made with content digest {digest!r}, this content is "
                   f"{c.digest!r} (pass allow_other_content=True to load it anyway, checked)")
    need_int(d["seed"], "$.seed", -(2**64), 2**64)
    r = need_dict(d["rules"], "$.rules", _RULE_KEYS)
    need_enum(r["armor_decay"], "$.rules.armor_decay", ArmorDecayRule)
    need_enum(r["hand_discard"], "$.rules.hand_discard", HandDiscardRule)
    from ..rules import LIMITS

    for k in (*_RULE_KEYS[:4], "step_limit"):
        lo, hi = LIMITS[k]
        need_int(r[k], f"$.rules.{k}", lo, hi)
    need_bool(r["keyed_shuffle"], "$.rules.keyed_shuffle")
    need_bool(d["logging"], "$.logging")
    need_bool(d["presenter"], "$.presenter")
    return d


def _node(c: Content, ref: object, path: str, nullable: bool = True) -> N.Node | None:
    if ref is None and nullable:
        return None
    r = need_list(ref, path, 2)
    key = need_str(r[0], f"{path}[0]", 500)
    i = need_int(r[1], f"{path}[1]", 0, BIG)
    progs = c._programs
    if key not in progs:
        raise fail(f"{path}[0]", f"no program {key!r} in this content")
    nodes = progs[key]
    if i >= len(nodes):
        raise fail(f"{path}[1]", f"program {key!r} has {len(nodes)} nodes, not {i + 1}")
    return nodes[i]


def check_state_data(c: Content, st: object, rules: dict[str, Any]) -> None:
    """Types, shapes, ranges and ids of ``$.state``; node references resolve."""
    p = "$.state"
    d = need_dict(st, p, STATE_KEYS)
    need_int(d["seed"], f"{p}.seed", -(2**64), 2**64)
    master = need_list(d["master"], f"{p}.master", limit=10_000)
    uids: set[int] = set()
    for i, m in enumerate(master):
        q = f"{p}.master[{i}]"
        row = need_list(m, q, 4)
        need_id(row[0], f"{q}[0]", c.cards, "card")
        need_bool(row[1], f"{q}[1]")
        need_int(row[2], f"{q}[2]", -999, 999)
        uid = need_int(row[3], f"{q}[3]", 0, BIG)
        if uid in uids:
            raise fail(f"{q}[3]", f"master entry uid {uid} appears twice")
        uids.add(uid)
    nxt = need_int(d["next_entry"], f"{p}.next_entry", 1, BIG)
    if uids and nxt <= max(uids):
        raise fail(f"{p}.next_entry", f"{nxt} is not above every master entry uid")
    need_int(d["gold"], f"{p}.gold", 0, BIG)
    max_hp = need_int(d["max_hp"], f"{p}.max_hp", 0, BIG)
    need_int(d["hp"], f"{p}.hp", 0, max_hp)
    need_id(d["character"], f"{p}.character", c.characters, "character", blank=True)
    need_int(d["battles"], f"{p}.battles", 0, BIG)
    need_hex(d["run_rng"], f"{p}.run_rng")
    active = need_bool(d["active"], f"{p}.active")
    need_enum(d["phase"], f"{p}.phase", BattlePhase)
    for i, h in enumerate(need_list(d["history"], f"{p}.history", limit=100_000)):
        row = need_list(h, f"{p}.history[{i}]", 2)
        need_enum(row[0], f"{p}.history[{i}][0]", BattlePhase)
        need_int(row[1], f"{p}.history[{i}][1]", 0, BIG)
    need_int(d["turn"], f"{p}.turn", 0, BIG)
    need_int(d["player_turns"], f"{p}.player_turns", 0, BIG)
    need_id(d["encounter"], f"{p}.encounter", c.encounters, "encounter", blank=not active)
    need_enum(d["hand_rule"], f"{p}.hand_rule", HandDiscardRule)
    cards: set[int] = set()
    last = 0
    for i, row in enumerate(need_list(d["cards"], f"{p}.cards", limit=100_000)):
        q = f"{p}.cards[{i}]"
        r = need_list(row, q)
        if len(r) not in (10, 13):  # (13: an instance with numbers of its own, or a replay)
            raise fail(q, f"expected a list of 10 or 13 items, got {len(r)}")
        uid = need_int(r[0], f"{q}[0]", 1, BIG)
        if uid <= last:
            raise fail(f"{q}[0]", "card instance ids must be unique and ascending")
        last = uid
        cards.add(uid)
        need_id(r[1], f"{q}[1]", c.cards, "card")
        need_bool(r[2], f"{q}[2]")
        for j in (3, 4, 6):
            need_int(r[j], f"{q}[{j}]", -999, 999)
        for j in (5, 7):
            if r[j] is not None:
                need_int(r[j], f"{q}[{j}]", 0, 999)
        need_enum(r[8], f"{q}[8]", Pile)
        need_int(r[9], f"{q}[9]", -1, BIG)
        if len(r) == 13:
            _own_numbers(c.cards[r[1]], r, q)
            need_bool(r[12], f"{q}[12]")
    nc = need_int(d["next_card"], f"{p}.next_card", 1, BIG)
    if nc <= last:
        raise fail(f"{p}.next_card", f"{nc} is not above every card instance id")
    for k in ("hand", "draw", "discard", "exhaust", "played", "drawn"):
        for i, uid in enumerate(need_list(d[k], f"{p}.{k}", limit=100_000)):
            if need_int(uid, f"{p}.{k}[{i}]") not in cards:
                raise fail(f"{p}.{k}[{i}]", f"no card instance {uid}")
    known = need_list(d["known"], f"{p}.known", 2)
    n_draw = len(d["draw"])
    top = need_int(known[0], f"{p}.known[0]", 0, n_draw)
    need_int(known[1], f"{p}.known[1]", 0, n_draw - top)
    units = need_list(d["units"], f"{p}.units", limit=1_000)
    if active and not units:
        raise fail(f"{p}.units", "an active battle needs the player unit")
    for i, u in enumerate(units):
        _unit(c, u, f"{p}.units[{i}]", i)
    need_int(d["energy"], f"{p}.energy", 0, BIG)
    for i, x in enumerate(need_list(d["rng"], f"{p}.rng", 3)):
        need_hex(x, f"{p}.rng[{i}]")
    n_units = len(units)
    ctxs = need_list(d["ctxs"], f"{p}.ctxs", limit=100_000)
    for i, x in enumerate(ctxs):
        _ctx(c, x, f"{p}.ctxs[{i}]", n_units, cards)
    _frames_data(c, d["stack"], f"{p}.stack", len(ctxs))
    for i, x in enumerate(need_list(d["delayed"], f"{p}.delayed", limit=10_000)):
        q = f"{p}.delayed[{i}]"
        r = need_list(x, q, 4)
        if r[0] not in N.WAIT_UNTIL:
            raise fail(f"{q}[0]", f"unknown phase point {r[0]!r}")
        need_int(r[1], f"{q}[1]", 0, BIG)
        _frames_data(c, r[2], f"{q}[2]", len(ctxs))
        need_int(r[3], f"{q}[3]", 0, BIG)
    pz = need_list(d["pause"], f"{p}.pause", 8)
    pause = need_int(pz[0], f"{p}.pause[0]", 0, 3)
    need_num(pz[1], f"{p}.pause[1]")
    need_str(pz[2], f"{p}.pause[2]", 500)
    if pz[3] not in ("", "c", "u"):
        raise fail(f"{p}.pause[3]", f"choice kind must be 'c', 'u' or '', got {pz[3]!r}")
    ids = need_list(pz[4], f"{p}.pause[4]", limit=100_000)
    for i, x in enumerate(ids):
        need_int(x, f"{p}.pause[4][{i}]", 0, BIG)
        if (pz[3] == "c" and x not in cards) or (pz[3] == "u" and x >= n_units):
            raise fail(f"{p}.pause[4][{i}]", f"candidate {x} does not exist")
    lo = need_int(pz[5], f"{p}.pause[5]", 0, len(ids) if pause == CHOICE else BIG)
    need_int(pz[6], f"{p}.pause[6]", lo if pause == CHOICE else 0,
             len(ids) if pause == CHOICE else BIG)
    need_str(pz[7], f"{p}.pause[7]")
    need_num(d["clock"], f"{p}.clock")
    for i, h in enumerate(need_list(d["hooks"], f"{p}.hooks", limit=10_000)):
        q = f"{p}.hooks[{i}]"
        r = need_list(h, q, 4)
        if not isinstance(_node(c, r[0], f"{q}[0]", False), N.RegisterCardHook):
            raise fail(f"{q}[0]", "not a RegisterCardHook node")
        need_int(r[1], f"{q}[1]", -1, BIG)
        if r[2] is not None:
            need_int(r[2], f"{q}[2]", 0, BIG)
        need_int(r[3], f"{q}[3]", 0, BIG)
    need_int(d["next_seq"], f"{p}.next_seq", 0, BIG)
    need_bool(d["end_turn"], f"{p}.end_turn")
    need_int(d["extra_turns"], f"{p}.extra_turns", 0, 1_000)
    if d["rewards"] is not None:
        for i, x in enumerate(need_list(d["rewards"], f"{p}.rewards", limit=1_000)):
            _reward(c, x, f"{p}.rewards[{i}]", len(master))
    if d["result"] is not None:
        need_bool(d["result"], f"{p}.result")
    for k in ("plays", "damage", "block"):
        for cid, n in need_dict(d[k], f"{p}.{k}").items():
            need_int(n, f"{p}.{k}.{cid}", 0, BIG)
    need_int(d["steps"], f"{p}.steps", 0, rules["step_limit"])
    need_int(d["loot"], f"{p}.loot", 0, BIG)


def _own_numbers(card: GameCard, r: list[Any], q: str) -> None:
    """A card row's own numbers: what each number grew (a number of the card), and the times
    upgraded (more than once only for an upgraded repeatable card)."""
    numbers = card.numbers if card.upgrade is None else {**card.numbers, **card.upgrade.numbers}
    for i, kv in enumerate(need_list(r[10], f"{q}[10]", limit=100)):
        pair = need_list(kv, f"{q}[10][{i}]", 2)
        need_id(pair[0], f"{q}[10][{i}][0]", tuple(numbers), "number")
        need_int(pair[1], f"{q}[10][{i}][1]", -BIG, BIG)
    n = need_int(r[11], f"{q}[11]", 0, 10_000)
    repeatable = r[2] is True and card.upgrade is not None and card.upgrade.repeatable
    if n != (1 if r[2] is True else 0) and not (repeatable and n >= 1):
        raise fail(f"{q}[11]", f"{card.id} cannot be upgraded {n} times")


def _unit(c: Content, u: object, q: str, index: int) -> None:
    r = need_list(u, q)
    if len(r) not in (13, 14, 15):  # (14: the HP-loss counter, 15: the status sources)
        raise fail(q, f"expected a list of 13 to 15 items, got {len(r)}")
    if need_int(r[0], f"{q}[0]", 0, BIG) != index:
        raise fail(f"{q}[0]", f"unit uid {r[0]} is not its index {index}")
    if index > 0:
        need_id(r[1], f"{q}[1]", c.enemies, "enemy")
    else:
        need_str(r[1], f"{q}[1]", 200)
    need_str(r[2], f"{q}[2]", 500)
    max_hp = need_int(r[4], f"{q}[4]", 0, BIG)
    need_int(r[3], f"{q}[3]", 0, max_hp)
    need_int(r[5], f"{q}[5]", 0, BIG)
    for i, kv in enumerate(need_list(r[6], f"{q}[6]", limit=1_000)):
        pair = need_list(kv, f"{q}[6][{i}]", 2)
        need_id(pair[0], f"{q}[6][{i}][0]", c.statuses, "status")
        need_int(pair[1], f"{q}[6][{i}][1]")
    if len({kv[0] for kv in r[6]}) != len(r[6]):
        raise fail(f"{q}[6]", "a status appears twice")
    need_bool(r[7], f"{q}[7]")
    moves = () if index == 0 else tuple(m.id for m in c.enemies[r[1]].moves)
    need_id(r[8], f"{q}[8]", moves, "move", blank=True)
    for i, m in enumerate(need_list(r[9], f"{q}[9]", limit=100_000)):
        need_str(m, f"{q}[9][{i}]", 200)
    if r[10] is not None:
        it = need_list(r[10], f"{q}[10]", 6)
        need_id(it[0], f"{q}[10][0]", moves, "move")
        if it[0] != r[8]:  # (the shown intent is the planned move's: intents re-read it)
            raise fail(f"{q}[8]", f"the planned move {r[8]!r} is not the shown intent's "
                       f"{it[0]!r}")
        need_str(it[1], f"{q}[10][1]", 500)
        need_enum(it[2], f"{q}[10][2]", IntentKind)
        if it[3] is not None:
            need_int(it[3], f"{q}[10][3]", 0, BIG)
        need_int(it[4], f"{q}[10][4]", 0, BIG)
        if it[5] is not None:
            need_int(it[5], f"{q}[10][5]", 0, BIG)
    for i, m in enumerate(need_list(r[11], f"{q}[11]", limit=10_000)):
        need_str(m, f"{q}[11][{i}]", 200)
    for i, kv in enumerate(need_list(r[12], f"{q}[12]", limit=1_000)):  # rolled move numbers
        pair = need_list(kv, f"{q}[12][{i}]", 2)
        need_id(pair[0], f"{q}[12][{i}][0]", moves, "move")
        need_int(pair[1], f"{q}[12][{i}][1]", 0, BIG)
    if len(r) > 13:
        need_int(r[13], f"{q}[13]", 0, BIG)  # times it lost HP this battle
    if len(r) > 14:
        _sources(c, r[14], f"{q}[14]")


def _sources(c: Content, x: object, q: str) -> None:
    """A unit's status sources: per status (once each), labels (once each) with signed stacks.
    They are credit, not rules: sources that do not sum to the stacks held (a save edited by
    hand) are brought in line on load (``Unit.from_list``), not refused."""
    seen: set[str] = set()
    for i, kv in enumerate(need_list(x, q, limit=1_000)):
        pair = need_list(kv, f"{q}[{i}]", 2)
        sid = need_id(pair[0], f"{q}[{i}][0]", c.statuses, "status")
        if sid in seen:
            raise fail(f"{q}[{i}][0]", f"status {sid!r} appears twice")
        seen.add(sid)
        labels: set[str] = set()
        for j, lv in enumerate(need_list(pair[1], f"{q}[{i}][1]", limit=1_000)):
            lab = need_list(lv, f"{q}[{i}][1][{j}]", 2)
            need_str(lab[0], f"{q}[{i}][1][{j}][0]", 500)
            if lab[0] in labels:
                raise fail(f"{q}[{i}][1][{j}][0]", f"source {lab[0]!r} appears twice")
            labels.add(lab[0])
            need_int(lab[1], f"{q}[{i}][1][{j}][1]", -BIG, BIG)


def _reward(c: Content, x: object, q: str, n_master: int) -> None:
    r = need_list(x, q, 4)
    kind = r[0]
    if kind not in REWARD_KINDS:
        raise fail(f"{q}[0]", f"unknown reward kind {kind!r}")
    if kind == "card":
        need_id(r[1], f"{q}[1]", c.cards, "card")
    elif r[1] is not None:
        raise fail(f"{q}[1]", "only a card reward names a card")
    need_int(r[2], f"{q}[2]", 0, BIG)
    if kind in ("upgrade", "remove"):
        need_int(r[3], f"{q}[3]", 0, n_master - 1)
    elif r[3] is not None:
        raise fail(f"{q}[3]", "only an upgrade or remove reward names a deck index")


def _value(v: object, path: str) -> None:
    need_int(v, path)


def _ctx(c: Content, x: object, q: str, n_units: int, cards: set[int]) -> None:
    r = need_list(x, q, 9)
    for k, v in need_dict(r[0], f"{q}[0]").items():
        _value(v, f"{q}[0].{k}")
    for k, v in need_dict(r[1], f"{q}[1]").items():
        pair = need_list(v, f"{q}[1].{k}", 2)
        if pair[0] not in ("c", "u"):
            raise fail(f"{q}[1].{k}[0]", f"object kind must be 'c' or 'u', got {pair[0]!r}")
        for i, uid in enumerate(need_list(pair[1], f"{q}[1].{k}[1]", limit=100_000)):
            need_int(uid, f"{q}[1].{k}[1][{i}]", 0, BIG)
            if (pair[0] == "u" and uid >= n_units) or (pair[0] == "c" and uid not in cards):
                raise fail(f"{q}[1].{k}[1][{i}]", f"no such {'unit' if pair[0] == 'u' else 'card'}")
    src = need_int(r[2], f"{q}[2]", -1, BIG)
    if src >= 0 and src not in cards:
        raise fail(f"{q}[2]", f"no card instance {src}")
    need_int(r[3], f"{q}[3]", 0, max(0, n_units - 1))
    need_int(r[4], f"{q}[4]", -1, n_units - 1)
    need_int(r[5], f"{q}[5]", -BIG, BIG)
    need_id(r[6], f"{q}[6]", c.statuses, "status", blank=True)
    for i, h in enumerate(need_list(r[7], f"{q}[7]", limit=10_000)):
        if not isinstance(_node(c, h, f"{q}[7][{i}]", False), N.RegisterCardHook):
            raise fail(f"{q}[7][{i}]", "not a RegisterCardHook node")
    need_str(r[8], f"{q}[8]", 200)


def _frames_data(c: Content, v: object, q: str, n_ctx: int) -> None:
    for i, f in enumerate(need_list(v, q, limit=100_000)):
        r = need_list(f, f"{q}[{i}]", 5)
        need_int(r[0], f"{q}[{i}][0]", 0, max(K.NAMES))
        _node(c, r[1], f"{q}[{i}][1]")
        need_int(r[2], f"{q}[{i}][2]", 0, BIG)
        need_int(r[4], f"{q}[{i}][4]", -1, n_ctx - 1)
        _json(r[3], f"{q}[{i}][3]", 0)


def _json(v: object, path: str, depth: int) -> None:
    """Frame data: nested lists of ints/strings/None, at most a few levels deep."""
    if depth > 4:
        raise fail(path, "nested too deeply")
    if isinstance(v, list):
        need_list(v, path, limit=100_000)
        for i, x in enumerate(v):
            _json(x, f"{path}[{i}]", depth + 1)
    elif isinstance(v, str):
        need_str(v, path, 200)
    elif v is not None:
        need_int(v, path)


# ---------------------------------------------------------------- the loaded state


def check_state(c: Content, s: State, max_hand: int) -> None:
    """Cross-field invariants of a loaded state; paths point into ``$.state``."""
    p = "$.state"
    piles = (("hand", s.hand, Pile.HAND), ("draw", s.draw, Pile.DRAW),
             ("discard", s.discard, Pile.DISCARD), ("exhaust", s.exhaust, Pile.EXHAUST))
    seen: dict[int, str] = {}
    for name, ids, pile in piles:
        for i, uid in enumerate(ids):
            if uid in seen:
                raise fail(f"{p}.{name}[{i}]", f"card {uid} is also in {seen[uid]}")
            seen[uid] = name
            if s.cards[uid].pile is not pile:
                raise fail(f"{p}.{name}[{i}]", f"card {uid} says it is in "
                           f"{s.cards[uid].pile.name}")
    playing = _playing(s)
    order = sorted(s.cards)
    for i, uid in enumerate(order):
        inst = s.cards[uid]
        q = f"{p}.cards[{i}][8]"
        if inst.pile is Pile.LIMBO:
            if uid not in playing:
                raise fail(q, f"card {uid} is in flight but no play of it is in progress")
        elif inst.pile is not Pile.REMOVED and uid not in seen:
            raise fail(q, f"card {uid} says {inst.pile.name} but is not listed there")
    if not s.active:
        for name in ("cards", "hand", "draw", "discard", "exhaust", "played", "drawn", "stack"):
            if getattr(s, name):
                raise fail(f"{p}.{name}", "must be empty while no battle is active")
        if s.pause != NO_PAUSE or s.rewards is not None or s.delayed:
            raise fail(f"{p}.pause", "nothing can wait while no battle is active")
        return
    if not s.units:
        raise fail(f"{p}.units", "an active battle needs the player")
    if s.phase is BattlePhase.NONE:
        raise fail(f"{p}.phase", "an active battle has a phase")
    if s.rewards is not None and (s.stack or s.pause != NO_PAUSE
                                  or s.phase is not BattlePhase.BATTLE_WON):
        raise fail(f"{p}.rewards", "a reward is offered only once a won battle's waves are done")
    if not s.stack and s.rewards is None and s.phase is not BattlePhase.PLAYER_PHASE:
        raise fail(f"{p}.phase", f"nothing is left to run in phase {s.phase.value}: a battle "
                   "at rest is in the player phase or offers a reward")
    _stack(c, s, s.stack, f"{p}.stack")
    for i, dl in enumerate(s.delayed):
        _stack(c, s, dl.frames, f"{p}.delayed[{i}][2]")
        _delayed(dl.frames, f"{p}.delayed[{i}][2]")
    top = s.stack[-1] if s.stack else None
    if s.pause != NO_PAUSE and top is None:
        raise fail(f"{p}.pause[0]", "a paused wave needs frames on the stack")
    if s.pause == NO_PAUSE and top is not None:
        # (else nothing could run them: no call resumes a wave that is not paused)
        raise fail(f"{p}.pause[0]", f"{len(s.stack)} frames wait on the stack but no Choice, "
                   "Wait or Gate holds them: between calls a wave has ended or is paused")
    _phase_frames(s, f"{p}.stack")
    if s.pause == CHOICE and (top is None or top.kind != K.CHOICE or not s.choice_kind):
        raise fail(f"{p}.pause[0]", "an open Choice needs its Choice frame on top")


def _phase_frames(s: State, q: str) -> None:
    """The paused wave of a phase other than the player's runs on that phase's frame, at the
    bottom of the stack (the wave would end in that phase, with nothing left to run its
    next steps); no other phase's frame, and no enemy-turn or turn-end hand frame outside
    its phase, is on the stack."""
    phase = s.phase
    want = _PHASE_FRAME.get(phase)
    for i, f in enumerate(s.stack):
        k = f.kind
        if k in _STEP_KINDS and (i or k != want):
            raise fail(f"{q}[{i}]", f"the {K.NAMES[k]} step frame does not run in phase "
                       f"{phase.value}" + (" above other frames" if k == want else ""))
        home = _PHASE_OF.get(k)
        if home is not None and home is not phase:
            raise fail(f"{q}[{i}]", f"the {K.NAMES[k]} frame runs only in phase {home.value}, "
                       f"not {phase.value}")
    if want is not None and s.stack and s.stack[0].kind != want:
        raise fail(f"{q}[0]", f"phase {phase.value} is paused mid-step: its {K.NAMES[want]} "
                   "frame must be at the bottom of the stack")


def _delayed(frames: list[Frame], q: str) -> None:
    """A delayed continuation is the rest of one behaviour entry (what its WaitUntil took off
    the stack): its entry's frame first, no phase-step frames."""
    if not frames or frames[0].kind != K.ENTRY:
        raise fail(f"{q}", "a delayed continuation starts with its behaviour entry's frame")
    for i, f in enumerate(frames):
        if f.kind in _STEP_KINDS or f.kind in _PHASE_OF:
            raise fail(f"{q}[{i}]", f"the {K.NAMES[f.kind]} frame cannot wait in a delayed "
                       "continuation")


def _playing(s: State) -> set[int]:
    """Cards whose play is still before its destination step (so they may be in flight)."""
    return {f.data[0] for f in s.stack if f.kind == K.PLAY and isinstance(f.data, list)
            and f.data and isinstance(f.data[0], int) and f.pc <= K.PLAY_DESTINATION}


def _ints(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


def _stack(c: Content, s: State, frames: list[Frame], q: str) -> None:
    n_units = len(s.units)
    for i, f in enumerate(frames):
        fq = f"{q}[{i}]"
        k, node, pc, data = f.kind, f.node, f.pc, f.data
        bad = ""
        if k in _PHASE_KINDS:
            bad = "" if node is None and data is None and pc in K.STEPS[k] else "phase step frame"
        elif k == K.ENTRY:
            bad = "" if node is not None and data is None and pc <= 1 and f.ctx else "entry frame"
        elif k == K.NODE:
            name = _COMPOSITE.get(type(node))
            if name is None or f.ctx is None:
                bad = "node frame without a composite node"
            elif isinstance(node, N.Sequence):
                bad = "" if data is None and pc <= len(node.steps) else "Sequence frame"
            elif isinstance(node, N.Loop):
                bad = "" if isinstance(data, int) and 0 <= pc <= data + 1 and data < BIG \
                    else "Loop frame"
            elif isinstance(node, N.Foreach):
                ok = (isinstance(data, list) and len(data) == 2 and data[0] in ("c", "u")
                      and _ints(data[1]) and pc <= len(data[1]))
                if ok:
                    ok = all((x in s.cards) if data[0] == "c" else (0 <= x < n_units)
                             for x in data[1])
                bad = "" if ok else "Foreach frame"
            elif isinstance(node, N.While):
                bad = "" if data is None and pc <= node.max_iterations else "While frame"
        elif k == K.CHOICE:
            bad = "" if isinstance(node, N.Choice) and data is None and f.ctx else "choice frame"
        elif k == K.DRAW:
            bad = "" if (node is None and _ints(data) and len(data) == 2 and data[0] >= 0
                         and data[1] in (0, 1)) else "draw frame"
        elif k in (K.EACH, K.HAND_END):
            ok = _ints(data) and all(x in s.cards for x in data) and pc <= len(data)
            bad = "" if ok and (k == K.HAND_END or f.ctx) else "card list frame"
        elif k == K.DAMAGE:
            ok = (isinstance(node, N.DealDamage) and f.ctx is not None and isinstance(data, list)
                  and len(data) == 5 and isinstance(data[0], int) and _ints(data[1])
                  and all(0 <= x < n_units for x in data[1]) and _ints(data[2:]))
            if ok:
                ok = data[3] in (0, 1) and 0 <= data[4] < max(1, len(data[1])) and data[2] >= 0
            bad = "" if ok else "damage frame"
        elif k == K.PLAY:
            # [card uid, target uid, nested (0/1), authored destination ("" or a pile)]
            ok = (node is None and f.ctx is not None and isinstance(data, list)
                  and len(data) == 4 and _ints(data[:3]) and data[0] in s.cards
                  and -1 <= data[1] < n_units and data[2] in (0, 1)
                  and data[3] in _PLAY_DESTINATIONS and pc in K.STEPS[k])
            bad = "" if ok else "play frame"
        elif k == K.ENEMY_PHASE:
            # [[enemy uids, -1-uid: kept intent], [[uid, status] just applied], enemies reached]
            ok = node is None and pc in K.STEPS[k] and (
                (data is None and pc == K.ENEMY_PHASE_TURNS) or (
                    isinstance(data, list) and len(data) == 3 and _ints(data[0])
                    and all(1 <= (x if x >= 0 else -1 - x) < n_units for x in data[0])
                    and isinstance(data[1], list)
                    and all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], int)
                            and 0 <= x[0] < n_units and x[1] in c.statuses for x in data[1])
                    and type(data[2]) is int and 0 <= data[2] <= len(data[0])
                    and (pc == K.ENEMY_PHASE_TURNS or data[2] == len(data[0]))))
            bad = "" if ok else "enemy phase frame"
        elif k == K.ENEMY_TURN:
            ok = (node is None and isinstance(data, int) and not isinstance(data, bool)
                  and 1 <= data < n_units and pc in K.STEPS[k])
            bad = "" if ok else "enemy turn frame"
        else:
            bad = "frame"
        if bad:
            raise fail(fq, f"malformed {bad} (kind {K.NAMES.get(k, k)}, pc {pc}, data {data!r:.80})")

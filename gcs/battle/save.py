"""JSON saves: the whole run and battle, paused effects included, as plain JSON data."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..content.db import Content
from ..enums import ArmorDecayRule, BattlePhase, HandDiscardRule, Pile
from ..errors import GameError, SaveError
from ..rng import Rng
from ..rules import BattleRules
from .save_check import check_state, check_state_data, check_top
from .save_format import FORMAT, upgrade
from .state import (
    ActiveHook,
    CardInstance,
    Ctx,
    Delayed,
    Frame,
    MasterEntry,
    Reward,
    State,
    Unit,
)


def plain_copy(x: Any) -> Any:
    """A copy of JSON-like data (nested lists, tuples and dicts) sharing no container."""
    if isinstance(x, list | tuple):
        return [plain_copy(v) for v in x]
    if isinstance(x, dict):
        return {k: plain_copy(v) for k, v in x.items()}
    return x


def _ref(c: Content, node: Any) -> list[Any] | None:
    if node is None:
        return None
    key, i = c.node_ref(node)
    return [key, i]


def _frames(c: Content, frames: list[Frame], ctxs: dict[int, int], out: list[Any]) -> list[Any]:
    res = []
    for f in frames:
        ci = -1
        if f.ctx is not None:
            ci = ctxs.get(id(f.ctx), -1)
            if ci < 0:
                ci = ctxs[id(f.ctx)] = len(out)
                x = f.ctx
                out.append([x.vals, x.objs, x.src, x.owner, x.target, x.x, x.status,
                            [_ref(c, h) for h in x.hooks], x.entry])
        res.append([f.kind, _ref(c, f.node), f.pc, f.data, ci])
    return res


def dump_state(c: Content, s: State) -> dict[str, Any]:
    ctxs: dict[int, int] = {}
    ctx_out: list[Any] = []
    stack = _frames(c, s.stack, ctxs, ctx_out)
    delayed = [[d.when, d.due, _frames(c, d.frames, ctxs, ctx_out), d.seq] for d in s.delayed]
    return {
        "seed": s.seed, "master": [[m.card_id, m.upgraded, m.cost_delta, m.uid] for m in s.master],
        "next_entry": s.next_entry, "gold": s.gold, "hp": s.hp, "max_hp": s.max_hp,
        "character": s.character, "battles": s.battles, "run_rng": hex(s.run_rng.state),
        "active": s.active, "phase": s.phase.value,
        "history": [[p.value, t] for p, t in s.history], "turn": s.turn,
        "player_turns": s.player_turns, "encounter": s.encounter, "hand_rule": s.hand_rule.value,
        "cards": [s.cards[k].to_list() for k in sorted(s.cards)], "next_card": s.next_card,
        "hand": s.hand, "draw": s.draw, "known": [s.known_top, s.known_bottom],
        "discard": s.discard, "exhaust": s.exhaust,
        "played": s.played, "drawn": s.drawn, "units": [u.to_list() for u in s.units],
        "energy": s.energy, "rng": [hex(s.rng_shuffle.state), hex(s.rng_ai.state),
                                    hex(s.rng_cards.state)],
        "stack": stack, "delayed": delayed, "ctxs": ctx_out,
        "pause": [s.pause, s.wait_left, s.gate, s.choice_kind, s.choice_ids, s.choice_min,
                  s.choice_max, s.choice_prompt],
        "clock": s.clock,
        "hooks": [[_ref(c, h.node), h.source, h.expires_turn, h.seq] for h in s.hooks],
        "next_seq": s.next_seq, "end_turn": s.end_turn, "extra_turns": s.extra_turns,
        "rewards": None if s.rewards is None else [[r.kind, r.card_id, r.amount, r.deck_index]
                                                   for r in s.rewards],
        "result": s.result, "plays": s.plays, "damage": s.damage, "block": s.block_gained,
        "steps": s.steps,
        "loot": s.loot,
    }


def _node(c: Content, ref: list[Any] | None) -> Any:
    return None if ref is None else c.node_at(ref[0], ref[1])


def load_state(c: Content, d: dict[str, Any]) -> State:
    s = State(d["seed"])
    s.master = [MasterEntry(a, b, x, u) for a, b, x, u in d["master"]]
    s.next_entry = d["next_entry"]
    s.gold, s.hp, s.max_hp = d["gold"], d["hp"], d["max_hp"]
    s.character, s.battles = d["character"], d["battles"]
    s.run_rng = Rng(int(d["run_rng"], 16))
    s.active = d["active"]
    s.phase = BattlePhase(d["phase"])
    s.history = [(BattlePhase(p), t) for p, t in d["history"]]
    s.turn, s.player_turns, s.encounter = d["turn"], d["player_turns"], d["encounter"]
    s.hand_rule = HandDiscardRule(d["hand_rule"])
    s.cards = {}
    for row in d["cards"]:
        uid, cid, up, delta, bd, bs, td, ts, pile, origin = row[:10]
        inst = CardInstance(uid, c.card(cid), up, delta, origin, Pile.REMOVED, s.token)
        inst.battle_delta, inst.battle_set, inst.turn_delta, inst.turn_set = bd, bs, td, ts
        inst.pile = Pile(pile)
        if len(row) > 10:  # its own numbers (what they grew, the times upgraded), a replay
            inst.grown = {k: v for k, v in row[10]} or None
            inst.upgrades = row[11]
            inst.replay = row[12]
            inst.refresh_numbers()
        s.cards[uid] = inst
    s.next_card = d["next_card"]
    s.hand, s.draw, s.discard, s.exhaust = (list(d[k]) for k in ("hand", "draw", "discard",
                                                                  "exhaust"))
    s.known_top, s.known_bottom = d["known"]
    s.played, s.drawn = list(d["played"]), list(d["drawn"])
    s.units = [Unit.from_list(u) for u in d["units"]]
    s.energy = d["energy"]
    s.rng_shuffle, s.rng_ai, s.rng_cards = (Rng(int(x, 16)) for x in d["rng"])
    ctxs = []
    for vals, objs, src, owner, target, x, status, hooks, entry in d["ctxs"]:
        ctx = Ctx(owner, src, target, status, entry)
        ctx.vals = dict(vals)
        ctx.objs = {k: [v[0], list(v[1])] for k, v in objs.items()}
        ctx.x = x
        ctx.hooks = [_node(c, h) for h in hooks]
        ctxs.append(ctx)

    def frames(rows: list[Any]) -> list[Frame]:
        return [Frame(k, _node(c, ref), pc, data, ctxs[ci] if ci >= 0 else None)
                for k, ref, pc, data, ci in rows]

    s.stack = frames(d["stack"])
    s.delayed = [Delayed(w, due, frames(fr), seq) for w, due, fr, seq in d["delayed"]]
    (s.pause, s.wait_left, s.gate, s.choice_kind, choice_ids, s.choice_min, s.choice_max,
     s.choice_prompt) = d["pause"]
    s.choice_ids = list(choice_ids)
    s.clock = d["clock"]
    s.hooks = [ActiveHook(_node(c, ref), src, exp, seq) for ref, src, exp, seq in d["hooks"]]
    s.next_seq, s.end_turn, s.extra_turns = d["next_seq"], d["end_turn"], d["extra_turns"]
    s.rewards = None if d["rewards"] is None else [Reward(*r) for r in d["rewards"]]
    s.result, s.plays, s.damage = d["result"], dict(d["plays"]), dict(d["damage"])
    s.block_gained = dict(d["block"])
    s.steps = d["steps"]
    s.loot = d["loot"]
    return s


def _rules(r: BattleRules) -> dict[str, Any]:
    return {"starting_hand_size": r.starting_hand_size, "draw_per_turn": r.draw_per_turn,
            "max_hand_size": r.max_hand_size, "energy_per_turn": r.energy_per_turn,
            "armor_decay": r.armor_decay.value, "hand_discard": r.hand_discard.value,
            "step_limit": r.step_limit, "keyed_shuffle": r.keyed_shuffle}


def dump(c: Content, seed: int, rules: BattleRules, logging: bool, presenter: bool,
         s: State) -> dict[str, Any]:
    """A whole game as a save: the envelope (format, pack, digest, seed, rules, flags) and the
    state, sharing no list or dict with the live state (it stays as it was taken)."""
    return {"format": FORMAT, "pack": c.pack_id, "digest": c.digest, "seed": seed,
            "rules": _rules(rules), "logging": logging, "presenter": presenter,
            "state": plain_copy(dump_state(c, s))}


class Loaded(NamedTuple):
    """What a checked save holds: the game's seed, rules, flags and state."""

    seed: int
    rules: BattleRules
    logging: bool
    presenter: bool
    state: State


def load(content: Content, data: object, *, allow_other_content: bool = False) -> Loaded:
    """Check every field (see save_check; an older format is brought up to date first), then
    build the state; SaveError names the first problem's JSON path and nothing is built."""
    d = check_top(content, upgrade(data), allow_other_content)
    check_state_data(content, d["state"], d["rules"])
    r = dict(d["rules"])
    r["armor_decay"] = ArmorDecayRule(r["armor_decay"])
    r["hand_discard"] = HandDiscardRule(r["hand_discard"])
    try:
        rules = BattleRules(**r)
        state = load_state(content, plain_copy(d["state"]))  # share nothing with ``data``
    except GameError as exc:
        raise SaveError(f"corrupt save at $: {exc}") from None
    check_state(content, state, rules.max_hand_size)
    return Loaded(d["seed"], rules, d["logging"], d["presenter"], state)

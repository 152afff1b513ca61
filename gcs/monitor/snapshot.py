"""What the monitor page shows, as JSON-compatible data: ``build(game)`` reads a Game (a frozen
copy, never the watched game from another thread) and ``event_data(ev)`` turns an event into
its payload. Standard library only."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from ..battle.state import CardInstance, Reward, Unit
from ..enums import BattlePhase, PileScope, TargetMode
from ..events import Event
from ..game import Game

# The seed's "UI phase checks" table (001, Battle phases): what a player may input per phase.
PHASE_INPUT: dict[BattlePhase, str] = {
    BattlePhase.NONE: "no battle: cannot play cards",
    BattlePhase.INITIALIZE: "setting up units and piles: cannot play cards",
    BattlePhase.PLAYER_TURN_START: "turn start: cannot play cards",
    BattlePhase.PLAYER_PHASE: "play cards or end the turn",
    BattlePhase.PLAYER_TURN_END: "turn end: cannot play cards",
    BattlePhase.ENEMY_PHASE: "enemies act: cannot play cards",
    BattlePhase.BATTLE_WON: "battle won: rewards only",
    BattlePhase.BATTLE_LOST: "battle lost: cannot play cards",
}


def frozen_copy(game: Game) -> Game:
    """An independent copy of ``game`` for reading later from any thread (no log, no subscribers).

    Like ``Game.clone`` but without copying the event log, so a copy per event stays cheap.
    """
    return game._copy(log=False)


def _jsonable(v: Any) -> Any:
    if isinstance(v, enum.Enum):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def event_data(ev: Event) -> dict[str, Any]:
    """An event's payload fields as JSON-compatible values (enums by name)."""
    if dataclasses.is_dataclass(ev):
        return {f.name: _jsonable(getattr(ev, f.name)) for f in dataclasses.fields(ev)}
    return {}


def card_face(game: Game, inst: CardInstance, *, playable: bool = False,
              why: str | None = None) -> dict[str, Any]:
    """One card instance as the page draws it: cost, name, type, text, and (in the hand)
    whether it can be played now, or why not."""
    d = inst.active
    return {
        "uid": inst.uid, "id": inst.card_id, "name": inst.name, "type": d.type.value,
        "rarity": d.rarity.value, "upgraded": inst.upgraded,
        "cost": "X" if d.x_cost else game.get_effective_energy_cost(inst),
        "base_cost": "X" if d.x_cost else d.cost,
        "text": game.format_description(inst),
        "target": d.target.value, "keywords": sorted(k.value for k in d.keywords),
        "playable": playable, "why": why, "art": d.art,
    }


def _unit(game: Game, u: Unit) -> dict[str, Any]:
    statuses = []
    hidden = game.content.hidden_statuses
    for sid, stacks in u.statuses.items():
        if sid in hidden:
            continue  # (a hidden status: content's own counter, not shown)
        sd = game.content.statuses.get(sid)
        statuses.append({"id": sid, "name": sd.name if sd else sid, "stacks": stacks,
                         "debuff": bool(sd and sd.debuff), "text": sd.text if sd else ""})
    return {
        "uid": u.uid, "index": u.uid - 1, "player": u.is_player, "id": u.def_id, "name": u.name,
        "hp": u.hp, "max_hp": u.max_hp, "block": u.block, "alive": u.alive,
        "statuses": statuses,
        "intents": [{"move": i.move, "name": i.name, "kind": i.kind.value, "damage": i.damage,
                     "hits": i.hits, "block": i.block} for i in u.pending_intents],
    }


def _reward(game: Game, i: int, r: Reward) -> dict[str, Any]:
    out: dict[str, Any] = {"index": i, "kind": r.kind, "label": str(r)}
    if r.kind == "card" and r.card_id is not None and r.card_id in game.content.cards:
        d = game.content.card(r.card_id)
        out["card"] = {"uid": None, "id": d.id, "name": d.name, "type": d.type.value,
                       "rarity": d.rarity.value, "upgraded": False,
                       "cost": "X" if d.x_cost else d.cost, "base_cost": d.cost,
                       "text": game.format_description(d), "target": d.target.value,
                       "keywords": sorted(k.value for k in d.keywords), "playable": False,
                       "art": d.art}
        out["label"] = f"Add {d.name} to your deck"
    elif r.kind == "gold":
        out["label"] = f"{r.amount} gold"
    elif r.deck_index is not None:
        deck = game.get_master_deck()
        if 0 <= r.deck_index < len(deck):
            out["label"] = f"{r.kind.title()} {deck[r.deck_index].card_id}"
    return out


def _lock(game: Game) -> dict[str, Any] | None:
    """Which pause holds the effect wave, and why input is locked (None when nothing waits)."""
    kind = game.waiting_kind
    s = game._e.s
    if kind == "choice":
        c = game.pending_choice
        lo, hi = (c.min, c.max) if c else (0, 0)
        return {"kind": "choice", "title": "Choice",
                "why": f"the effect wave waits for an answer (pick {lo if lo == hi else f'{lo} to {hi}'})."}
    if kind == "wait":
        return {"kind": "wait", "title": "Wait",
                "why": f"the effect wave resumes after {s.wait_left:g} s more on the game clock "
                       f"(advance_time)."}
    if kind == "gate":
        return {"kind": "gate", "title": "Animation Gate",
                "why": f"'{s.gate}' holds the effect wave until complete_animation opens it."}
    return None


def _why(game: Game, inst: CardInstance, open_: bool) -> str:
    """Why a card in the hand cannot be played now (the engine's own refusal)."""
    if not open_:
        return "cards can be played only in your turn, with no effect waiting"
    target = None
    if inst.active.target is TargetMode.SINGLE_ENEMY:  # (any living enemy: the reason is the card's)
        target = next((u for u in game.enemies if u.alive), None)
    return game.play_refusal(inst, target) or "no legal target"


def build(game: Game, *, legal: bool = True, board: Game | None = None) -> dict[str, Any]:
    """The whole page state of ``game`` (call it on a frozen copy or from the game's thread);
    ``board``: the final board of the battle that ended last, shown while none is active."""
    s = game._e.s
    phase = game.phase
    choice = game.pending_choice
    lock = _lock(game)
    actions = [str(a) for a in game.legal_actions()] if legal and s.active else []
    playable = {int(a.split()[1]) for a in actions if a.startswith("play ")}
    open_ = (phase is BattlePhase.PLAYER_PHASE and lock is None and s.rewards is None)
    cards: dict[str, dict[str, Any]] = {}
    piles: dict[str, list[int]] = {}
    if s.active:
        for i, inst in enumerate(game.hand()):
            ok = i in playable
            cards[str(inst.uid)] = card_face(game, inst, playable=ok,
                                             why=None if ok or not legal else _why(game, inst, open_))
        for pile in (game.draw_pile(), game.discard_pile(), game.exhaust_pile()):
            for inst in pile:
                cards[str(inst.uid)] = card_face(game, inst)
        piles = {"hand": [c.uid for c in game.hand()], "draw": [c.uid for c in game.draw_pile()],
                 "discard": [c.uid for c in game.discard_pile()],
                 "exhaust": [c.uid for c in game.exhaust_pile()],
                 "played": [c.uid for c in game.played_this_turn()],
                 "drawn": [c.uid for c in game.drawn_this_turn()]}
        for uid in piles["played"] + piles["drawn"]:
            if str(uid) not in cards:  # played and left the battle (a power, say)
                cards[str(uid)] = card_face(game, s.cards[uid])
    else:
        piles = {k: [] for k in ("hand", "draw", "discard", "exhaust", "played", "drawn")}
    master = [card_face(game, c) for c in game.pile(PileScope.MASTER)]
    if phase is BattlePhase.PLAYER_PHASE and lock is None and s.active:
        allowed = "play cards or end the turn"
    elif lock is not None and lock["kind"] == "choice":
        allowed = "answer the Choice"
    elif lock is not None:
        allowed = f"nothing: the {lock['title']} holds the effect wave"
    elif game.is_waiting_for_reward:
        allowed = "take a reward or skip"
    elif not s.active and game.last_result is not None:
        allowed = f"final result: {'won' if game.last_result else 'lost'}"
    else:
        allowed = PHASE_INPUT[phase]
    units = [_unit(game, u) for u in s.units] if s.active else []
    hp = [s.units[0].hp, s.units[0].max_hp] if s.active and s.units else list(game.run_hp)
    return {
        "active": s.active, "phase": phase.name, "turn": game.turn_number,
        "energy": game.energy, "energy_per_turn": game.rules.energy_per_turn,
        "gold": game.gold, "run_hp": list(game.run_hp), "hp": hp, "result": game.last_result,
        "battle": s.battles, "encounter": s.encounter if s.active else None,
        "board": _board(board) if board is not None and not s.active else None,
        "allowed": allowed, "phase_input": PHASE_INPUT[phase],
        "history": [[p.name, t] for p, t in game.phase_history],
        "lock": lock,
        "choice": None if choice is None else {
            "prompt": choice.prompt, "min": choice.min, "max": choice.max,
            "candidates": [_candidate(game, c) for c in choice.candidates]},
        "rewards": ([_reward(game, i, r) for i, r in enumerate(game.offered_rewards)]
                    if game.is_waiting_for_reward else None),
        "units": units, "cards": cards, "piles": piles, "master": master,
        "legal": actions,
        "targeting": {str(c.uid): c.active.target is TargetMode.SINGLE_ENEMY
                      for c in game.hand()} if s.active else {},
    }


def _board(board: Game) -> dict[str, Any]:
    """The final board of a battle (taken as it ended): units, piles and cards, the last turn."""
    b = build(board, legal=False)
    return {k: b[k] for k in ("units", "cards", "piles", "turn", "phase", "encounter", "hp")}


def _candidate(game: Game, c: Any) -> dict[str, Any]:
    if isinstance(c, CardInstance):
        return {"kind": "card", "card": card_face(game, c)}
    if isinstance(c, Unit):
        return {"kind": "unit", "unit": _unit(game, c)}
    return {"kind": "other", "label": repr(c)}

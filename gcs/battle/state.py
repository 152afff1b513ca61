"""Plain battle and run data: card instances, units, frames, and the whole ``State``.

Everything here is plain data: ints, strings, lists and dicts, plus references to immutable
content. ``State.clone`` copies containers and shares content; ``to_dict``/``from_dict``
round-trip through JSON-compatible values.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, NamedTuple

from ..content.defs import GameCard
from ..enums import (
    HAND_RULE_DISCARD_ON_TURN_END,
    PHASE_NONE,
    PILE_REMOVED,
    BattlePhase,
    IntentKind,
    Pile,
)
from ..flow.exprs import formula
from ..flow.nodes import Node
from ..rng import Rng


class MasterEntry(NamedTuple):
    """One card of the run master deck: card id, upgrade state, permanent cost delta."""

    card_id: str
    upgraded: bool = False
    cost_delta: int = 0
    uid: int = 0


class CardInstance:
    """A card in one battle: instance id, upgrade flag, master-deck cost delta, temporary modifiers.

    ``token`` is the ``State.token`` of the game that made it: after its battle has closed, it
    still tells this game's card (a refusal: it has left the battle) from another game's
    (an error). It is an identity, not data: not saved, not compared, new in a clone."""

    __slots__ = (
        "uid", "card_id", "upgraded", "cost_delta", "battle_delta", "battle_set",
        "turn_delta", "turn_set", "pile", "origin", "base", "active", "token",
        "own_numbers", "grown", "upgrades", "replay",
    )

    def __init__(self, uid: int, base: GameCard, upgraded: bool = False, cost_delta: int = 0,
                 origin: int = -1, pile: Pile = PILE_REMOVED, token: object = None) -> None:
        self.uid = uid
        self.token = token
        self.card_id = base.id
        self.base = base
        upgrade = base.upgrade
        self.upgraded = upgraded = upgraded and upgrade is not None
        self.active: GameCard = upgrade if upgraded and upgrade else base
        self.cost_delta = cost_delta
        self.battle_delta = 0
        self.battle_set: int | None = None
        self.turn_delta = 0
        self.turn_set: int | None = None
        self.pile = pile  # (REMOVED: in no pile yet)
        self.origin = origin
        # the instance's own numbers (None: its active card's) once it grew (``grown``: number
        # -> what it gained this battle) or was upgraded more than once (``upgrades``)
        self.own_numbers: dict[str, int] | None = None
        self.grown: dict[str, int] | None = None
        self.upgrades = 1 if upgraded else 0
        self.replay = False  # a replayed copy (Double Tap's): it ends its play in no pile

    @property
    def numbers(self) -> Mapping[str, int]:
        """The instance's numbers now: its own, else its active card's."""
        own = self.own_numbers
        return self.active.numbers if own is None else own

    def refresh_numbers(self) -> None:
        """``own_numbers`` again after a change of the active card, ``grown`` or ``upgrades``."""
        act = self.active
        grown = self.grown
        if not grown and (self.upgrades <= 1 or not act.formulas):
            self.own_numbers = None
            return
        nums = dict(act.numbers)
        if self.upgrades > 1:
            for k, f in act.formulas.items():
                nums[k] = formula(f, self.upgrades) or 0
        if grown:
            nums = {k: v + grown.get(k, 0) for k, v in nums.items()}
        self.own_numbers = nums

    def grow(self, number: str, amount: int) -> None:
        """``number`` gains ``amount`` for the rest of the battle (Rampage)."""
        grown = self.grown
        if grown is None:
            grown = self.grown = {}
        grown[number] = grown.get(number, 0) + amount
        self.refresh_numbers()

    @property
    def instance_id(self) -> int:
        """The instance id, unique in its game across battles (``uid``)."""
        return self.uid

    @property
    def name(self) -> str:
        """The active card's name (``Searing Blow+3`` after three repeatable upgrades)."""
        if self.upgrades > 1:
            return f"{self.base.name}+{self.upgrades}"
        return self.active.name

    def get_active_card(self) -> GameCard:
        """The upgraded variant if this instance is upgraded, otherwise the base card."""
        return self.active

    def set_card(self, base: GameCard, upgraded: bool) -> None:
        """Make this instance a ``base`` card, upgraded or not (transform, upgrade)."""
        self.base = base
        self.card_id = base.id
        self.upgraded = upgraded and base.upgrade is not None
        self.active = base.upgrade if self.upgraded and base.upgrade else base
        self.upgrades = 1 if self.upgraded else 0
        self.refresh_numbers()

    def copy(self, token: object) -> CardInstance:
        """An independent copy (clone) for the game whose ``State.token`` is ``token``."""
        # built as a plain instance (upgraded False: the constructor then reads no upgrade),
        # and every field is copied over what the constructor set
        c = CardInstance(self.uid, self.base, False, self.cost_delta, self.origin, PILE_REMOVED,
                         token)
        c.card_id = self.card_id
        c.upgraded = self.upgraded
        c.active = self.active
        c.battle_delta = self.battle_delta
        c.battle_set = self.battle_set
        c.turn_delta = self.turn_delta
        c.turn_set = self.turn_set
        c.pile = self.pile
        c.origin = self.origin
        if self.own_numbers is not None:
            c.own_numbers = self.own_numbers.copy()
        c.upgrades = self.upgrades
        c.replay = self.replay
        if self.grown is not None:
            c.grown = self.grown.copy()
        return c

    def copy_stats(self, src: CardInstance) -> None:
        """Take ``src``'s upgrades, own numbers and cost changes (a new copy of it in battle:
        the game's makeStatEquivalentCopy); ``base`` and ``upgraded`` are already ``src``'s."""
        self.cost_delta = src.cost_delta
        self.battle_delta, self.battle_set = src.battle_delta, src.battle_set
        self.turn_delta, self.turn_set = src.turn_delta, src.turn_set
        self.upgrades = src.upgrades
        self.grown = None if src.grown is None else src.grown.copy()
        self.own_numbers = None if src.own_numbers is None else src.own_numbers.copy()

    def to_list(self) -> list[Any]:
        """The instance as JSON-compatible data (saves)."""
        row = [self.uid, self.card_id, self.upgraded, self.cost_delta, self.battle_delta,
               self.battle_set, self.turn_delta, self.turn_set, int(self.pile), self.origin]
        if self.grown or self.upgrades > 1 or self.replay:  # (its own numbers, a replay)
            row += [sorted((self.grown or {}).items()), self.upgrades, self.replay]
        return row

    def __repr__(self) -> str:
        plus = f"+{self.upgrades}" if self.upgrades > 1 else "+" if self.upgraded else ""
        return f"<{self.card_id}{plus}#{self.uid}>"


class Intent(NamedTuple):
    """A telegraphed enemy move with its displayed values (after modifiers)."""

    move: str
    name: str
    kind: IntentKind
    damage: int | None = None
    hits: int = 1
    block: int | None = None


def new_intent(move: str, name: str, kind: IntentKind, damage: int | None, hits: int,
               block: int | None) -> Intent:
    """``Intent(move, name, kind, damage, hits, block)``, built as the tuple it is: a NamedTuple's
    own constructor is interpreted Python, even called from the compiled engine (120 ns more)."""
    return tuple.__new__(Intent, (move, name, kind, damage, hits, block))


class Unit:
    """The player or an enemy in a battle."""

    __slots__ = (
        "uid", "def_id", "name", "hp", "max_hp", "block", "statuses", "alive", "move",
        "history", "intent", "rules_used", "rolled", "hp_losses", "sources",
    )

    def __init__(self, uid: int, def_id: str, name: str, hp: int, max_hp: int) -> None:
        self.uid = uid
        self.def_id = def_id
        self.name = name
        self.hp = hp
        self.max_hp = max_hp
        self.block = 0
        self.statuses: dict[str, int] = {}
        self.alive = True
        self.move = ""
        self.history: list[str] = []
        self.intent: Intent | None = None
        self.rules_used: list[str] = []
        self.rolled: dict[str, int] = {}  # move id -> the damage rolled for this unit
        self.hp_losses = 0  # how many times it lost HP this battle (any source)
        # status id -> who applied its stacks: label (a card id, an enemy move, "(none)") ->
        # signed stacks, summing to the stacks held (gcs/battle/credit.py)
        self.sources: dict[str, dict[str, int]] = {}

    @property
    def is_player(self) -> bool:
        """True for the player (unit id 0); enemies are 1..n in encounter order."""
        return self.uid == 0

    @property
    def pending_intents(self) -> tuple[Intent, ...]:
        """The telegraphed intent as shown now (empty for a dead enemy or the player)."""
        return () if self.intent is None or not self.alive else (self.intent,)

    def stacks(self, status: str) -> int:
        """The stacks of ``status`` on this unit (0 if it has none)."""
        return self.statuses.get(status, 0)

    def copy(self) -> Unit:
        """An independent copy (clone)."""
        u = Unit(self.uid, self.def_id, self.name, self.hp, self.max_hp)
        u.block = self.block
        u.alive = self.alive
        u.move = self.move
        u.intent = self.intent
        u.hp_losses = self.hp_losses
        # the constructor made the containers, empty: fill them (no second allocation)
        u.statuses.update(self.statuses)
        u.history.extend(self.history)
        u.rules_used.extend(self.rules_used)
        u.rolled.update(self.rolled)
        if self.sources:
            for k, v in self.sources.items():
                u.sources[k] = v.copy()
        return u

    def to_list(self) -> list[Any]:
        """The unit as JSON-compatible data (saves)."""
        it = self.intent
        intent = None if it is None else [it.move, it.name, it.kind.value, it.damage, it.hits,
                                          it.block]
        row = [self.uid, self.def_id, self.name, self.hp, self.max_hp, self.block,
               list(self.statuses.items()), self.alive, self.move, self.history, intent,
               self.rules_used, list(self.rolled.items()), self.hp_losses]
        # the status sources (item 14), but those that are all "(none)"'s, which is what a
        # status with no known source means anyway; no item when none is left
        known = [[k, list(v.items())] for k, v in self.sources.items()
                 if len(v) > 1 or "(none)" not in v]
        if known:
            row.append(known)
        return row

    @staticmethod
    def from_list(d: list[Any]) -> Unit:
        """A unit from its saved data (``to_list``)."""
        u = Unit(d[0], d[1], d[2], d[3], d[4])
        u.block = d[5]
        u.statuses = {k: v for k, v in d[6]}
        u.alive = d[7]
        u.move = d[8]
        u.history = list(d[9])
        it = d[10]
        u.intent = None if it is None else Intent(it[0], it[1], IntentKind(it[2]), it[3], it[4],
                                                  it[5])
        u.rules_used = list(d[11])
        u.rolled = {k: v for k, v in d[12]} if len(d) > 12 else {}
        u.hp_losses = d[13] if len(d) > 13 else 0  # (a save made before the counter: 0)
        # (a save made before the sources: none known, its stacks are credited to "(none)")
        if len(d) > 14:
            u.sources = _sources(d[14], u.statuses)
        return u

    def __repr__(self) -> str:
        return f"<{self.name} {self.hp}/{self.max_hp} hp, {self.block} block>"


class Ctx:
    """The scope of one running entry: value slots, object slots, source, owner, target."""

    __slots__ = ("vals", "objs", "src", "owner", "target", "x", "status", "hooks", "entry")

    def __init__(self, owner: int, src: int = -1, target: int = -1, status: str = "",
                 entry: str = "", x: int = 0) -> None:
        self.vals: dict[str, Any] = {}
        self.objs: dict[str, list[Any]] = {}  # name -> [kind ('c' or 'u'), [ids]]
        self.src = src
        self.owner = owner
        self.target = target
        self.x = x  # the energy an X-cost play paid
        self.status = status
        self.hooks: list[Node] = []  # card hooks waiting for the play to complete
        self.entry = entry

    def copy(self) -> Ctx:
        c = Ctx(self.owner, self.src, self.target, self.status, self.entry, self.x)
        c.vals = self.vals.copy()
        c.objs = {k: [v[0], list(v[1])] for k, v in self.objs.items()}
        c.hooks = self.hooks.copy()
        return c


class Frame:
    """One unit of suspended work: (kind, program node, position, data, scope)."""

    __slots__ = ("kind", "node", "pc", "data", "ctx")

    def __init__(self, kind: int, node: Node | None, pc: int, data: Any, ctx: Ctx | None) -> None:
        self.kind = kind
        self.node = node
        self.pc = pc
        self.data = data
        self.ctx = ctx

    def __repr__(self) -> str:
        from .frames import NAMES

        node = "" if self.node is None else f" {type(self.node).__name__}"
        return f"Frame({NAMES.get(self.kind, self.kind)}{node}, pc={self.pc}, data={self.data})"


@dataclass(frozen=True, slots=True)
class ActiveHook:
    """A Card Hook registered in this battle; expires at PlayerTurnStart of ``expires_turn``."""

    node: Node  # the RegisterCardHook node that made it
    source: int
    expires_turn: int | None
    seq: int


class Delayed:
    """A delayed continuation: frames that resume at ``when`` on or after player turn ``due``."""

    __slots__ = ("when", "due", "frames", "seq")

    def __init__(self, when: str, due: int, frames: list[Frame], seq: int) -> None:
        self.when = when
        self.due = due
        self.frames = frames
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Reward:
    """One offered reward: ``card`` (card_id), ``gold`` (amount), ``upgrade``/``remove`` (deck index)."""

    kind: str
    card_id: str | None = None
    amount: int = 0
    deck_index: int | None = None

    def __str__(self) -> str:
        if self.kind == "card":
            return f"card {self.card_id}"
        if self.kind == "gold":
            return f"gold {self.amount}"
        return f"{self.kind} {self.deck_index}"


# pause kinds (Final: compiled modules that import them read constants)
NO_PAUSE: Final = 0
CHOICE: Final = 1
WAIT: Final = 2
GATE: Final = 3


class State:
    """All mutable data of one game: the run (master deck, HP, gold) and the current battle."""

    __slots__ = (
        # run
        "seed", "master", "next_entry", "gold", "hp", "max_hp", "character", "battles", "run_rng",
        "next_card", "token",
        # battle
        "active", "phase", "history", "turn", "player_turns", "encounter", "hand_rule",
        "cards", "hand", "draw", "discard", "exhaust", "played", "drawn",
        "units", "energy", "rng_shuffle", "rng_ai", "rng_cards", "stack", "pause", "wait_left",
        "gate", "choice_kind", "choice_ids", "choice_min", "choice_max", "choice_prompt",
        "clock", "hooks", "next_seq", "delayed", "end_turn", "extra_turns", "rewards", "result",
        "known_top", "known_bottom", "loot",
        "plays", "damage", "block_gained", "steps",
    )

    def __init__(self, seed: int, blank: bool = False) -> None:
        """A new game's state; ``blank`` leaves every other field for ``clone`` to set."""
        self.seed = seed
        # the identity of this game's card instances (``CardInstance.token``): a new object
        # for every state, a clone's and a loaded save's included; never saved or compared
        self.token: object = object()
        if blank:
            return
        self.master: list[MasterEntry] = []
        self.next_entry = 1
        self.next_card = 1  # card instance ids are unique in the game, across its battles
        self.gold = 0
        self.hp = 0
        self.max_hp = 0
        self.character = ""
        self.battles = 0
        self.run_rng = Rng(seed)
        self.rng_shuffle = Rng(0)  # (a battle's streams: StartBattle derives them)
        self.rng_ai = Rng(0)
        self.rng_cards = Rng(0)
        self.reset_battle()

    def reset_battle(self) -> None:
        """Every battle field as before any battle, but the random streams (StartBattle step 1
        clears the battle, then derives its streams)."""
        self.active = False
        self.phase = PHASE_NONE
        self.history: list[tuple[BattlePhase, int]] = []
        self.turn = 0
        self.player_turns = 0
        self.encounter = ""
        self.hand_rule = HAND_RULE_DISCARD_ON_TURN_END
        self.cards: dict[int, CardInstance] = {}
        self.hand: list[int] = []
        self.draw: list[int] = []
        # how many cards at the top (the end of ``draw``) and at the bottom (its start) are where
        # the player saw them put: the rest of Draw is in an order the player does not know
        # (kept by the card primitives, gcs/battle/cards.py; read by ``Game.determinize``)
        self.known_top = 0
        self.known_bottom = 0
        self.discard: list[int] = []
        self.exhaust: list[int] = []
        self.played: list[int] = []
        self.drawn: list[int] = []
        self.units: list[Unit] = []
        self.energy = 0
        # (the random streams are left as they are: StartBattle derives the new battle's)
        self.stack: list[Frame] = []
        self.pause = NO_PAUSE
        self.wait_left = 0.0
        self.gate = ""
        self.choice_kind = ""
        self.choice_ids: list[int] = []
        self.choice_min = 0
        self.choice_max = 0
        self.choice_prompt = ""
        self.clock = 0.0
        self.hooks: list[ActiveHook] = []
        self.next_seq = 1
        self.delayed: list[Delayed] = []
        self.end_turn = False
        self.extra_turns = 0
        self.rewards: list[Reward] | None = None
        # gold this battle's rewards hold besides the table's (``reward_gold``: a Looter's
        # loot), granted with the table's gold when the rewards are offered
        self.loot = 0
        self.result: bool | None = None
        self.plays: dict[str, int] = {}
        self.damage: dict[str, int] = {}
        self.block_gained: dict[str, int] = {}  # label -> block the player gained (credit.py)
        self.steps = 0

    def pile_list(self, pile: Pile) -> list[int]:
        if pile is Pile.HAND:
            return self.hand
        if pile is Pile.DRAW:
            return self.draw
        if pile is Pile.DISCARD:
            return self.discard
        if pile is Pile.EXHAUST:
            return self.exhaust
        raise ValueError(pile)

    # ------------------------------------------------------------------ clone
    def clone(self, streams: bool = True) -> State:
        """An independent copy: containers copied, immutable content shared. Without
        ``streams`` the random streams are the same objects as this state's: only for a copy
        that replaces every one of them at once (``Game.determinize``)."""
        n = State(self.seed, blank=True)
        n.master = self.master.copy()
        n.next_entry = self.next_entry
        n.gold = self.gold
        n.hp = self.hp
        n.max_hp = self.max_hp
        n.character = self.character
        n.battles = self.battles
        n.run_rng = self.run_rng.copy() if streams else self.run_rng
        n.active = self.active
        n.phase = self.phase
        n.history = self.history.copy()
        n.turn = self.turn
        n.player_turns = self.player_turns
        n.encounter = self.encounter
        n.hand_rule = self.hand_rule
        token = n.token
        n.cards = {k: c.copy(token) for k, c in self.cards.items()}
        n.next_card = self.next_card
        n.hand = self.hand.copy()
        n.draw = self.draw.copy()
        n.known_top = self.known_top
        n.known_bottom = self.known_bottom
        n.discard = self.discard.copy()
        n.exhaust = self.exhaust.copy()
        n.played = self.played.copy()
        n.drawn = self.drawn.copy()
        n.units = [u.copy() for u in self.units]
        n.energy = self.energy
        if streams:
            n.rng_shuffle = self.rng_shuffle.copy()
            n.rng_ai = self.rng_ai.copy()
            n.rng_cards = self.rng_cards.copy()
        else:
            n.rng_shuffle = self.rng_shuffle
            n.rng_ai = self.rng_ai
            n.rng_cards = self.rng_cards
        memo: dict[int, Ctx] = {}  # a scope shared by frames stays shared in the copy
        n.stack = _copy_frames(self.stack, memo) if self.stack else []
        n.pause = self.pause
        n.wait_left = self.wait_left
        n.gate = self.gate
        n.choice_kind = self.choice_kind
        n.choice_ids = self.choice_ids.copy()
        n.choice_min = self.choice_min
        n.choice_max = self.choice_max
        n.choice_prompt = self.choice_prompt
        n.clock = self.clock
        n.hooks = self.hooks.copy()
        n.next_seq = self.next_seq
        n.delayed = ([Delayed(d.when, d.due, _copy_frames(d.frames, memo), d.seq)
                      for d in self.delayed] if self.delayed else [])
        n.end_turn = self.end_turn
        n.extra_turns = self.extra_turns
        n.rewards = None if self.rewards is None else self.rewards.copy()
        n.loot = self.loot
        n.result = self.result
        n.plays = self.plays.copy()
        n.damage = self.damage.copy()
        n.block_gained = self.block_gained.copy()
        n.steps = self.steps
        return n


def _sources(rows: list[Any], held: dict[str, int]) -> dict[str, dict[str, int]]:
    """A unit's saved status sources, in line with the stacks it holds: a status it does not
    hold keeps none, and stacks its sources do not account for (a save edited by hand) are
    "(none)"'s (gcs/battle/credit.py reads them)."""
    out: dict[str, dict[str, int]] = {}
    for sid, labels in rows:
        n = held.get(sid, 0)
        if not n:
            continue
        src = {a: b for a, b in labels if b}
        left = n - sum(src.values())
        if left:
            src["(none)"] = src.get("(none)", 0) + left
            if not src["(none)"]:
                del src["(none)"]
        out[sid] = src
    return out


def _copy_data(data: Any) -> Any:
    if isinstance(data, list):
        return [_copy_data(x) for x in data]
    return data


def _copy_frames(frames: list[Frame], memo: dict[int, Ctx]) -> list[Frame]:
    out = []
    for f in frames:
        ctx = f.ctx
        if ctx is not None:
            c = memo.get(id(ctx))
            if c is None:
                c = memo[id(ctx)] = ctx.copy()
            ctx = c
        out.append(Frame(f.kind, f.node, f.pc, _copy_data(f.data), ctx))
    return out


def state_size(game: Any) -> int:
    """The bytes the state of ``game`` (a ``gcs.Game`` or a ``State``) owns: ``sys.getsizeof``
    summed over every object reachable from it, each once, that belongs to this state alone
    (containers, cards, units, frames, random streams, numbers). Shared objects are left out:
    content (card, enemy and node definitions), enum members, strings (ids and names held by
    the content) and the interpreter's cached small ints."""
    s = game if isinstance(game, State) else game._e.s
    seen: set[int] = set()
    total = 0
    todo: list[Any] = [s]
    while todo:
        o = todo.pop()
        if id(o) in seen or _shared(o):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            todo.extend(o.keys())
            todo.extend(o.values())
        elif isinstance(o, (list, tuple)):
            todo.extend(o)
        else:
            cls = type(o)
            names = getattr(cls, "__slots__", None) or getattr(cls, "__mypyc_attrs__", None) or ()
            todo.extend(getattr(o, n) for n in names if not n.startswith("__") and hasattr(o, n))
    return total


def _shared(o: Any) -> bool:
    """Objects a state refers to but does not own (see ``state_size``)."""
    if o is None or isinstance(o, (bool, str, Enum, type)):
        return True
    if isinstance(o, int):
        return -5 <= o <= 256  # CPython keeps one object of each small int
    return type(o).__module__.startswith(("gcs.content.", "gcs.flow."))

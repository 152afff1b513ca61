"""The agent surface: ``Action`` values with a text form, legal actions, apply, observation.

Each function takes the engine (``gcs.Game`` hands its own over); when an action is refused
is decided by the one refusal table (gcs/battle/refusals.py), and what an action does is
what the facade call does, through the same engine functions (gcs/steps/waves.py)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from .battle.hooks import effective_cost, hooks_possible, modified_cost
from .battle.refusals import card_refusal, input_refusal, playable_in_hand, target_refusal
from .battle.state import CHOICE, GATE, WAIT, Unit
from .content.defs import PLAY_CHECKED, PLAY_PLAIN, PLAY_PLAIN_SINGLE
from .enums import TARGET_SINGLE_ENEMY, TargetMode
from .errors import ArgumentError, BusyError, GameError, IllegalActionError
from .steps import waves
from .steps.play import play_from_hand
from .steps.turn_end import push_turn_end

if TYPE_CHECKING:
    from .engine import Engine

PLAY: Final = "play"
CHOOSE: Final = "choose"
END: Final = "end"
REWARD: Final = "reward"
SKIP: Final = "skip"
MAX_CHOICE_ACTIONS: Final = 512
_KINDS: Final = frozenset((PLAY, CHOOSE, END, REWARD, SKIP))


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One input: ``play 3 @e0``, ``play 2``, ``choose 1,4``, ``choose -``, ``end``, ``reward 1``, ``skip``.

    ``card`` is a hand index, ``target`` an enemy index (encounter order), ``choice`` the chosen
    candidate indices, ``reward`` an index into ``offered_rewards``.
    """

    kind: str
    card: int = -1
    target: int = -1
    choice: tuple[int, ...] = ()
    reward: int = -1

    # The parameters are ``object`` and checked here, so a wrong type is an ArgumentError
    # naming the parameter on both engines: typed parameters would let the compiled engine's
    # own argument check answer first, with a bare TypeError. The fields are written through
    # ``object.__setattr__`` (the class is frozen) once each value is known to fit.
    def __init__(self, kind: object, card: object = -1, target: object = -1,
                 choice: object = (), reward: object = -1) -> None:
        if not isinstance(kind, str) or kind not in _KINDS:
            raise _arg("kind", "one of 'play', 'choose', 'end', 'reward', 'skip'", kind)
        k: str = kind
        c = _index("card", card, k == PLAY)
        t = _index("target", target, False)
        r = _index("reward", reward, k == REWARD)
        if isinstance(choice, (tuple, list)) and all(
                isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in choice):
            picks: tuple[int, ...] = tuple(choice)
        else:
            raise _arg("choice", "a tuple of candidate indices (ints >= 0)", choice)
        # a field that the kind does not read would be lost by the text form: refused
        if k != PLAY and (c != -1 or t != -1):
            raise _arg("card" if c != -1 else "target", f"-1 for a {k!r} action",
                       card if c != -1 else target)
        if k != CHOOSE and picks:
            raise _arg("choice", f"() for a {k!r} action", choice)
        if k != REWARD and r != -1:
            raise _arg("reward", f"-1 for a {k!r} action", reward)
        object.__setattr__(self, "kind", k)
        object.__setattr__(self, "card", c)
        object.__setattr__(self, "target", t)
        object.__setattr__(self, "choice", picks)
        object.__setattr__(self, "reward", r)

    def __str__(self) -> str:
        k = self.kind
        if k == PLAY:
            return f"play {self.card}" + (f" @e{self.target}" if self.target >= 0 else "")
        if k == CHOOSE:
            return "choose " + (",".join(map(str, self.choice)) if self.choice else "-")
        if k == REWARD:
            return f"reward {self.reward}"
        return k

    @staticmethod
    def parse(text: str) -> Action:
        """The action a text form stands for (inverse of ``str``)."""
        parts = text.split()
        if not parts:
            raise IllegalActionError("empty action text")
        k = parts[0]
        try:
            if k == PLAY and len(parts) in (2, 3):
                target = -1
                if len(parts) == 3:
                    if not parts[2].startswith("@e"):
                        raise ValueError(parts[2])
                    target = int(parts[2][2:])
                card = int(parts[1])
                if card < 0 or (len(parts) == 3 and target < 0):
                    raise ValueError(text)
                return Action(PLAY, card=card, target=target)
            if k == CHOOSE and len(parts) == 2:
                if parts[1] == "-":
                    return Action(CHOOSE)
                idx = tuple(int(x) for x in parts[1].split(","))
                if any(i < 0 for i in idx):
                    raise ValueError(text)
                return Action(CHOOSE, choice=idx)
            if k == REWARD and len(parts) == 2:
                r = int(parts[1])
                if r < 0:
                    raise ValueError(text)
                return Action(REWARD, reward=r)
            if k in (END, SKIP) and len(parts) == 1:
                return Action(k)
        except ValueError:
            pass
        raise IllegalActionError(
            f"cannot parse action {text!r} (expected 'play N [@eK]', 'choose I,J', 'end', "
            f"'reward N' or 'skip')")

    @staticmethod
    def play(card: int, target: int = -1) -> Action:
        """``play CARD [@eTARGET]``: play the hand card at index ``card``."""
        return Action(PLAY, card=card, target=target)

    @staticmethod
    def choose(*indices: int) -> Action:
        """``choose I,J``: answer the open Choice with these candidate indices."""
        return Action(CHOOSE, choice=tuple(indices))

    @staticmethod
    def end() -> Action:
        """``end``: end the player turn."""
        return Action(END)


def _arg(name: str, want: str, got: object) -> ArgumentError:
    shown = repr(got)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return ArgumentError(f"Action: parameter {name!r} must be {want}, got {shown}")


def _index(name: str, v: object, required: bool) -> int:
    """An index field of an Action: an int >= 0, or -1 (none) unless ``required``."""
    if not isinstance(v, int) or isinstance(v, bool) or v < (0 if required else -1):
        raise _arg(name, "an int >= 0" if required else "an int >= 0, or -1 for none", v)
    return v


END_ACTION: Final = Action(END)
SKIP_ACTION: Final = Action(SKIP)


def legal_actions(e: Engine) -> list[Action]:
    """Every legal input now, sorted: plays (hand order, then target), End; or choice answers;
    or reward answers. Empty iff nothing can be input."""
    s = e.s
    if not s.active:
        return []
    if s.rewards is not None:
        return [Action(REWARD, reward=i) for i in range(len(s.rewards))] + [SKIP_ACTION]
    pause = s.pause
    if pause:  # (NO_PAUSE is 0)
        if pause != CHOICE:
            return []
        n = len(s.choice_ids)
        out = []
        for k in range(s.choice_min, s.choice_max + 1):
            for combo in combinations(range(n), k):
                out.append(Action(CHOOSE, choice=combo))
                if len(out) >= MAX_CHOICE_ACTIONS:
                    return out
        return out
    if input_refusal(e) is not None:
        return []
    # recomputed only when the battle changed: every facade call that changes hand, energy,
    # hooks or a pause runs the loop, and ``e.ticks`` counts those runs (the version counter)
    # ``e.legal_key`` is (ticks, hooks_possible, True) when ``e.legal`` was computed: a list is
    # cached only with the battle active and no reward offered (as here), so ``legal`` (and
    # whether a hook was possible) is current when no loop ran since (the ticks match)
    legal = e.legal
    if legal is not None and e.legal_key[0] == e.ticks:
        return legal.copy()
    out = []
    cards = s.cards
    energy = s.energy
    units = s.units
    hand = s.hand
    c = e.c
    # ``hooks_possible(e)``, asked only when one of its tests could hold: an active hook, a
    # hooked status held by the player, or content with card hooks (a hand card may have one)
    held = units[0].statuses
    hooked = c.hooked_statuses
    if s.hooks or c.card_hooks or (held and hooked and not hooked.isdisjoint(held)):
        hooks = hooks_possible(e)
    else:
        hooks = False
    single = TARGET_SINGLE_ENEMY
    checked = PLAY_CHECKED
    plain = PLAY_PLAIN
    plain_single = PLAY_PLAIN_SINGLE
    untargeted = _UNTARGETED
    targeted = _TARGETED
    # the enemy index (uid - 1) of each living enemy, the targets of a single-enemy card, and
    # ``lone``, the index of the only living enemy (-1: none or several): a single-enemy card
    # then has one play
    n = len(units)
    if n == 2 and units[1].alive:
        foes = _ONE_FOE  # (one enemy, alive: the usual case, without building the list)
        lone = 0
    else:
        foes = []
        for k in range(1, n):
            if units[k].alive:
                foes.append(k - 1)
        lone = foes[0] if len(foes) == 1 else -1
    # every play of this hand is in the import-time tables (the usual case), or none is read
    # from them (``_targeted`` then gives the table's own action where there is one)
    tabled = len(hand) <= _TABLE_CARDS and n <= _TABLE_TARGETS + 1
    for i, uid in enumerate(hand):
        inst = cards[uid]
        card = inst.active
        gate = card.play_gate  # (what the card's fields say about its checks, made at load)
        if hooks or gate == checked:
            if not playable_in_hand(e, inst, hooks):
                continue
            gate = plain_single if card.target is single else plain
        else:
            # ``playable_in_hand`` with no hook possible and a fixed cost, inlined (the hot
            # case): not Unplayable (the gate says both), and the modifiers alone
            # (``modified_cost``; with no ``set`` modifier it is the sum of the deltas),
            # floored at 0, within the energy (energy is never below 0, so a cost below 0 is
            # within it as its floor 0 is)
            if inst.battle_set is None and inst.turn_set is None:
                cost = card.cost + inst.cost_delta + inst.battle_delta + inst.turn_delta
            else:
                cost = modified_cost(inst)
            if cost > energy:
                continue
        if gate == plain_single:  # (a single-enemy card)
            if tabled:
                if lone >= 0:
                    out.append(targeted[i][lone])
                    continue
                row = targeted[i]
                for j in foes:
                    out.append(row[j])
            else:
                for j in foes:
                    out.append(_targeted(i, j))
        else:
            out.append(untargeted[i] if tabled else _targeted(i, -1))
    out.append(END_ACTION)
    e.legal = out
    e.legal_key = (e.ticks, hooks, True)  # (ticks, hooks_possible(e), True)
    return out.copy()  # the caller's own list: changing it leaves the cache alone


# Play actions are immutable values: each (hand index, target) is built once. The usual ones
# sit in tables made at import, indexed by hand index (and enemy index): tuples, which no
# thread can see half-grown; any other comes from a dict keyed by its own value.
_TABLE_CARDS: Final = 32
_TABLE_TARGETS: Final = 8
_UNTARGETED: Final[tuple[Action, ...]] = tuple(
    Action(PLAY, card=i, target=-1) for i in range(_TABLE_CARDS))
_TARGETED: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action(PLAY, card=i, target=j) for j in range(_TABLE_TARGETS)) for i in range(_TABLE_CARDS))
_OTHER_PLAYS: dict[tuple[int, int], Action] = {}
_ONE_FOE: Final[list[int]] = [0]  # (legal_actions' enemy indices with one enemy; only read)


def _targeted(card: int, target: int) -> Action:
    """``play CARD @eTARGET`` (``target`` -1: no target): the table's, else from the dict."""
    if card < _TABLE_CARDS and target < _TABLE_TARGETS:
        return _UNTARGETED[card] if target < 0 else _TARGETED[card][target]
    a = _OTHER_PLAYS.get((card, target))
    if a is None:
        a = _OTHER_PLAYS.setdefault((card, target), Action(PLAY, card=card, target=target))
    return a


def action_refusal(e: Engine, a: Action) -> str | None:
    """Why ``a`` is not legal now, or None: an answer to a Choice or a reward is checked against
    what is open; a play or End Turn against the refusal table (gcs/battle/refusals.py), once
    the action's hand index and target are an instance and a unit."""
    s = e.s
    if not s.active:
        return "no battle is active"
    if a.kind in (REWARD, SKIP):
        if s.rewards is None:
            return "no reward is offered"
        if a.kind == REWARD and not 0 <= a.reward < len(s.rewards):
            return f"reward index {a.reward} out of range"
        return None
    if s.rewards is not None:
        return "a reward is offered: answer with 'reward N' or 'skip'"
    if a.kind == CHOOSE:
        if s.pause != CHOICE:
            return "no Choice is open"
        n = len(s.choice_ids)
        if len(set(a.choice)) != len(a.choice) or any(not 0 <= i < n for i in a.choice):
            return f"choice indices must be distinct and in 0..{n - 1}"
        if not s.choice_min <= len(a.choice) <= s.choice_max:
            return f"choose between {s.choice_min} and {s.choice_max} candidates"
        if list(a.choice) != sorted(a.choice):
            return "choice indices must be in increasing order"
        return None
    if a.kind != PLAY and a.kind != END:
        return f"unknown action kind {a.kind!r}"
    why = input_refusal(e)
    if why is not None or a.kind == END:
        return why
    if not 0 <= a.card < len(s.hand):
        return f"hand index {a.card} out of range (hand has {len(s.hand)} cards)"
    inst = s.cards[s.hand[a.card]]
    if inst.active.target is TargetMode.SINGLE_ENEMY:
        if not 0 <= a.target < len(s.units) - 1:
            return f"{inst.active.name} needs an enemy target @eK"
        t = a.target + 1
    else:
        if a.target >= 0:
            return f"{inst.active.name} takes no target"
        t = -1
    why = card_refusal(e, inst)
    return target_refusal(e, inst, t) if why is None else why


def apply(e: Engine, a: Action) -> None:
    """Perform an action as the facade call would, then settle Waits and Gates at once."""
    s = e.s
    if e.busy:
        raise BusyError("the runtime is resolving an effect; apply actions after the handler")
    # one of the legal actions just computed for this very state needs no second validation
    # (``legal`` is the legal actions now if its key matches: see legal_actions; a cached list
    # was always computed with the battle active and no reward offered)
    legal = e.legal
    hooks: bool | None = None  # hooks_possible(e) when known (the legal actions computed it)
    if legal is not None and s.active and s.rewards is None:
        key = e.legal_key
        if key[0] == e.ticks:
            for x in legal:
                if x is a:
                    hooks = key[1]
                    break
    if hooks is None:
        why = action_refusal(e, a)
        if why is not None:
            raise IllegalActionError(f"illegal action {a}: {why}")
    kind = a.kind
    if kind == PLAY:
        # validated above exactly as try_play_card would; commit without re-validating
        target = a.target
        play_from_hand(e, s.cards[s.hand[a.card]], target + 1 if target >= 0 else -1, hooks)
    elif kind == END:
        waves.run_wave(e, push_turn_end(e))  # (validated: the turn can end now)
    elif kind == CHOOSE:
        waves.choose(e, list(a.choice))
    elif kind == REWARD:
        assert s.rewards is not None
        waves.take_reward(e, s.rewards[a.reward])
    else:
        waves.skip_reward(e)
    if s.pause and s.pause in (WAIT, GATE):  # (NO_PAUSE is 0)
        waves.settle(e)


WAITING: Final = {CHOICE: "choice", WAIT: "wait", GATE: "gate"}


def observation(e: Engine) -> dict[str, Any]:
    """What the player may see: never the draw order or RNG state."""
    s = e.s
    cards = s.cards
    hidden = e.c.hidden_statuses

    def unit(u: Unit) -> dict[str, Any]:
        d: dict[str, Any] = {"name": u.name, "hp": u.hp, "max_hp": u.max_hp, "block": u.block,
                             "alive": u.alive, "statuses": {k: n for k, n in u.statuses.items()
                                                            if k not in hidden}}
        if u.uid:
            d["intents"] = [{"move": i.move, "kind": i.kind.value, "damage": i.damage,
                             "hits": i.hits} for i in u.pending_intents]
        return d

    def card(uid: int) -> dict[str, Any]:
        inst = cards[uid]
        return {"card": inst.card_id, "upgraded": inst.upgraded}

    obs: dict[str, Any] = {
        "active": s.active, "phase": s.phase.value, "turn": s.turn, "energy": s.energy,
        "gold": s.gold, "run_hp": [s.hp, s.max_hp],
    }
    if not s.active:
        return obs
    obs["player"] = unit(s.units[0])
    obs["enemies"] = [unit(u) for u in s.units[1:]]
    obs["hand"] = [dict(card(uid), cost=effective_cost(e, cards[uid])) for uid in s.hand]
    obs["draw_count"] = len(s.draw)
    obs["draw_cards"] = sorted((cards[u].card_id, cards[u].upgraded) for u in s.draw)
    obs["discard"] = [card(u) for u in s.discard]
    obs["exhaust"] = [card(u) for u in s.exhaust]
    obs["played_this_turn"] = [card(u) for u in s.played]
    obs["waiting"] = WAITING.get(s.pause)
    if s.pause == CHOICE:
        objs: list[Any] = ([cards[i] for i in s.choice_ids] if s.choice_kind == "c"
                           else [s.units[i] for i in s.choice_ids])
        obs["choice"] = {"prompt": s.choice_prompt, "min": s.choice_min, "max": s.choice_max,
                         "candidates": [repr(o) for o in objs]}
    if s.rewards is not None:
        obs["rewards"] = [str(r) for r in s.rewards]
    return obs


def check_action(a: Any) -> Action:
    if isinstance(a, str):
        return Action.parse(a)
    if not isinstance(a, Action):
        raise GameError(f"expected an Action or its text, got {type(a).__name__}")
    return a

"""``gcs.Game``: the GCSApi facade. One run (master deck) plus at most one active battle."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from . import agent as _agent
from . import checks
from . import engine as _engine
from .battle import cards as C
from .battle import run as R
from .battle.hidden import redraw
from .battle.hooks import effective_cost
from .battle.refusals import battle_error, battle_instance, call_error, idle_error, play_guard
from .battle.state import CHOICE, NO_PAUSE, CardInstance, MasterEntry, Reward, State, Unit
from .content.db import Content
from .content.defs import EncounterDef, GameCard
from .enums import BattlePhase, DrawPilePosition, Pile, PileScope, TargetMode
from .errors import BusyError, GameError, RewardError
from .events import Event
from .guard import guard_class, unreadable
from .lazylog import defer, materialize, restart
from .rng import derive
from .rules import BattleRules
from .steps import waves
from .steps.play import play_from_hand

E = TypeVar("E", bound=Event)
DEFAULT_RULES = BattleRules()  # frozen: one instance serves every game built without rules


class PendingChoice:
    """The open Choice: prompt, candidates (cards or units), min and max picks."""

    __slots__ = ("candidates", "max", "min", "prompt")

    def __init__(self, prompt: str, candidates: list[Any], lo: int, hi: int) -> None:
        self.prompt = prompt
        self.candidates = candidates
        self.min = lo
        self.max = hi

    def __repr__(self) -> str:
        return f"PendingChoice({self.prompt!r}, {self.candidates}, min={self.min}, max={self.max})"


class Game:
    """One GCS runtime: a run plus at most one battle. Many games can live in one process."""

    def __init__(self, content: Content, *, seed: int | None = None,
                 rules: BattleRules | None = None, character: str | None = None,
                 log_events: bool = True, presenter: bool = True) -> None:
        checks.instance_of("Game", "content", content, Content, "a gcs.Content")
        if seed is not None:
            checks.integer("Game", "seed", seed, -(2**64), 2**64)
        if rules is not None:
            checks.instance_of("Game", "rules", rules, BattleRules, "a BattleRules")
        checks.text("Game", "character", character, optional=True)
        checks.boolean("Game", "log_events", log_events)
        checks.boolean("Game", "presenter", presenter)
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self.seed = seed
        self.content = content
        self.rules = rules if rules is not None else DEFAULT_RULES
        state = State(derive(seed, "run"))
        state.seed = seed
        self._e = _engine.Engine(content, state, self.rules, logging=log_events,
                                 presenter=presenter)
        self._char = R.begin_run(self._e, character)
        if log_events:
            defer(self._e, None)  # nothing is recorded until the log is read (gcs/lazylog.py)

    # ------------------------------------------------------------ internals
    # (when a call raises is decided by the refusal table, gcs/battle/refusals.py)
    def _begin(self) -> _engine.Engine:
        e = self._e
        err = call_error(e)
        if err is not None:
            raise err
        return e

    def _battle(self) -> _engine.Engine:
        e = self._e
        err = battle_error(e)
        if err is not None:
            raise err
        return e

    def _idle(self) -> _engine.Engine:
        e = self._e
        err = idle_error(e)
        if err is not None:
            raise err
        return e

    def _live(self) -> None:
        """Before a live card or unit object is handed out: end a deferred log (the caller may
        change the object, which no replay of the calls would repeat; see gcs/lazylog.py) and
        keep no status roles across calls (gcs/battle/roles.py)."""
        self._e.roles_open = True
        if self._e.deferred is not None:
            materialize(self)

    # ------------------------------------------------------------ state
    @property
    def phase(self) -> BattlePhase:
        """The current BattlePhase (NONE when no battle is active)."""
        return self._e.s.phase

    @property
    def phase_history(self) -> list[tuple[BattlePhase, int]]:
        """Every phase transition of the current (or last) battle, with its turn number."""
        return list(self._e.s.history)

    @property
    def turn_number(self) -> int:
        """TurnNumber: 1 from StartBattle step 5, incremented at the end of each EnemyPhase."""
        return self._e.s.turn

    @property
    def is_battle_active(self) -> bool:
        """True from Initialize through BattleWon/BattleLost; False once the battle closed."""
        return self._e.s.active

    @property
    def is_waiting_for_choice(self) -> bool:
        """True while a Choice is open (answer it with ``choose``)."""
        return self._e.s.pause == CHOICE

    @property
    def is_waiting(self) -> bool:
        """True while a Choice, Wait or Animation Gate holds the current effect wave."""
        return self._e.s.pause != NO_PAUSE

    @property
    def is_waiting_for_reward(self) -> bool:
        """True after BattleRewardOffered, until ``apply_reward`` or ``skip_reward``."""
        return self._e.s.rewards is not None

    @property
    def waiting_kind(self) -> str | None:
        """``"choice"``, ``"wait"``, ``"gate"`` or None."""
        return _agent.WAITING.get(self._e.s.pause)

    @property
    def energy(self) -> int:
        """The player's current energy."""
        return self._e.s.energy

    @property
    def player(self) -> Unit | None:
        """The player unit (unit id 0), or None before any battle."""
        self._live()
        u = self._e.s.units
        return u[0] if u else None

    @property
    def enemies(self) -> list[Unit]:
        """The enemy units in encounter order (unit ids 1..n), dead ones included; [] with no battle."""
        self._live()
        s = self._e.s
        return s.units[1:] if s.active else []

    @property
    def gold(self) -> int:
        """The run's gold."""
        return self._e.s.gold

    @property
    def reward_gold(self) -> int:
        """Gold this battle put into its rewards besides the reward table's (the
        ``reward_gold`` node: a Looter's loot); granted, with the table's gold, when a won
        battle offers its rewards (``gold`` then includes it); lost with the battle."""
        return self._e.s.loot

    @property
    def run_hp(self) -> tuple[int, int]:
        """The run's (HP, max HP), carried from battle to battle."""
        return self._e.s.hp, self._e.s.max_hp

    @property
    def last_result(self) -> bool | None:
        """True/False once a battle has ended (won/lost), else None."""
        return self._e.s.result

    @property
    def current_hand(self) -> list[CardInstance] | None:
        """The hand, or None outside a battle (seed 000: UIs should use ``hand()``)."""
        return self.hand() if self._e.s.active else None

    @property
    def pending_choice(self) -> PendingChoice | None:
        """The open Choice (prompt, candidates, min, max), or None."""
        s = self._e.s
        if s.pause != CHOICE:
            return None
        return PendingChoice(s.choice_prompt, self._objects(s.choice_kind, s.choice_ids),
                             s.choice_min, s.choice_max)

    @property
    def offered_rewards(self) -> list[Reward]:
        """The rewards offered now (empty unless ``is_waiting_for_reward``)."""
        r = self._e.s.rewards
        return [] if r is None else list(r)

    @property
    def clock(self) -> float:
        """The game clock in seconds (moved only by ``advance_time``)."""
        return self._e.s.clock

    @property
    def stats(self) -> dict[str, dict[str, int]]:
        """Plays, damage dealt to enemies and block the player gained per card id (or other
        credit label: docs/simulation.md) in the current (or last) battle."""
        s = self._e.s
        return {"plays": dict(s.plays), "damage": dict(s.damage), "block": dict(s.block_gained)}

    def _objects(self, kind: str, ids: list[int]) -> list[Any]:
        self._live()
        s = self._e.s
        if kind == "c":
            return [s.cards[i] for i in ids]
        return [s.units[i] for i in ids]

    # ------------------------------------------------------------ piles
    def _pile(self, ids: list[int]) -> list[CardInstance]:
        self._live()
        cards = self._e.s.cards
        return [cards[i] for i in ids]

    def hand(self) -> list[CardInstance]:
        """The hand, in order (a new list; empty outside a battle)."""
        return self._pile(self._e.s.hand)

    def draw_pile(self) -> list[CardInstance]:
        """The draw pile; its last element is the top, drawn next."""
        return self._pile(self._e.s.draw)

    def discard_pile(self) -> list[CardInstance]:
        """The discard pile, oldest first (a new list; empty outside a battle)."""
        return self._pile(self._e.s.discard)

    def exhaust_pile(self) -> list[CardInstance]:
        """The exhaust pile (a new list; empty outside a battle)."""
        return self._pile(self._e.s.exhaust)

    def played_this_turn(self) -> list[CardInstance]:
        """Cards played successfully this turn, in play order (nested plays included)."""
        return self._pile(self._e.s.played)

    def drawn_this_turn(self) -> list[CardInstance]:
        """Cards drawn this turn, in draw order."""
        return self._pile(self._e.s.drawn)

    def pile(self, scope: PileScope) -> list[CardInstance]:
        """Read a pile; MASTER gives temporary instances of the master deck, ALL the 4 piles."""
        if not isinstance(scope, PileScope):
            raise GameError(f"pile() needs a PileScope, got {scope!r}")
        s = self._e.s
        if scope is PileScope.MASTER:
            return [CardInstance(-1 - i, self.content.card(m.card_id), m.upgraded, m.cost_delta,
                                 m.uid) for i, m in enumerate(s.master)]
        if scope is PileScope.ALL:
            return self._pile(s.hand + s.draw + s.discard + s.exhaust)
        return self._pile(s.pile_list(Pile[scope.name]))

    # ------------------------------------------------------------ battle
    def start_battle(self, encounter: str | EncounterDef | None) -> None:
        """Run StartBattle steps 1-7; returns in the first PlayerPhase (or paused)."""
        e = self._begin()
        if encounter is None:
            raise GameError("start_battle(None): no encounter given, no battle started")
        checks.instance_of("start_battle", "encounter", encounter, (str, EncounterDef),
                           "an encounter id or an EncounterDef")
        enc = (encounter if isinstance(encounter, EncounterDef)
               else self.content.encounter(encounter))
        for eid in enc.enemy_ids():
            self.content.enemy(eid)
        waves.start_battle(e, enc, self._char, self.seed)  # (refused first: ``start_error``)

    def can_play_card(self, card: CardInstance) -> bool:
        """Could this card be played now (the target is chosen after)? False for every state
        reason (docs/rules/refusals.md); a non-instance or another game's instance raises."""
        return play_guard(self._e, card, None, any_target=True)[2] is None

    def play_refusal(self, card: CardInstance, target: Any = None) -> str | None:
        """Why ``try_play_card(card, target)`` would return False now, or None."""
        return play_guard(self._e, card, target)[2]

    def requires_target(self, card: GameCard | CardInstance) -> bool:
        """True when the card needs a single-enemy target picker."""
        if not isinstance(card, (GameCard, CardInstance)):
            raise GameError(f"requires_target needs a GameCard or CardInstance, got {card!r}")
        c = card.active if isinstance(card, CardInstance) else card
        return c.target is TargetMode.SINGLE_ENEMY

    def try_play_card(self, card: CardInstance, target: Any = None) -> bool:
        """Validate everything, then play; False (and no change) if the play is refused."""
        e = self._e
        inst, t, why = play_guard(e, card, target)
        if why is not None:
            return False
        play_from_hand(e, inst, t)
        return True

    def end_player_turn(self) -> bool:
        """Run EndPlayerTurn steps 1-6 and the enemy phase; False (no change) if not allowed now."""
        return waves.end_turn(self._e)

    def choose(self, selection: Sequence[Any] | Any) -> None:
        """Answer the open Choice with candidates (or their indices); wrong answers raise."""
        waves.choose(self._battle(), selection)

    def advance_time(self, seconds: float) -> bool:
        """Advance the game clock; a finished Wait resumes its wave. True if one resumed."""
        e = self._begin()
        return waves.advance_time(e, checks.seconds("advance_time", "seconds", seconds))

    def complete_animation(self, gate: str | None = None) -> bool:
        """Open the pending Animation Gate (any, or the one named); True if one opened."""
        e = self._begin()
        checks.text("complete_animation", "gate", gate, optional=True)
        return waves.complete_animation(e, gate)

    def settle(self) -> None:
        """Finish every pending Wait and Animation Gate at once (the headless clock)."""
        waves.settle(self._begin())

    def apply_reward(self, reward: Reward | int) -> None:
        """Take one offered reward (or its index); publishes the final BattleEnded."""
        e = self._battle()
        s = e.s
        if s.rewards is None:
            raise RewardError("no reward is offered")
        if isinstance(reward, int) and not isinstance(reward, bool):
            if not 0 <= reward < len(s.rewards):
                raise RewardError(f"reward index {reward} out of range")
            reward = s.rewards[reward]
        if reward not in s.rewards:
            raise RewardError(f"{reward} was not offered")
        waves.take_reward(e, reward)

    def skip_reward(self) -> None:
        """Take no reward; publishes the final BattleEnded (reward None), then the battle closes."""
        e = self._battle()
        if e.s.rewards is None:
            raise RewardError("no reward is offered")
        waves.skip_reward(e)

    # ------------------------------------------------------------ cards
    def get_active_card(self, instance: CardInstance) -> GameCard:
        """The upgraded variant if the instance is upgraded, else its base card."""
        if not isinstance(instance, CardInstance):
            raise GameError(f"expected a CardInstance, got {type(instance).__name__}")
        return instance.active

    def get_effective_energy_cost(self, instance: CardInstance) -> int:
        """Definition cost, master-deck delta, temporary modifiers, cost hooks (>= 0)."""
        if not isinstance(instance, CardInstance):
            raise GameError(f"expected a CardInstance, got {type(instance).__name__}")
        if self._e.s.cards.get(instance.uid) is not instance:
            checks.own_card("get_effective_energy_cost", "instance", self.content, instance.base)
            return max(0, instance.active.cost + instance.cost_delta)  # not in this battle
        return effective_cost(self._e, instance)

    def format_description(self, card: GameCard | CardInstance,
                           instance: CardInstance | None = None) -> str:
        """The card-face text with the active card's numbers filled in."""
        from .battle.describe import describe

        checks.instance_of("format_description", "card", card, (GameCard, CardInstance),
                           "a GameCard or a CardInstance")
        if instance is not None:
            checks.instance_of("format_description", "instance", instance,
                               CardInstance, "a CardInstance or None")
        return describe(self._e, card, instance)

    def _card_def(self, card: GameCard | str, call: str = "add_card") -> GameCard:
        return checks.own_card(call, "card", self.content, card)

    def draw_cards(self, count: int) -> int:
        """Draw up to ``count`` cards (stops at a full hand); returns how many were drawn."""
        e = self._idle()
        checks.integer("draw_cards", "count", count, 0, checks.MAX_COUNT)
        before = len(e.s.drawn)
        return waves.run_busy(e, lambda: C.push_draw(e, count, automatic=False),
                              lambda: len(e.s.drawn) - before)  # (before a requested turn end)

    def add_card_to_hand(self, card: GameCard | str, upgraded: bool = False) -> CardInstance:
        """Create an instance in hand (a full hand sends it to Discard with the lifecycle)."""
        return self.add_card_to_pile(card, PileScope.HAND, upgraded=upgraded)

    def add_card_to_pile(self, card: GameCard | str, pile: PileScope,
                         position: DrawPilePosition = DrawPilePosition.RANDOM,
                         upgraded: bool = False) -> CardInstance:
        """Create an instance directly in a pile: placement, not a discard/exhaust lifecycle."""
        e = self._idle()
        d = self._card_def(card, "add_card_to_pile")
        checks.pile_and_position(pile, position)
        checks.boolean("add_card_to_pile", "upgraded", upgraded)
        if pile in (PileScope.MASTER, PileScope.ALL):
            raise GameError(
                f"cannot create a battle card in {pile.name}; use add_card_to_master_deck")
        made: list[CardInstance] = []
        waves.run_busy(e, lambda: made.append(C.create(e, d, pile, position, bool(upgraded))))
        return made[0]

    def move_card_to_pile(self, instance: CardInstance, pile: PileScope,
                          position: DrawPilePosition = DrawPilePosition.TOP) -> None:
        """Move with the full lifecycle; to its own pile is a no-op; MASTER/ALL remove it."""
        e = self._idle()
        inst = battle_instance(e, instance)
        checks.pile_and_position(pile, position)
        waves.run_busy(e, lambda: C.move(e, inst, pile, position))

    def shuffle_draw_pile(self) -> None:
        """Shuffle the draw pile (seeded); publishes DrawPileShuffled."""
        e = self._idle()
        C.shuffle_draw(e)

    # ------------------------------------------------------------ master deck
    def get_master_deck(self) -> list[MasterEntry]:
        """The run master deck, in order (a new list of MasterEntry)."""
        return list(self._e.s.master)

    def set_master_deck(self, entries: Iterable[MasterEntry | str | tuple[str, bool]]) -> None:
        """Replace the run master deck (MasterEntry, card id or (card id, upgraded) each)."""
        e = self._begin()
        R.set_entries(e, checks.entries("set_master_deck", "entries", entries))

    def add_card_to_master_deck(self, card: GameCard | str,
                                is_upgraded: bool = False) -> MasterEntry:
        """Add a card to the run master deck; publishes CardAddedToDeck; returns the entry."""
        e = self._begin()
        d = self._card_def(card, "add_card_to_master_deck")
        checks.boolean("add_card_to_master_deck", "is_upgraded", is_upgraded)
        return R.add_entry(e, d.id, is_upgraded)

    def remove_card_from_master_deck(self, card_id: str, remove_first_only: bool = True) -> int:
        """Remove the first (or every) entry of ``card_id``; returns how many were removed."""
        e = self._begin()
        checks.text("remove_card_from_master_deck", "card_id", card_id)
        checks.boolean("remove_card_from_master_deck", "remove_first_only", remove_first_only)
        return R.remove_entries(e, card_id, remove_first_only)

    def upgrade_card_in_master_deck(self, card_id: str) -> bool:
        """Upgrade the first not-upgraded entry of ``card_id``; True if one was upgraded."""
        e = self._begin()
        checks.text("upgrade_card_in_master_deck", "card_id", card_id)
        return R.upgrade_entry(e, card_id)

    def clear_master_deck(self) -> None:
        """Empty the run master deck (before a new run); a live battle is unchanged."""
        self._begin().s.master = []

    # ------------------------------------------------------------ events
    def subscribe(self, event_class: type[E], handler: Callable[[E], None]) -> Callable[[], None]:
        """Call ``handler`` for each ``event_class`` (``Event``: all); returns unsubscribe."""
        e = self._e
        checks.event_class("subscribe", "event_class", event_class)
        checks.handler("subscribe", "handler", handler)
        materialize(self)  # (a deferred log is rebuilt: handlers see events as they happen)
        e.subs.setdefault(event_class, []).append(handler)
        e.refresh_hot()

        def unsubscribe() -> None:
            hs = e.subs.get(event_class, [])
            if handler in hs:
                hs.remove(handler)
            e.refresh_hot()

        return unsubscribe

    @property
    def event_log(self) -> list[Event]:
        """Every event published so far, in order (a new list; empty with ``log_events=False``)."""
        materialize(self)  # (a deferred log is rebuilt here, once)
        return list(self._e.events())

    def clear_event_log(self) -> None:
        """Forget the events logged so far (subscribers are not affected)."""
        e = self._e
        if e.deferred is not None:
            restart(e)  # (the deferred log is empty: its replay starts from now)
        else:
            e.own_log().clear()

    # ------------------------------------------------------------ agent surface
    def legal_actions(self) -> list[_agent.Action]:
        """Every legal input now, sorted and deterministic (see gcs.agent)."""
        try:  # (``read_guarded``, written out: an agent loop reads this at every decision)
            return _agent.legal_actions(self._e)
        except GameError:
            raise
        except Exception as exc:
            raise unreadable("legal_actions", exc) from exc

    def apply(self, action: _agent.Action | str) -> None:
        """Perform a legal action, then settle Waits/Gates; IllegalActionError changes nothing."""
        # an Action as such needs no conversion (check_action returns it unchanged)
        _agent.apply(self._e, action if type(action) is _agent.Action
                     else _agent.check_action(action))

    def observation(self) -> dict[str, Any]:
        """What the player may see (no draw order, no RNG state)."""
        return _agent.observation(self._e)

    # ------------------------------------------------------------ copies and saves
    def clone(self) -> Game:
        """An independent copy (no subscribers), equal to this game; works while paused."""
        if self._e.busy:
            raise BusyError("clone() inside an event handler: the wave is mid-step; clone after "
                            "the call that runs it returns")
        try:  # (``read_guarded``, written out: a search clones at every node)
            return self._copy(log=True)
        except GameError:
            raise
        except Exception as exc:
            raise unreadable("clone", exc) from exc

    def determinize(self, seed: int) -> Game:
        """A copy in which everything the player cannot know is drawn afresh from ``seed``
        (docs/rules.md, Hidden information): equal for games that differ only in hidden
        information; no subscribers, no event log; works while paused or offering rewards."""
        if type(seed) is not int or not -(2**64) <= seed <= 2**64:  # (the usual call: no check call)
            checks.integer("determinize", "seed", seed, -(2**64), 2**64)
        if self._e.busy:
            raise BusyError("determinize() inside an event handler: the wave is mid-step; call "
                            "it after the call that runs it returns")
        g = self._copy(log=False, streams=False)  # (redraw replaces every stream)
        g.seed = redraw(self.content, g._e.s, seed)
        return g

    def _copy(self, *, log: bool, streams: bool = True) -> Game:
        """A copy of the run and battle, no subscribers; with ``log`` it shares the event log
        (copy-on-write), without it the copy logs nothing (the monitor's snapshots). Without
        ``streams`` the copy shares this game's random streams: the caller replaces them all
        before anything draws (``determinize``). No busy check: callers decide when a copy is
        consistent."""
        g = Game.__new__(Game)
        g.seed = self.seed
        g.content = self.content
        g.rules = self.rules
        g._char = self._char
        g._e = self._e.copy(log, streams)  # a shared log is copied by whichever side logs next
        return g

    def to_json(self) -> dict[str, Any]:
        """A complete save (run, battle, paused effects) as JSON-compatible data."""
        from .battle.save import dump

        e = self._e
        if e.busy:
            raise BusyError("to_json() inside an event handler: the wave is mid-step; save "
                            "after the call that runs it returns")
        return dump(self.content, self.seed, self.rules, e.logging, e.presenter, e.s)

    @classmethod
    def from_json(cls, content: Content, data: dict[str, Any], *,
                  allow_other_content: bool = False) -> Game:
        """Load a save; every field is checked and a bad save raises SaveError naming its JSON
        path. A save of another content digest is refused unless ``allow_other_content``."""
        from .battle.save import load

        checks.instance_of("from_json", "content", content, Content, "a gcs.Content")
        checks.boolean("from_json", "allow_other_content", allow_other_content)
        d = load(content, data, allow_other_content=allow_other_content)
        g = cls.__new__(cls)
        g.seed = d.seed
        g.content = content
        g.rules = d.rules
        g._char = content.characters.get(d.state.character)
        g._e = _engine.Engine(content, d.state, d.rules, logging=d.logging,
                              presenter=d.presenter)
        if g._e.logging:
            defer(g._e, g._e.s.clone())  # (the calls from now on run from the loaded state)
        return g

    # pickle and copy (docs/api.md, Copies and saves): a pickle is the save (``to_json``) plus
    # the content (gcs/content/pickled.py); ``copy``/``deepcopy`` are ``clone``. Neither keeps
    # subscribers, as a clone keeps none.
    def __reduce__(self) -> tuple[Any, tuple[Content, dict[str, Any]]]:
        return _unpickle, (self.content, self.to_json())

    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        s = self._e.s
        if not s.active:
            return f"<Game seed={self.seed} no battle, deck={len(s.master)}>"
        p = s.units[0]
        foes = ", ".join(f"{u.name} {u.hp}" for u in s.units[1:] if u.alive)
        return (f"<Game {s.phase.name} turn {s.turn} hp {p.hp} energy {s.energy} "
                f"hand {len(s.hand)} draw {len(s.draw)} discard {len(s.discard)} | {foes}>")



def _unpickle(content: Content, data: dict[str, Any]) -> Game:
    """A pickled game: its save loaded on its content."""
    return Game.from_json(content, data)


# every public call: handler failures raised after the wave, rollback on errors, and no
# internal exception type out of any of them
guard_class(Game, inline=("clone", "legal_actions"), plain=(
    # properties that read the state's own fields, which no caller holds: none can raise
    "phase", "turn_number", "is_battle_active", "is_waiting_for_choice", "is_waiting",
    "is_waiting_for_reward", "waiting_kind", "energy", "gold", "reward_gold", "run_hp",
    "last_result", "clock",
    "offered_rewards", "phase_history", "stats"))

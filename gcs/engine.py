"""The engine: state + content + event bus + the one worklist loop that runs every frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .battle.roles import forget_roles
from .battle.state import NO_PAUSE, Ctx, Frame, State, Unit
from .content.db import Content
from .errors import StepLimitError
from .events import Event
from .rules import BattleRules

Handler = Callable[["Engine", Frame], None]
LOG_CAP = 10_000  # events kept in event_log; past it the oldest half is dropped (a ring)
HANDLERS: dict[int, Handler] = {}


def _ignore(ev: Event) -> None:
    """``Engine.record`` when nobody keeps events."""


class Engine:
    """Internals behind ``gcs.Game``: every rule module operates on one of these."""

    __slots__ = ("s", "c", "rules", "step_limit", "max_hand_size", "draw_per_turn",
                 "energy_per_turn", "subs", "log", "_logging", "hot", "record",
                 "presenter", "busy", "ticks", "legal", "legal_key", "failure", "depth", "log_cap",
                 "log_shared", "ckpt", "journal", "watchers", "deferred", "deferred_n", "defer_base",
                 "stepwise", "roles_unit", "roles", "roles_player", "roles_p",
                 "roles_open")

    def __init__(self, content: Content, state: State, rules: BattleRules, *,
                 logging: bool = True, presenter: bool = True) -> None:
        self.s = state
        self.c = content
        self.rules = rules
        # the rules' numbers read on every turn, as fields here (rules is interpreted)
        self.step_limit = rules.step_limit
        self.max_hand_size = rules.max_hand_size
        self.draw_per_turn = rules.draw_per_turn
        self.energy_per_turn = rules.energy_per_turn
        self.subs: dict[type[Event], list[Callable[[Any], None]]] = {}
        self.log: list[Event] = []
        self._logging = logging
        self.presenter = presenter
        self.busy = False
        # the runner's frame-by-frame mode (gcs/steps/runner.py): every step through the loop
        self.stepwise = False
        # the status roles kept (gcs/battle/roles.py): the enemy's asked last, the player's;
        # ``roles_open``: a live unit was handed out (its holder may change it by hand)
        self.roles_unit: Unit | None = None
        self.roles = 0
        self.roles_player: Unit | None = None
        self.roles_p = 0
        self.roles_open = False
        # ``ticks`` counts loop runs (every facade call that changes a battle runs the loop);
        # ``legal`` caches the last legal actions, valid while ``legal_key`` matches.
        self.ticks = 0
        self.legal: list[Any] | None = None
        self.legal_key: tuple[int, bool, bool] = (-1, False, False)
        # the first handler that raised in the current call: (handler, event, exception)
        self.failure: tuple[Any, Event, Exception] | None = None
        self.depth = 0  # guarded facade calls in progress (gcs/guard.py)
        # the call guard's (gcs/guard.py): the state checkpoint, the calls made since it, and the
        # observers told after each outermost call
        self.ckpt: State | None = None
        self.journal: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self.watchers: list[Callable[[], None]] = []
        self.log_cap = LOG_CAP
        self.log_shared = False  # ``log`` is shared with a clone: copy it before changing it
        # the deferred log (gcs/lazylog.py): while ``deferred`` is not None, nothing is recorded
        # and the log stays empty; it holds the ``deferred_n`` outermost changing calls made
        # since ``defer_base`` (the state they ran from; None: the game as constructed) as a
        # chain, ``(earlier chain, call)`` or ``()``, which a clone shares, and whose replay
        # rebuilds the log when someone first reads it
        self.deferred: tuple[Any, ...] | None = None
        self.deferred_n = 0
        self.defer_base: State | None = None
        # ``record(ev)`` publishes an event (the primitives build it only ``if e.hot``: someone
        # listens or keeps the log). What it is follows the listeners (``refresh_hot``): with
        # no subscriber, the log's own ``append`` (the ring is cut at the end of the loop and of
        # the call, ``trim_log``); with one, ``emit``.
        self.hot = logging
        # (what refresh_hot picks for a new engine: no subscriber, a log of its own)
        self.record: Callable[[Event], None] = self.log.append if logging else _ignore

    # ------------------------------------------------------------ events
    def emit(self, ev: Event) -> None:
        """Publish an event (callers guard with ``if e.hot`` so idle publishing costs nothing)."""
        if self._logging:
            # (the ring is cut where the record path cuts it, at the end of the loop and of
            # the call, ``trim_log``: never here, so which events are kept does not depend on
            # whether anyone subscribes)
            self.own_log().append(ev)
        subs = self.subs
        if subs:
            hs = subs.get(type(ev))
            ha = subs.get(Event)
            if hs or ha:
                self.deliver(ev, tuple(hs or ()) + tuple(ha or ()))

    def own_log(self) -> list[Event]:
        """The event log, copied first if a clone shares it (so clone() is O(1))."""
        if self.log_shared:
            self.log = self.log.copy()
            self.log_shared = False
            self.refresh_hot()
        return self.log

    def deliver(self, ev: Event, handlers: tuple[Callable[[Any], None], ...]) -> None:
        """Call the handlers under the busy guard; the first one that raises is recorded (the
        others and the wave still run) and the facade call raises it as HandlerError."""
        was = self.busy
        self.busy = True
        forget_roles(self)  # (a handler may change a live unit's statuses by hand)
        try:
            for h in handlers:
                try:
                    h(ev)
                except Exception as exc:
                    if self.failure is None:
                        self.failure = (h, ev, exc)
        finally:
            self.busy = was

    def _unshare_record(self, ev: Event) -> None:
        """``record`` while a clone shares the log: copy it first (``own_log`` rebinds
        ``record`` to the copy's ``append``)."""
        self.own_log().append(ev)

    def trim_log(self) -> None:
        """Past ``log_cap`` events, drop the oldest, keeping the newest half (a ring)."""
        if len(self.log) > self.log_cap:
            log = self.own_log()
            del log[: len(log) - self.log_cap // 2]

    def events(self) -> list[Event]:
        """The event log."""
        return self.log

    @property
    def logging(self) -> bool:
        """Whether the event log keeps events."""
        return self._logging

    @logging.setter
    def logging(self, on: bool) -> None:
        self._logging = on
        self.refresh_hot()

    def refresh_hot(self) -> None:
        """After a change of subscribers, of logging or of the log's sharing: ``hot`` (anyone
        listening) and what ``record`` is."""
        self.hot = (self._logging and self.deferred is None) or any(self.subs.values())
        if self.subs:
            self.record = self.emit
        elif not self._logging or self.deferred is not None:
            self.record = _ignore  # (callers check ``hot`` first: a record nobody keeps)
        elif self.log_shared:
            self.record = self._unshare_record
        else:
            self.record = self.log.append

    # ------------------------------------------------------------ frames
    def run(self) -> None:
        """Run frames until the stack is empty or a Choice, Wait or Gate pauses the wave."""
        self.ticks += 1
        if self.roles_open:  # (a caller may have changed a live unit's statuses by hand)
            forget_roles(self)
        self.loop()

    def loop(self) -> None:
        """``run`` without counting a run: what a caller that ran the top frame itself goes on
        with (gcs/steps/runner.py ``start``)."""
        s = self.s
        stack = s.stack
        handlers = HANDLERS
        limit = self.step_limit
        while stack and s.pause == NO_PAUSE:
            f = stack[-1]
            handlers[f.kind](self, f)
            s.steps += 1
            if s.steps > limit:
                raise StepLimitError(
                    f"battle exceeded {limit} engine steps without ending "
                    f"(turn {s.turn}, phase {s.phase.name}); a behaviour probably loops"
                )
        if len(self.log) > self.log_cap:
            self.trim_log()

    def push(self, kind: int, pc: int, data: Any, ctx: Ctx | None = None) -> Frame:
        """A new frame of a procedure or a draw (no node) on top of the stack."""
        f = Frame(kind, None, pc, data, ctx)
        self.s.stack.append(f)
        return f

    def pop(self) -> None:
        """The top frame is done: popped. The last one is cleared instead, because CPython
        gives a list that ``pop`` empties a zero-size block of the C allocator, and then grows
        it there (``realloc``) at the next push; ``clear`` frees the list's block, so the next
        push takes a small one from Python's own allocator, which costs a fraction of that.
        Used where a procedure's or a draw's frame ends (it may be the last); the frames always
        pushed above another one (a behaviour entry, an enemy's turn) are popped directly."""
        stack = self.s.stack
        if len(stack) > 1:
            stack.pop()
        else:
            stack.clear()

    def count(self) -> None:
        """One engine step the loop would count here (a handler call the runner saves it),
        with the loop's step guard."""
        s = self.s
        s.steps += 1
        if s.steps > self.step_limit:
            raise StepLimitError(
                f"battle exceeded {self.step_limit} engine steps without ending "
                f"(turn {s.turn}, phase {s.phase.name}); a behaviour probably loops"
            )

    def charge(self, n: int, what: str) -> None:
        """Count ``n`` units of work done inside one step against the step guard (before
        doing it), so no single action can run unbounded: ``what`` names the behaviour."""
        s = self.s
        if n > 0:
            s.steps += n
            limit = self.step_limit
            if s.steps > limit:
                s.steps = limit + 1
                raise StepLimitError(
                    f"{what} asked for {n} units of work in one step; the battle's step guard "
                    f"({limit} engine steps) stopped it")

    def copy(self, log: bool, streams: bool = True) -> Engine:
        """An engine on a clone of the state, no subscribers; with ``log`` it shares the event
        log (copy-on-write: whichever side logs next copies it first), without it the copy
        logs nothing. Without ``streams`` the copy shares the random streams (``State.clone``):
        its caller replaces them."""
        n = Engine(self.c, self.s.clone(streams), self.rules, logging=self.logging and log,
                   presenter=self.presenter)
        n.log_cap = self.log_cap
        if log:
            deferred = self.deferred
            if deferred is not None:  # (the copy's replay is the calls so far, then its own)
                n.deferred = deferred  # (shared: a chain is never changed, only extended)
                n.deferred_n = self.deferred_n
                n.defer_base = self.defer_base  # (never changed: a replay runs on a clone of it)
            else:
                n.log = self.log
                n.log_shared = self.log_shared = True
                self.refresh_hot()
            n.refresh_hot()
        return n

    # ------------------------------------------------------------ units
    @property
    def player(self) -> Unit:
        return self.s.units[0]

    def unit(self, uid: int) -> Unit:
        return self.s.units[uid]


def _register() -> None:
    """The one place that says which handler runs each frame kind (the runner for the seed
    procedures, with their step tables; the interpreter for behaviour frames) and which
    executor runs each node kind."""
    from .battle import cards, hooks, intents
    from .battle import frames as K
    from .interp import card_actions, pause, run, unit_actions, values
    from .steps import runner
    from .steps.battle_end import BATTLE_LOST, BATTLE_WON
    from .steps.enemy_phase import ENEMY_PHASE, ENEMY_TURN
    from .steps.play import PLAY
    from .steps.start import START_BATTLE
    from .steps.turn_end import END_PLAYER_TURN, step_hand_end
    from .steps.turn_start import PLAYER_TURN_START

    for proc in (START_BATTLE, PLAYER_TURN_START, END_PLAYER_TURN, ENEMY_PHASE, ENEMY_TURN, PLAY,
                 BATTLE_WON, BATTLE_LOST):
        runner.PROCEDURES[proc.kind] = proc
        HANDLERS[proc.kind] = runner.run
    HANDLERS.update({
        K.ENTRY: run.step_entry,
        K.NODE: run.step_node,
        K.CHOICE: run.step_choice,
        K.EACH: card_actions.step_each,
        K.DAMAGE: unit_actions.step_damage,
        K.DRAW: cards.step_draw,
        K.HAND_END: step_hand_end,
    })
    for table in (run.CONTROL, pause.PAUSING, card_actions.CARD_ACTIONS, unit_actions.UNIT_ACTIONS):
        run.EXEC.update(table)
    run.STEP.update(run.COMPOSITES)
    intents.COND_TEST[:] = [values.test]
    intents.VALUE_OF[:] = [values.val]
    hooks.TESTS[:] = [values.test]
    hooks.VALUES[:] = [values.val]


_register()

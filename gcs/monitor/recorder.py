"""The monitor's view of a game, taken only on the game's own thread: its events and *moments*.

``Recorder`` subscribes to every event of a game and keeps its payload. A *moment* is a point
the page can travel to, with a frozen copy of the game as it was there:

- the end of each outermost public ``Game`` call (the call guard's end-of-call notification,
  ``watch_calls``; in play mode the session calls ``mark`` after each action instead), so a
  card's effect wave is never shown half-run;
- inside a call, the end of a phase the game runs on its own: when End Turn leaves
  PLAYER_TURN_END (the hand discarded, the turn-end effects done) and when it leaves
  ENEMY_PHASE (every enemy has acted), so End Turn is three steps, not one.

Each event belongs to the moment that ends after it. The final board of each battle (taken
when ``BattleEnded`` is published, before the battle closes its piles) is kept, so a moment
after a battle still shows how it ended. Memory is bounded: events and moments are rings
(``limit``), the copies of the newest ``recent`` moments are all kept and older ones are
thinned to one call moment in ``THIN``, at most ``old`` of them. Standard library only.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..battle.state import CardInstance
from ..enums import BattlePhase
from ..events import BattleEnded, CardPlayed, ChoiceMade, Event, PhaseChanged, RewardApplied
from ..game import Game
from ..guard import watch_calls
from .snapshot import event_data, frozen_copy

#: Phases whose end is a moment of its own inside a call (the game acted on its own in them).
STOP_AFTER = frozenset({BattlePhase.PLAYER_TURN_END, BattlePhase.ENEMY_PHASE})
THIN = 20  # past the ``recent`` moments, one call moment in THIN keeps its copy


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One published event: its number, type, payload, turn, battle, and its moment."""

    seq: int
    type: str
    data: dict[str, Any]
    turn: int
    phase: str
    battle: int
    moment: int  # the moment that ends after it; -1: published before the monitor attached

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "data": self.data, "turn": self.turn,
                "phase": self.phase, "battle": self.battle, "m": self.moment}


@dataclass(frozen=True, slots=True)
class Moment:
    """A point the page can travel to: the events ``first..last`` (inclusive) led to it."""

    id: int
    first: int
    last: int
    label: str
    kind: str  # "call": between public calls; "phase": inside one, at the end of a phase
    turn: int
    battle: int
    phase: str
    step: int  # play mode: the session steps done at this moment (-1: not a session step)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "first": self.first, "last": self.last, "label": self.label,
                "kind": self.kind, "turn": self.turn, "battle": self.battle,
                "phase": self.phase, "step": self.step}


def _label(events: list[EventRecord]) -> str:
    """A watched call's moment, named after what it did (the page shows it on the slider)."""
    for r in events:
        if r.type == CardPlayed.__name__:
            return f"play {r.data.get('card_id')}"
        if r.type == PhaseChanged.__name__ and r.data.get("new") == "PLAYER_TURN_END":
            return "end turn"
        if r.type == "BattleStarted":
            return f"start {r.data.get('encounter')}"
        if r.type in (ChoiceMade.__name__, RewardApplied.__name__):
            return r.type
    return events[0].type if events else "call"


def _tail(ring: deque[Any], n: int) -> list[Any]:
    """The last ``n`` items of ``ring`` in order (walking from the end: a push reads few)."""
    out = list(itertools.islice(reversed(ring), max(0, n)))
    out.reverse()
    return out


class Recorder:
    """Events, moments with the copies of the game there, and the latest copy (``live``)."""

    def __init__(self, game: Game, on_change: Callable[[], None], *, limit: int = 20_000,
                 recent: int = 3_000, old: int = 1_000, auto: bool = True,
                 prefix: Recorder | None = None, upto: int | None = None) -> None:
        self.game = game
        self.on_change = on_change
        self.auto = auto
        self.lock = threading.Lock()
        self.events: deque[EventRecord] = deque(maxlen=limit)
        self.moments: deque[Moment] = deque(maxlen=limit)
        self.copies: dict[int, Game] = {}  # moment id -> the game there (never changed)
        self.boards: dict[int, Game] = {}  # battle number -> its final board
        self.recent, self.old = recent, old
        self._old: deque[int] = deque()  # the thinned copies kept past ``recent``, oldest first
        self.next_seq = 0
        self._open: list[EventRecord] = []  # the events of the moment not yet ended
        self._call: list[EventRecord] = []  # the events of the call not yet ended (its label)
        self._prev_cards: dict[int, CardInstance] = {}
        self._due = False  # events were published inside a call: a moment when it ends
        if prefix is not None and upto is not None:
            self._inherit(prefix, upto)
        else:
            # events published before the monitor was attached: payloads only (no moment)
            for ev in game.event_log[-limit:]:
                self._append(ev, -1)
            self._moment("attached", "call", -1)
        self._unsubscribe = game.subscribe(Event, self._on_event)
        self._unwatch = watch_calls(game, self._call_ended) if auto else (lambda: None)

    def _inherit(self, prefix: Recorder, upto: int) -> None:
        """Start as a fork of ``prefix``: its events, moments and copies up to moment ``upto``."""
        with prefix.lock:
            moments = [m for m in prefix.moments if m.id <= upto]
            last = moments[-1].last if moments else -1
            self.events.extend(r for r in prefix.events if r.seq <= last)
            self.moments.extend(moments)
            self.copies = {k: v for k, v in prefix.copies.items() if k <= upto}
            self.boards = dict(prefix.boards)
            self._old = deque(k for k in prefix._old if k <= upto)
        self.next_seq = last + 1
        self._prev_cards = dict(self.copies[upto]._e.s.cards) if upto in self.copies else {}

    def close(self) -> None:
        """Stop listening (the game keeps no trace of the monitor)."""
        self._unsubscribe()
        self._unwatch()
        self._due = False

    # ------------------------------------------------------------ the game's thread
    @property
    def version(self) -> int:
        """Moments ended so far (the live copy's number): the page redraws when it changes."""
        return self.moments[-1].id + 1 if self.moments else 0

    @property
    def live(self) -> Game:
        """The latest moment's copy."""
        return self.copies[self.moments[-1].id]

    def _append(self, ev: Event, moment: int) -> EventRecord:
        g = self.game
        s = g._e.s
        rec = EventRecord(self.next_seq, type(ev).__name__, event_data(ev), s.turn, s.phase.name,
                          s.battles, moment)
        with self.lock:
            self.events.append(rec)
            self.next_seq += 1
        return rec

    def _on_event(self, ev: Event) -> None:
        rec = self._append(ev, self.version)
        self._open.append(rec)
        self._call.append(rec)
        if isinstance(ev, BattleEnded):  # the board before the battle closes its piles
            self.boards[rec.battle] = frozen_copy(self.game)
            while len(self.boards) > 64:
                del self.boards[min(self.boards)]
        depth = self.game._e.depth
        if isinstance(ev, PhaseChanged) and ev.old in STOP_AFTER and depth > 0:
            self._moment("turn end done" if ev.old is BattlePhase.PLAYER_TURN_END
                         else "enemies acted", "phase", -1)
            return
        if not self.auto:
            return
        if depth <= 0:
            self.mark()  # published outside any public call: a moment now
            return
        self._due = True
        self.on_change()  # new events to show; the moment follows when the call ends

    def _call_ended(self) -> None:
        if self._due:
            self._due = False
            self.mark()

    def mark(self, label: str | None = None, step: int = -1) -> None:
        """End a moment now (call only from the game's thread, between public calls)."""
        if label is None:
            label = _label(self._call)
        self._call = []
        self._moment(label, "call", step)

    def _moment(self, label: str, kind: str, step: int) -> None:
        copy = frozen_copy(self.game)
        # Copies are never changed: a card equal to the one in the previous copy is shared,
        # so a long history keeps few objects alive (and the garbage collector stays fast).
        cards = copy._e.s.cards
        prev = self._prev_cards
        for uid, inst in cards.items():
            p = prev.get(uid)
            if p is not None and p.base is inst.base and p.to_list() == inst.to_list():
                cards[uid] = p
        self._prev_cards = cards
        s = self.game._e.s
        events, self._open = self._open, []
        with self.lock:
            mid = self.version
            first = events[0].seq if events else self.next_seq
            self.moments.append(Moment(mid, first, self.next_seq - 1, label, kind, s.turn,
                                       s.battles, s.phase.name, step))
            self.copies[mid] = copy
            self._thin(mid)
        self.on_change()

    def _thin(self, newest: int) -> None:
        """The copy that just left the ``recent`` window stays only if it is a call moment
        numbered a multiple of THIN, and then only among the newest ``old`` such copies."""
        gone = newest - self.recent
        if gone < 0 or gone not in self.copies:
            return
        first = self.moments[0].id
        m = self.moments[gone - first] if gone >= first else None
        if m is None or m.kind != "call" or gone % THIN:
            del self.copies[gone]
            return
        self._old.append(gone)
        if len(self._old) > self.old:
            self.copies.pop(self._old.popleft(), None)

    # ------------------------------------------------------------ any thread
    def moment(self, mid: int) -> Moment | None:
        """Moment ``mid``, if still in the ring."""
        with self.lock:
            if not self.moments:
                return None
            i = mid - self.moments[0].id
            return self.moments[i] if 0 <= i < len(self.moments) else None

    def copy_of(self, mid: int) -> Game | None:
        """The game at moment ``mid`` (None when its copy was not kept)."""
        with self.lock:
            return self.copies.get(mid)

    def board(self, battle: int) -> Game | None:
        """The final board of battle number ``battle`` (None: not ended, or too old)."""
        with self.lock:
            return self.boards.get(battle)

    def moment_of(self, seq: int) -> int | None:
        """The moment event ``seq`` belongs to (None: not recorded, or published before)."""
        with self.lock:
            if not self.events:
                return None
            i = seq - self.events[0].seq
            if not 0 <= i < len(self.events):
                return None
            m = self.events[i].moment
            return m if m >= 0 else None

    def events_since(self, seq: int) -> list[EventRecord]:
        """The recorded events numbered ``seq`` and later, in order."""
        with self.lock:
            if not self.events:
                return []
            return _tail(self.events, len(self.events) - max(0, seq - self.events[0].seq))

    def moments_since(self, mid: int) -> list[Moment]:
        """The moments numbered ``mid`` and later, in order."""
        with self.lock:
            if not self.moments:
                return []
            return _tail(self.moments, len(self.moments) - max(0, mid - self.moments[0].id))

    def kept_from(self) -> tuple[int, int]:
        """(the first moment of the ``recent`` window, whose copies are all kept; the oldest
        thinned copy kept before it: call moments numbered a multiple of THIN from there)."""
        with self.lock:
            recent = max(self.moments[0].id if self.moments else 0, self.version - self.recent)
            return recent, self._old[0] if self._old else recent

    def kept(self) -> list[int]:
        """The moments whose copies are kept, in order."""
        with self.lock:
            return sorted(self.copies)

"""The monitor's view of a game, taken only on the game's own thread.

``Recorder`` subscribes to every event of a game and keeps its payload. A copy of the game is
taken only when the game's thread has returned from a public ``Game`` call, so neither the
live page nor time travel ever sees a half-run effect wave: an event published inside a call
marks the copy as due, and the call guard's end-of-call notification (``watch_calls``) takes
it once the outermost call has ended. Each event belongs to the *wave* of the call that
published it, and looking back at an event shows the battle as that wave left it. A thread
that drives the game itself (play mode) calls ``mark()`` after each call instead. Standard
library only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..battle.state import CardInstance
from ..events import Event
from ..game import Game
from ..guard import watch_calls
from .snapshot import event_data, frozen_copy


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One published event: its number, type, payload, and the wave (call) it belongs to."""

    seq: int
    type: str
    data: dict[str, Any]
    turn: int
    phase: str
    wave: int  # the ``version`` of the copy taken when its call returned; -1: before attaching

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "data": self.data, "turn": self.turn,
                "phase": self.phase, "wave": self.wave, "travel": self.wave >= 0}


class Recorder:
    """Events, the copies the calls that published them left, and the latest copy (``live``)."""

    def __init__(self, game: Game, on_change: Callable[[], None], *, limit: int = 5000,
                 waves: int = 1000, auto: bool = True) -> None:
        self.game = game
        self.on_change = on_change
        self.auto = auto
        self.lock = threading.Lock()
        self.events: deque[EventRecord] = deque(maxlen=limit)
        self.next_seq = 0
        self.version = 0
        self.live: Game = frozen_copy(game)
        self.live_events = 0  # events published up to the live copy
        self.copies: OrderedDict[int, Game] = OrderedDict()  # wave -> the game as it left it
        self.max_waves = waves
        self._due = False  # events were published inside a call: copy when it ends
        self._prev_cards: dict[int, CardInstance] = {}
        # events published before the monitor was attached: payloads only (no copies)
        for ev in game.event_log[-limit:]:
            self._append(ev, -1)
        self.live_events = self.next_seq
        self._unsubscribe = game.subscribe(Event, self._on_event)
        self._unwatch = watch_calls(game, self._call_ended)

    def close(self) -> None:
        """Stop listening (the game keeps no trace of the monitor)."""
        self._unsubscribe()
        self._unwatch()
        self._due = False

    def _append(self, ev: Event, wave: int) -> None:
        g = self.game
        rec = EventRecord(self.next_seq, type(ev).__name__, event_data(ev), g.turn_number,
                          g.phase.name, wave)
        with self.lock:
            self.events.append(rec)
            self.next_seq += 1

    def _on_event(self, ev: Event) -> None:
        self._append(ev, self.version + 1)
        if not self.auto:
            return
        if self.game._e.depth <= 0:
            self.mark()  # published outside any public call: copy now
            return
        self._due = True
        self.on_change()  # new events to show; the live state follows when the call ends

    def _call_ended(self) -> None:
        if self._due:
            self._due = False
            self.mark()

    def mark(self) -> None:
        """Take the live copy now: call only from the game's thread, between public calls."""
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
        with self.lock:
            self.live = copy
            self.live_events = self.next_seq
            self.version += 1
            self.copies[self.version] = copy
            if len(self.copies) > self.max_waves:
                self.copies.popitem(last=False)
        self.on_change()

    def copy_at(self, seq: int) -> Game | None:
        """The battle as the call that published event ``seq`` left it (None if not kept)."""
        with self.lock:
            if not self.events:
                return None
            i = seq - self.events[0].seq
            if not 0 <= i < len(self.events):
                return None
            return self.copies.get(self.events[i].wave)

    def events_since(self, seq: int) -> list[EventRecord]:
        """The recorded events numbered ``seq`` and later, in order."""
        with self.lock:
            if not self.events:
                return []
            first = self.events[0].seq
            return list(self.events)[max(0, seq - first):]

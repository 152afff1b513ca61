"""The monitor's view of a game, taken only on the game's own thread.

``Recorder`` subscribes to every event of a game. At each event it keeps the payload and a
frozen copy of the battle as it is right then (time travel). The *live* state is copied only
when the game's thread has returned from a public ``Game`` call, so the page never sees a
half-run effect wave: on the first event inside a call the recorder arms a profile hook on
that thread which fires when the outermost ``Game`` method returns (the standard debugger
mechanism; the game itself is never changed). A thread that drives the game itself (play
mode) calls ``mark()`` after each call instead. Standard library only.
"""

from __future__ import annotations

import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from ..events import Event
from ..game import Game
from .snapshot import event_data, frozen_copy

# every public method of Game that may change it (its return ends a consistent point)
_CALLS = (
    "start_battle", "try_play_card", "end_player_turn", "choose", "advance_time",
    "complete_animation", "settle", "apply_reward", "skip_reward", "draw_cards",
    "add_card_to_hand", "add_card_to_pile", "move_card_to_pile", "shuffle_draw_pile",
    "set_master_deck", "add_card_to_master_deck", "remove_card_from_master_deck",
    "upgrade_card_in_master_deck", "clear_master_deck", "apply",
)
_CODES = frozenset(getattr(Game, n).__code__ for n in _CALLS)


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One published event: its number, type, payload, and the battle right after it."""

    seq: int
    type: str
    data: dict[str, Any]
    turn: int
    phase: str
    copy: Game | None  # None for events published before the monitor was attached

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "data": self.data, "turn": self.turn,
                "phase": self.phase, "travel": self.copy is not None}


class Recorder:
    """Events with per-event copies, plus the latest consistent copy of the game (``live``)."""

    def __init__(self, game: Game, on_change: Callable[[], None], *, limit: int = 5000,
                 auto: bool = True) -> None:
        self.game = game
        self.on_change = on_change
        self.auto = auto
        self.lock = threading.Lock()
        self.events: deque[EventRecord] = deque(maxlen=limit)
        self.next_seq = 0
        self.version = 0
        self.live: Game = frozen_copy(game)
        self.live_events = 0  # events published up to the live copy
        self._armed: FrameType | None = None
        self._hook = self._profile
        # events published before the monitor was attached: payloads only (no copies)
        for ev in game.event_log[-limit:]:
            self._append(ev, None)
        self.live_events = self.next_seq
        self._unsubscribe = game.subscribe(Event, self._on_event)

    def close(self) -> None:
        """Stop listening (the game keeps no trace of the monitor)."""
        self._unsubscribe()
        if self._armed is not None and sys.getprofile() is self._hook:
            sys.setprofile(None)
        self._armed = None

    def _append(self, ev: Event, copy: Game | None) -> None:
        g = self.game
        rec = EventRecord(self.next_seq, type(ev).__name__, event_data(ev), g.turn_number,
                          g.phase.name, copy)
        with self.lock:
            self.events.append(rec)
            self.next_seq += 1

    def _on_event(self, ev: Event) -> None:
        self._append(ev, frozen_copy(self.game))
        if not self.auto:
            return
        if self._armed is None and not self._arm():
            self.mark()  # outside any public call, or a profiler owns the hook: copy now
            return
        self.on_change()  # new events to show; the live state follows when the call returns

    def _arm(self) -> bool:
        """Hook the return of the outermost public Game call on this thread; False if none."""
        if sys.getprofile() is not None:
            return False
        f: FrameType | None = sys._getframe(1)
        outer = None
        while f is not None:
            if f.f_code in _CODES and f.f_locals.get("self") is self.game:
                outer = f
            f = f.f_back
        if outer is None:
            return False
        self._armed = outer
        sys.setprofile(self._hook)
        return True

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if frame is self._armed and event == "return":
            sys.setprofile(None)
            self._armed = None
            self.mark()

    def mark(self) -> None:
        """Take the live copy now: call only from the game's thread, between public calls."""
        copy = frozen_copy(self.game)
        with self.lock:
            self.live = copy
            self.live_events = self.next_seq
            self.version += 1
        self.on_change()

    def copy_at(self, seq: int) -> Game | None:
        """The battle right after event ``seq`` (None if not recorded or dropped)."""
        with self.lock:
            if not self.events:
                return None
            first = self.events[0].seq
            i = seq - first
            if not 0 <= i < len(self.events):
                return None
            return self.events[i].copy

    def events_since(self, seq: int) -> list[EventRecord]:
        """The recorded events numbered ``seq`` and later, in order."""
        with self.lock:
            if not self.events:
                return []
            first = self.events[0].seq
            return list(self.events)[max(0, seq - first):]

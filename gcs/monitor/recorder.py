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
(``limit``); the newest ``hot`` moments keep their copies as games; older ones are *packed*
(the page's view of them and, between calls, their engine save, as compressed JSON: out of
the garbage collector's way, so a long session does not slow every collection of the
process); the newest ``recent`` moments are all kept and older ones are thinned to one call
moment in ``THIN``, at most ``old`` of them. Packing runs where ``schedule`` says (the
monitor's server thread), never in the middle of the game's call. Standard library only.
"""

from __future__ import annotations

import itertools
import json
import threading
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..battle.state import CardInstance
from ..enums import BattlePhase
from ..events import BattleEnded, CardPlayed, ChoiceMade, Event, PhaseChanged, RewardApplied
from ..game import Game
from ..guard import watch_calls
from .snapshot import build, event_data, frozen_copy

#: Phases whose end is a moment of its own inside a call (the game acted on its own in them).
STOP_AFTER = frozenset({BattlePhase.PLAYER_TURN_END, BattlePhase.ENEMY_PHASE})
THIN = 20  # past the ``recent`` moments, one call moment in THIN keeps its copy
PACK_BATCH = 8  # moments packed at a time (a short pause on the thread that packs)


def _zjson(data: Any) -> bytes:
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 1)


def _unzjson(data: bytes) -> Any:
    return json.loads(zlib.decompress(data))


@dataclass(frozen=True, slots=True)
class Packed:
    """A moment's copy, packed as compressed JSON (a bytes object: nothing for the GC to walk):
    between calls the engine's save of it (the page's view is built from it when asked), inside
    a call the page's view of it (a save there could not be loaded: the wave is half-run)."""

    view: bytes | None
    save: bytes | None


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
                 hot: int = 200, recent: int = 3_000, old: int = 1_000, auto: bool = True,
                 prefix: Recorder | None = None, upto: int | None = None,
                 schedule: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.game = game
        self.on_change = on_change
        self.auto = auto
        self.lock = threading.Lock()
        self.events: deque[EventRecord] = deque(maxlen=limit)
        self.moments: deque[Moment] = deque(maxlen=limit)
        self.copies: dict[int, Game] = {}  # moment id -> the game there (never changed)
        self.packed: dict[int, Packed] = {}  # moment id -> its copy, packed (past ``hot``)
        self.hot = min(hot, recent)
        self.schedule = schedule if schedule is not None else (lambda fn: fn())
        self._packing = False  # a packing run is scheduled
        self.boards: dict[int, Game] = {}  # battle number -> its final board
        self.recent, self.old = recent, old
        self._old: deque[int] = deque()  # the thinned copies kept past ``recent``, oldest first
        self._old_set: set[int] = set()
        self._thin_next = 0  # the next moment to thin when it leaves the ``recent`` window
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
            self.packed = {k: v for k, v in prefix.packed.items() if k <= upto}
            self.boards = dict(prefix.boards)
            self._old = deque(k for k in prefix._old if k <= upto)
            self._old_set = set(self._old)
            self._thin_next = prefix._thin_next
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
            self._thin()
            due = len(self.copies) > self.hot + PACK_BATCH and not self._packing
            self._packing = self._packing or due
        if due:
            self.schedule(self._pack)
        self.on_change()

    def _pack(self) -> None:
        """Pack the oldest copies past the ``hot`` window (a batch), then thin the packed ones.
        Reads only frozen copies: any thread may run it (the monitor's server thread does)."""
        try:
            with self.lock:
                cut = self.version - self.hot
                todo = sorted(k for k in self.copies if k < cut)[:PACK_BATCH]
                games = [(k, self.copies[k]) for k in todo]
                calls = {m.id for m in self.moments if m.id in self.copies and m.kind == "call"}
            done: dict[int, Packed] = {}
            for k, g in games:
                if k in calls:
                    done[k] = Packed(None, _zjson(self._save(g)))
                else:
                    done[k] = Packed(_zjson(self._view(g)), None)
            with self.lock:
                for k in done:
                    self.copies.pop(k, None)
                self.packed.update(done)
                for k in done:  # (packed after it left the window: the rule applies now)
                    if k < self._thin_next:
                        self._rule(k)
                more = len(self.copies) > self.hot + PACK_BATCH
        finally:
            self._packing = False
        if more:
            self._packing = True
            self.schedule(self._pack)

    def _thin(self) -> None:
        """Past the ``recent`` window, keep a packed moment only if it is a call moment numbered
        a multiple of THIN, and then only among the newest ``old`` such (under the lock; each
        moment is looked at once, when it leaves the window)."""
        cut = self.version - self.recent
        while self._thin_next < cut:
            self._rule(self._thin_next)
            self._thin_next += 1

    def _rule(self, k: int) -> None:
        packed = self.packed.get(k)
        if packed is None or k in self._old_set:
            return
        if packed.save is None or k % THIN:
            del self.packed[k]
            return
        self._old.append(k)
        self._old_set.add(k)
        while len(self._old) > self.old:
            gone = self._old.popleft()
            self._old_set.discard(gone)
            self.packed.pop(gone, None)

    # ------------------------------------------------------------ any thread
    def moment(self, mid: int) -> Moment | None:
        """Moment ``mid``, if still in the ring."""
        with self.lock:
            if not self.moments:
                return None
            i = mid - self.moments[0].id
            return self.moments[i] if 0 <= i < len(self.moments) else None

    def copy_of(self, mid: int) -> Game | None:
        """The game at moment ``mid``: its copy, or one loaded from its packed save (None when
        it was not kept, or is a packed moment inside a call, which has only its view)."""
        with self.lock:
            copy, packed = self.copies.get(mid), self.packed.get(mid)
        if copy is not None or packed is None or packed.save is None:
            return copy
        return Game.from_json(self.game.content, _unzjson(packed.save))

    def _view(self, g: Game) -> dict[str, Any]:
        """The page's (read-only) view of a copy, with the last battle's final board."""
        s = g._e.s
        return build(g, legal=False, board=None if s.active else self.board(s.battles))

    def view_of(self, mid: int) -> dict[str, Any] | None:
        """The page's view of a packed moment (None: not packed; see ``copy_of``)."""
        with self.lock:
            packed = self.packed.get(mid)
        if packed is None:
            return None
        if packed.view is not None:
            return dict(_unzjson(packed.view))
        copy = self.copy_of(mid)
        return None if copy is None else self._view(copy)

    def save_of(self, mid: int) -> dict[str, Any] | None:
        """The engine's save of a moment between calls (None: inside a call, or not kept)."""
        m = self.moment(mid)
        if m is None or m.kind != "call":
            return None
        with self.lock:
            copy, packed = self.copies.get(mid), self.packed.get(mid)
        if copy is not None:
            return self._save(copy)
        return None if packed is None or packed.save is None else dict(_unzjson(packed.save))

    def _save(self, copy: Game) -> dict[str, Any]:
        """A copy's save, logging as the watched game does (a copy itself logs nothing)."""
        data = copy.to_json()
        data["logging"] = self.game._e.logging
        return data

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
        """The moments whose copies are kept (as games or packed), in order."""
        with self.lock:
            return sorted(self.copies.keys() | self.packed.keys())

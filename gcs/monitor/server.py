"""The monitor's web server: Starlette + uvicorn on a background thread, one WebSocket per page.

The server thread never calls the watched game: it reads only the frozen copies that the
``Recorder`` took on the game's thread. In play mode the server thread owns the game (the
``PlaySession``) and is the only thread that calls it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..game import Game
from .play import PlaySession
from .recorder import THIN, Recorder
from .snapshot import PHASE_INPUT, build

STATIC = Path(__file__).resolve().parent / "static"
# the picture files a card's ``art`` may name in its pack (served from the ``art`` directory)
ART_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
             ".gif": "image/gif", ".webp": "image/webp", ".svg": "image/svg+xml"}
MAX_MESSAGE = 16_384  # characters: a longer message gets an error reply
WS_MAX_FRAME = 1 << 20  # bytes: a longer WebSocket message closes the connection (1009)
# the hint's search budget (``gcs.agents.hint``): iterations, not milliseconds, so the same
# place always gets the same answer (about 20-60 ms compiled, on a worker thread: ``HintJob``)
HINT_ITERS = 200


class _Server(uvicorn.Server):
    """uvicorn that says when it listens and hands over its event loop."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)
        self.ready.set()


@dataclass(frozen=True)
class HintJob:
    """A hint asked at a branch's ``step``: the search runs on ``game``, a copy of that branch's
    game, seeded by the step count, so a position asked twice gets the same answer (it reads
    only what the player knows). Its reply names the step and branch: a page that has moved on
    since drops it."""

    game: Game
    iters: int
    step: int
    branch: int

    def run(self) -> dict[str, Any]:
        from ..agents import hint  # (the search is loaded the first time a page asks)

        hints = hint(self.game, iters=self.iters, seed=self.step)
        if not hints:
            return {"type": "refused", "action": "hint", "error": "nothing can be input now"}
        return {"type": "hint", "step": self.step, "branch": self.branch, "hints": [
            {"action": str(h.action), "value": h.value, "visits": h.visits, "best": h.best}
            for h in hints]}


class Hub:
    """The pages connected to one monitor, and what they are told."""

    def __init__(self, game: Game, session: PlaySession | None) -> None:
        self.session = session
        self.loop: asyncio.AbstractEventLoop | None = None
        self.wakes: set[asyncio.Event] = set()
        self._pending = threading.Event()
        self.generation = 0  # bumped when the page must start over (another branch, a new run)
        self.closing = False  # the monitor is closing: stop answering (a backlog is dropped)
        if session is not None:
            session.on_change = self.changed
            session.schedule = self.schedule
            self._watched: Recorder | None = None
        else:
            self._watched = Recorder(game, self.changed, schedule=self.schedule)
        self._cache: tuple[int, int, dict[str, Any]] | None = None
        self._shown: Recorder = self.recorder

    @property
    def recorder(self) -> Recorder:
        """The recorder of what the pages show (in play mode, the current branch's)."""
        if self.session is not None:
            return self.session.recorder
        assert self._watched is not None
        return self._watched

    @property
    def mode(self) -> str:
        """``watch`` (a game driven from Python), ``play`` or ``replay`` (read-only recording)."""
        if self.session is None:
            return "watch"
        return "replay" if self.session.read_only else "play"

    def close(self) -> None:
        """Detach from every game (the games are left as they were)."""
        if self.session is not None:
            for b in self.session.branches:
                b.recorder.close()
        elif self._watched is not None:
            self._watched.close()

    # ------------------------------------------------------------ change notification
    def changed(self) -> None:
        """Called on the game's thread: wake every page (coalesced, never blocks the game)."""
        loop = self.loop
        if loop is None or self._pending.is_set():
            return
        self._pending.set()
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(self._wake)

    def schedule(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the server thread, soon (the recorders pack old moments there, off the
        game's thread); before the server runs, at once."""
        loop = self.loop
        if loop is None:
            fn()
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody reads them now
            loop.call_soon_threadsafe(fn)

    def _wake(self) -> None:
        self._pending.clear()
        for w in self.wakes:
            w.set()

    def _restart(self) -> None:
        """The recorder shown changed (a branch switch, a fork, a new run): pages start over."""
        if self.recorder is not self._shown:
            self._shown = self.recorder
            self.generation += 1
            self._cache = None
        self._wake()

    # ------------------------------------------------------------ what pages are sent
    def state_of(self, rec: Recorder, mid: int, copy: Game, *, live: bool) -> dict[str, Any]:
        """The page state of moment ``mid`` (its copy ``copy``), with the last battle's final
        board when no battle is active there."""
        s = copy._e.s
        board = None if s.active else rec.board(s.battles)
        return build(copy, legal=live and self.mode != "replay", board=board)

    def live_state(self) -> dict[str, Any]:
        rec = self.recorder
        with rec.lock:
            version = rec.version
            copy = rec.live
            upto = rec.next_seq
        key = (self.generation, version)
        if self._cache is None or self._cache[:2] != key:
            self._cache = (self.generation, version, {
                "type": "state", "live": True, "version": version, "moment": version - 1,
                "events": upto, "generation": self.generation,
                "state": self.state_of(rec, version - 1, copy, live=True)})
            if self.session is not None:
                self._cache[2]["branches"] = [b.to_json() for b in self.session.branches]
        return self._cache[2]

    def hello(self) -> dict[str, Any]:
        rec = self.recorder
        content = rec.game.content
        out: dict[str, Any] = {
            "type": "hello", "mode": self.mode, "generation": self.generation,
            "encounters": [{"id": e.id, "name": e.name} for e in content.encounters.values()],
            "limit": rec.events.maxlen,
            "phases": [[p.name, text] for p, text in PHASE_INPUT.items()],
        }
        if self.session is not None:
            out["branches"] = [b.to_json() for b in self.session.branches]
            out["branch"] = self.session.current.id
            out["encounter"] = self.session.encounter
        return out

    # ------------------------------------------------------------ what pages ask
    def handle(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """Answer one message from a page (runs on the server thread)."""
        kind = msg.get("type")
        if kind == "travel":
            return self._travel(msg)
        if kind == "save":
            return self._save(msg)
        if kind == "replay":
            if self.session is None:
                return {"type": "error", "error": "only a played or opened run has a replay"}
            b = msg.get("branch")
            if b is not None and (not _is_int(b) or not 0 <= b < len(self.session.branches)):
                return {"type": "error", "error": "replay needs a 'branch' number or null"}
            branch = self.session.branches[b] if b is not None else None
            return {"type": "replay", "data": self.session.replay_data(branch)}
        if kind == "hint":
            return self._hint(msg)
        if kind in ("act", "next", "fork", "branch"):
            if self.session is None:
                return {"type": "error", "error": "this monitor only watches: play is disabled"}
            return self._play(kind, msg)
        return {"type": "error", "error": f"unknown message type {kind!r}"}

    def _travel(self, msg: dict[str, Any]) -> dict[str, Any]:
        rec = self.recorder
        mid, seq = msg.get("moment"), msg.get("seq")
        if mid is None and _is_int(seq):
            mid = rec.moment_of(seq)
            if mid is None:
                return {"type": "error", "error": f"event {seq} has no recorded moment"}
        if not _is_int(mid):
            return {"type": "error", "error": "travel needs an integer 'moment' (or 'seq')"}
        view = rec.view_of(mid)
        if view is None:
            copy = self.session.state_at(mid) if self.session is not None else rec.copy_of(mid)
            if copy is None:
                return {"type": "error", "error": f"moment {mid} has no kept state"}
            view = self.state_of(rec, mid, copy, live=False)
        return {"type": "state", "live": False, "moment": mid, "generation": self.generation,
                "state": view}

    def _save(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The engine's save (``Game.to_json``) of a moment, to load with ``Game.from_json``."""
        rec = self.recorder
        mid = msg.get("moment")
        if mid is None:
            mid = rec.version - 1
        if not _is_int(mid):
            return {"type": "error", "error": "save needs an integer 'moment' or null"}
        m = rec.moment(mid)
        if m is not None and m.kind != "call":
            return {"type": "error", "error": f"moment {mid} is inside a call: no save of it "
                    "could be loaded (pick the moment that call ended)"}
        data = rec.save_of(mid)
        if data is None and self.session is not None and m is not None:
            copy = self.session.state_at(mid)
            data = copy.to_json() if copy is not None else None
        if data is None:
            return {"type": "error", "error": f"moment {mid} has no kept state"}
        return {"type": "save", "moment": mid, "data": data}

    def _hint(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The search agent's ranking of every legal action now, answered here (``handle``:
        the server itself runs ``hint_job``'s search on a worker thread)."""
        job = self.hint_job(msg)
        return job if isinstance(job, dict) else job.run()

    def hint_job(self, msg: dict[str, Any]) -> HintJob | dict[str, Any]:
        """A hint to compute (``HintJob``) on a copy of the game as it is now, or the reply
        that refuses it. The copy is taken here, on the server's thread: the search then runs
        on a worker thread while the server answers other pages and plays go on."""
        session = self.session
        if session is None:
            return {"type": "error", "error": "this monitor only watches: hints need play mode"}
        if session.read_only:
            return {"type": "refused", "action": "hint",
                    "error": "this monitor shows a recording: it is read-only"}
        iters = msg.get("iters", HINT_ITERS)
        if not _is_int(iters) or not 1 <= iters <= 5_000:
            return {"type": "error", "error": "hint takes an optional 'iters' from 1 to 5000"}
        b = session.current
        return HintJob(b.game.clone(), iters, len(b.steps), b.id)

    def _play(self, kind: str, msg: dict[str, Any]) -> dict[str, Any]:
        session = self.session
        assert session is not None
        if kind == "act":
            text = msg.get("action")
            if not isinstance(text, str) or len(text) > 200:
                return {"type": "error", "error": "act needs an 'action' text like 'play 0 @e0'"}
            why = session.act(text)
            if why is not None:
                return {"type": "refused", "action": text, "error": why}
            return {"type": "ok", "action": text}
        if kind == "fork":
            mid = msg.get("moment")
            if not _is_int(mid):
                return {"type": "error", "error": "fork needs an integer 'moment'"}
            why = session.fork(mid)
            if why is not None:
                return {"type": "refused", "action": "fork", "error": why}
            self._restart()
            return {"type": "ok", "action": "fork", "branch": session.current.id}
        if kind == "branch":
            bid = msg.get("id")
            if not _is_int(bid):
                return {"type": "error", "error": "branch needs an integer 'id'"}
            why = session.branch(bid)
            if why is not None:
                return {"type": "refused", "action": "branch", "error": why}
            self._restart()
            return {"type": "ok", "action": "branch", "branch": bid}
        enc = msg.get("encounter")
        if enc is not None and not isinstance(enc, str):
            return {"type": "error", "error": "next needs an 'encounter' id (text) or null"}
        why = session.next_battle(enc)  # refused before anything changed (a lost run stays)
        if why is not None:
            return {"type": "refused", "action": "next", "error": why}
        self._restart()
        return {"type": "ok", "action": "next"}


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def art_file(root: Path | None, path: str) -> Path | None:
    """The picture ``path`` (a card's ``art``, relative to its pack) names under ``root``: a
    file of a picture type inside ``root``, else None (nothing outside the pack is served)."""
    if root is None or len(path) > 2_000:
        return None
    try:
        base = root.resolve()
        f = (base / path).resolve()
    except (OSError, ValueError, RuntimeError):
        return None
    if f.suffix.lower() not in ART_TYPES or not f.is_relative_to(base) or not f.is_file():
        return None
    return f


def _app(hub: Hub, token: str, art: Path | None = None) -> Starlette:
    async def index(request: Request) -> Response:
        if not _token_ok(request.query_params.get("token", ""), token):
            return PlainTextResponse("403: this monitor needs its token (see the URL it printed)",
                                     status_code=403)
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def ws_endpoint(ws: WebSocket) -> None:
        if not _token_ok(ws.query_params.get("token", ""), token):
            await ws.close(code=1008)
            return
        await ws.accept()
        wake = asyncio.Event()
        hub.wakes.add(wake)
        pusher = asyncio.create_task(_push(ws, hub, wake))
        try:
            while not hub.closing:
                m = await ws.receive()
                if m["type"] == "websocket.disconnect":
                    break
                reply = _answer(hub, m.get("text"), m.get("bytes"))
                if isinstance(reply, HintJob):  # a search: off the server's thread
                    reply = await asyncio.to_thread(_run_hint, reply)
                await ws.send_text(json.dumps(reply))
                wake.set()  # a play changed the game: push it now
                # (a read hands over every message of the chunk it read, and neither receive
                # nor send waits when there is more: yield, so a page that floods the server
                # cannot starve the others, new connections or a close)
                await asyncio.sleep(0)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the page went away
        finally:
            hub.wakes.discard(wake)
            pusher.cancel()

    async def art_endpoint(request: Request) -> Response:
        if not _token_ok(request.query_params.get("token", ""), token):
            return PlainTextResponse("403: this monitor needs its token", status_code=403)
        f = art_file(art, request.path_params["path"])
        if f is None:
            return PlainTextResponse("404: no such picture in the pack", status_code=404)
        return FileResponse(f, media_type=ART_TYPES[f.suffix.lower()])

    return Starlette(routes=[
        Route("/", index),
        Route("/art/{path:path}", art_endpoint),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ])


def _token_ok(given: str, token: str) -> bool:
    """Whether ``given`` is the token, in constant time; any text (non-ASCII too) is compared
    as UTF-8 bytes, so a strange token is refused like a wrong one, never an error."""
    return secrets.compare_digest(given.encode("utf-8", "backslashreplace"), token.encode())


def _answer(hub: Hub, text: str | None, data: bytes | None) -> dict[str, Any] | HintJob:
    """The reply to one raw message (a hint: the job that computes it): malformed or hostile
    input gets an error, never a crash."""
    if text is None:
        return {"type": "error", "error": "send JSON text messages, not binary"}
    if len(text) > MAX_MESSAGE:
        return {"type": "error", "error": f"message longer than {MAX_MESSAGE} characters"}
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return {"type": "error", "error": f"not JSON: {exc}"}
    if not isinstance(msg, dict):
        return {"type": "error", "error": "a message is a JSON object with a 'type'"}
    try:
        if msg.get("type") == "hint":
            return hub.hint_job(msg)
        reply = hub.handle(msg)
    except Exception as exc:  # the server keeps serving whatever a message does
        return {"type": "error", "error": f"{type(exc).__name__}: {exc}"}
    return reply or {"type": "ok"}


def _run_hint(job: HintJob) -> dict[str, Any]:
    """``job`` on a worker thread; whatever it raises is an error reply, as ``_answer``'s."""
    try:
        return job.run()
    except Exception as exc:
        return {"type": "error", "error": f"{type(exc).__name__}: {exc}"}


async def _push(ws: WebSocket, hub: Hub, wake: asyncio.Event) -> None:
    """Send the page its hello, the events and moments so far, then every new event, moment
    and live state (only what is new: a push costs the same at any history length)."""
    sent_events = sent_moments = 0
    sent: tuple[int, int] = (-1, -1)
    generation = -1
    try:
        while True:
            if generation != hub.generation:
                generation = hub.generation
                sent_events = sent_moments = 0
                sent = (-1, -1)
                await ws.send_text(json.dumps(hub.hello()))
            rec = hub.recorder
            new = rec.events_since(sent_events)
            if new:
                sent_events = new[-1].seq + 1
                await ws.send_text(json.dumps({"type": "events", "generation": generation,
                                               "events": [r.to_json() for r in new]}))
            moments = rec.moments_since(sent_moments)
            if moments:
                sent_moments = moments[-1].id + 1
                recent, thinned = rec.kept_from()
                await ws.send_text(json.dumps({"type": "moments", "generation": generation,
                                               "moments": [m.to_json() for m in moments],
                                               "recent": recent, "thinned": thinned,
                                               "thin": THIN}))
            if (generation, rec.version) != sent:
                state = hub.live_state()
                sent = (state["generation"], state["version"])
                await ws.send_text(json.dumps(state))
            await wake.wait()
            wake.clear()
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the page went away


class Monitor:
    """A running monitor: ``url`` (token included), ``close()``; also a context manager."""

    def __init__(self, game: Game, *, host: str = "127.0.0.1", port: int = 0,
                 session: PlaySession | None = None, art: str | Path | None = None) -> None:
        if not isinstance(game, Game):
            from ..errors import GameError

            raise GameError(f"serve() needs a gcs.Game, got {type(game).__name__}")
        self.token = secrets.token_urlsafe(16)
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
        except OSError:
            sock.close()
            raise
        self.hub = Hub(game, session)  # subscribes on the caller's (the game's) thread
        self.host = host
        self.port: int = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}/?token={self.token}"
        # wsproto: it answers a bad handshake (a line over 8 KB, say) with an HTTP error and
        # closes on an invalid UTF-8 frame (1007) without a traceback, where uvicorn's
        # websockets-sansio left the first unanswered and logged the second as an ERROR
        art_root = Path(art) if art is not None else None
        config = uvicorn.Config(_app(self.hub, self.token, art_root), log_level="warning",
                                lifespan="off", ws="wsproto", ws_max_size=WS_MAX_FRAME,
                                timeout_graceful_shutdown=1)
        self._server = _Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]},
                                        name=f"gcs-monitor-{self.port}", daemon=True)
        self._thread.start()
        if not self._server.ready.wait(10):
            self.close()
            raise RuntimeError("the monitor's web server did not start within 10 s")
        self.hub.loop = self._server.loop
        self.hub.changed()

    @property
    def game(self) -> Game:
        """The game shown now (in play mode, a new run replaces it)."""
        return self.hub.recorder.game

    def wait(self) -> None:
        """Block until the server stops (``close()`` from another thread, or Ctrl-C)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def close(self) -> None:
        """Stop the server and detach from the game (the game is left as it was)."""
        self.hub.closing = True
        self._server.should_exit = True
        self._thread.join(10)
        self.hub.close()

    def __enter__(self) -> Monitor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Monitor {self.url}>"


def watch(game: Game, *, host: str = "127.0.0.1", port: int = 0,
          art: str | Path | None = None) -> Monitor:
    """Serve a read-only live page of ``game`` (see ``gcs.monitor.serve``)."""
    return Monitor(game, host=host, port=port, art=art)


def play(session: PlaySession, *, host: str = "127.0.0.1", port: int = 0,
         art: str | Path | None = None) -> Monitor:
    """Serve ``session``'s game with play enabled, then start its first battle (a read-only
    recording, already played, is served as it is). ``art``: the directory a card's pack-relative
    ``art`` is read from (the pack's)."""
    m = Monitor(session.game, host=host, port=port, session=session, art=art)
    # the first battle starts on the server thread, which owns the game from now on
    done = threading.Event()
    error: list[BaseException] = []

    def start() -> None:
        try:
            session.begin()
        except BaseException as exc:  # reported on the caller's thread below
            error.append(exc)
        finally:
            done.set()

    assert m.hub.loop is not None
    if session.read_only:
        return m
    m.hub.loop.call_soon_threadsafe(start)
    done.wait(30)
    if error:
        m.close()
        raise error[0]
    return m

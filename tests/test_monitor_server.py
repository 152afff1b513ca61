"""The monitor server's boundary, without a browser: strange tokens, bad handshakes and frames,
refusals that change nothing, and a watched game's event log equal to its unwatched twin's.
Each test also checks that the server logged no error and no thread died."""

from __future__ import annotations

import json
import os
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from monitor_support import Trouble, enduring_content, step, watching_trouble
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import gcs
from gcs.monitor import serve
from gcs.monitor.play import PlaySession
from gcs.monitor.server import Hub


@pytest.fixture()
def trouble() -> Iterator[Trouble]:
    with watching_trouble() as t:
        yield t


def game() -> gcs.Game:
    g = gcs.Game(gcs.builtin_content(), seed=1)
    g.start_battle("jaw_worm")
    return g


def http_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def raw_frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (FIN set), as a browser would send it."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@pytest.mark.parametrize("token", ["%C3%A9", "%FF", "%00", "a%20b", "", "x" * 5000,
                                   "%F0%9F%83%8F" * 3])
def test_a_non_ascii_or_odd_token_is_refused_with_403_and_close_1008(
        trouble: Trouble, token: str) -> None:
    with serve(game()) as m:
        base = f"http://127.0.0.1:{m.port}"
        assert http_status(f"{base}/?token={token}") == 403
        with pytest.raises(InvalidStatus) as err:
            connect(f"ws://127.0.0.1:{m.port}/ws?token={token}", open_timeout=5).close()
        assert err.value.response.status_code == 403  # the close before accept: 403 / 1008


def test_a_handshake_line_over_8_kb_is_answered_and_close_stays_clean(trouble: Trouble) -> None:
    m = serve(game())
    for size in (9_000, 15_000, 70_000):
        with socket.create_connection(("127.0.0.1", m.port), timeout=5) as s:
            s.sendall(b"GET /ws?token=" + m.token.encode() + b"&x=" + b"a" * size
                      + b" HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      b"Sec-WebSocket-Version: 13\r\n\r\n")
            answer = s.recv(200)
            assert answer.startswith(b"HTTP/1.1 "), (size, answer)
    m.close()
    assert not m._thread.is_alive()


def test_an_invalid_utf8_text_frame_closes_that_connection_only(
        trouble: Trouble) -> None:
    g = game()
    with serve(g) as m:
        url = f"ws://127.0.0.1:{m.port}/ws?token={m.token}"
        with connect(url, open_timeout=5) as bad, connect(url, open_timeout=5) as good:
            assert json.loads(bad.recv(timeout=5))["type"] == "hello"
            assert json.loads(good.recv(timeout=5))["type"] == "hello"
            bad.socket.sendall(raw_frame(0x1, b"\xff\xfe{}"))
            with pytest.raises(ConnectionClosed):
                while True:
                    bad.recv(timeout=5)
            # (wsproto reads it as a failed connection: the socket closes, no close frame)
            assert bad.close_code in (1006, 1007)
            good.send(json.dumps({"type": "ping"}))
            while (reply := json.loads(good.recv(timeout=5)))["type"] in ("events", "state",
                                                                          "moments"):
                pass
            assert reply["type"] == "error"  # the other page is still served


def test_next_with_an_unknown_encounter_after_a_loss_changes_nothing(tmp_path: Path) -> None:
    session = PlaySession(gcs.builtin_content(), "jaw_worm", 4, deck=["defend"] * 5)
    hub = Hub(session.game, session)
    session.begin()
    while session.game.is_battle_active:
        hub.handle({"type": "act", "action": "end"})
    assert session.lost
    lost = session.game
    before = (lost.to_json(), hub.generation, hub.recorder.game)
    reply = hub.handle({"type": "next", "encounter": "no_such_encounter"})
    assert reply is not None and reply["type"] == "refused"
    assert "unknown encounter 'no_such_encounter'" in reply["error"]
    assert session.game is lost and (lost.to_json(), hub.generation, hub.recorder.game) == before
    hub.recorder.close()


def test_the_event_log_cut_does_not_depend_on_who_listens() -> None:
    """Past the log's ring (10,000 events) a subscribed game keeps exactly the events its
    unsubscribed twin keeps, at every call."""
    content = enduring_content()  # (a long run: thousands of events, never lost)
    watched, twin = gcs.Game(content, seed=9), gcs.Game(content, seed=9)
    heard: list[object] = []
    watched.subscribe(gcs.events.Event, heard.append)
    for g in (watched, twin):
        g.event_log  # noqa: B018  # (the twin logs as it goes, not deferred)
    cuts = 0
    while len(heard) < 25_000:
        for g in (watched, twin):
            step(g)
        a, b = watched.event_log, twin.event_log
        assert len(a) == len(b) and [type(x) for x in a] == [type(x) for x in b]
        cuts += len(a) < 6_000 and len(heard) > 10_000
    assert cuts > 0 and watched.to_json() == twin.to_json()


def test_packed_moments_travel_save_and_fork_exactly() -> None:
    """Moments past the newest few are packed (compressed JSON, out of the GC's way): the page
    still travels to them, downloads their save, and plays on from them exactly."""
    content = gcs.builtin_content()
    session = PlaySession(content, "jaw_worm", 5)
    hub = Hub(session.game, session)
    session.recorder.hot = 3  # (default 200: pack almost everything here)
    session.begin()
    states: dict[int, dict[str, object]] = {}
    for _ in range(30):
        g = session.game
        if not g.legal_actions():
            break
        assert hub.handle({"type": "act", "action": str(g.legal_actions()[0])})["type"] == "ok"  # type: ignore[index]
        states[hub.recorder.version - 1] = g.to_json()
    rec = hub.recorder
    assert len(rec.packed) > 20 and len(rec.copies) <= 3 + 8
    early = min(k for k in states if k in rec.packed)
    reply = hub.handle({"type": "travel", "moment": early})
    assert reply is not None and reply["type"] == "state" and reply["moment"] == early
    saved = hub.handle({"type": "save", "moment": early})
    assert saved is not None and saved["data"] == states[early]
    phase = next(m.id for m in rec.moments if m.kind == "phase" and m.id in rec.packed)
    assert hub.handle({"type": "travel", "moment": phase})["type"] == "state"  # type: ignore[index]
    assert "inside a call" in hub.handle({"type": "save", "moment": phase})["error"]  # type: ignore[index]
    assert hub.handle({"type": "fork", "moment": early})["type"] == "ok"  # type: ignore[index]
    assert session.game.to_json() == states[early]
    hub.close()


def test_a_hint_ranks_every_legal_action_changes_nothing_and_repeats() -> None:
    """Play mode's hint: every legal action once, the best first (the search agent's choice),
    the same answer when asked again at the same place, and the game untouched."""
    session = PlaySession(gcs.builtin_content(), "gremlin_nob", 3)
    hub = Hub(session.game, session)
    session.begin()
    g = session.game
    before = (g.to_json(), hub.recorder.version, len(g.event_log))
    reply = hub.handle({"type": "hint", "iters": 60})
    assert reply is not None and reply["type"] == "hint"
    hints = reply["hints"]
    assert sorted(h["action"] for h in hints) == sorted(str(a) for a in g.legal_actions())
    assert hints[0]["best"] and not any(h["best"] for h in hints[1:])
    assert all(h["value"] is None or 0.0 <= h["value"] <= 1.0 for h in hints)
    assert (g.to_json(), hub.recorder.version, len(g.event_log)) == before
    assert hub.handle({"type": "hint", "iters": 60}) == reply
    # pressing it plays it
    assert hub.handle({"type": "act", "action": hints[0]["action"]})["type"] == "ok"  # type: ignore[index]
    assert hub.handle({"type": "hint", "iters": 0})["type"] == "error"  # type: ignore[index]
    assert hub.handle({"type": "hint", "iters": True})["type"] == "error"  # type: ignore[index]
    hub.recorder.close()


def test_a_hint_is_refused_when_watching_on_a_recording_and_when_nothing_can_be_input() -> None:
    hub = Hub(game(), None)
    assert hub.handle({"type": "hint"})["type"] == "error"  # type: ignore[index]
    hub.recorder.close()
    session = PlaySession(gcs.builtin_content(), "jaw_worm", 4, deck=["defend"] * 5)
    hub = Hub(session.game, session)
    session.begin()
    while session.game.is_battle_active:
        hub.handle({"type": "act", "action": "end"})
    reply = hub.handle({"type": "hint"})  # the run is lost: nothing to input
    assert reply is not None and reply["type"] == "refused" and "nothing" in reply["error"]
    session.read_only = True
    assert "read-only" in hub.handle({"type": "hint"})["error"]  # type: ignore[index]
    hub.recorder.close()


def test_a_hint_computes_off_the_servers_thread_while_other_pages_are_answered() -> None:
    """A long hint (about half a second on an idle core) does not hold the server: another
    page's message, sent after it, is answered first; the hint then arrives, for its place."""
    from gcs.monitor.server import play

    session = PlaySession(gcs.builtin_content(), "gremlin_nob", 3)
    m = play(session)
    url = f"ws://127.0.0.1:{m.port}/ws?token={m.token}"

    def answer(c: object, kinds: tuple[str, ...]) -> dict[str, object]:
        while True:  # (skip the pushes: hello, events, moments, state)
            reply: dict[str, object] = json.loads(c.recv(timeout=300))  # type: ignore[attr-defined]
            if reply["type"] in kinds:
                return reply

    try:
        with connect(url, open_timeout=5) as a, connect(url, open_timeout=5) as b:
            answer(a, ("state",))
            answer(b, ("state",))
            iters = 5000 if gcs.engine_kind() == "compiled" else 1000
            a.send(json.dumps({"type": "hint", "iters": iters}))
            b.send(json.dumps({"type": "replay"}))
            assert answer(b, ("replay", "error"))["type"] == "replay"
            pushed = []  # what ``a`` has been sent so far: pushes, not yet the hint
            with pytest.raises(TimeoutError):
                while True:
                    pushed.append(json.loads(a.recv(timeout=0.05))["type"])
            assert "hint" not in pushed, pushed
            hint = answer(a, ("hint", "error", "refused"))
            assert hint["type"] == "hint" and hint["branch"] == 0
            assert hint["step"] == len(session.current.steps)  # (the place it was asked at)
    finally:
        m.close()

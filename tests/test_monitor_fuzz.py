"""The monitor server under hostile and careless use (issue 30), seeded, with a fixed budget in CI
(``GCS_FUZZ_SCALE=10`` multiplies it, by hand: ``GCS_FUZZ_SCALE=10 .venv/bin/python -m pytest
tests/test_monitor_fuzz.py -s`` prints the counts). Tokens of every kind, raw frames (bad
UTF-8, bad opcodes, oversize), message shapes, a flood, many clients, abrupt drops, a close
while clients are busy, play-mode message sequences whose refusals must change nothing, and a
watched game against its unwatched twin. Through it all the server logs no error, no thread
dies, every message gets one JSON answer, and watching never changes the game."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import string
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from fuzz_support import Outcomes, garbage
from monitor_support import Trouble, enduring_content, step, watching_trouble
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

import gcs
from gcs.monitor import serve
from gcs.monitor.play import PlaySession
from gcs.monitor.server import Hub, Monitor

SCALE = int(os.environ.get("GCS_FUZZ_SCALE", "1"))
TYPES = ["travel", "act", "next", "fork", "branch", "save", "replay", "hint", "ping", "", None, 5]
FIELDS = ["moment", "seq", "action", "encounter", "id", "branch", "iters"]
PUSHED = ("hello", "events", "moments", "state")


@pytest.fixture()
def trouble() -> Iterator[Trouble]:
    with watching_trouble() as t:
        yield t


def game(seed: int = 1) -> gcs.Game:
    g = gcs.Game(enduring_content(), seed=seed)
    g.start_battle("jaw_worm")
    return g


def ws(m: Monitor) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{m.port}/ws?token={m.token}", open_timeout=10,
                   max_size=None)


def answer(c: ClientConnection) -> dict[str, Any]:
    """The reply to the message just sent (pushed states and events passed over)."""
    while True:
        msg = json.loads(c.recv(timeout=10))
        if msg["type"] not in PUSHED or msg.get("live") is False:  # (a travel's answer)
            return dict(msg)


def rand_text(rng: random.Random, n: int) -> str:
    pool = string.printable + "é€🃏\u0000\ud7ff\u200b"
    return "".join(rng.choice(pool) for _ in range(n))


def rand_message(rng: random.Random, m: int) -> Any:
    """A message of a random shape: mostly objects with a known type and odd fields."""
    r = rng.random()
    if r < 0.1:
        return garbage(rng)
    msg: dict[str, Any] = {"type": rng.choice(TYPES)}
    for _ in range(rng.randrange(4)):
        k = rng.choice(FIELDS)
        msg[k] = rng.choice([garbage(rng), rng.randrange(-3, m + 5), rand_text(rng, 6),
                             "play 0 @e0", "end", "choose 0", "jaw_worm"])
    return msg


# ---------------------------------------------------------------- tokens


def test_tokens_of_every_kind_are_refused(trouble: Trouble) -> None:
    rng = random.Random(30)
    out = Outcomes("monitor tokens")
    with serve(game()) as m:
        base = f"127.0.0.1:{m.port}"
        for i in range(60 * SCALE):
            raw = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))
            tok = urllib.parse.quote_from_bytes(raw) if i % 2 else urllib.parse.quote(rand_text(rng, 12))
            if i % 7 == 0:
                tok = m.token[:-1] + ("A" if m.token[-1] != "A" else "B")  # one character off
            for path in ("/", "/ws"):
                try:
                    urllib.request.urlopen(f"http://{base}{path}?token={tok}", timeout=5)
                    out.add("http 200")
                except urllib.error.HTTPError as exc:
                    assert exc.code in (403, 404), (tok, exc.code)  # (/ws over plain HTTP: 404)
                    out.add(f"http {exc.code}")
            with pytest.raises(InvalidStatus) as err:
                connect(f"ws://{base}/ws?token={tok}", open_timeout=5).close()
            assert err.value.response.status_code == 403
            out.add("ws 403")
    assert out.counts["http 200"] == 0
    out.report()


# ---------------------------------------------------------------- raw frames


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_case(rng: random.Random, kind: str, payload: bytes) -> bytes:
    """The bytes of one hostile frame case."""
    if kind == "bad utf8":
        return frame(0x1, b"\xff" + payload)
    if kind == "binary":
        return frame(0x2, payload)
    if kind == "reserved opcode":
        return frame(rng.choice([0x3, 0x7, 0xB]), payload)
    if kind == "continuation":
        return frame(0x0, payload)
    if kind == "fragmented":
        return frame(0x1, b'{"type": ', fin=False) + frame(0x0, b'"ping"}')
    if kind == "oversize":
        return frame(0x1, b"x" * (1 << 20 | 7))
    if kind == "close code":
        return frame(0x8, rng.randrange(65536).to_bytes(2, "big"))
    return frame(0x9, payload[:100])  # ping


def test_raw_frames_never_break_the_server(trouble: Trouble) -> None:
    rng = random.Random(31)
    out = Outcomes("monitor frames")
    g = game()
    before = g.to_json()
    with serve(g) as m, contextlib.ExitStack() as stack:
        for _ in range(40 * SCALE):
            c = stack.enter_context(ws(m))
            c.recv(timeout=10)
            kind = rng.choice(["bad utf8", "binary", "reserved opcode", "continuation",
                               "fragmented", "oversize", "close code", "ping"])
            payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
            data = raw_case(rng, kind, payload)
            try:
                c.socket.sendall(data + frame(0x1, b'{"type": "probe"}'))  # (then a probe)
                reply = answer(c)
                out.add(f"{kind}: {reply['type']}")
            except (ConnectionClosed, TimeoutError, OSError):
                out.add(f"{kind}: closed")
            finally:
                c.close()
        with ws(m) as c:  # still serving
            assert json.loads(c.recv(timeout=10))["type"] == "hello"
    assert g.to_json() == before
    out.report()


# ---------------------------------------------------------------- message shapes, flood


def test_messages_of_every_shape_get_one_answer_and_watching_changes_nothing(
        trouble: Trouble) -> None:
    rng = random.Random(32)
    out = Outcomes("monitor messages (watch)")
    g = game()
    with serve(g) as m, ws(m) as c:
        for i in range(400 * SCALE):
            if i % 50 == 0:  # the game moves on between messages, on its own thread
                step(g, "cultist")
            before = g.to_json()
            msg = rand_message(rng, m.hub.recorder.version)
            if rng.random() < 0.3:  # a real moment: its state comes back, read-only
                msg = {"type": rng.choice(["travel", "save"]),
                       "moment": rng.randrange(m.hub.recorder.version)}
            c.send(json.dumps(msg) if rng.random() < 0.95 else rand_text(rng, 30))
            reply = answer(c)
            assert reply["type"] in ("error", "state", "save"), (msg, reply)
            assert g.to_json() == before  # no message of a watched game reaches it
            out.add(reply["type"])
    out.report()


def test_a_flood_on_one_connection_is_answered_in_order(trouble: Trouble) -> None:
    with serve(game()) as m, ws(m) as c:
        n = 2_500 * SCALE
        for i in range(n):
            c.send(json.dumps({"type": "travel", "moment": -1 - i}))
        got = 0
        while got < n:
            msg = json.loads(c.recv(timeout=30))
            if msg["type"] in PUSHED:
                continue
            assert msg == {"type": "error", "error": f"moment {-1 - got} has no kept state"}
            got += 1
    print(f"[monitor flood] {n} messages on one connection, {got} answers in order")


# ---------------------------------------------------------------- clients, drops, close

FLOOD = """
import sys
from websockets.sync.client import connect
from websockets.exceptions import ConnectionClosed
with connect(f"ws://127.0.0.1:{sys.argv[1]}/ws?token={sys.argv[2]}", open_timeout=10) as c:
    c.recv(timeout=10)
    print("flooding", flush=True)
    try:
        while True:
            c.send('{"type": "travel", "moment": 1}')
    except (ConnectionClosed, OSError):
        pass
"""


def test_many_clients_drops_and_a_close_while_busy(trouble: Trouble) -> None:
    rng = random.Random(33)
    g = game()
    m = serve(g)
    stack = contextlib.ExitStack()
    clients = [stack.enter_context(ws(m)) for _ in range(40 * SCALE)]
    for c in clients:
        assert json.loads(c.recv(timeout=10))["type"] == "hello"
    drops = 0
    for i in range(100 * SCALE):  # abrupt drops: mid-handshake, mid-frame, after hello
        s = socket.create_connection(("127.0.0.1", m.port), timeout=5)
        where = i % 3
        if where == 0:
            s.sendall(b"GET /ws?token=" + m.token.encode() + b" HTTP/1.1\r\nHost: x\r\nUpg")
        elif where == 1:
            s.sendall(b"GET /ws?token=" + m.token.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                      b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            s.recv(1024)
            s.sendall(frame(0x1, b'{"type": "travel", "moment": 1}')[: rng.randrange(2, 20)])
        s.close()
        drops += 1
    for _ in range(30 * SCALE):  # the game moves; every client is pushed each change
        step(g)
    # four clients in other processes (as browsers are) flood it while it closes (more would
    # only compete with the server for this machine's two cores)
    flooders = [subprocess.Popen([sys.executable, "-c", FLOOD, str(m.port), m.token],
                                 stdout=subprocess.PIPE, text=True) for _ in range(4)]
    for f in flooders:
        assert f.stdout is not None and f.stdout.readline().strip() == "flooding"
    m.close()
    assert not m._thread.is_alive()
    for f in flooders:
        assert f.wait(30) == 0
    stack.close()
    assert g._e.subs.get(gcs.events.Event) in (None, [])  # detached
    print(f"[monitor clients] {len(clients)} clients, {drops} abrupt drops, closed while 4 flooded")


# ---------------------------------------------------------------- play mode: refusals change nothing


def test_play_mode_message_sequences_refusals_change_nothing() -> None:
    rng = random.Random(34)
    out = Outcomes("monitor messages (play)")
    content = gcs.builtin_content()
    session = PlaySession(content, "jaw_worm", 7, deck=["strike", "defend", "bash+", "armaments"] * 3)
    hub = Hub(session.game, session)
    session.begin()
    for _ in range(500 * SCALE):
        g = session.game
        legal = [str(a) for a in g.legal_actions()]
        r = rng.random()
        if r < 0.5 and legal:
            msg: Any = {"type": "act", "action": rng.choice(legal)}
        elif r < 0.55:
            msg = {"type": "fork", "moment": rng.randrange(0, hub.recorder.version + 2)}
        elif r < 0.6:
            msg = {"type": "branch", "id": rng.randrange(-1, len(session.branches) + 1)}
        elif r < 0.65:
            msg = {"type": "next", "encounter": rng.choice(["cultist", "jaw_worm", "nope", None])}
        else:
            msg = rand_message(rng, hub.recorder.version)
        before = (g.to_json(), len(session.branches), session.current.id, list(session.current.steps))
        reply = hub.handle(msg) if isinstance(msg, dict) else {"type": "error"}
        assert reply is not None
        kind = reply["type"]
        if kind in ("refused", "error", "hint"):  # (a hint reads, never plays)
            now = (session.game.to_json(), len(session.branches), session.current.id,
                   list(session.current.steps))
            assert session.game is g and now == before, (msg, reply)
        name = msg.get("type") if isinstance(msg, dict) else None
        out.add(f"{name if isinstance(name, str) and name in TYPES else 'odd type'}: {kind}")
    # every branch still re-runs from its steps to its state
    for b in session.branches:
        data = session.replay_data(b)
        from gcs.monitor.play import recording

        assert recording(content, data, source=b.name).game == b.game
    hub.close()
    out.add(f"branches {len(session.branches)}")
    out.report()


# ---------------------------------------------------------------- a watched game and its twin


def test_a_watched_game_plays_and_logs_as_its_unwatched_twin() -> None:
    content = gcs.builtin_content()
    battles = 0
    for seed in range(6 * SCALE):
        g, twin = gcs.Game(content, seed=seed), gcs.Game(content, seed=seed)
        twin.event_log  # noqa: B018  # (logs as it goes, as the watched one does)
        with serve(g):
            for _ in range(3):
                if g.last_result is False:
                    break  # (a lost run takes no further battle; the twin lost it too)
                for x in (g, twin):
                    x.start_battle(random.Random(seed).choice(sorted(content.encounters)))
                    while x.legal_actions():
                        x.apply(x.legal_actions()[0])
                battles += 1
        assert g.to_json() == twin.to_json()
        assert [type(e) for e in g.event_log] == [type(e) for e in twin.event_log]
    print(f"[monitor twins] {battles} battles watched, each equal to its unwatched twin")

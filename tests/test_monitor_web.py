"""The Game Card Monitor as a live web page, checked in a real headless browser (Debian's
chromium driven by Playwright): watch a game driven from Python, time travel, play mode,
safety (token, malformed messages). Screenshots of each tab go to build/artifacts/monitor/."""

from __future__ import annotations

import base64
import json
import re
import select
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from monitor_support import ROOT, T, shot, tab, version
from playwright.sync_api import Page, expect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import gcs
from gcs.monitor import serve
from gcs.monitor.play import PlaySession
from gcs.monitor.server import Monitor, play
from gcs.sim.replay import replay


def after(pg: Page, before: str) -> None:
    """Wait until the page has drawn a newer live state than ``before``."""
    pg.wait_for_function("v => (document.body.dataset.version || '') !== v", arg=before, timeout=T)


def content() -> gcs.Content:
    return gcs.builtin_content()


# ---------------------------------------------------------------- watching a game


def test_import_gcs_monitor_needs_no_web_stack() -> None:
    code = ("import sys, gcs.monitor; from gcs.monitor import render, serve; "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'websockets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    import gcs.monitor

    assert gcs.monitor.Monitor is Monitor


def test_watch_play_strike_from_python_updates_hp_and_discard(page: Page) -> None:
    g = gcs.Game(content(), seed=1)
    g.start_battle("jaw_worm")
    with serve(g) as m:
        assert m.url.startswith("http://127.0.0.1:") and "token=" in m.url
        page.goto(m.url)
        enemy = page.locator("#units-row .unit.enemy").first
        expect(enemy.locator(".hp")).to_have_text("43/43", timeout=T)
        tab(page, "pile")
        expect(page.locator("#pile-discard .card")).to_have_count(0, timeout=T)
        strike = next(c for c in g.hand() if c.card_id == "strike")
        assert g.try_play_card(strike, g.enemies[0])  # the user's thread drives the game
        expect(enemy.locator(".hp")).to_have_text("37/43", timeout=T)
        moved = page.locator(f"#pile-discard .card[data-uid='{strike.uid}']")
        expect(moved).to_have_count(1)
        expect(moved).to_have_class(re.compile("moved"))  # a card that moved flashes
        expect(page.locator(f"#hand .card[data-uid='{strike.uid}']")).to_have_count(0)
        expect(page.locator("#energy")).to_have_text("2/3")
        for name in ("phase", "pile", "units", "events"):
            tab(page, name)
            shot(page, f"watch_{name}")
        g.end_player_turn()
        expect(page.locator("#turn")).to_have_text("2", timeout=T)
        tab(page, "phase")
        expect(page.locator("#history .turn")).to_have_count(3)  # turns 0, 1 and 2
        expect(page.locator("#phase-table tr.now td").first).to_have_text("PLAYER_PHASE")


def test_watch_shows_draw_order_only_in_the_debug_toggle(page: Page) -> None:
    g = gcs.Game(content(), seed=3)
    g.start_battle("jaw_worm")
    with serve(g) as m:
        page.goto(m.url)
        tab(page, "pile")
        draw = page.locator("#pile-draw .card")
        expect(draw).to_have_count(len(g.draw_pile()), timeout=T)
        names = sorted(c.name for c in g.draw_pile())
        assert [page.locator("#pile-draw .card .cname").nth(i).inner_text()
                for i in range(len(names))] == names  # no order: sorted by name
        expect(page.locator("#pile-draw .top")).to_have_count(0)
        page.check("#draw-order")
        top = g.draw_pile()[-1]
        expect(page.locator("#pile-draw .card").first).to_have_attribute("data-uid", str(top.uid))
        expect(page.locator("#pile-draw .card").first.locator(".top")).to_have_text("TOP")


def test_watch_choice_locks_input_and_says_why(page: Page) -> None:
    g = gcs.Game(content(), seed=1)
    g.set_master_deck(["armaments", "strike", "strike", "strike", "strike"])
    g.start_battle("jaw_worm")
    with serve(g) as m:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        arm = next(c for c in g.hand() if c.card_id == "armaments")
        g.try_play_card(arm)
        assert g.is_waiting_for_choice
        expect(page.locator("#lock-banner")).to_be_visible(timeout=T)
        expect(page.locator("#lock-title")).to_have_text("Choice:")
        expect(page.locator("#choice-prompt")).to_have_text("Choose a card to Upgrade.")
        expect(page.locator("#choice-cands .card")).to_have_count(4)
        expect(page.locator("#choice-confirm")).to_be_hidden()  # watching: no input
        expect(page.locator("#phase-allowed")).to_have_text("answer the Choice")
        g.choose([0])
        expect(page.locator("#lock-banner")).to_be_hidden(timeout=T)
        expect(page.locator("#hand .card.upgraded")).to_have_count(1)


def test_watch_wait_and_animation_gate_banners(page: Page) -> None:
    from flow_support import card, seq, start

    from gcs.flow import nodes as N

    g = start(card("slow", 0, on_play=seq(N.Wait(1.5), N.AnimationGate("swing"))))
    with serve(g) as m:
        inst = g.add_card_to_hand("slow")
        page.goto(m.url)
        expect(page.locator(f"#hand .card[data-uid='{inst.uid}']")).to_have_count(1, timeout=T)
        expect(page.locator("#lock-banner")).to_be_hidden()
        assert g.try_play_card(inst)
        expect(page.locator("#lock-title")).to_have_text("Wait:", timeout=T)
        expect(page.locator("#lock-why")).to_contain_text("after 1.5 s more")
        expect(page.locator("#phase-allowed")).to_have_text("nothing: the Wait holds the effect wave")
        expect(page.locator("#hand")).to_have_class(re.compile("locked"))
        g.advance_time(1.5)
        expect(page.locator("#lock-title")).to_have_text("Animation Gate:", timeout=T)
        expect(page.locator("#lock-why")).to_contain_text("'swing'")
        shot(page, "watch_gate")
        g.complete_animation("swing")
        expect(page.locator("#lock-banner")).to_be_hidden(timeout=T)
        expect(page.locator("#hand")).not_to_have_class(re.compile("locked"))


def _hand(pg: Page) -> list[int]:
    return [int(x) for x in pg.locator("#hand .card").evaluate_all(
        "els => els.map(e => e.dataset.uid)")]


def test_time_travel_to_the_first_event_shows_the_opening_hand(page: Page) -> None:
    g = gcs.Game(content(), seed=1)
    with serve(g) as m:
        g.start_battle("jaw_worm")
        opening = [c.uid for c in g.hand()]
        strike = next(c for c in g.hand() if c.card_id == "strike")
        g.try_play_card(strike, g.enemies[0])
        g.end_player_turn()
        page.goto(m.url)
        expect(page.locator("#turn")).to_have_text("2", timeout=T)
        tab(page, "events")
        page.locator("#events").evaluate("e => { e.scrollTop = 0; }")
        rows = page.locator("#events .event-row")
        expect(rows.first).to_have_attribute("data-type", "PhaseChanged", timeout=T)
        # the first event (NONE -> INITIALIZE) was published by start_battle: its moment is
        # the battle as that call left it, the opening hand on turn 1, never a half-run wave
        rows.first.click()
        expect(page.locator("#travel-banner")).to_be_visible(timeout=T)
        page.wait_for_function("document.body.dataset.at === '1'", timeout=T)
        expect(page.locator("#hand .card")).to_have_count(5)
        assert _hand(page) == opening
        expect(page.locator("#turn")).to_have_text("1")
        expect(page.locator("#phase-now")).to_have_text("PLAYER_PHASE")
        expect(page.locator("#units-row .unit.enemy .hp")).to_have_text("43/43")
        expect(page.locator("#events .event-row.wave")).to_have_count(11)  # start_battle's wave
        shot(page, "travel_events")
        tab(page, "pile")
        expect(page.locator("#pile-discard .card")).to_have_count(0)
        expect(page.locator("#end-turn")).to_be_hidden()
        # the Strike's wave: one card fewer, the worm hit, the Strike in Discard
        tab(page, "events")
        page.locator("#events .event-row[data-type=CardPlayed]").first.click()
        expect(page.locator("#units-row .unit.enemy .hp")).to_have_text("37/43", timeout=T)
        assert _hand(page) == [u for u in opening if u != strike.uid]
        # live again while the game moves on
        g.end_player_turn()
        page.click("#back-live")
        expect(page.locator("#travel-banner")).to_be_hidden(timeout=T)
        expect(page.locator("#turn")).to_have_text("3", timeout=T)
        assert _hand(page) == [c.uid for c in g.hand()]


def test_watching_never_changes_the_game() -> None:
    g = gcs.Game(content(), seed=5)
    twin = gcs.Game(content(), seed=5)
    with serve(g):
        for x in (g, twin):
            x.start_battle("jaw_worm")
            while x.is_battle_active and x.turn_number < 4:
                x.apply(x.legal_actions()[0])
    assert g.to_json() == twin.to_json()
    assert [type(e) for e in g.event_log] == [type(e) for e in twin.event_log]
    assert g._e.subs.get(gcs.events.Event) in (None, [])  # closing detached the monitor


# ---------------------------------------------------------------- safety


def test_page_and_websocket_need_the_token() -> None:
    g = gcs.Game(content(), seed=1)
    with serve(g) as m:
        base = m.url.split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(base + "?token=wrong", timeout=5)
        assert err.value.code == 403
        with urllib.request.urlopen(m.url, timeout=5) as r:
            assert r.status == 200 and b"Game Card Monitor" in r.read()
        ws = f"ws://127.0.0.1:{m.port}/ws"
        with pytest.raises(InvalidStatus):
            connect(ws + "?token=wrong", open_timeout=5).close()
        with connect(f"{ws}?token={m.token}", open_timeout=5) as c:
            assert json.loads(c.recv(timeout=5))["type"] == "hello"


def test_malformed_messages_get_an_error_and_the_server_keeps_serving(page: Page) -> None:
    g = gcs.Game(content(), seed=1)
    g.start_battle("jaw_worm")
    before = g.to_json()
    with serve(g) as m, connect(f"ws://127.0.0.1:{m.port}/ws?token={m.token}",
                                open_timeout=5) as c:
        hostile: list[str | bytes] = [
            "not json", "[1, 2]", '{"no": "type"}', '{"type": "travel", "seq": "x"}',
            '{"type": "travel", "seq": 99999}', '{"type": "act", "action": "play 0 @e0"}',
            '{"type": "next"}', b"\x00\x01binary", "x" * 100_000, '{"type": "travel"',
            "[" * 8000 + "]" * 8000, '{"type": "act", "action": ["play", 0]}', "null",
        ]
        for msg in hostile:
            c.send(msg)
            while True:
                reply = json.loads(c.recv(timeout=5))
                if reply["type"] not in ("hello", "events", "moments", "state"):
                    break
            assert reply["type"] == "error" and reply["error"], (msg, reply)
        assert g.to_json() == before  # watching only: nothing reached the game
        page.goto(m.url)  # still serving, still pushing
        expect(page.locator("#units-row .unit.enemy .hp")).to_have_text("43/43", timeout=T)
        g.apply(g.legal_actions()[0])
        expect(page.locator("#energy")).not_to_have_text("3/3", timeout=T)


# ---------------------------------------------------------------- play mode


def _act_and_wait(pg: Page, selector: str) -> None:
    v = version(pg)
    pg.click(selector)
    after(pg, v)


def _play_strike(pg: Page) -> None:
    pg.click("#hand .card[data-card=strike] >> nth=0")
    expect(pg.locator("#units-row .unit.enemy.targetable")).to_have_count(1, timeout=T)
    _act_and_wait(pg, "#units-row .unit.enemy.targetable")


def test_play_in_the_browser_choice_battle_reward_next(page: Page, tmp_path: Path) -> None:
    save = tmp_path / "replay.json"
    session = PlaySession(content(), "jaw_worm", 1,
                          deck=["armaments", "strike", "strike", "strike", "strike"], save=save)
    m: Monitor = play(session)
    try:
        page.goto(m.url)
        expect(page.locator("#mode")).to_have_text("PLAY", timeout=T)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        hp = page.locator("#units-row .unit.enemy .hp")
        expect(hp).to_have_text("43/43")
        # an Armaments-style Choice: pick one card, confirm (min 1, max 1)
        page.click("#hand .card[data-card=armaments]")
        expect(page.locator("#choice")).to_be_visible(timeout=T)
        expect(page.locator("#lock-title")).to_have_text("Choice:")
        expect(page.locator("#choice-confirm")).to_be_disabled()
        page.click("#choice-cands .card >> nth=0")
        expect(page.locator("#choice-confirm")).to_be_enabled()
        shot(page, "play_choice")
        _act_and_wait(page, "#choice-confirm")
        expect(page.locator("#choice")).to_be_hidden(timeout=T)
        expect(page.locator("#hand .card.upgraded")).to_have_count(1)
        # click a card, then its target
        page.click("#hand .card.upgraded")
        _act_and_wait(page, "#units-row .unit.enemy.targetable")
        expect(hp).to_have_text("34/43", timeout=T)
        _play_strike(page)
        expect(hp).to_have_text("28/43", timeout=T)
        expect(page.locator("#energy")).to_have_text("0/3")
        # a card the energy does not cover looks unplayable, says why, and cannot be selected
        strike = page.locator("#hand .card[data-card=strike] >> nth=0")
        expect(strike).to_have_class(re.compile("unplayable"))
        expect(strike).to_have_attribute("title", re.compile("cannot play: .*energy"))
        strike.click()
        expect(page.locator("#units-row .unit.enemy.targetable")).to_have_count(0)
        expect(page.locator("#hand .card.selected")).to_have_count(0)
        # an illegal action sent anyway shows the engine's reason and changes nothing
        page.evaluate("act('play 0 @e0')")
        expect(page.locator("#toast")).to_contain_text("illegal action", timeout=T)
        expect(page.locator("#toast")).to_contain_text("energy")
        expect(hp).to_have_text("28/43")
        # fight on until the rewards
        for _ in range(20):
            if page.locator("#rewards").is_visible():
                break
            _act_and_wait(page, "#end-turn")
            while (page.locator("#hand .card.playable[data-card=strike]").count()
                   and not page.locator("#rewards").is_visible()):
                _play_strike(page)
        expect(page.locator("#rewards")).to_be_visible(timeout=T)
        expect(page.locator("#result-banner")).to_contain_text("rewards")
        shot(page, "play_rewards")
        _act_and_wait(page, "#reward-list .take >> nth=0")
        expect(page.locator("#next")).to_be_visible(timeout=T)
        expect(page.locator("#result-banner")).to_contain_text("Battle won")
        expect(page.locator("#rewards")).to_be_hidden()
        data = json.loads(save.read_text())
        assert data["won"] is True and data["actions"][-1].startswith("reward")
        assert replay(content(), data).last_result is True  # `gcs replay` accepts it
        # the next battle, same run: the reward is in the master deck
        page.select_option("#next-encounter", "cultist")
        _act_and_wait(page, "#next-battle")
        expect(page.locator("#units-row .unit.enemy .name")).to_have_text("Cultist", timeout=T)
        expect(page.locator("#phase-now")).to_have_text("PLAYER_PHASE")
        with m.hub.recorder.lock:
            live = m.hub.recorder.live
        assert len(live.get_master_deck()) == 6
        run = json.loads(save.read_text())  # two battles now: the run's replay
        assert run["format"] == "gcs-monitor-run/1" and run["seed"] == 1
        assert [b["encounter"] for b in run["battles"]] == ["jaw_worm", "cultist"]
        assert run["battles"][0]["actions"] == data["actions"] and run["battles"][1]["actions"] == []
    finally:
        m.close()


def test_play_hint_ranks_the_legal_actions_and_a_click_plays_one(page: Page) -> None:
    """The Hint button asks the search agent; its ranked actions show (the best marked) until
    the game moves on; clicking one plays it."""
    session = PlaySession(content(), "gremlin_nob", 3)
    m: Monitor = play(session)
    try:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        expect(page.locator("#hints")).to_be_hidden()
        page.click("#hint")
        rows = page.locator("#hints .hint-row")
        # a search of 200 iterations on the server: ~0.1 s on an idle core, seconds on a busy one
        expect(rows.first).to_be_visible(timeout=6 * T)
        with m.hub.recorder.lock:
            legal = sorted(str(a) for a in m.hub.recorder.live.legal_actions())
        assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.action)")) == legal
        expect(page.locator("#hints .hint-row.best")).to_have_count(1)
        expect(rows.first).to_have_class(re.compile("best"))
        # in the table's words: a card's name (and its target's), or End Turn
        names = rows.locator(".hint-action").all_inner_texts()
        assert "End Turn" in names and any(n.startswith("Strike → Gremlin Nob") for n in names)
        shot(page, "play_hint")
        best = rows.first.get_attribute("data-action")
        v = version(page)
        rows.first.click()
        after(page, v)
        expect(page.locator("#hints")).to_be_hidden(timeout=T)  # a hint holds for its place only
        assert session.current.steps[-1] == ("act", best)
        expect(page.locator("#hint")).to_be_enabled()
    finally:
        m.close()


# a 2x2 red PNG
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a73"
                    "0000001049444154789c63f8cfc000440c100a001fee03fd8b5f14d40000000049"
                    "454e44ae426082")


def test_a_cards_art_shows_on_its_face_from_the_pack_or_a_url(page: Page, tmp_path: Path) -> None:
    """``art`` (seed 004: a definition's picture): a pack-relative path is served from the pack
    (token needed, nothing outside it, pictures only); a URL is used as it is; no art, no img."""
    from gcs.content.loader import BUILTIN

    pack = tmp_path / "pack"
    shutil.copytree(BUILTIN, pack)
    (pack / "art").mkdir()
    (pack / "art" / "strike.png").write_bytes(PNG)
    (tmp_path / "secret.png").write_bytes(PNG)
    cards = (pack / "cards.yaml").read_text(encoding="utf-8")
    cards = cards.replace("strike:\n  name: Strike\n", "strike:\n  name: Strike\n  art: art/strike.png\n", 1)
    url = "data:image/png;base64," + base64.b64encode(PNG).decode()
    cards = cards.replace("defend:\n  name: Defend\n", f"defend:\n  name: Defend\n  art: \"{url}\"\n", 1)
    (pack / "cards.yaml").write_text(cards, encoding="utf-8")
    content = gcs.load_content(pack)
    assert content.card("strike").art == "art/strike.png"
    session = PlaySession(content, "jaw_worm", 1, deck=["strike", "defend", "bash"] * 2)
    m: Monitor = play(session, art=pack)
    try:
        page.goto(m.url)
        strike = page.locator("#hand .card[data-card=strike] img.cart").first
        expect(strike).to_be_visible(timeout=T)
        page.wait_for_function("() => [...document.querySelectorAll('#hand img.cart')]"
                               ".every(i => i.complete && i.naturalWidth === 2)", timeout=T)
        assert page.locator("#hand .card[data-card=defend] img.cart").count() >= 1
        expect(page.locator("#hand .card[data-card=bash] img")).to_have_count(0)
        shot(page, "card_art")
        base = m.url.split("?")[0].rstrip("/")
        tok = m.url.split("token=")[1]
        assert http_get(f"{base}/art/art/strike.png?token={tok}") == (200, PNG)
        for bad in ("art/strike.png?token=x", "../secret.png?token=" + tok,
                    "%2e%2e/secret.png?token=" + tok, "cards.yaml?token=" + tok,
                    "art/none.png?token=" + tok):
            assert http_get(f"{base}/art/{bad}")[0] in (403, 404), bad
    finally:
        m.close()


def http_get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def test_command_prints_the_url_first_and_serves_play_mode() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "gcs.monitor", "--encounter", "jaw_worm",
                             "--seed", "2", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "the command printed nothing within 30 s"
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "/?token=" in url
        with urllib.request.urlopen(url, timeout=5) as r:
            assert r.status == 200
        port, token = url.split(":")[2].split("/")[0], url.split("token=")[1]
        with connect(f"ws://127.0.0.1:{port}/ws?token={token}", open_timeout=5) as c:
            assert json.loads(c.recv(timeout=5))["mode"] == "play"
    finally:
        proc.terminate()
        proc.wait(10)


def test_command_refuses_an_unknown_encounter() -> None:
    from gcs.monitor.command import main

    assert main(["--encounter", "no_such_thing"]) == 2


# ---------------------------------------------------------------- play mode without a page


def test_play_session_refuses_illegal_actions_and_starts_a_new_run_after_a_loss(
        tmp_path: Path) -> None:
    from gcs.monitor.server import Hub

    save = tmp_path / "r.json"
    session = PlaySession(content(), "jaw_worm", 4, deck=["defend"] * 5, save=save)
    hub = Hub(session.game, session)  # no server: nothing is pushed
    session.begin()
    before = session.game.to_json()
    reply = hub.handle({"type": "act", "action": "play 9"})
    assert reply is not None and reply["type"] == "refused"
    assert "hand index 9 out of range" in reply["error"]
    assert session.game.to_json() == before
    assert hub.handle({"type": "next"}) == {
        "type": "refused", "action": "next",
        "error": "a battle is still going on: finish it first"}
    while session.game.is_battle_active:
        assert hub.handle({"type": "act", "action": "end"}) == {"type": "ok", "action": "end"}
    assert session.lost
    data = json.loads(save.read_text())
    assert data["won"] is False and set(data["actions"]) == {"end"}
    assert replay(content(), data).last_result is False
    old = session.game
    assert hub.handle({"type": "next", "encounter": "cultist"}) == {"type": "ok", "action": "next"}
    assert session.game is not old and hub.generation == 1 and hub.recorder.game is session.game
    assert session.game.is_battle_active and session.game.run_hp[0] > 0
    assert hub.handle({"type": "next", "encounter": 3})["type"] == "error"  # type: ignore[index]
    # the new run is a branch of its own (--save follows it); the lost run stays, as it ended
    now = json.loads(save.read_text())
    assert (now["encounter"], now["actions"], now["won"]) == ("cultist", [], None)
    assert [b.name for b in session.branches] == ["run", "run 2"]
    assert hub.handle({"type": "replay", "branch": 0}) == {"type": "replay", "data": data}
    hub.close()

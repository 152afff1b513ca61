"""The monitor page's views, in a real headless chromium (as tests/test_monitor_web.py): the
Events tab as a virtual list (grouped, searchable, following the bottom), time travel by
buttons, slider and arrow keys over moments, branches (play from here, switch, save), a
recording opened read-only, the State tab, the final board, unplayable cards, card faces that
never clip their text. Screenshots of each view go to build/artifacts/monitor/."""

from __future__ import annotations

import json
import re
import select
import subprocess
import sys
from pathlib import Path

from monitor_support import ROOT, T, enduring_content, shot, step, tab, version
from playwright.sync_api import Page, expect

import gcs
from gcs.monitor import serve
from gcs.monitor.play import PlaySession, recording
from gcs.monitor.server import play
from gcs.sim.replay import replay


def acted(pg: Page, selector: str) -> None:
    """Click and wait until the page has drawn the state that click made."""
    v = version(pg)
    pg.click(selector)
    pg.wait_for_function("v => (document.body.dataset.version || '') !== v", arg=v, timeout=T)


def at(pg: Page) -> str:
    return str(pg.evaluate("document.body.dataset.at || ''"))


def content() -> gcs.Content:
    return gcs.builtin_content()


# ---------------------------------------------------------------- the Events tab (items 1, 6)


def test_events_tab_is_a_virtual_list_grouped_searchable_and_following(page: Page) -> None:
    g = gcs.Game(enduring_content(), seed=2)
    with serve(g) as m:
        while m.hub.recorder.next_seq < 3_000:
            step(g)
        page.goto(m.url)
        tab(page, "events")
        total = m.hub.recorder.next_seq
        expect(page.locator("#event-count")).to_have_text(f"{total} of {total} events", timeout=T)
        rows = page.locator("#events .event-row")
        assert rows.count() < 80  # only the rows in view are in the page
        # scrolled to the bottom, a new event shows at once (the list follows it)
        step(g)
        newest = m.hub.recorder.next_seq - 1
        expect(page.locator(f"#events .event-row[data-seq='{newest}']")).to_be_visible(timeout=T)
        # grouped by battle and turn
        groups = page.locator("#events .event-group")
        expect(groups.first).to_contain_text(re.compile(r"Battle \d+ · jaw_worm · (turn \d+|setup)"))
        # scrolled up, it stays where the reader is
        page.locator("#events").evaluate("e => { e.scrollTop = 0; }")
        expect(page.locator("#events .event-row[data-seq='0']")).to_be_visible(timeout=T)
        count = page.locator("#event-count").inner_text()
        step(g)
        expect(page.locator("#event-count")).not_to_have_text(count, timeout=T)
        expect(page.locator("#events .event-row[data-seq='0']")).to_be_visible()
        assert page.locator("#events").evaluate("e => e.scrollTop") == 0
        # search: type text, payloads included
        page.fill("#event-search", "bash")
        expect(page.locator("#event-count")).to_contain_text(" of ", timeout=T)
        shown = page.locator("#events .event-row")
        expect(shown.first).to_contain_text("bash")
        n = int(page.locator("#event-count").inner_text().split()[0])
        want = sum(1 for r in m.hub.recorder.events if "bash" in (r.type + json.dumps(r.data)).lower())
        assert n == want > 0
        shot(page, "events_grouped_search")
        page.fill("#event-search", "")
        page.select_option("#event-type", "CardPlayed")
        expect(page.locator("#events .event-row").first).to_have_attribute("data-type", "CardPlayed")


# ---------------------------------------------------------------- time travel (item 6)


def test_time_travel_by_buttons_slider_and_arrow_keys_steps_inside_end_turn(page: Page) -> None:
    g = gcs.Game(content(), seed=1)
    g.start_battle("jaw_worm")
    with serve(g) as m:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        before = page.locator("#t-slider").evaluate("e => Number(e.max)")
        hp_before = g.player.hp if g.player else 0
        g.end_player_turn()  # one call, three moments: turn end done, enemies acted, the call
        expect(page.locator("#turn")).to_have_text("2", timeout=T)
        page.wait_for_function(f"Number(document.querySelector('#t-slider').max) === {before + 3}",
                               timeout=T)
        page.keyboard.press("ArrowLeft")  # the enemies have acted, nothing drawn yet
        expect(page.locator("#travel-banner")).to_contain_text("enemies acted", timeout=T)
        expect(page.locator("#hand .card")).to_have_count(0)
        assert g.player is not None
        expect(page.locator("#units-row .unit.player .hp")).to_have_text(f"{g.player.hp}/80")
        assert g.player.hp < hp_before  # (the worm hit)
        expect(page.locator("#hp")).to_have_text(f"{g.player.hp}/80")  # the battle's HP, not the run's
        shot(page, "time_travel")
        page.click("#t-prev")  # the turn end done: hand discarded, the enemy not yet acted
        expect(page.locator("#travel-banner")).to_contain_text("turn end done", timeout=T)
        expect(page.locator("#units-row .unit.player .hp")).to_have_text(f"{hp_before}/80")
        page.keyboard.press("ArrowLeft")  # the battle as start_battle left it: the opening hand
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        expect(page.locator("#turn")).to_have_text("1")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#travel-banner")).to_contain_text("turn end done", timeout=T)
        page.locator("#t-slider").fill(str(before + 3))  # the slider's end: live
        expect(page.locator("#travel-banner")).to_be_hidden(timeout=T)
        expect(page.locator("#hand .card")).to_have_count(5)
        page.click("#t-first")
        expect(page.locator("#travel-banner")).to_be_visible(timeout=T)
        page.click("#t-live")
        expect(page.locator("#travel-banner")).to_be_hidden(timeout=T)


# ---------------------------------------------------------------- State tab (item 6)


def test_state_tab_shows_legal_actions_raw_json_and_downloads(page: Page, tmp_path: Path) -> None:
    session = PlaySession(content(), "jaw_worm", 1)
    m = play(session)
    try:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        tab(page, "state")
        legal = [str(a) for a in session.game.legal_actions()]
        expect(page.locator("#legal .legal-action")).to_have_count(len(legal), timeout=T)
        assert page.locator("#legal .legal-action").all_inner_texts() == legal
        raw = json.loads(page.locator("#raw").inner_text())
        assert raw["legal"] == legal and raw["phase"] == "PLAYER_PHASE"
        shot(page, "raw_state")
        with page.expect_download() as dl:
            page.click("#dl-view")
        assert json.loads(Path(dl.value.path()).read_text()) == raw
        with page.expect_download() as dl:
            page.click("#dl-save")
        save = json.loads(Path(dl.value.path()).read_text())
        assert gcs.Game.from_json(content(), save) == session.game
        acted(page, "#legal .legal-action >> text=end")  # a legal action applies from the list
        assert session.game.turn_number == 2
    finally:
        m.close()


# ---------------------------------------------------------------- forks (play from here)


def test_play_from_here_makes_a_branch_that_can_be_switched_and_saved(page: Page) -> None:
    session = PlaySession(content(), "jaw_worm", 1)
    m = play(session)
    try:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        hp = page.locator("#units-row .unit.enemy .hp")
        page.click("#hand .card[data-card=strike] >> nth=0")
        acted(page, "#units-row .unit.enemy.targetable")
        expect(hp).to_have_text("37/43", timeout=T)
        acted(page, "#end-turn")
        main_state = session.game.to_json()
        # back to the battle's start (a call's end: it can be played on from)
        for _ in range(4):
            page.keyboard.press("ArrowLeft")
        expect(page.locator("#travel-banner")).to_contain_text("start jaw_worm", timeout=T)
        expect(page.locator("#t-fork")).to_be_enabled()
        page.click("#t-fork")
        expect(page.locator("#branch option")).to_have_count(2, timeout=T)
        expect(page.locator("#travel-banner")).to_be_hidden()
        expect(hp).to_have_text("43/43")  # the branch starts at that moment, exactly
        page.click("#hand .card[data-card=defend] >> nth=0")
        page.wait_for_function("document.querySelectorAll('#hand .card').length === 4", timeout=T)
        assert session.current.id == 1 and session.current.steps == [("start", "jaw_worm"), ("act", "play 1")]
        shot(page, "branches")
        # the branch's replay: a gcs-replay/1 file that `gcs replay` checks
        with page.expect_download() as dl:
            page.click("#save-replay")
        data = json.loads(Path(dl.value.path()).read_text())
        assert data["actions"] == ["play 1"]
        assert replay(content(), data) == session.game
        # switch back: the first branch as it was
        page.select_option("#branch", "0")
        expect(hp).to_have_text("37/43", timeout=T)
        assert session.current.id == 0 and session.game.to_json() == main_state
        # a moment inside a call cannot be played on from
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#travel-banner")).to_contain_text("enemies acted", timeout=T)
        expect(page.locator("#t-fork")).to_be_disabled()
    finally:
        m.close()


# ---------------------------------------------------------------- a recording, read-only


def test_a_recording_opens_read_only_with_time_travel(page: Page, tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    from gcs.cli import main

    assert main(["record", "--encounter", "cultist", "--seed", "5", "--out", str(f)]) == 0
    proc = subprocess.Popen([sys.executable, "-m", "gcs.monitor", "--replay", str(f)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the command printed nothing within 60 s"
        page.goto(proc.stdout.readline().strip())
        expect(page.locator("#mode")).to_have_text("REPLAY · read-only", timeout=T)
        data = json.loads(f.read_text())
        expect(page.locator("#result-banner")).to_contain_text(
            "Battle won" if data["won"] else "Battle lost", timeout=T)
        expect(page.locator("#end-turn")).to_be_hidden()
        expect(page.locator("#units-row .unit.enemy")).to_have_count(1)  # the final board
        page.click("#t-first")
        expect(page.locator("#travel-banner")).to_be_visible(timeout=T)
        page.keyboard.press("ArrowRight")
        expect(page.locator("#travel-banner")).to_contain_text("start cultist", timeout=T)
        expect(page.locator("#hand .card")).to_have_count(5)
        shot(page, "replay_opened")
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_results_row_opens_as_its_battle(tmp_path: Path) -> None:
    from gcs.cli import main
    from gcs.cli.cmd_replay import row_replay
    from gcs.sim.results import read_rows

    rows = tmp_path / "rows.csv"
    assert main(["simulate", "-e", "jaw_worm", "--battles", "6", "--seed", "2", "--out",
                 str(rows), "--quiet"]) == 0
    want = list(read_rows(rows))[4]
    session = recording(content(), row_replay(rows, 4, None, None, None), source="rows")
    g = session.game
    assert session.read_only and (bool(g.last_result or g.is_waiting_for_reward), g.turn_number) == (
        want["won"], want["turns"])
    assert session.act("end") == "this monitor shows a recording: it is read-only"
    assert session.fork(1) == "this monitor shows a recording: it is read-only"


# ---------------------------------------------------------------- the board (items 2, 3, 4)


def test_final_board_after_a_loss_and_next_defaults_to_the_encounter_played(page: Page) -> None:
    session = PlaySession(content(), "cultist", 4, deck=["defend"] * 5)
    m = play(session)
    try:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        for _ in range(40):
            if not session.game.is_battle_active:
                break
            acted(page, "#end-turn")
        expect(page.locator("#next")).to_be_visible(timeout=T)
        expect(page.locator("#result-banner")).to_contain_text("final board is shown")
        expect(page.locator("#units-row .unit.enemy .name")).to_have_text("Cultist")
        expect(page.locator("#units-row .unit.player .hp")).to_have_text("0/80")
        expect(page.locator("#next-encounter")).to_have_value("cultist")
        tab(page, "pile")
        expect(page.locator("#pile-discard .card")).to_have_count(5)
        shot(page, "final_board")
    finally:
        m.close()


def test_unplayable_cards_are_greyed_and_card_text_is_never_clipped(page: Page) -> None:
    session = PlaySession(content(), "jaw_worm", 1,
                          deck=["armaments", "warcry", "bash", "bash", "bash", "bash"])
    m = play(session)
    try:
        page.goto(m.url)
        expect(page.locator("#hand .card")).to_have_count(5, timeout=T)
        bash = page.locator("#hand .card[data-card=bash]").first
        bash.click()
        acted(page, "#units-row .unit.enemy.targetable")  # 2 energy: 1 left, a Bash costs 2
        bash = page.locator("#hand .card[data-card=bash]").first
        expect(bash).to_have_class(re.compile("unplayable"), timeout=T)
        expect(bash).to_have_attribute("title", re.compile("energy"))
        shot(page, "unplayable")
        tab(page, "pile")
        for cid, text in (("armaments", "combat."), ("warcry", "Draw 1 card.")):
            face = page.locator(f"#pile-master .card[data-card={cid}]").first
            body = face.locator(".ctext")
            expect(body).to_contain_text(text)
            assert body.evaluate("e => e.scrollHeight <= e.clientHeight + 1")  # nothing clipped
            assert face.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
            kw = face.locator(".ckw")
            if kw.count():  # the keyword line sits below the text, never over it
                assert kw.bounding_box()["y"] >= body.bounding_box()["y"] + body.bounding_box()["height"] - 1  # type: ignore[index]
        expect(page.locator("#pile-master .card[data-card=warcry] .ctext")).not_to_contain_text("card(s)")
    finally:
        m.close()


def test_a_reward_is_taken_by_clicking_its_card(page: Page) -> None:
    session = PlaySession(content(), "jaw_worm", 1, deck=["bash+"] * 10)
    m = play(session)
    try:
        page.goto(m.url)
        for _ in range(30):
            if session.game.is_waiting_for_reward:
                break
            g = session.game
            legal = [str(a) for a in g.legal_actions()]
            page.evaluate("a => act(a)", next((a for a in legal if a.startswith("play")), "end"))
            page.wait_for_timeout(50)
        expect(page.locator("#rewards")).to_be_visible(timeout=T)
        card = page.locator("#reward-list .reward .card").first
        cid = card.get_attribute("data-card")
        acted(page, "#reward-list .reward .card >> nth=0")
        expect(page.locator("#rewards")).to_be_hidden(timeout=T)
        assert [e.card_id for e in session.game.get_master_deck()][-1] == cid
    finally:
        m.close()

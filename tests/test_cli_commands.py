"""The command line as a user expects it: ``gcs monitor`` like the other commands, ``record
--from`` of a won battle, ``./scripts/gcs`` from another folder, ``--deck`` with upgraded cards,
``gcs encounters`` with rolled compositions and what each move does, ``gcs play`` (hidden draw
order, card faces, narrated enemy turns, a lone enemy as the default target, ``--deck``)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import gcs
from gcs.cli import main
from gcs.content.loader import BUILTIN
from gcs.sim.results import read_rows

Capsys = pytest.CaptureFixture[str]
ROOT = Path(__file__).resolve().parent.parent


def run_cli(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- gcs monitor


def test_monitor_help_is_a_typer_command_with_every_option(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "monitor", "--help")
    assert code == 0 and "Usage: gcs monitor" in out
    for opt in ("--encounter", "--seed", "--deck", "--pack", "--character", "--replay", "--from",
                "--battle", "--row", "--port", "--host", "--open", "--save"):
        assert opt in out


def test_monitor_unknown_encounter_says_did_you_mean_and_exits_2(capsys: Capsys) -> None:
    code, out, err = run_cli(capsys, "monitor", "--encounter", "jaw_wrom")
    assert code == 2 and out == ""
    assert err.startswith("error: unknown encounter 'jaw_wrom'; did you mean 'jaw_worm'?")


def test_monitor_a_bad_pack_exits_1_like_every_command(tmp_path: Path, capsys: Capsys) -> None:
    code, _, err = run_cli(capsys, "monitor", "--encounter", "jaw_worm", "--pack", str(tmp_path))
    assert code == 1 and err
    code2, _, _ = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--pack", str(tmp_path))
    assert code2 == code


@pytest.mark.parametrize(("text", "says"), [
    ("{}", "not a replay file"), ("[]", "holds a JSON object"), ("{", "not a JSON replay file"),
    ('{"format": "gcs-replay/1", "pack": "other"}', "is for pack 'other'"),
    ('{"format": "gcs-replay/1", "pack": "ironclad", "seed": "1"}', "'seed' must be an integer"),
])
def test_monitor_replay_refuses_a_file_that_is_not_a_replay(
        tmp_path: Path, capsys: Capsys, text: str, says: str) -> None:
    f = tmp_path / "r.json"
    f.write_text(text)
    code, _, err = run_cli(capsys, "monitor", "--replay", str(f))
    assert code == 2 and says in err and err.count("\n") == 1, err


def test_monitor_replay_refuses_a_file_whose_claims_do_not_re_run(tmp_path: Path,
                                                                   capsys: Capsys) -> None:
    f = tmp_path / "r.json"
    assert run_cli(capsys, "record", "--encounter", "jaw_worm", "--seed", "3", "--out", str(f))[0] == 0
    data = json.loads(f.read_text())
    data["won"] = not data["won"]
    f.write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "monitor", "--replay", str(f))
    assert code == 2 and "does not re-run to what it states: won: file" in err
    data["won"], data["actions"] = not data["won"], ["play 9 @e0", *data["actions"]]
    f.write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "monitor", "--replay", str(f))
    assert code == 2 and "step 1 (act 'play 9 @e0') does not re-run" in err


# ---------------------------------------------------------------- record --from (item 7)


def test_record_from_a_won_row_says_won_and_replay_agrees(tmp_path: Path, capsys: Capsys) -> None:
    rows = tmp_path / "rows.csv"
    assert run_cli(capsys, "simulate", "-e", "jaw_worm", "--battles", "12", "--seed", "3",
                   "--out", str(rows), "--quiet")[0] == 0
    won = [r for r in read_rows(rows) if r["won"]]
    lost = [r for r in read_rows(rows) if not r["won"]]
    assert won and lost
    for r, word in ((won[0], "won"), (lost[0], "lost")):
        rep = tmp_path / f"b{r['battle']}.json"
        code, out, err = run_cli(capsys, "record", "--from", str(rows), "--battle",
                                 str(r["battle"]), "--out", str(rep))
        assert code == 0, err
        assert f"{word} in {r['turns']} turns" in out
        assert json.loads(rep.read_text())["won"] is r["won"]
        code, out, err = run_cli(capsys, "replay", str(rep))
        assert code == 0 and f"{word} in {r['turns']} turns, state identical" in out, err


# ---------------------------------------------------------------- ./scripts/gcs (item 8)


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "gcs").exists(),
                    reason="needs the project's .venv (./scripts/gcs makes it)")
def test_scripts_gcs_resolves_relative_paths_from_the_callers_folder(tmp_path: Path) -> None:
    shutil.copytree(BUILTIN, tmp_path / "mypack")
    env = dict(os.environ, GCS_PURE="1")  # (the source tree: no wheel build in the test)
    script = str(ROOT / "scripts" / "gcs")
    done = subprocess.run([script, "validate", "mypack"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([script, "simulate", "-e", "jaw_worm", "--battles", "5", "--pack",
                           "mypack", "--out", "rows.csv", "--quiet"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(list(read_rows(tmp_path / "rows.csv"))) == 5
    assert not (ROOT / "rows.csv").exists()


# ---------------------------------------------------------------- --deck and encounters (item 9)


def test_deck_takes_upgraded_cards_as_pack_yaml_does(tmp_path: Path, capsys: Capsys) -> None:
    rows = tmp_path / "rows.jsonl"
    code, out, err = run_cli(capsys, "simulate", "-e", "jaw_worm", "--deck", "strike*5,defend*4,bash+",
                             "--battles", "4", "--out", str(rows), "--quiet")
    assert code == 0, err
    assert "strike*5,defend*4,bash+" in out
    row = next(iter(read_rows(rows)))
    assert row["deck"] == "strike*5,defend*4,bash+"
    code, out, err = run_cli(capsys, "replay", "--from", str(rows), "--battle", "2")
    assert code == 0, err
    g = gcs.sim.runner.new_game(gcs.builtin_content(), 1, ["bash+", "strike"])
    assert [(e.card_id, e.upgraded) for e in g.get_master_deck()] == [("bash", True), ("strike", False)]
    code, _, err = run_cli(capsys, "simulate", "-e", "jaw_worm", "--deck", "slimed+", "--battles", "1")
    assert code == 2 and "card 'slimed' has no upgrade" in err
    code, _, err = run_cli(capsys, "simulate", "-e", "jaw_worm", "--deck", "bsh+", "--battles", "1")
    assert code == 2 and "unknown card 'bsh'; did you mean 'bash'?" in err


def test_encounters_show_rolled_compositions_and_what_moves_do(capsys: Capsys) -> None:
    from gcs.cli.cmd_content import _move, composition

    c = gcs.builtin_content()
    assert composition(c, c.encounters["two_louses"]) == (
        "Red Louse or Green Louse + Red Louse or Green Louse (each slot rolled)")
    assert composition(c, c.encounters["small_slimes"]) == (
        "one of: Spike Slime (S) + Acid Slime (M) | Acid Slime (S) + Spike Slime (M)")
    assert composition(c, c.encounters["jaw_worm"]) == "Jaw Worm"
    bellow = c.enemies["jaw_worm"].move("bellow")
    assert _move(c, bellow) == "Bellow (defend_buff) block 6 - apply strength 3 to self"
    split = _move(c, c.enemies["acid_slime_l"].move("split"))
    assert split == ("Split (unknown) - split_acid_slime: left = hp self; kill self; "
                     "spawn acid_slime_m (hp $left); spawn acid_slime_m (hp $left)")
    code, out, _ = run_cli(capsys, "encounters")
    assert code == 0
    for name in ("Spike Slime (S)", "Acid Slime (M)", "Acid Slime (S)", "Spike Slime (M)",
                 "Green Louse", "curl_up 3-7", "each slot", "one of:"):
        assert name in out


def test_card_text_number_agreement(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "cards", "warcry")
    assert code == 0 and "Draw 1 card." in " ".join(out.split()) and "card(s)" not in out
    c = gcs.builtin_content()
    g = gcs.Game(c, seed=1)
    assert g.format_description(c.card("warcry")).startswith("Draw 1 card. ")
    up = c.card("warcry").upgrade
    assert up is not None and g.format_description(up).startswith("Draw 2 cards. ")


# ---------------------------------------------------------------- gcs play (item 10)


def play(capsys: Capsys, monkeypatch: pytest.MonkeyPatch, lines: list[str],
         *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(x + "\n" for x in lines)))
    return run_cli(capsys, "play", *args)


def test_play_hides_the_draw_order_and_shows_card_faces(capsys: Capsys,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(capsys, monkeypatch, ["quit"], "--seed", "1")
    assert code == 0
    g = gcs.Game(gcs.builtin_content(), seed=1)
    g.start_battle("jaw_worm")
    draw = next(x for x in out.splitlines() if x.startswith("Draw "))
    assert draw.endswith("(order hidden)")
    shown = draw.split(")", 1)[1].rsplit("(", 1)[0].strip().split(", ")
    assert shown == sorted(shown, key=lambda x: (x.split("#")[0], int(x.split("#")[1])))
    assert "    0: Strike [1] attack: Deal 6 damage." in out
    assert "Played  ( 0) -" in out and "Drawn   ( 5)" in out


def test_play_aims_at_a_lone_enemy_and_narrates_the_enemy_turn(
        capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(capsys, monkeypatch, ["play 0", "end", "quit"], "--seed", "1")
    assert code == 0 and "refused" not in out
    assert "play strike (cost 1) -> Jaw Worm[e0]" in out
    assert "Jaw Worm[e0] hits Player for 11" in out  # the enemy's turn, narrated
    assert "Played  ( 1) strike#" in out


def test_play_takes_a_deck_with_upgraded_cards(capsys: Capsys,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(capsys, monkeypatch, ["quit"], "--deck", "bash+*5", "--seed", "1")
    assert code == 0 and "0: Bash+ [2] attack: Deal 10 damage. Apply 3 Vulnerable." in out
    code, _, err = play(capsys, monkeypatch, ["quit"], "--deck", "bassh")
    assert code == 2 and "did you mean 'bash'" in err


# ---------------------------------------------------------------- the report links its battles


def test_report_lists_battles_to_look_at_with_the_command_that_opens_each(
        tmp_path: Path, capsys: Capsys) -> None:
    import re

    from gcs.cli.cmd_replay import row_replay
    from gcs.monitor.play import recording

    rows = tmp_path / "rows.csv"
    assert run_cli(capsys, "simulate", "-e", "jaw_worm,cultist", "--battles", "20", "--seed", "6",
                   "--out", str(rows), "--quiet")[0] == 0
    assert run_cli(capsys, "report", str(rows))[0] == 0
    page = (tmp_path / "rows.html").read_text(encoding="utf-8")
    assert "Battles to look at" in page
    found = re.findall(r"gcs monitor --from (\S+) --row (\d+)", page)
    assert len(found) >= 6 and {f for f, _ in found} == {str(rows)}
    all_rows = list(read_rows(rows))
    longest = max(range(20), key=lambda i: (all_rows[i]["turns"], -i))
    assert ("longest battle</td><td>" + str(longest)) in page
    for _, n in found[:3]:  # each command opens that row's battle
        want = all_rows[int(n)]
        session = recording(gcs.builtin_content(), row_replay(rows, None, int(n), None, None),
                            source="row")
        assert session.game.turn_number == want["turns"]

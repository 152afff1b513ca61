"""The ``gcs`` command line (``gcs.cli.main``): simulate, demo, run, record + replay, validate.

Exit codes: 0 success; 1 invalid content pack; 2 a runtime error (a replay that does not
re-run); 3 a run that was lost. Errors are one clear line on stderr, never a traceback.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import gcs
from gcs.battle.save_format import FORMAT as SAVE_FORMAT
from gcs.cli import main
from gcs.content.loader import BUILTIN

Capsys = pytest.CaptureFixture[str]


def run_cli(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- simulate
def test_cli_simulate_prints_a_summary_table(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--battles", "30",
                           "--seed", "2", "--quiet")
    assert code == 0
    for label in ("encounter      jaw_worm", "battles        30", "win rate", "turns", "hp left",
                  "plays/battle", "strike"):
        assert label in out, label


def test_cli_simulate_with_a_deck_and_greedy_policy(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "simulate", "--encounter", "two_louses", "--battles", "10",
                           "--policy", "greedy", "--deck", "strike*6,cleave*2", "--json")
    assert code == 0
    d = json.loads(out)
    assert set(d["plays_by_card"]) <= {"strike", "cleave"} and d["battles"] == 10


def test_cli_simulate_unknown_encounter_is_a_clear_error(capsys: Capsys) -> None:
    code, _, err = run_cli(capsys, "simulate", "--encounter", "nope", "--battles", "3")
    assert code == 2
    assert err.startswith("error: ") and "nope" in err and "Traceback" not in err


def test_cli_simulate_refuses_a_deck_too_big_before_making_it(capsys: Capsys) -> None:
    code, _, err = run_cli(capsys, "simulate", "-e", "jaw_worm", "--deck", "strike*1000000000",
                           "--battles", "2")
    assert code == 2 and "more than 100000 cards" in err and err.count("\n") == 1


# ---------------------------------------------------------------- demo
def test_cli_demo_narrates_one_battle(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "demo", "--encounter", "jaw_worm", "--seed", "7")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("GCS demo: jaw_worm, seed 7, random policy")
    assert "== PLAYER_PHASE (turn 1)" in out and "== ENEMY_PHASE (turn 1)" in out
    assert any(x.startswith("> ") for x in lines)
    assert any("intends" in x for x in lines) and any(" hits " in x for x in lines)
    assert re.match(r"result: (WON|LOST) in \d+ turns; run HP \d+/80", lines[-1]), lines[-1]


def test_cli_demo_is_deterministic(capsys: Capsys) -> None:
    _, first, _ = run_cli(capsys, "demo", "--encounter", "small_slimes", "--seed", "3",
                          "--policy", "greedy")
    _, second, _ = run_cli(capsys, "demo", "--encounter", "small_slimes", "--seed", "3",
                           "--policy", "greedy")
    assert first == second


# ---------------------------------------------------------------- run
def test_cli_run_won_exits_0_and_prints_each_battle(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "run", "--encounters", "jaw_worm,cultist,two_louses",
                           "--policy", "greedy", "--seed", "11")
    lines = out.splitlines()
    assert code == 0, out
    assert [x.split()[0] for x in lines[:3]] == ["jaw_worm", "cultist", "two_louses"]
    assert all(" won  in " in x for x in lines[:3])
    m = re.match(r"run WON: HP (\d+)/80, gold (\d+), deck \((\d+)\): ", lines[3])
    assert m, lines[3]
    assert int(m.group(3)) == 13  # the starter deck plus one card reward per battle


def test_cli_run_lost_exits_3(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "run", "--encounters", "gremlin_nob,jaw_worm",
                           "--policy", "greedy", "--seed", "2")
    assert code == 3
    lines = out.splitlines()
    assert lines[0].startswith("gremlin_nob") and "lost" in lines[0]
    assert len(lines) == 2 and lines[1].startswith("run LOST: HP 0/80")


def test_cli_run_unknown_encounter_is_refused_before_playing(capsys: Capsys) -> None:
    code, out, err = run_cli(capsys, "run", "--encounters", "jaw_worm,nope")
    assert code == 2 and out == "" and "nope" in err


# ---------------------------------------------------------------- record + replay
@pytest.fixture
def replay_file(tmp_path: Path, capsys: Capsys) -> Path:
    path = tmp_path / "battle.json"
    code, out, _ = run_cli(capsys, "record", "--encounter", "two_louses", "--seed", "5",
                           "--out", str(path))
    assert code == 0
    assert re.match(r"recorded \d+ actions, (won|lost) in \d+ turns -> ", out), out
    return path


def test_cli_record_then_replay_exits_0(replay_file: Path, capsys: Capsys) -> None:
    data = json.loads(replay_file.read_text())
    assert data["format"] == "gcs-replay/2" and data["pack"] == "ironclad"
    assert data["seed"] == 5 and data["encounter"] == "two_louses" and data["actions"]
    for text in data["actions"]:
        assert str(gcs.Action.parse(text)) == text
    code, out, err = run_cli(capsys, "replay", str(replay_file))
    assert code == 0, err
    assert out.startswith(f"replay ok: {len(data['actions'])} actions") and "state identical" in out


def test_cli_record_to_stdout_is_the_same_replay(replay_file: Path, capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "record", "--encounter", "two_louses", "--seed", "5")
    assert code == 0
    assert json.loads(out) == json.loads(replay_file.read_text())


def _tamper(data: dict[str, Any], how: str) -> str:
    """The replay file's text after one kind of tampering."""
    if how == "action":
        data["actions"][1] = "fly away"
    elif how == "illegal_action":
        data["actions"].insert(0, "play 9 @e3")
    elif how == "dropped_action":
        data["actions"].pop()
    elif how == "seed":
        data["seed"] += 1
    elif how == "final":
        data["final"] = "0" * 64
    elif how == "format":
        data["format"] = "something-else"
    elif how == "state_format":
        data["state_format"] = "5"
    elif how == "pack":
        data["pack"] = "other_pack"
    elif how == "missing_field":
        del data["seed"]
    elif how == "truncated":
        return json.dumps(data)[:40]
    return json.dumps(data)


TAMPERING = {
    "action": "replay diverged at action 1",
    "illegal_action": "replay diverged at action 0",
    "dropped_action": "replay diverged after its last action",
    "seed": "replay",
    "final": "replay ended in a different state",
    "format": "not a replay file",
    "state_format": "state_format",
    "pack": "replay is for pack 'other_pack'",
    "missing_field": "seed",
    "truncated": "replay",
}


@pytest.mark.parametrize("how", list(TAMPERING))
def test_cli_replay_of_a_tampered_file_exits_nonzero_with_a_clear_message(
        how: str, replay_file: Path, capsys: Capsys) -> None:
    replay_file.write_text(_tamper(json.loads(replay_file.read_text()), how))
    try:
        code, out, err = run_cli(capsys, "replay", str(replay_file))
    except Exception as exc:  # the CLI must turn every bad file into a message, not a crash
        pytest.fail(f"gcs replay crashed on a {how} replay file: {type(exc).__name__}: {exc}")
    assert code != 0
    assert "replay ok" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert TAMPERING[how] in lines[0], lines[0]


def test_cli_replay_of_a_file_hashed_in_another_save_format_checks_its_actions(
        replay_file: Path, capsys: Capsys) -> None:
    """The digests hash the engine's save, whose format grows: a file recorded before
    ``state_format`` (or in another one) cannot have them compared, so its actions, result
    and turns are what is checked, and the output says so; a wrong action still fails."""
    data = json.loads(replay_file.read_text())
    assert data["state_format"] == SAVE_FORMAT
    for old in (None, SAVE_FORMAT - 1):
        older = dict(data, final="0" * 64, trace=["0" * 16] * len(data["trace"]))
        if old is None:
            del older["state_format"]
        else:
            older["state_format"] = old
        replay_file.write_text(json.dumps(older))
        code, out, err = run_cli(capsys, "replay", str(replay_file))
        assert code == 0, err
        assert "every action legal" in out and "not compared" in out and "identical" not in out
        older["actions"] = [*older["actions"][:1], "play 9 @e3", *older["actions"][1:]]
        replay_file.write_text(json.dumps(older))
        code, out, err = run_cli(capsys, "replay", str(replay_file))
        assert code != 0 and "replay diverged at action 1" in err


def test_cli_replay_of_a_missing_file_is_a_clear_error(tmp_path: Path, capsys: Capsys) -> None:
    try:
        code, _, err = run_cli(capsys, "replay", str(tmp_path / "none.json"))
    except Exception as exc:
        pytest.fail(f"gcs replay crashed on a missing file: {type(exc).__name__}: {exc}")
    assert code != 0 and err.startswith("error: ") and "none.json" in err


# ---------------------------------------------------------------- validate
def test_cli_validate_the_bundled_pack_prints_one_summary_line(capsys: Capsys) -> None:
    code, out, err = run_cli(capsys, "validate", str(BUILTIN))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    c = gcs.builtin_content()
    assert lines[0].startswith(f"ok: pack '{c.pack_id}': {len(c.cards)} cards, ")
    assert f"{len(c.encounters)} encounters" in lines[0]


def _break(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` line fragment in ``path``; return its 1-based line number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if old in line:
            lines[i] = line.replace(old, new)
            path.write_text("\n".join(lines), encoding="utf-8")
            return i + 1
    raise AssertionError(f"{old!r} not in {path}")


def test_cli_validate_a_broken_copy_lists_every_problem_with_file_and_line(
        tmp_path: Path, capsys: Capsys) -> None:
    pack = tmp_path / "broken"
    shutil.copytree(BUILTIN, pack)
    status_line = _break(pack / "cards.yaml", "- apply vulnerable $vulnerable",
                         "- apply vulnerabel $vulnerable")
    node_line = _break(pack / "cards.yaml", "- deal $damage hits $hits", "- dael $damage hits $hits")
    enemy_line = _break(pack / "encounters.yaml", "enemies: [jaw_worm]", "enemies: [jaw_wurm]")
    code, out, _ = run_cli(capsys, "validate", str(pack))
    assert code == 1
    lines = out.splitlines()
    assert lines and not any(x.startswith("ok:") for x in lines)
    for x in lines:
        assert re.match(r"^[\w/.-]+\.yaml:\d+: ", x), x
    assert any(x.startswith(f"cards.yaml:{status_line}: card 'bash': ") and "vulnerabel" in x
               for x in lines), lines
    assert any(x.startswith(f"cards.yaml:{node_line}: ") and "dael" in x for x in lines), lines
    assert any(x.startswith(f"encounters.yaml:{enemy_line}: encounter 'jaw_worm'")
               and "jaw_wurm" in x for x in lines), lines


def test_cli_validate_a_missing_path_exits_1(tmp_path: Path, capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "validate", str(tmp_path / "nothing"))
    assert code == 1 and "no such file or directory" in out


# ---------------------------------------------------------------- typer + rich surface
def test_cli_version_names_the_package_version_and_engine(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0 and out == f"gcs {gcs.__version__} ({gcs.engine_kind()} engine)\n"


def test_cli_help_lists_every_command_and_the_exit_codes(capsys: Capsys) -> None:
    from gcs.cli import EXIT_CODES

    code, out, _ = run_cli(capsys, "--help")
    assert code == 0
    for cmd in ("simulate", "demo", "play", "run", "record", "replay", "report", "validate",
                "cards", "encounters"):
        assert re.search(rf"\b{cmd}\b", out), cmd
    flat = " ".join(out.replace("│", " ").split())
    assert "Exit codes:" in flat
    for k, v in EXIT_CODES.items():
        assert f"{k} {' '.join(v.split())}" in flat, (k, v)


def test_cli_a_usage_error_exits_2(capsys: Capsys) -> None:
    code, _, err = run_cli(capsys, "simulate", "--battles", "3")
    assert code == 2 and "--encounter" in err
    code, _, err = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--battles", "0")
    assert code == 2 and "--battles" in err


@pytest.mark.parametrize(("args", "kind", "wrong", "meant"), [
    (("simulate", "--encounter", "jaw_wrom", "--battles", "3"), "encounter", "jaw_wrom", "jaw_worm"),
    (("demo", "--encounter", "cultst"), "encounter", "cultst", "cultist"),
    (("record", "--encounter", "two_lousse"), "encounter", "two_lousse", "two_louses"),
    (("simulate", "--encounter", "jaw_worm", "--deck", "strike*5,defnd*4"), "card", "defnd", "defend"),
    (("simulate", "--encounter", "jaw_worm", "--policy", "gredy"), "policy", "gredy", "greedy"),
])
def test_cli_unknown_ids_say_did_you_mean_and_list_the_valid_ones(
        capsys: Capsys, args: tuple[str, ...], kind: str, wrong: str, meant: str) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith(f"error: unknown {kind} {wrong!r}; did you mean {meant!r}")
    if kind == "encounter":
        for eid in gcs.builtin_content().encounters:
            assert eid in err


def test_cli_cards_lists_cost_type_keywords_and_filled_in_text(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "cards")
    assert code == 0
    c = gcs.builtin_content()
    assert out.rstrip().endswith(f"{len(c.cards)} of {len(c.cards)} cards")
    line = next(x for x in out.splitlines() if " bash " in x)
    assert "Bash" in line and " 2 " in line and "attack" in line and "Deal 8 damage" in line
    code, out, _ = run_cli(capsys, "cards", "exhaust")
    assert code == 0
    ids = [x.split()[1] for x in out.splitlines() if x.startswith("│ ") and x.split()[1] != "│"]
    assert "true_grit" in ids and "strike" not in ids
    assert "Exhaust" in out and re.search(rf"\d+ of {len(gcs.builtin_content().cards)} cards", out)
    code, _, _ = run_cli(capsys, "cards", "no such card text")
    assert code == 2


def test_cli_encounters_lists_enemies_with_hp_and_moves(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "encounters")
    assert code == 0
    c = gcs.builtin_content()
    worm = c.enemies["jaw_worm"]
    line = next(x for x in out.splitlines() if x.startswith("│ jaw_worm"))
    assert f"{worm.hp_min}-{worm.hp_max}" in line and "Jaw Worm" in line and "Chomp" in line
    for eid in c.encounters:
        assert eid in out


POLICY_FILE = '''
def always_last(game, legal):
    return legal[-1]
'''


def test_cli_policy_from_a_python_file(tmp_path: Path, capsys: Capsys) -> None:
    f = tmp_path / "mine.py"
    f.write_text(POLICY_FILE)
    args = ["simulate", "--encounter", "jaw_worm", "--battles", "8", "--chunk", "4", "--json"]
    code, out, err = run_cli(capsys, *args, "--policy", f"{f}:always_last")
    assert code == 0, err
    one = json.loads(out)
    assert one["policy"] == f"{f.resolve()}:always_last" and one["battles"] == 8
    code, out, _ = run_cli(capsys, *args, "--policy", f"{f}:always_last", "--workers", "2")
    assert code == 0 and json.loads(out) == one
    code, _, err = run_cli(capsys, *args, "--policy", f"{f}:nope")
    assert code == 2 and "cannot load policy" in err and "nope" in err
    code, _, err = run_cli(capsys, *args, "--policy", f"{tmp_path / 'missing.py'}:fn")
    assert code == 2 and "no such file" in err


def test_cli_output_on_a_non_terminal_has_no_carriage_return_frames() -> None:
    """Piped (not a terminal): progress is plain lines with rate and ETA; no ``\\r``, no colour."""
    import os
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "gcs", "simulate", "--encounter", "jaw_worm",
                        "--battles", "400", "--chunk", "20", "--seed", "3"],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ),
                       check=False)
    assert p.returncode == 0, p.stderr
    assert "\r" not in p.stdout and "\r" not in p.stderr
    assert "\x1b" not in p.stdout and "\x1b" not in p.stderr
    lines = p.stderr.splitlines()
    assert 2 <= len(lines) <= 11
    for x in lines:
        assert re.fullmatch(r"jaw_worm: \d+/400 battles \(\d+%\), [\d,]+ battles/s, ETA \d+s", x), x
    assert lines[-1].startswith("jaw_worm: 400/400 battles (100%)")
    assert "encounter      jaw_worm" in p.stdout

def test_cli_progress_on_a_terminal_is_a_rich_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal, progress is a rich bar with the label, the count and the rate."""
    import io
    import sys

    from gcs.cli.progress import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with progress("jaw_worm") as update:
        assert update is not None
        update(40, 400)
        update(400, 400)
    shown = screen.getvalue()
    assert "jaw_worm" in shown and "400/400" in shown and "battles/s" in shown
    assert "\x1b[" in shown  # drawn as a terminal bar, not as plain lines


def test_cli_machine_output_never_imports_rich() -> None:
    """``--json`` (and ``--quiet``) print no rich text, so the command does not pay rich's import
    at start-up: a sweep's workers and scripts start that much sooner."""
    import subprocess
    import sys

    code = ("import sys; from gcs.cli import main; "
            "rc = main(['simulate', '--encounter', 'jaw_worm', '--battles', '3', '--json']); "
            "assert rc == 0, rc; "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('rich', 'pydantic')], "
            "'rich or pydantic imported'")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       check=False)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["battles"] == 3



def test_cli_a_forwarding_command_passes_raw_arguments(capsys: Capsys) -> None:
    """How ``gcs monitor`` plugs in: ``forward`` hands every argument to ``main(argv) -> int``."""
    import typer

    from gcs.cli import app, forward

    seen: list[list[str]] = []

    def target(argv: list[str]) -> int:
        seen.append(argv)
        return 5

    forward(app, "forward-probe", target, help="test only")
    forward(app, "forward-lazy", f"{__name__}:_probe_main", help="test only")
    try:
        code, _, _ = run_cli(capsys, "forward-probe", "--encounter", "x", "--unknown", "-v", "pos")
        assert code == 5 and seen == [["--encounter", "x", "--unknown", "-v", "pos"]]
        code, _, _ = run_cli(capsys, "forward-probe", "--help")
        assert code == 5 and seen[-1] == ["--help"]
        code, out, _ = run_cli(capsys, "forward-lazy", "--port", "0")
        assert code == 0 and out == "probe ['--port', '0']\n"
    finally:
        app.registered_commands[:] = [c for c in app.registered_commands
                                      if c.name not in ("forward-probe", "forward-lazy")]
    assert isinstance(app, typer.Typer)


def _probe_main(argv: list[str]) -> int:
    """A ``main(argv)`` for the lazy forwarding test."""
    print("probe", argv)
    return 0


def test_cli_monitor_command_forwards_to_the_monitor(capsys: Capsys) -> None:
    """``gcs monitor`` is the monitor's own command: its options, its refusal of a bad id."""
    code, out, _ = run_cli(capsys, "monitor", "--help")
    assert code == 0
    assert "gcs monitor" in out and "--encounter" in out and "--save" in out
    code, _, err = run_cli(capsys, "monitor", "--encounter", "no_such_thing")
    assert code == 2 and "no_such_thing" in err


# ---------------------------------------------------------------- run --act 1
def test_cli_run_act_writes_a_row_per_run_and_per_battle(capsys: Capsys, tmp_path: Path) -> None:
    out, runs = tmp_path / "battles.jsonl", tmp_path / "runs.csv"
    code, text, _ = run_cli(capsys, "run", "--act", "1", "--policy", "greedy", "--runs", "3",
                            "--seed", "4", "--out", str(out), "--runs-out", str(runs))
    assert code == 0, text
    assert re.match(r"act 1, policy greedy, seed 4: 3 runs, won \d \(", text.splitlines()[0])
    rows = list(csv.DictReader(runs.open()))
    assert [r["run"] for r in rows] == ["0", "1", "2"]
    battles = [json.loads(line) for line in out.read_text().splitlines()]
    for r in rows:
        mine = [b for b in battles if b["job"] == int(r["run"])]
        assert len(mine) == int(r["fights"]) and [b["battle"] for b in mine] == list(
            range(len(mine)))
        assert all(b["won"] for b in mine[:-1])
        if r["won"] == "True":
            assert r["floor"] == "16" and mine[-1]["won"] and r["cause"] == ""
        else:
            assert r["hp"] == "0" and not mine[-1]["won"] and r["cause"] == mine[-1]["encounter"]
        assert r["deck"].startswith("strike,") and int(r["gold"]) >= 99
    # the same runs, whatever the worker count
    again = tmp_path / "again.csv"
    run_cli(capsys, "run", "--act", "1", "--policy", "greedy", "--runs", "3", "--seed", "4",
            "--workers", "2", "--runs-out", str(again))
    assert again.read_text() == runs.read_text()


def test_cli_run_needs_encounters_or_act(capsys: Capsys) -> None:
    code, _, err = run_cli(capsys, "run")
    assert code == 2 and "--act" in err


def test_cli_run_act_never_writes_its_runs_over_a_users_file(capsys: Capsys,
                                                             tmp_path: Path) -> None:
    mine = tmp_path / "notes.csv"
    mine.write_text("my notes\n")
    code, _, err = run_cli(capsys, "run", "--act", "1", "--policy", "greedy", "--runs-out",
                           str(mine))
    assert code == 2 and "is not a runs file" in err and mine.read_text() == "my notes\n"
    ours = tmp_path / "runs.jsonl"
    for _ in range(2):  # a runs file it wrote is replaced
        run_cli(capsys, "run", "--act", "1", "--policy", "greedy", "--runs-out", str(ours))
        assert ours.read_text().startswith('{"run": 0,')

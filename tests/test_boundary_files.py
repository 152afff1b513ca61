"""The files a user gives the command line (issue 30): results files (``simulate --out`` and
``--resume``, ``report``, ``replay/record --from``), replay files (``replay``, ``record --out``)
and ``--policy file.py:fn``. Each damaged input is one ``error:`` line naming the file, the row
or field and the column, exit code 2, and nothing a user wrote is changed."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from gcs.cli import main
from gcs.sim.results import read_rows
from gcs.sim.rowcheck import PRE_BLOCK, ResultsError, row_check

Capsys = pytest.CaptureFixture[str]
BATTLES = 12


def cli(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: Capsys, *args: str) -> str:
    """Run a command that must refuse: exit 2, one ``error:`` line, no traceback; the line."""
    try:
        code, out, err = cli(capsys, *args)
    except Exception as exc:  # (the point: nothing but an error line)
        pytest.fail(f"gcs {' '.join(args)} crashed: {type(exc).__name__}: {exc}")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, out, err)
    return lines[0]


def sweep(tmp_path: Path, capsys: Capsys, name: str, battles: int = BATTLES,
          *extra: str) -> Path:
    path = tmp_path / name
    code, _, err = cli(capsys, "simulate", "-e", "jaw_worm", "--battles", str(battles),
                       "--seed", "3", "--chunk", "4", "--out", str(path), "--quiet", *extra)
    assert code == 0, err
    return path


def resume(path: Path, battles: int = BATTLES + 4) -> tuple[str, ...]:
    return ("simulate", "-e", "jaw_worm", "--battles", str(battles), "--seed", "3", "--chunk",
            "4", "--out", str(path), "--resume", "--quiet")


def edit_jsonl(path: Path, row: int, recheck: bool = False, **changes: object) -> None:
    """Change row ``row``; ``recheck``: write its check anew (an edit made with care, which the
    check cannot tell from a written row: the other checks must)."""
    lines = path.read_text().splitlines()
    d = json.loads(lines[row])
    d.update(changes)
    if recheck:
        d["check"] = row_check(d)
    lines[row] = json.dumps(d)
    path.write_text("\n".join(lines) + "\n")


def edit_csv(path: Path, row: int, column: str, text: str) -> None:
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    rows[row + 1][rows[0].index(column)] = text
    with open(path, "w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


# ---------------------------------------------------------------- --resume checks every column
@pytest.mark.parametrize(("change", "message"), [
    ({"won": "maybe"}, "column 'won' must be true or false, got 'maybe'"),
    ({"turns": -5}, "column 'turns' must be a whole number in 0.."),
    ({"turns": 1.5}, "column 'turns' must be a whole number in 0..9007199254740992, got 1.5"),
    ({"pack": "other_pack", "recheck": True}, "pack 'other_pack' != 'ironclad'"),
    ({"pack": "other_pack"}, "its check '"),
    ({"turns": 999}, "does not match its values (the row was changed after it was written)"),
    ({"plays": {"strike": -5}}, "column 'plays' holds 'strike': -5"),
    ({"seed": 12345, "recheck": True}, "seed 12345 != "),
    ({"unfinished": 1}, "column 'unfinished' must be true or false, got 1"),
    ({"extra": 1}, "an unknown column 'extra'"),
])
def test_resume_checks_every_column_and_changes_nothing(
        change: dict[str, object], message: str, tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.jsonl")
    edit_jsonl(path, 5, **change)
    before = path.read_bytes()
    line = refused(capsys, *resume(path))
    assert f"{path} row 5" in line and message in line, line
    assert path.read_bytes() == before


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_file_written_before_row_checks_is_read_but_not_resumed(
        suffix: str, tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, f"rows{suffix}")
    if suffix == ".csv":
        with open(path, newline="") as fh:
            rows = [r[:-1] for r in csv.reader(fh)]  # (the layout of files before the check)
        with open(path, "w", newline="") as fh:
            csv.writer(fh, lineterminator="\n").writerows(rows)
    else:
        lines = [json.loads(x) for x in path.read_text().splitlines()]
        path.write_text("".join(json.dumps({k: v for k, v in d.items() if k != "check"}) + "\n"
                                for d in lines))
    assert len(list(read_rows(path))) == BATTLES
    code, _, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    before = path.read_bytes()
    line = refused(capsys, *resume(path))
    assert "without row checks" in line or "no column 'check'" in line
    assert path.read_bytes() == before


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_file_written_before_the_block_column_is_read_but_not_resumed(
        suffix: str, tmp_path: Path, capsys: Capsys) -> None:
    """A file of the layout before block credit (no ``block`` column, each row's check over
    the columns it has) is read with its checks, each row with no block, and not resumed; a
    row edited after it was written is still refused."""
    path = sweep(tmp_path, capsys, f"rows{suffix}")
    rows = list(read_rows(path))
    old = [{k: v for k, v in r.items() if k != "block"} for r in rows]
    for r in old:
        r["check"] = row_check(r, PRE_BLOCK)
    if suffix == ".csv":
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow([*PRE_BLOCK, "check"])
            for r in old:
                w.writerow([json.dumps(v, separators=(",", ":")) if isinstance(v, dict)
                            else str(v).lower() if isinstance(v, bool) else v
                            for v in r.values()])
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in old))
    back = list(read_rows(path))
    assert back == [dict(r, block={}) for r in rows]
    before = path.read_bytes()
    line = refused(capsys, *resume(path))
    assert "older gcs" in line
    assert path.read_bytes() == before
    old[3]["turns"] += 1
    path.write_text("".join(json.dumps(r) + "\n" for r in old))
    path = path.rename(path.with_suffix(".jsonl"))
    with pytest.raises(ResultsError, match="does not match its values"):
        list(read_rows(path))


def test_resume_plays_the_last_row_again_so_a_consistent_edit_is_refused(
        tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.jsonl")
    rows = list(read_rows(path))
    edit_jsonl(path, BATTLES - 1, recheck=True, actions=rows[-1]["actions"] + 1)
    line = refused(capsys, *resume(path))
    assert f"row {BATTLES - 1} does not play again the same" in line
    assert "actions: file " in line


@pytest.mark.parametrize("text", ["my notes\n", "my notes", "{}\n", '{"job": "x"}\n',
                                  "job,encounter\n1,2\n", "\n"])
@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_resume_refuses_a_file_it_did_not_write_without_touching_it(
        suffix: str, text: str, tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / f"notes{suffix}"
    path.write_text(text)
    line = refused(capsys, *resume(path))
    assert str(path) in line
    assert path.read_text() == text  # (a one-line file used to be emptied)
    line = refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "2", "--out", str(path))
    assert "exists and is not a gcs results file: not overwritten" in line
    assert path.read_text() == text


def test_out_replaces_an_old_results_file_and_refuses_a_directory(
        tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.csv")
    path = sweep(tmp_path, capsys, "rows.csv", 3)  # (a results file: a new sweep replaces it)
    assert len(list(read_rows(path))) == 3
    (tmp_path / "d.csv").mkdir()
    assert "is a directory" in refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "2",
                                       "--out", str(tmp_path / "d.csv"))


# ---------------------------------------------------------------- numbers, text, encodings
@pytest.mark.parametrize(("where", "column", "value"), [
    ("csv", "turns", "1e400"), ("csv", "hp_left", "Infinity"),
    ("csv", "plays", '{"strike":1e400}'),
    ("jsonl", "plays", {"strike": float("inf")}), ("jsonl", "damage", {"bash": 1e400}),
    ("jsonl", "actions", float("inf")), ("jsonl", "seed", 2**64),
])
def test_overflowing_numbers_are_refused_by_every_command(
        where: str, column: str, value: object, tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, f"rows.{where}")
    if where == "csv":
        edit_csv(path, 2, column, str(value))
    else:
        lines = path.read_text().splitlines()
        d = json.loads(lines[2])
        d[column] = value
        lines[2] = json.dumps(d)  # (Infinity: Python's JSON writes it, and reads it back)
        path.write_text("\n".join(lines) + "\n")
    for args in (("report", str(path), "--out", str(tmp_path / "r.html")), resume(path),
                 ("replay", "--from", str(path), "--battle", "5"),
                 ("record", "--from", str(path), "--battle", "5", "--out",
                  str(tmp_path / "b.json"))):
        line = refused(capsys, *args)
        assert f"{path} row 2" in line and f"column '{column}'" in line, line
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "b.json").exists()


def test_a_row_that_is_not_utf8_is_named_by_file_and_line(tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.csv")
    data = path.read_bytes().split(b"\n")
    data[4] = data[4].replace(b"jaw_worm", b"jaw\xffworm")
    path.write_bytes(b"\n".join(data))
    line = refused(capsys, "report", str(path))
    assert f"{path} line 5: not UTF-8 text" in line


def test_report_counts_no_damaged_row(tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.csv")
    edit_csv(path, 3, "won", "maybe")  # (read as a loss before: the report counted it)
    line = refused(capsys, "report", str(path))
    assert f"{path} row 3 (line 5): column 'won' must be true or false" in line
    edit_csv(path, 3, "won", "true")
    edit_csv(path, 3, "unfinished", "true")
    assert "cannot be both won and unfinished" in refused(capsys, "report", str(path))


def test_report_out_refuses_a_directory_and_a_file_that_is_not_a_report(
        tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.csv")
    (tmp_path / "d").mkdir()
    assert "is a directory" in refused(capsys, "report", str(path), "--out", str(tmp_path / "d"))
    mine = tmp_path / "mine.html"
    mine.write_text("<html>my page</html>")
    assert "is not a gcs report: not overwritten" in refused(capsys, "report", str(path),
                                                             "--out", str(mine))
    assert mine.read_text() == "<html>my page</html>"
    code, _, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    code, _, err = cli(capsys, "report", str(path), "--out", str(tmp_path / "r.html"))
    assert code == 0, err  # (a report replaces a report)


# ---------------------------------------------------------------- replay files
@pytest.fixture
def replay_file(tmp_path: Path, capsys: Capsys) -> Path:
    path = tmp_path / "b.json"
    code, _, err = cli(capsys, "record", "-e", "jaw_worm", "--seed", "9", "--out", str(path))
    assert code == 0, err
    return path


@pytest.mark.parametrize(("field", "value", "message"), [
    ("actions", [0, 1], "field 'actions[0]' must be an action text"),
    ("actions", [None], "field 'actions[0]' must be an action text"),
    ("actions", "end", "field 'actions' must be a list"),
    ("character", 5, "field 'character' must be null or a character id"),
    ("character", "nobody", "field 'character' must be null or a character id"),
    ("deck", 5, "field 'deck' must be null or a list"),
    ("deck", "strike*5", "field 'deck' must be null or a list"),
    ("deck", ["strike", 5], "field 'deck[1]' must be a card id"),
    ("seed", 1e400, "field 'seed' must be an integer"),
    ("seed", True, "field 'seed' must be an integer"),
    ("encounter", ["jaw_worm"], "field 'encounter' must be an encounter id"),
    ("won", "yes", "field 'won' must be true, false or null"),
    ("turns", -1, "field 'turns' must be a whole number"),
    ("final", "abc", "field 'final' must be a sha256 digest"),
    ("trace", ["zz"], "field 'trace[0]' must be 16 hex digits"),
])
def test_a_replay_file_field_of_the_wrong_type_is_named(
        field: str, value: object, message: str, replay_file: Path, capsys: Capsys) -> None:
    data = json.loads(replay_file.read_text())
    data[field] = value
    replay_file.write_text(json.dumps(data))
    line = refused(capsys, "replay", str(replay_file))
    assert message in line and str(replay_file) in line, line


@pytest.mark.parametrize(("field", "value", "message"), [
    ("won", "flip", "replay ended "), ("turns", 99, "replay ended on turn"),
])
def test_a_replay_checks_the_result_and_turns_it_claims(
        field: str, value: object, message: str, replay_file: Path, capsys: Capsys) -> None:
    data = json.loads(replay_file.read_text())
    data[field] = (not data["won"]) if value == "flip" else value
    replay_file.write_text(json.dumps(data))
    line = refused(capsys, "replay", str(replay_file))
    assert message in line and "the file says" in line, line


def test_every_single_action_edit_of_a_replay_is_caught(replay_file: Path, capsys: Capsys) -> None:
    """The final digest covered the run state only (the battle's piles are gone once it
    closed): two single-action edits passed. The trace holds the state after every action."""
    data = json.loads(replay_file.read_text())
    caught = 0
    for i, text in enumerate(data["actions"]):
        for other in ("end", "play 0", "play 1", "play 0 @e0", "play 1 @e0", "skip", "reward 0"):
            if other == text:
                continue
            bad = dict(data, actions=[*data["actions"][:i], other, *data["actions"][i + 1:]])
            replay_file.write_text(json.dumps(bad))
            line = refused(capsys, "replay", str(replay_file))
            assert f"replay diverged at action {i}" in line, line
            caught += 1
    assert caught >= 6 * len(data["actions"])


def test_a_version_1_replay_file_still_replays(replay_file: Path, capsys: Capsys) -> None:
    data = json.loads(replay_file.read_text())
    del data["trace"]
    data["format"] = "gcs-replay/1"
    replay_file.write_text(json.dumps(data))
    code, out, err = cli(capsys, "replay", str(replay_file))
    assert code == 0 and "state identical" in out and "after every action" not in out, err


def test_replay_files_that_are_not_json_objects_are_named(tmp_path: Path, capsys: Capsys) -> None:
    cases = {"a.json": b"\xff\xfe", "b.json": b"[1, 2]", "c.json": b"{" * 100_000,
             "d.json": b'{"seed": ' + b"9" * 5000 + b"}"}
    for name, raw in cases.items():
        (tmp_path / name).write_bytes(raw)
        line = refused(capsys, "replay", str(tmp_path / name))
        assert str(tmp_path / name) in line
    (tmp_path / "dir.json").mkdir()
    assert "is a directory" in refused(capsys, "replay", str(tmp_path / "dir.json"))


def test_record_out_refuses_a_directory_and_a_file_that_is_not_a_replay(
        replay_file: Path, tmp_path: Path, capsys: Capsys) -> None:
    (tmp_path / "d").mkdir()
    line = refused(capsys, "record", "-e", "jaw_worm", "--out", str(tmp_path / "d"))
    assert "is a directory: give a file name" in line  # (IsADirectoryError traceback before)
    notes = tmp_path / "notes.json"
    notes.write_text('{"my": "notes"}')
    line = refused(capsys, "record", "-e", "jaw_worm", "--out", str(notes))
    assert "is not a replay file: not overwritten" in line
    assert notes.read_text() == '{"my": "notes"}'
    code, _, err = cli(capsys, "record", "-e", "cultist", "--out", str(replay_file))
    assert code == 0, err  # (a replay file replaces a replay file)


def test_record_from_a_won_row_replays_with_its_claims(tmp_path: Path, capsys: Capsys) -> None:
    path = sweep(tmp_path, capsys, "rows.jsonl")
    won = next(r for r in read_rows(path) if r["won"])
    out = tmp_path / "b.json"
    code, _, err = cli(capsys, "record", "--from", str(path), "--battle", str(won["battle"]),
                       "--out", str(out))
    assert code == 0, err
    data = json.loads(out.read_text())
    assert data["won"] is True and data["turns"] == won["turns"]  # (its reward is still open)
    code, text, err = cli(capsys, "replay", str(out))
    assert code == 0 and "won in" in text, err


# ---------------------------------------------------------------- --policy file.py:fn
POLICIES = '''
import os
def none(game, legal): return None
def end(game, legal): return "end" if legal[-1].kind == "end" else legal[0]
def words(game, legal): return "attack!"
def listed(game, legal): return [legal[0]]
def number(game, legal): return 3
def illegal(game, legal): return "play 9"
def boom(game, legal): raise RuntimeError("my policy broke")
def three(game, legal, extra): return legal[0]
def exits(game, legal): os._exit(3)
class Unpicklable(Exception):
    def __init__(self, a, b): super().__init__(a)
def odd(game, legal): raise Unpicklable("odd", 2)
def factory(): raise KeyError("no config")
'''


@pytest.fixture
def policies(tmp_path: Path) -> Path:
    path = tmp_path / "pol.py"
    path.write_text(POLICIES)
    return path


@pytest.mark.parametrize(("fn", "message"), [
    ("none", "the policy returned None (NoneType), not a gcs.Action or its text (decision 0"),
    ("words", "the policy returned 'attack!': cannot parse action"),
    ("listed", "the policy returned [Action(kind='play'"),
    ("number", "the policy returned 3 (int)"),
    ("illegal", "the policy chose play 9, which is not legal now"),
    ("boom", "the policy raised RuntimeError: my policy broke (decision 0, turn 1)"),
])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_policy_error_names_the_policy_battle_and_decision(
        fn: str, message: str, workers: str, policies: Path, capsys: Capsys) -> None:
    line = refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "4", "--workers", workers,
                   "--policy", f"{policies}:{fn}", "--quiet")
    assert "battle 0 of 'jaw_worm' (job 0, game seed " in line and f"pol.py:{fn}'" in line
    assert message in line, line


def test_a_policy_may_return_an_action_text(policies: Path, capsys: Capsys) -> None:
    code, out, err = cli(capsys, "simulate", "-e", "jaw_worm", "--battles", "3", "--policy",
                         f"{policies}:end", "--json")
    assert code == 0 and json.loads(out)["battles"] == 3, err


def test_a_policy_of_the_wrong_arity_or_a_failing_factory_is_refused_at_load(
        policies: Path, capsys: Capsys) -> None:
    line = refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "2", "--policy",
                   f"{policies}:three")
    assert "cannot be called as policy(game, legal_actions): its signature is (game, legal, " \
        "extra)" in line
    line = refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "2", "--policy",
                   f"{policies}:factory")
    assert "making it raised KeyError" in line


def test_a_worker_that_dies_or_cannot_send_its_error_back_is_one_error_line(
        policies: Path, tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "rows.jsonl"
    line = refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "6", "--workers", "2",
                   "--chunk", "2", "--policy", f"{policies}:exits", "--out", str(out), "--quiet")
    assert "a worker process died" in line and "--resume" in line
    line = refused(capsys, "simulate", "-e", "jaw_worm", "--battles", "6", "--workers", "2",
                   "--policy", f"{policies}:odd", "--quiet")
    assert "the policy raised Unpicklable: odd" in line
    assert os.path.exists(out)


def test_record_names_a_failing_policy_too(policies: Path, tmp_path: Path,
                                           capsys: Capsys) -> None:
    for fn, message in (("boom", "the policy raised RuntimeError: my policy broke"),
                        ("none", "the policy returned None"), ("illegal", "not legal now")):
        line = refused(capsys, "record", "-e", "jaw_worm", "--policy", f"{policies}:{fn}",
                       "--out", str(tmp_path / "b.json"))
        assert message in line and "(decision 0, turn 1)" in line, line
    assert not (tmp_path / "b.json").exists()

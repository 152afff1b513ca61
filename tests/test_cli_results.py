"""Per-battle results: ``gcs simulate --out FILE`` (.csv, .jsonl, .parquet) writes one row per
battle with the documented columns; any row re-runs exactly (``gcs replay --from``) and becomes a
replay file (``gcs record --from``); an interrupted sweep resumes from its file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gcs
from gcs.cli import main
from gcs.sim.jobs import Job, play_row
from gcs.sim.results import COLUMNS, ResultsError, open_writer, read_rows
from gcs.sim.rowcheck import row_check
from gcs.sim.runner import battle_seed
from gcs.sim.sweep import Sweep, run_sweep

Capsys = pytest.CaptureFixture[str]
FORMATS = (".csv", ".jsonl", ".parquet")
BATTLES = 24
CONTENT = gcs.builtin_content()


def run_cli(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def sweep_file(tmp_path: Path, capsys: Capsys, suffix: str, *extra: str) -> Path:
    path = tmp_path / f"rows{suffix}"
    code, _, err = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--battles", str(BATTLES),
                           "--seed", "4", "--chunk", "5", "--out", str(path), "--quiet", *extra)
    assert code == 0, err
    return path


@pytest.mark.parametrize("suffix", FORMATS)
def test_out_has_one_row_per_battle_with_the_documented_columns(
        suffix: str, tmp_path: Path, capsys: Capsys) -> None:
    rows = list(read_rows(sweep_file(tmp_path, capsys, suffix)))
    assert len(rows) == BATTLES
    assert [r["battle"] for r in rows] == list(range(BATTLES))
    doc = (Path(__file__).parent.parent / "docs" / "simulation.md").read_text()
    for r in rows:
        assert tuple(r) == COLUMNS
        assert r["seed"] == battle_seed(4, r["battle"]) and r["sweep_seed"] == 4
        assert r["encounter"] == "jaw_worm" and r["pack"] == "ironclad" and r["deck"] == ""
        assert isinstance(r["won"], bool) and r["turns"] >= 1 and r["actions"] >= r["turns"]
        assert (r["hp_left"] > 0) == r["won"] and 0 <= r["damage_taken"] <= 80
        assert set(r["plays"]) <= {"strike", "defend", "bash"} and sum(r["plays"].values()) > 0
        assert set(r["damage"]) <= set(r["plays"])
    for col in COLUMNS:
        assert f"`{col}`" in doc, f"column {col} is not documented in docs/simulation.md"


def test_out_files_of_every_format_hold_the_same_rows(tmp_path: Path, capsys: Capsys) -> None:
    by_format = [list(read_rows(sweep_file(tmp_path, capsys, s))) for s in FORMATS]
    assert by_format[0] == by_format[1] == by_format[2]


def test_out_rows_add_up_to_the_printed_summary(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "rows.jsonl"
    code, out, _ = run_cli(capsys, "simulate", "--encounter", "cultist", "--battles", "30",
                           "--out", str(path), "--json")
    assert code == 0
    d = json.loads(out)
    rows = list(read_rows(path))
    assert d["wins"] == sum(r["won"] for r in rows)
    assert d["plays_by_card"]["strike"] == sum(r["plays"].get("strike", 0) for r in rows)
    assert d["mean_damage_taken"] == round(sum(r["damage_taken"] for r in rows) / 30, 3)
    # the block credit: per card, summed over the rows, and its total (Defend's 5 a play here)
    assert d["block_by_card"] == {"defend": sum(r["block"].get("defend", 0) for r in rows)}
    assert d["block_gained"] == sum(d["block_by_card"].values()) == 5 * d["plays_by_card"]["defend"]


@pytest.mark.parametrize("suffix", FORMATS)
def test_replaying_row_k_reproduces_it(suffix: str, tmp_path: Path, capsys: Capsys) -> None:
    path = sweep_file(tmp_path, capsys, suffix)
    rows = list(read_rows(path))
    for k in (0, 13, BATTLES - 1):
        code, out, err = run_cli(capsys, "replay", "--from", str(path), "--battle", str(k))
        assert code == 0, err
        r = rows[k]
        assert out.startswith(f"battle {k} (jaw_worm, seed {r['seed']}) reproduces: "
                              f"{'won' if r['won'] else 'lost'} in {r['turns']} turns")
        job = Job(None, r["encounter"], r["policy"], r["sweep_seed"], None, None)
        assert play_row(job, k, CONTENT)[0] == r


def test_replaying_a_tampered_row_is_refused(tmp_path: Path, capsys: Capsys) -> None:
    path = sweep_file(tmp_path, capsys, ".jsonl")
    lines = path.read_text().splitlines()
    row = json.loads(lines[5])
    row["turns"] += 1
    row["check"] = row_check(row)  # (an edit made with care: the re-run tells, not the check)
    lines[5] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli(capsys, "replay", "--from", str(path), "--row", "5")
    assert code == 2 and out == ""
    assert err.startswith("error: row of battle 5 does not reproduce: turns: file ")


def test_record_from_a_row_writes_a_replay_that_replays(tmp_path: Path, capsys: Capsys) -> None:
    path = sweep_file(tmp_path, capsys, ".csv", "--deck", "strike*4,defend*4,bash,cleave")
    row = list(read_rows(path))[7]
    rep = tmp_path / "b7.json"
    code, out, err = run_cli(capsys, "record", "--from", str(path), "--battle", "7", "--out", str(rep))
    assert code == 0, err
    data = json.loads(rep.read_text())
    assert (data["seed"], data["encounter"], len(data["actions"])) == (row["seed"], "jaw_worm",
                                                                       row["actions"])
    assert data["deck"] == ["strike"] * 4 + ["defend"] * 4 + ["bash", "cleave"]
    assert out.startswith(f"recorded {row['actions']} actions")
    code, out, err = run_cli(capsys, "replay", str(rep))
    assert code == 0 and "state identical" in out, err


def test_several_encounters_and_decks_make_one_job_each(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "grid.csv"
    code, out, _ = run_cli(capsys, "simulate", "--encounter", "jaw_worm,cultist", "--deck",
                           "strike*5,defend*4,bash", "--deck", "strike*4,defend*4,bash,cleave",
                           "--battles", "10", "--out", str(path), "--quiet")
    assert code == 0
    rows = list(read_rows(path))
    assert len(rows) == 40
    assert [(r["job"], r["encounter"], r["deck"]) for r in rows[::10]] == [
        (0, "jaw_worm", "strike*5,defend*4,bash"), (1, "jaw_worm", "strike*4,defend*4,bash,cleave"),
        (2, "cultist", "strike*5,defend*4,bash"), (3, "cultist", "strike*4,defend*4,bash,cleave")]
    assert "side by side" in out and out.count("encounter      ") == 4
    # the same battle index has the same seed in every job (common random numbers)
    assert len({r["seed"] for r in rows if r["battle"] == 3}) == 1
    code, _, err = run_cli(capsys, "replay", "--from", str(path), "--battle", "3")
    assert code == 2 and "pick one with --row N" in err and "row 13:" in err
    code, out, err = run_cli(capsys, "replay", "--from", str(path), "--row", "33")
    assert code == 0 and out.startswith("battle 3 (cultist,"), err


@pytest.mark.parametrize("suffix", FORMATS)
def test_an_interrupted_sweep_resumes_from_its_file(suffix: str, tmp_path: Path) -> None:
    jobs = (Job(None, "jaw_worm", "random", 8, None, None), Job(None, "cultist", "random", 8, None, None))
    sweep = Sweep(jobs, 20, chunk=6)
    whole = tmp_path / f"whole{suffix}"
    full = run_sweep(sweep, out=whole, content=CONTENT)
    part = tmp_path / f"part{suffix}"
    seen = []

    def stop_after_27(done: int, total: int) -> None:
        seen.append(done)
        if done >= 27:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(sweep, out=part, progress=stop_after_27, content=CONTENT)
    assert len(list(read_rows(part))) == 32  # chunks of 6 per job: 6, 12, 18, 20, 26, 32 rows
    if suffix != ".parquet":  # a half-written last line (an interrupted write) is dropped
        with open(part, "a", encoding="utf-8") as fh:
            fh.write('{"job": 1, "encou' if suffix == ".jsonl" else "1,cultist,,rand")
    resumed = run_sweep(sweep, out=part, resume=True, content=CONTENT)
    assert [s.to_dict() for s in resumed] == [s.to_dict() for s in full]
    assert list(read_rows(part)) == list(read_rows(whole))


def test_resume_refuses_a_file_of_another_sweep(tmp_path: Path, capsys: Capsys) -> None:
    path = sweep_file(tmp_path, capsys, ".csv")
    code, _, err = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--battles", "30",
                           "--seed", "5", "--out", str(path), "--resume", "--quiet")
    assert code == 2 and "was written by another sweep" in err and "sweep_seed 4 != 5" in err
    code, out, err = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--battles", "30",
                             "--seed", "4", "--chunk", "5", "--out", str(path), "--resume", "--json")
    assert code == 0, err
    assert len(list(read_rows(path))) == 30 and json.loads(out)["battles"] == 30


def test_a_results_file_with_an_unknown_suffix_is_refused(tmp_path: Path, capsys: Capsys) -> None:
    code, _, err = run_cli(capsys, "simulate", "--encounter", "jaw_worm", "--battles", "3",
                           "--out", str(tmp_path / "rows.txt"))
    assert code == 2 and ".csv, .jsonl or .parquet" in err
    with pytest.raises(ResultsError):
        open_writer(tmp_path / "x.xlsx")


def test_ctrl_c_exits_130_and_says_how_to_resume(tmp_path: Path, capsys: Capsys,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import gcs.sim.sweep as sweep_mod

    real = sweep_mod.play_chunk
    calls = []

    def interrupted(*args: object) -> object:
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_mod, "play_chunk", interrupted)
    path = tmp_path / "rows.jsonl"
    args = ["simulate", "--encounter", "jaw_worm", "--battles", "30", "--chunk", "5", "--out",
            str(path), "--quiet"]
    code, _, err = run_cli(capsys, *args)
    assert code == 130
    assert f"{path} holds 10 rows: run the same command with --resume to finish" in " ".join(err.split())
    monkeypatch.setattr(sweep_mod, "play_chunk", real)
    code, _, err = run_cli(capsys, *args, "--resume")
    assert code == 0, err
    assert [r["battle"] for r in read_rows(path)] == list(range(30))

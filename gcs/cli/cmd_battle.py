"""``gcs demo``, ``gcs play`` and ``gcs run``: single battles and a scripted run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import (
    Character,
    Pack,
    Policy,
    Seed,
    check_character,
    check_deck,
    check_encounter,
    check_rows_out,
    load_pack,
    resolve_policy,
)

Encounter = Annotated[str, typer.Option("--encounter", "-e", help="encounter id")]


def register(app: typer.Typer) -> None:
    """Add ``demo``, ``play`` and ``run``."""
    app.command("demo", help="play one battle and print every phase, play and event")(demo)
    app.command("play", help="play a battle yourself in the terminal (with the monitor)")(play)
    app.command("run", help="play the act as the game does (--act 1), or a scripted run "
                "of encounters on one master deck")(run)


def demo(encounter: Encounter = "jaw_worm", seed: Seed = 1, policy: Policy = "random",
         pack: Pack = None, character: Character = None) -> None:
    """Narrate one battle."""
    from ..sim.demo import run_demo

    content = load_pack(pack)
    check_encounter(content, encounter)
    run_demo(content, encounter, seed, resolve_policy(policy), sys.stdout)


def play(encounter: Encounter = "jaw_worm", seed: Seed = 1, pack: Pack = None,
         deck: Annotated[str | None, typer.Option(
             help="master deck, e.g. strike*5,defend*4,bash+ (default: the character's)")] = None,
         character: Character = None) -> None:
    """Play interactively, one action per line (with line editing and history on a terminal)."""
    from ..sim.interactive import play_interactive
    from ..sim.jobs import parse_deck

    content = load_pack(pack)
    check_encounter(content, encounter)
    cards = parse_deck(deck)
    check_deck(content, cards)
    check_character(content, character)
    if sys.stdin.isatty():
        import readline  # noqa: F401  # (input() gets line editing: arrows, Home/End, history)
    play_interactive(content, encounter, seed, input, sys.stdout, deck=cards, character=character)


def run(encounters: Annotated[str | None, typer.Option(
            help="comma-separated encounter ids: a scripted run")] = None,
        act: Annotated[int | None, typer.Option(
            "--act", min=1, max=1, help="play the act as the game does (docs/run.md): 1")] = None,
        seed: Seed = 1, policy: Policy = "random", pack: Pack = None,
        character: Character = None,
        runs: Annotated[int, typer.Option(min=1, help="runs to play (with --act)")] = 1,
        workers: Annotated[int, typer.Option(min=1, help="local processes (with --act)")] = 1,
        out: Annotated[Path | None, typer.Option(
            help="results file of every battle (.csv, .jsonl, .parquet; as simulate's)")] = None,
        runs_out: Annotated[Path | None, typer.Option(
            "--runs-out", help="one row per run (.csv or .jsonl): won, floor, HP, gold, deck, "
            "cause of death")] = None,
        json_out: Annotated[bool, typer.Option("--json", help="the summary as JSON")] = False,
        ) -> None:
    """A scripted run of encounters, or (--act 1) the act's runs; exit code 3 when one is lost
    (a scripted run, or a single act run)."""
    if (encounters is None) == (act is None):
        raise typer.BadParameter("give --encounters (a scripted run) or --act 1",
                                 param_hint="--act")
    if act is not None:
        _act_runs(seed, policy, pack, character, runs, workers, out, runs_out, json_out)
        return
    from ..sim.policies import make_policy
    from ..sim.runner import play_run

    assert encounters is not None
    encs = [x for x in encounters.split(",") if x]
    content = load_pack(pack)
    for enc in encs:
        check_encounter(content, enc)
    check_character(content, character)
    r = play_run(content, encs, make_policy(resolve_policy(policy), seed), seed, character=character)
    for enc, b in zip(encs, r.battles, strict=False):
        print(f"{enc:<20} {'won ' if b.won else 'lost'} in {b.turns:>2} turns, {b.hp_left} HP left")
    print(f"run {'WON' if r.won else 'LOST'}: HP {r.hp}/{r.max_hp}, gold {r.gold}, "
          f"deck ({len(r.deck)}): {', '.join(r.deck)}")
    if not r.won:
        raise typer.Exit(3)


def _act_runs(seed: int, policy: str, pack: str | None, character: str | None, runs: int,
              workers: int, out: Path | None, runs_out: Path | None, json_out: bool) -> None:
    import json

    from ..act.batch import RUN_COLUMNS, play_runs, summarize
    from ..sim.backends import make_backend
    from ..sim.results import open_writer

    load_pack(pack)
    check_character(load_pack(pack), character)
    if pack is not None:
        pack = str(Path(pack).resolve())
    policy = resolve_policy(policy)
    check_rows_out(out, False)
    if runs_out is not None:
        if runs_out.suffix not in (".csv", ".jsonl"):
            raise typer.BadParameter("a runs file ends in .csv or .jsonl",
                                     param_hint="--runs-out")
        _check_runs_file(runs_out, RUN_COLUMNS)
    chunk = 4
    tasks = [(pack, policy, seed, i, min(runs, i + chunk), character)
             for i in range(0, runs, chunk)]
    be = make_backend("local", workers)
    writer = open_writer(out) if out is not None else None
    rows: list[dict[str, object]] = []
    try:
        for got in be.map(play_runs, tasks):
            for run_row, battles in got:
                rows.append(run_row)
                if writer is not None:
                    writer.write(battles)
    finally:
        be.close()
        if writer is not None:
            writer.close()
    if runs_out is not None:
        _write_runs(runs_out, rows, RUN_COLUMNS)
    s = summarize(rows)
    if json_out:
        print(json.dumps(s if runs > 1 else {**s, "run": rows[0]}, indent=2))
    else:
        if runs == 1:
            r = rows[0]
            print(f"path {r['path']} (boss {r['boss']})")
            print(f"run {'WON' if r['won'] else 'LOST'} on floor {r['floor']}"
                  f"{'' if r['won'] else ' to ' + str(r['cause'])}: HP {r['hp']}/{r['max_hp']}, "
                  f"gold {r['gold']}, deck: {r['deck']}")
        lo, hi = s["win_rate_95"]
        flo, fhi = s["mean_floor_95"]
        print(f"act 1, policy {policy}, seed {seed}: {s['runs']} runs, won {s['wins']} "
              f"({s['win_rate'] * 100:.1f}%, 95% CI {lo * 100:.1f}-{hi * 100:.1f}%), mean floor "
              f"{s['mean_floor']:.2f} ({flo:.2f}-{fhi:.2f})")
        if s["causes"]:
            print("deaths: " + ", ".join(f"{k} {v}" for k, v in s["causes"].items()))
    if runs == 1 and not rows[0]["won"]:
        raise typer.Exit(3)


def _check_runs_file(path: Path, columns: tuple[str, ...]) -> None:
    """Refuse (before playing) to write the runs over a file that is not a runs file."""
    from ..sim.outfile import check_replaceable
    from ..sim.results import ResultsError

    starts = (",".join(columns[:3]), '{"' + columns[0] + '": ')

    def ours(p: Path) -> bool:
        with p.open(encoding="utf-8", errors="replace") as f:
            return f.readline(200).startswith(starts)

    check_replaceable(path, "runs file", ours, ResultsError)


def _write_runs(path: Path, rows: list[dict[str, object]], columns: tuple[str, ...]) -> None:
    import csv
    import io
    import json

    from ..sim.outfile import write_text
    from ..sim.results import ResultsError

    if path.suffix == ".jsonl":
        text = "".join(json.dumps({c: r[c] for c in columns}) + "\n" for r in rows)
    else:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([r[c] for c in columns])
        text = buf.getvalue()
    write_text(path, text, "runs file", ResultsError)

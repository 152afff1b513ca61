"""``gcs simulate``: a sweep of seeded battles over encounters x decks, with per-battle rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..report.stats import wilson
from ..sim.jobs import Job, Summary, format_deck, parse_deck
from .common import (
    Character,
    Pack,
    Policy,
    Seed,
    check_character,
    check_deck,
    check_encounter,
    check_rows_out,
    console,
    escape,
    load_pack,
    resolve_policy,
)
from .progress import interrupted, progress

if TYPE_CHECKING:
    from rich.table import Table

Encounters = Annotated[list[str], typer.Option(
    "--encounter", "-e", help="encounter id; repeat it (or give a,b,c) for several")]
Decks = Annotated[list[str] | None, typer.Option(
    "--deck", help="a deck, e.g. strike*5,defend*4,bash; repeat for several (default: starter)")]


def register(app: typer.Typer) -> None:
    """Add ``simulate``."""
    app.command("simulate", help="run many seeded battles and print statistics; "
                "--out writes one row per battle")(simulate_command)


def simulate_command(
    encounter: Encounters,
    deck: Decks = None,
    battles: Annotated[int, typer.Option(min=1, help="battles per encounter and deck")] = 1000,
    policy: Policy = "random",
    seed: Seed = 1,
    workers: Annotated[int, typer.Option(min=1, help="local processes (or Ray tasks in flight)")] = 1,
    chunk: Annotated[int, typer.Option(min=1, help="battles per task")] = 250,
    pack: Pack = None,
    character: Character = None,
    out: Annotated[Path | None, typer.Option(
        help="per-battle rows: FILE.csv, .jsonl or .parquet")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="keep --out's rows and run only the missing battles")] = False,
    report: Annotated[Path | None, typer.Option(help="also write an HTML balance report here")] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (with --backend ray)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress")] = False,
) -> None:
    """Run the sweep and print one summary per encounter and deck."""
    from ..sim.backends import make_backend
    from ..sim.sweep import Sweep, run_sweep

    content = load_pack(pack)
    if pack is not None:  # workers (other processes, Ray nodes) may start in another directory
        pack = str(Path(pack).resolve())
    encounters = [x.strip() for e in encounter for x in e.split(",") if x.strip()]
    for enc in encounters:
        check_encounter(content, enc)
    decks = [parse_deck(d) for d in deck] if deck else [None]
    for d in decks:
        check_deck(content, d)
    check_character(content, character)
    policy = resolve_policy(policy)
    check_rows_out(out, resume)
    if report is not None:
        from ..report import check_replaceable as check_report

        check_report(report)
    jobs = tuple(Job(pack, enc, policy, seed, d, character) for enc in encounters for d in decks)
    sweep = Sweep(jobs, battles, chunk)
    aggregate = None
    if report is not None and out is None:
        from ..report.aggregate import Aggregate

        aggregate = Aggregate()
    be = make_backend(backend, workers, address)
    label = ",".join(encounters) if len(encounters) <= 3 else f"{len(encounters)} encounters"
    try:
        with progress(label, quiet or json_out) as bar:
            sums = run_sweep(sweep, be, out=out, resume=resume, progress=bar, content=content,
                             sink=aggregate.add_rows if aggregate is not None else None)
    except KeyboardInterrupt:
        raise interrupted(out) from None
    finally:
        be.close()
    if report is not None:
        from ..report import write_report

        write_report(out if out is not None else aggregate, report)  # type: ignore[arg-type]
    if json_out:
        docs = [dict(s.to_dict(), encounter=j.encounter, deck=format_deck(j.deck), policy=policy,
                     seed=seed) for j, s in zip(jobs, sums, strict=True)]
        print(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2))
        return
    con = console()
    for j, s in zip(jobs, sums, strict=True):
        print_summary(con, j, s, workers if backend == "local" else f"{backend} x{workers}")
    if len(jobs) > 1:
        con.print(comparison(jobs, sums))
    if out is not None:
        con.print(f"rows           {escape(str(out))}")
    if report is not None:
        con.print(f"report         {escape(str(report))}")


def _kv(con: Any, label: str, value: str) -> None:
    con.print(f"[bold]{label:<14}[/] {value}")


def print_summary(con: Any, job: Job, s: Summary, workers: object) -> None:
    """The summary of one job: key lines, then a table of plays, damage and block per card."""
    d = s.to_dict()
    lo, hi = wilson(s.wins, s.battles)
    rate = d["win_rate"] * 100
    colour = "green" if rate >= 50 else "red"
    _kv(con, "encounter", f"[cyan]{escape(job.encounter)}[/]")
    if job.deck:
        _kv(con, "deck", escape(format_deck(job.deck)))
    _kv(con, "policy", f"{escape(job.policy)}  seed {job.seed}  workers {workers}")
    _kv(con, "battles", str(d["battles"]))
    extra = (f", {d['unfinished']} unfinished: stalemates at the turn cap)" if d["unfinished"]
             else ")")
    _kv(con, "win rate", f"[{colour}]{rate:.2f}%[/]  ({d['wins']} won{extra}  "
        f"95% CI {lo * 100:.1f}-{hi * 100:.1f}%")
    _kv(con, "turns", f"mean {d['mean_turns']:.2f}")
    _kv(con, "hp left (won)", f"mean {d['mean_hp_left_when_won']:.2f}")
    _kv(con, "damage taken", f"mean {d['mean_damage_taken']:.2f}")
    _kv(con, "damage dealt", f"mean {d['damage_dealt'] / max(1, s.battles):.2f} (the cards' "
        "damage below sums to it)")
    _kv(con, "block gained", f"mean {d['block_gained'] / max(1, s.battles):.2f} (the cards' "
        "block below sums to it)")
    _kv(con, "decisions", f"mean {d['mean_decisions']:.2f} per battle")
    from rich.table import Table

    t = Table(box=None, pad_edge=False, header_style="bold")
    t.add_column("card")
    t.add_column("plays/battle", justify="right")
    t.add_column("damage/battle", justify="right")
    t.add_column("block/battle", justify="right")
    n = max(1, s.battles)
    for card in sorted(set(s.plays) | set(s.damage) | set(s.block)):
        t.add_row(escape(card), f"{s.plays.get(card, 0) / n:.2f}",
                  f"{s.damage.get(card, 0) / n:.2f}", f"{s.block.get(card, 0) / n:.2f}")
    con.print(t)
    con.print()


def comparison(jobs: tuple[Job, ...], sums: list[Summary]) -> Table:
    """One line per job: the side-by-side view of a sweep over several encounters or decks."""
    from rich.table import Table

    t = Table(title="side by side", header_style="bold")
    for col in ("encounter", "deck", "battles", "win rate", "95% CI", "turns", "hp left (won)"):
        t.add_column(col, justify="left" if col in ("encounter", "deck") else "right")
    for j, s in zip(jobs, sums, strict=True):
        d = s.to_dict()
        lo, hi = wilson(s.wins, s.battles)
        t.add_row(escape(j.encounter), escape(format_deck(j.deck) or "starter"), str(s.battles),
                  f"{d['win_rate'] * 100:.1f}%", f"{lo * 100:.1f}-{hi * 100:.1f}%",
                  f"{d['mean_turns']:.2f}", f"{d['mean_hp_left_when_won']:.1f}")
    return t

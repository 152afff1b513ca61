"""``gcs compare``: a baseline against variants on the same seeds, with paired intervals."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import GameError
from ..sim.compare import DEFAULT_POLICY
from ..sim.policies import POLICY_HELP
from .common import (
    Character,
    Seed,
    check_character,
    check_deck,
    check_encounter,
    check_rows_out,
    console,
    escape,
    resolve_policy,
)
from .progress import interrupted, progress

if TYPE_CHECKING:
    from ..sim.compare import Arm, Outcome

Opt = typer.Option
Ids = Annotated[str | None, Opt(metavar="all|IDS")]
#: The most variants printed one table per encounter (a bigger sweep prints the ranking).
PER_ENCOUNTER_TABLES = 6
#: The most significant changes listed on the terminal (--json and --report hold them all).
CHANGES_SHOWN = 40


def register(app: typer.Typer) -> None:
    """Add ``compare``."""
    app.command("compare", help="a baseline against variants (decks, packs, a git revision, "
                "each card added/removed/upgraded) on the same seeds, with paired 95% "
                "intervals")(compare_command)


def parse_until(text: str) -> float:
    """``1pp`` / ``1.5 pp`` / ``0.8`` (percentage points) as a fraction: 0.01, 0.015, 0.008."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(pp)?\s*", text)
    if not m or not 0 < float(m.group(1)) < 100:
        raise typer.BadParameter(f"{text!r}: a half-width in percentage points, e.g. 1pp or "
                                 "1.5pp (more than 0, less than 100)", param_hint="--until")
    return float(m.group(1)) / 100


def compare_command(
    encounter: Annotated[list[str], Opt("--encounter", "-e", help=(
        "encounter id; repeat it or give a,b,c for several; '*' for every encounter"))],
    deck: Annotated[list[str] | None, Opt("--deck", help=(
        "a variant: an edit of the baseline deck (+card adds one, -card removes one, card+ "
        "upgrades one; join with commas) or a whole deck (strike*5,defend*4,bash); repeat "
        "for several"))] = None,
    pack: Annotated[list[str] | None, Opt("--pack", help=(
        "a pack directory: the first is the baseline's, each further one a variant "
        "(default: the bundled pack)"))] = None,
    git: Annotated[str | None, Opt("--git", metavar="REV", help=(
        "the baseline is the (first) pack as committed at REV, the pack on disk a variant"))] = None,
    base_deck: Annotated[str | None, Opt("--base-deck", help=(
        "the baseline's deck (default: the character's starting deck)"))] = None,
    add: Annotated[str | None, Opt(metavar="all|IDS", help=(
        "card values: a variant per card added to the baseline deck (all: the character's "
        "common, uncommon and rare cards)"))] = None,
    remove: Annotated[str | None, Opt(metavar="all|IDS", help=(
        "card values: a variant per card of the deck removed (one copy)"))] = None,
    upgrade: Annotated[str | None, Opt(metavar="all|IDS", help=(
        "card values: a variant per card of the deck upgraded (one copy)"))] = None,
    policy: Annotated[str, Opt("--policy", help=(
        f"the policy of every arm (default {DEFAULT_POLICY}): {POLICY_HELP}"))] = DEFAULT_POLICY,
    policy_variant: Annotated[list[str] | None, Opt("--policy-variant", help=(
        "a variant: the baseline played by this policy; repeat for several"))] = None,
    seed: Seed = 1,
    battles: Annotated[int | None, Opt(min=2, help=(
        "battles per arm and encounter (default 1000; with --until the most, default "
        "100000)"))] = None,
    until: Annotated[str | None, Opt(metavar="HALF-WIDTH", help=(
        "run until every win-rate interval against the baseline is at most this wide on each "
        "side, e.g. 1pp (checked after every --chunk battles)"))] = None,
    unpaired: Annotated[bool, Opt("--unpaired", help=(
        "play each arm on its own seeds, with the intervals of independent samples (to see "
        "what the pairing saves)"))] = False,
    keyed_shuffle: Annotated[bool, Opt("--keyed-shuffle", help=(
        "shuffle every arm's cards by keys of their identity, so the cards the arms share keep "
        "one order and the pairing cancels more noise (another shuffle than the game's: other "
        "numbers than gcs simulate; docs/simulation.md)"))] = False,
    start_hp: Annotated[int, Opt("--start-hp", min=0, help=(
        "the player's HP at the start of each battle (0: full), e.g. what a run arrives "
        "with"))] = 0,
    rank_by: Annotated[str, Opt("--rank-by", help=(
        "rank the variants by win_rate, hp_left, turns or damage_taken"))] = "win_rate",
    workers: Annotated[int, Opt(min=1, help="local processes (or Ray tasks in flight)")] = 1,
    chunk: Annotated[int, Opt(min=1, help="battles per task and per --until check")] = 250,
    character: Character = None,
    out: Annotated[Path | None, Opt(help="per-battle rows: FILE.csv, .jsonl or .parquet")] = None,
    resume: Annotated[bool, Opt("--resume", help=(
        "keep --out's rows and run only the missing battles"))] = False,
    report: Annotated[Path | None, Opt(help="also write the HTML comparison page here")] = None,
    backend: Annotated[str, Opt(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, Opt(help="Ray cluster address (with --backend ray)")] = None,
    json_out: Annotated[bool, Opt("--json", help="machine-readable output")] = False,
    quiet: Annotated[bool, Opt("--quiet", help="no progress")] = False,
) -> None:
    """Run the comparison and print the differences against the baseline."""
    from ..sim.compare import Plan, ranking
    from ..sim.variants import Request, build_arms

    target = parse_until(until) if until is not None else None
    ranking([], rank_by)  # (a bad --rank-by is refused before the battles, not after)
    check_rows_out(out, resume)
    if report is not None:
        from ..report.compare import check_replaceable as check_page

        check_page(report)
    policy = resolve_policy(policy)
    workdir = Path(tempfile.mkdtemp(prefix="gcs-compare-")) if git is not None else None
    try:
        req = Request(policy, pack or (), git, base_deck, deck or (), add, remove, upgrade,
                      [resolve_policy(p) for p in policy_variant or ()], character, workdir)
        arms = build_arms(req)
        encounters = _encounters(req, arms, encounter)
        _check(req, arms, encounters)
        n = battles if battles is not None else (100_000 if target is not None else 1000)
        plan = Plan(arms, tuple(encounters), seed, n, chunk, target, not unpaired, character,
                    keyed_shuffle, start_hp)
        outcome = _run(plan, out, resume, backend, workers, address,
                       quiet or json_out)
    finally:
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
    doc = outcome.to_dict(rank_by)
    if report is not None:
        from ..report.compare import write_compare_report

        write_compare_report(doc, report)
    if json_out:
        print(json.dumps(doc, indent=2))
        return
    print_comparison(doc, workers if backend == "local" else f"{backend} x{workers}")
    con = console()
    if out is not None:
        con.print(f"rows           {escape(str(out))}")
    if report is not None:
        con.print(f"report         {escape(str(report))}")


def _encounters(req: Any, arms: tuple[Arm, ...], given: list[str]) -> list[str]:
    content = req.content(arms[0].pack)
    names = [x.strip() for e in given for x in e.split(",") if x.strip()]
    if "*" in names:
        names = list(content.encounters)
    if not names:
        raise typer.BadParameter("give at least one encounter", param_hint="--encounter")
    return list(dict.fromkeys(names))


def _check(req: Any, arms: tuple[Arm, ...], encounters: list[str]) -> None:
    """Every arm's pack has every encounter, every card of its deck and the character."""
    for arm in arms:
        content = req.content(arm.pack)
        where = f" (in {arm.label})" if arm.pack != arms[0].pack else ""
        try:
            for enc in encounters:
                check_encounter(content, enc)
            check_deck(content, arm.deck)
            check_character(content, req.character)
        except GameError as exc:
            raise type(exc)(f"{exc}{where}") from None


def _run(plan: Any, out: Path | None, resume: bool, backend: str, workers: int,
         address: str | None, quiet: bool) -> Outcome:
    from ..sim.backends import make_backend
    from ..sim.compare import run_compare

    be = make_backend(backend, workers, address)
    label = ", ".join(plan.encounters) if len(plan.encounters) <= 3 \
        else f"{len(plan.encounters)} encounters"
    try:
        with progress(f"compare {label}", quiet) as bar:
            return run_compare(plan, be, out=out, resume=resume, progress=bar)
    except KeyboardInterrupt:
        raise interrupted(out) from None
    finally:
        be.close()


def _pp(x: float) -> str:
    return f"{x * 100:+.1f}"


def _num(x: float) -> str:
    return f"{x:+.2f}"


def _delta(d: dict[str, Any], fmt: Any = _num, unit: str = "") -> str:
    return f"{fmt(d['diff'])}{unit} [{fmt(d['low'])}, {fmt(d['high'])}]"


def _mean(d: dict[str, Any]) -> str:
    """A mean difference as ``+1.23 +/-0.10`` (its t interval is symmetric)."""
    return f"{d['diff']:+.2f} ±{(d['high'] - d['low']) / 2:.2f}"


def verdict(d: dict[str, Any], metric: str) -> str:
    """``better`` / ``worse`` (significant at 95%, by the metric's good direction) or ``-``."""
    from ..sim.paired import BETTER

    if not d["significant"]:
        return "-"
    good = d["diff"] * BETTER[metric] > 0
    return "[green]better[/]" if good else "[red]worse[/]"


def _table(title: str, rows: list[tuple[dict[str, Any], dict[str, Any]]]) -> Any:
    from rich.table import Table

    t = Table(title=title, header_style="bold", title_justify="left")
    ranked = any("rank" in arm for arm, _ in rows)
    for col in ("#" if ranked else None, "variant", "win rate", "Δ win rate, pp [95% CI]", "",
                "Δ turns", "Δ HP left", "Δ damage taken"):
        if col is not None:
            t.add_column(col, justify="left" if col in ("variant", "") else "right")
    for arm, vs in rows:
        cells = [escape(arm["label"]), f"{arm['win_rate'] * 100:.1f}%",
                 _delta(vs["win_rate"], _pp), verdict(vs["win_rate"], "win_rate"),
                 _mean(vs["turns"]), _mean(vs["hp_left"]), _mean(vs["damage_taken"])]
        t.add_row(*([str(arm["rank"])] if ranked else []), *cells)
    return t


def print_comparison(doc: dict[str, Any], workers: object) -> None:
    """The comparison on the terminal: what was run, the baseline, one table of differences
    (per encounter too when there are few variants), what moved significantly."""
    con = console()
    encs = doc["encounters"]
    base = doc["baseline"]
    variants = sorted(doc["variants"], key=lambda v: v["rank"])
    how = "paired: battle k of every arm on the same seed" if doc["paired"] else \
        "unpaired: each arm on its own seeds"
    if doc["shuffle"] == "keyed":
        how += "; keyed shuffle"
    if doc["start_hp"]:
        how += f"; starting at {doc['start_hp']} HP"
    con.print(f"[bold]{'compare':<14}[/] {escape(', '.join(encs))}")
    con.print(f"[bold]{'policy':<14}[/] {escape(doc['policy'])}  seed {doc['seed']}  "
              f"workers {workers}")
    con.print(f"[bold]{'battles':<14}[/] {doc['battles']} per arm and encounter ({how})")
    u = doc["until"]
    if u is not None:
        state = "reached" if u["reached"] else "[red]NOT reached[/]"
        con.print(f"[bold]{'until':<14}[/] +/-{u['half_width'] * 100:g} pp {state} after "
                  f"{u['battles']} battles per arm (widest +/-{u['widest'] * 100:.2f} pp)")
    con.print(f"[bold]{'baseline':<14}[/] {escape(base['label'])}: win rate "
              f"{base['win_rate'] * 100:.1f}% (95% CI {base['win_rate_ci95'][0] * 100:.1f}-"
              f"{base['win_rate_ci95'][1] * 100:.1f}%), turns {base['mean_turns']:.2f}, HP left "
              f"{base['mean_hp_left']:.1f}")
    con.print("Δ: variant minus baseline, with its 95% interval (HP left is 0 in a battle "
              "lost); 'better'/'worse': the interval excludes 0")
    scope = "all encounters" if len(encs) > 1 else encs[0]
    con.print(_table(f"ranked by {doc['ranked_by']} ({scope})",
                     [(v, v["vs_baseline"]) for v in variants]))
    if len(encs) > 1 and len(variants) <= PER_ENCOUNTER_TABLES:
        for enc in encs:
            con.print(_table(enc, [({**v["encounters"][enc], "label": v["label"]},
                                    v["encounters"][enc]["vs_baseline"]) for v in variants]))
    _print_changes(con, doc)


def _print_changes(con: Any, doc: dict[str, Any]) -> None:
    picked = [c for c in doc["changes"] if c["what"] not in ("turns", "hp_left", "damage_taken",
                                                            "win_rate") or c["encounter"] != "all"]
    if not picked:
        return
    con.print("[bold]what moved significantly[/] (per encounter; cards: plays and damage per "
              "battle)")
    for c in picked[:CHANGES_SHOWN]:
        fmt = _pp if c["what"] == "win_rate" else _num
        unit = " pp" if c["what"] == "win_rate" else ""
        what, _, card = c["what"].partition(":")
        what = f"{card} {what}/battle" if card else what  # (no "x:y:" reaches rich: an emoji)
        con.print(f"  {escape(c['variant'])} | {escape(c['encounter'])} | {escape(what)}: "
                  f"{_delta(c, fmt, unit)}")
    if len(picked) > CHANGES_SHOWN:
        con.print(f"  ... {len(picked) - CHANGES_SHOWN} more (--json or --report lists them all)")

"""``gcs record`` and ``gcs replay``: replay files, and re-running one row of a results file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import GameError
from ..sim.jobs import parse_deck
from .common import Character, Pack, Policy, Seed, check_character, check_encounter, load_pack, resolve_policy

From = Annotated[Path | None, typer.Option("--from", help="a results file written by simulate --out")]
Battle = Annotated[int | None, typer.Option(help="battle index of the row (with --from)")]
Row = Annotated[int | None, typer.Option(help="row number in the file, from 0 (with --from)")]
RowEncounter = Annotated[str | None, typer.Option(
    "--encounter", "-e", help="encounter id (with --from: picks the row of --battle)")]


def register(app: typer.Typer) -> None:
    """Add ``record`` and ``replay``."""
    app.command("record", help="play one battle (or re-play a results row) and save a replay "
                "file")(record)
    app.command("replay", help="re-run a replay file, or a results row, and check it ends "
                "identically")(replay)


def _pick_row(path: Path, battle: int | None, row: int | None, encounter: str | None) -> dict[str, Any]:
    from ..sim.results import read_rows, row_at

    if (battle is None) == (row is None):
        raise GameError("with --from give exactly one of --battle K or --row N")
    if row is not None:
        return row_at(path, row)
    hits = [(n, r) for n, r in enumerate(read_rows(path)) if r["battle"] == battle
            and (encounter is None or r["encounter"] == encounter)]
    if not hits:
        raise GameError(f"{path} has no row for battle {battle}"
                        + (f" of encounter {encounter!r}" if encounter else ""))
    if len(hits) > 1:
        which = "; ".join(f"row {n}: {r['encounter']}, deck {r['deck'] or 'starter'}"
                          for n, r in hits[:10])
        raise GameError(f"battle {battle} is in {len(hits)} rows of {path} ({which}): pick one "
                        "with --row N (or narrow it with --encounter)")
    return hits[0][1]


def _rerun(path: Path, battle: int | None, row: int | None, encounter: str | None,
           pack: str | None) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    from ..sim.jobs import Job, play_row

    want = _pick_row(path, battle, row, encounter)
    content = load_pack(pack)
    if want["pack"] != content.pack_id:
        raise GameError(f"the row is from pack {want['pack']!r}, not {content.pack_id!r} (use --pack)")
    job = Job(pack, want["encounter"], want["policy"], want["sweep_seed"], parse_deck(want["deck"]),
              want["character"] or None)
    got, actions = play_row(job, want["battle"], content, want["job"], record=True)
    return want, got, actions


def record(encounter: RowEncounter = None, seed: Seed = 1, policy: Policy = "random",
           pack: Pack = None, character: Character = None,
           out: Annotated[str, typer.Option(help="replay file ('-': stdout)")] = "-",
           from_file: From = None, battle: Battle = None, row: Row = None) -> None:
    """Write a replay file: of a new battle, or of one row of a results file."""
    from ..sim.replay import record as record_battle
    from ..sim.replay import write_file

    if from_file is not None:
        data = row_replay(from_file, battle, row, encounter, pack)
    else:
        if encounter is None:
            raise typer.BadParameter("give --encounter ID (or --from FILE --battle K)",
                                     param_hint="--encounter")
        content = load_pack(pack)
        check_encounter(content, encounter)
        check_character(content, character)
        from ..sim.policies import make_policy

        data = record_battle(content, encounter, seed, make_policy(resolve_policy(policy), seed),
                             character=character)
    if out == "-":
        print(json.dumps(data, indent=1))
        return
    write_file(out, data)
    print(f"recorded {len(data['actions'])} actions, "
          f"{_outcome(data['won'])} in {data['turns']} turns -> {out}")


def _outcome(won: bool | None) -> str:
    """How a replay's result reads: won, lost, or not finished (its actions stop mid-battle)."""
    return "won" if won else "lost" if won is False else "not finished"


def row_replay(path: Path, battle: int | None, row: int | None, encounter: str | None,
               pack: str | None) -> dict[str, Any]:
    """The replay file of one results row, re-played and checked against every column."""
    from ..sim.replay import replay_data

    want, got, actions = _rerun(path, battle, row, encounter, pack)
    _same(want, got)
    deck = parse_deck(want["deck"])
    return replay_data(load_pack(pack), want["seed"], want["encounter"], actions,
                       deck=list(deck) if deck else None, character=want["character"] or None)


_CHECKED = ("won", "unfinished", "turns", "hp_left", "damage_taken", "actions", "plays", "damage")


def _same(want: dict[str, Any], got: dict[str, Any]) -> None:
    # (``block`` too, when the file's row has it: a row of a file written before the column
    # reads as no block)
    keys = (*_CHECKED, "block") if want["block"] else _CHECKED
    diff = [f"{k}: file {want[k]!r}, re-run {got[k]!r}" for k in keys if want[k] != got[k]]
    if diff:
        raise GameError(f"row of battle {want['battle']} does not reproduce: " + "; ".join(diff))


def replay(file: Annotated[Path | None, typer.Argument(help="a replay file (from gcs record)")] = None,
           pack: Pack = None, from_file: From = None, battle: Battle = None, row: Row = None,
           encounter: RowEncounter = None) -> None:
    """Re-run a replay file, or re-play one row of a results file and compare every column."""
    from ..sim.replay import battle_result as result
    from ..sim.replay import digests_checked, read_file
    from ..sim.replay import replay as replay_battle

    if from_file is not None:
        want, got, _ = _rerun(from_file, battle, row, encounter, pack)
        _same(want, got)
        print(f"battle {want['battle']} ({want['encounter']}, seed {want['seed']}) reproduces: "
              f"{'won' if got['won'] else 'lost'} in {got['turns']} turns, {got['hp_left']} HP left, "
              f"{got['actions']} actions")
        return
    if file is None:
        raise typer.BadParameter("give a replay FILE (or --from RESULTS --battle K)", param_hint="FILE")
    data = read_file(file)
    content = load_pack(pack)
    try:
        g = replay_battle(content, data)
    except GameError as exc:
        raise GameError(f"{file}: {exc}") from None
    if digests_checked(data):
        every = ", after every action" if "trace" in data else ""
        same = f"state identical{every}"
    else:
        same = (f"every action legal (its digests are of save format "
                f"{data.get('state_format') or 'before 5'}, not this engine's: not compared)")
    print(f"replay ok: {len(data['actions'])} actions, "
          f"{_outcome(result(g))} in {g.turn_number} turns, {same}")

"""``gcs monitor``: the Game Card Monitor web page (the ``monitor`` extra): play a battle in the
browser, or open a recording (``--replay FILE``) or a results row (``--from rows.csv --battle
K``) read-only, with time travel."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import GameError
from .common import Character, Pack, Seed, check_character, check_deck, check_encounter, load_pack

if TYPE_CHECKING:
    from ..monitor.play import PlaySession


def register(app: typer.Typer) -> None:
    """Add ``monitor``."""
    app.command("monitor", help="serve the Game Card Monitor web page: play a battle in the "
                "browser, or open a replay file or a results row read-only")(monitor)


def monitor(
    encounter: Annotated[str | None, typer.Option(
        "--encounter", "-e", help="encounter id to play (with --from: picks the row)")] = None,
    seed: Seed = 1,
    deck: Annotated[str | None, typer.Option(
        help="master deck, e.g. strike*5,defend*4,bash+ (default: the character's)")] = None,
    pack: Pack = None,
    character: Character = None,
    replay: Annotated[Path | None, typer.Option(
        "--replay", help="open a replay file (gcs record, or saved from the page) read-only")] = None,
    from_file: Annotated[Path | None, typer.Option(
        "--from", help="open one row of a results file (simulate --out) read-only")] = None,
    battle: Annotated[int | None, typer.Option(help="battle index of the row (with --from)")] = None,
    row: Annotated[int | None, typer.Option(help="row number in the file, from 0 (with --from)")] = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="port (0: a free one)")] = 0,
    host: Annotated[str, typer.Option(help="address to bind (default: this machine only)")] = "127.0.0.1",
    open_page: Annotated[bool, typer.Option("--open", help="open the page in a web browser")] = False,
    save: Annotated[Path | None, typer.Option(
        help="write the current branch's replay here after every action (gcs replay checks it)")] = None,
) -> None:
    """Print the page's URL (token included) on the first line, then serve until Ctrl-C."""
    try:
        from ..monitor import server
    except ImportError as exc:
        raise GameError("gcs monitor needs the 'monitor' extra (pip install 'gcs[monitor]'): "
                        f"{exc}") from exc
    if replay is not None and from_file is not None:
        raise typer.BadParameter("give --replay FILE or --from RESULTS, not both", param_hint="--replay")
    content = load_pack(pack)
    if replay is not None:
        session = _recording(content, _read_json(replay), str(replay))
    elif from_file is not None:
        from .cmd_replay import row_replay

        data = row_replay(from_file, battle, row, encounter, pack)
        which = f"battle {battle}" if battle is not None else f"row {row}"
        session = _recording(content, data, f"{from_file} ({which})")
    else:
        if encounter is None:
            raise typer.BadParameter("give --encounter ID (or --replay FILE, or --from RESULTS "
                                     "--battle K)", param_hint="--encounter")
        session = _session(content, encounter, seed, deck, character, save)
    try:
        m = server.play(session, host=host, port=port, art=_art_root(pack))
    except OSError as exc:
        raise GameError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from exc
    print(m.url, flush=True)
    what = "read-only recording" if session.read_only else "playing in the browser"
    print(f"{what}; Ctrl-C stops the server", file=sys.stderr, flush=True)
    if open_page:
        import webbrowser

        webbrowser.open(m.url)
    try:
        m.wait()
    except KeyboardInterrupt:
        pass
    finally:
        m.close()


def _art_root(pack: str | None) -> Path:
    """Where cards' pack-relative ``art`` is read from: the pack's directory (a one-file pack's
    folder; the bundled pack's for none)."""
    if pack is None:
        from ..content.loader import BUILTIN

        return BUILTIN
    p = Path(pack)
    return p.parent if p.is_file() else p


def _session(content: Any, encounter: str, seed: int, deck: str | None, character: str | None,
             save: Path | None) -> PlaySession:
    from ..monitor.play import PlaySession
    from ..sim.jobs import parse_deck

    check_encounter(content, encounter)
    cards = parse_deck(deck)
    check_deck(content, cards)
    check_character(content, character)
    if save is not None:
        from ..monitor.play import is_session_file
        from ..sim.outfile import check_replaceable

        if save.is_dir():
            raise typer.BadParameter(f"{save} is a directory", param_hint="--save")
        check_replaceable(save, "replay file", is_session_file, GameError)
    return PlaySession(content, encounter, seed, deck=cards, character=character, save=save)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise GameError(f"cannot read replay file {path}: {exc.strerror or exc}") from exc
    except (ValueError, RecursionError) as exc:
        raise GameError(f"{path} is not a JSON replay file: {exc}") from exc
    if not isinstance(data, dict):
        raise GameError(f"{path}: a replay file holds a JSON object")
    return data


def _recording(content: Any, data: dict[str, Any], source: str) -> PlaySession:
    from ..monitor.play import recording

    return recording(content, data, source=source)

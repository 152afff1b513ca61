"""The files the command line writes (results, reports, replays): never over a directory, never
over a file a user wrote, and never left half-written (docs/rules/boundary.md, section 6)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import GameError


def check_replaceable(path: str | Path, kind: str, ours: Callable[[Path], bool],
                      error: type[GameError]) -> None:
    """Raise ``error`` unless writing a ``kind`` at ``path`` destroys nothing a user wrote: the
    path is free, an empty file, or a file ``ours`` recognises as one of this kind."""
    p = Path(path)
    if p.is_dir():
        raise error(f"{path} is a directory: give a file name for the {kind}")
    try:
        if not p.exists() or p.stat().st_size == 0 or ours(p):
            return
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    raise error(f"{path} exists and is not a {kind}: not overwritten (move it away or give "
                "another --out)")


def write_text(path: str | Path, text: str, kind: str, error: type[GameError]) -> None:
    """Write ``text`` to ``path`` through ``path.partial`` and a rename, so the file at
    ``path`` is the old one or the whole new one, never a part."""
    p = Path(path)
    tmp = p.with_name(p.name + ".partial")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(p)
    except OSError as exc:
        raise error(f"cannot write the {kind} {path}: {exc.strerror or exc}") from None

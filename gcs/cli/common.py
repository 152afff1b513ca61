"""Options shared by several commands, pack loading, id checks with "did you mean", consoles."""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..content.db import Content
from ..errors import GameError

if TYPE_CHECKING:  # (rich is imported when something is printed: `--json` never loads it)
    from rich.console import Console

Pack = Annotated[str | None, typer.Option("--pack", help="content pack directory (default: bundled)")]
Seed = Annotated[int, typer.Option("--seed", help="the seed: same seed, same battles")]
Policy = Annotated[str, typer.Option(
    "--policy", help="heuristic (the baseline), search (search:iters=N or search:ms=M: its "
    "budget per decision), random, greedy, module:callable or file.py:callable (your own)")]
Character = Annotated[str | None, typer.Option("--character", help="character id (default: the pack's)")]


class UnknownIdError(GameError):
    """An id the pack does not have (the message lists the valid ones)."""


def unknown(kind: str, value: str, valid: Iterable[str]) -> UnknownIdError:
    """``unknown encounter 'x'; did you mean 'y'? valid: ...``"""
    ids = sorted(valid)
    close = difflib.get_close_matches(value, ids, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    shown = ", ".join(ids[:40]) + (f", ... ({len(ids)} in all)" if len(ids) > 40 else "")
    return UnknownIdError(f"unknown {kind} {value!r}{hint} (valid: {shown})")


def load_pack(pack: str | None) -> Content:
    """The pack at ``pack`` (None: the bundled one)."""
    from ..content.loader import pack_content

    return pack_content(pack)


def check_encounter(content: Content, encounter: str) -> str:
    """``encounter`` if the pack has it, else an error listing the valid ids."""
    if encounter not in content.encounters:
        raise unknown("encounter", encounter, content.encounters)
    return encounter


def check_character(content: Content, character: str | None) -> None:
    """Raise unless ``character`` is None or one of the pack's characters."""
    if character is not None and character not in content.characters:
        raise unknown("character", character, content.characters)


def check_deck(content: Content, deck: Iterable[str] | None) -> None:
    """Raise unless every card of ``deck`` is in the pack (``id+``: and has an upgrade)."""
    for entry in deck or ():
        cid = entry[:-1] if entry.endswith("+") else entry
        if cid not in content.cards:
            raise unknown("card", cid, content.cards)
        if cid != entry and content.cards[cid].upgrade is None:
            raise GameError(f"card {cid!r} has no upgrade: {entry!r} cannot be in a deck")


def resolve_policy(policy: str) -> str:
    """``policy`` checked (it loads) and with a policy file's path made absolute (so worker
    processes started elsewhere find it)."""
    from ..sim.policies import make_policy

    make_policy(policy, 0)
    mod, sep, attr = policy.rpartition(":")
    if sep and mod.endswith(".py"):
        return f"{os.path.abspath(mod)}:{attr}"
    return policy


def console(stderr: bool = False) -> Console:
    """A rich console on the current stdout (or stderr): colour only on a terminal."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    tty = hasattr(stream, "isatty") and stream.isatty()
    return Console(file=stream, highlight=False, width=None if tty else 120)


def escape(text: str) -> str:
    """``text`` with rich markup escaped (rich's ``escape``, imported when first needed)."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def check_rows_out(out: Path | None, resume: bool) -> None:
    """``--out`` and ``--resume`` checked before a sweep runs: a results suffix, ``--resume``
    only with ``--out``, and (without ``--resume``) no file that is not a results file replaced."""
    from ..sim.results import check_replaceable, file_format

    if resume and out is None:
        raise typer.BadParameter("--resume needs --out FILE", param_hint="--resume")
    if out is not None:
        file_format(out)
        if not resume:
            check_replaceable(out)

"""Progress of a sweep: a rich bar with rate and ETA on a terminal, plain lines otherwise
(rich is imported for the bar only)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import typer

from .common import console, escape

Callback = Callable[[int, int], None]


class PlainLines:
    """One line per tenth of the sweep (and the last), with rate and ETA; never a ``\\r``."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.stream = stream
        self.start = time.monotonic()  # the sweep's start: the rate is its average so far
        self.step = -1

    def __call__(self, done: int, total: int) -> None:
        step = done * 10 // max(1, total)
        if step == self.step and done < total:
            return
        self.step = step
        elapsed = max(1e-9, time.monotonic() - self.start)
        rate = done / elapsed
        eta = (total - done) / rate if rate > 0 else 0.0
        self.stream.write(f"{self.label}: {done}/{total} battles ({100 * done // max(1, total)}%)"
                          f", {rate:,.0f} battles/s, ETA {eta:.0f}s\n")
        self.stream.flush()


@contextmanager
def progress(label: str, quiet: bool = False) -> Iterator[Callback | None]:
    """A progress callback ``(done, total)`` for ``run_sweep``, on stderr (None if ``quiet``)."""
    if quiet:
        yield None
        return
    if not sys.stderr.isatty():
        yield PlainLines(label, sys.stderr)
        return
    from .progress_bar import bar_on

    bar = bar_on(console(stderr=True))
    task = bar.add_task(label, total=None)
    with bar:
        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def interrupted(out: Path | None) -> typer.Exit:
    """Say on stderr that a sweep was interrupted (and, with a results file, how to finish it);
    return the exit (code 130) to raise."""
    from ..sim.sweep import count_rows

    held = count_rows(out) if out is not None and out.exists() else 0
    hint = f"; {out} holds {held} rows: run the same command with --resume to finish" \
        if out is not None else ""
    console(stderr=True).print(f"[yellow]interrupted[/]{escape(hint)}")
    return typer.Exit(130)

"""A sweep: several jobs (encounters x decks) of N battles each, run in chunks on a backend,
streamed to a results file and summarised, resumable from that file after an interruption.

Rows come out in one fixed order (job 0 battles 0..N-1, then job 1, ...) whatever the backend
or the number of workers, so a results file is a prefix of that order until the sweep ends and
a resume only has to count its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..content.db import Content
from .backends import Backend, InProcess, Task
from .jobs import Job, Summary, format_deck, run_rows
from .results import ResultsError, Row, RowWriter, open_writer, read_rows, truncate_to_complete

Progress = Callable[[int, int], None]
RowSink = Callable[[list[Row]], None]


@dataclass(frozen=True)
class Sweep:
    """``battles`` battles of each job, in chunks of ``chunk``."""

    jobs: tuple[Job, ...]
    battles: int
    chunk: int = 250

    @property
    def total(self) -> int:
        """The number of battles (rows) in the whole sweep."""
        return len(self.jobs) * self.battles

    def tasks(self, done: int = 0, content: Content | None = None) -> Iterator[Task]:
        """The chunks still to run after the first ``done`` rows, in row order."""
        for j, job in enumerate(self.jobs):
            first = max(0, done - j * self.battles)
            for a in range(first, self.battles, self.chunk):
                if a < self.battles:
                    yield (job, a, min(self.battles, a + self.chunk), j, content)

    def check_row(self, n: int, row: Row, where: str) -> None:
        """Raise unless ``row`` is row ``n`` of this sweep (a resume's check)."""
        if n >= self.total:
            raise ResultsError(f"{where}: more rows ({n + 1}+) than this sweep has ({self.total})")
        j, i = divmod(n, self.battles)
        job = self.jobs[j]
        want = {"job": j, "battle": i, "encounter": job.encounter, "deck": format_deck(job.deck),
                "policy": job.policy, "character": job.character or "", "sweep_seed": job.seed}
        diff = [f"{k} {row[k]!r} != {v!r}" for k, v in want.items() if row[k] != v]
        if diff:
            raise ResultsError(f"{where} was written by another sweep, cannot resume it: "
                               + "; ".join(diff))


def resume_from(sweep: Sweep, path: str | Path) -> tuple[list[Row], list[Summary]]:
    """The rows of an interrupted sweep's file (checked against ``sweep``) and the summaries
    they add up to. Parquet rows are returned (to be rewritten); CSV/JSONL rows are not kept in
    memory (the file is appended to) and come back as an empty list."""
    sums = [Summary() for _ in sweep.jobs]
    p = Path(path)
    keep: list[Row] = []
    if not p.exists():
        return keep, sums
    truncate_to_complete(p)
    parquet = p.suffix.lower() == ".parquet"
    for n, row in enumerate(read_rows(p)):
        sweep.check_row(n, row, f"{p} row {n}")
        sums[row["job"]].add_row(row)
        if parquet:
            keep.append(row)
    return keep, sums


def run_sweep(sweep: Sweep, backend: Backend | None = None, *, out: str | Path | None = None,
              resume: bool = False, progress: Progress | None = None,
              sink: RowSink | None = None, content: Content | None = None) -> list[Summary]:
    """Run ``sweep`` and return one Summary per job.

    ``out``: a results file the rows stream into (with ``resume``, an existing file's rows are
    kept and only the missing battles run). ``sink`` also gets every chunk's rows, in order.
    ``content``: the pack already loaded (used by the in-process backend only)."""
    backend = backend if backend is not None else InProcess()
    sums = [Summary() for _ in sweep.jobs]
    keep: list[Row] | None = None
    if out is not None and resume:
        keep, sums = resume_from(sweep, out)
    done = sum(s.battles for s in sums)
    writer: RowWriter | None = open_writer(out, keep=keep) if out is not None else None
    local = content if isinstance(backend, InProcess) else None
    try:
        if progress and done:
            progress(done, sweep.total)
        for rows in backend.map(run_rows, sweep.tasks(done, local)):
            for row in rows:
                sums[row["job"]].add_row(row)
            if writer is not None:
                writer.write(rows)
            if sink is not None:
                sink(rows)
            done += len(rows)
            if progress:
                progress(done, sweep.total)
    finally:
        if writer is not None:
            writer.close()
    return sums


def count_rows(path: str | Path) -> int:
    """How many complete rows a results file holds."""
    return sum(1 for _ in read_rows(path))

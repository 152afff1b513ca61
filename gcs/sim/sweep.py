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
from typing import Protocol

from ..content.db import Content
from .backends import Backend, InProcess, Task
from .jobs import Chunk, Job, Summary, format_deck, pack_of, play_chunk, play_row
from .results import ResultsError, Row, RowWriter, open_writer, read_rows, truncate_to_complete
from .runner import battle_seed

Progress = Callable[[int, int], None]
RowSink = Callable[[list[Row]], None]


class RowOrder(Protocol):
    """A sweep's fixed row order, as a resume checks it (``Sweep``, a comparison's ``Plan``)."""

    @property
    def jobs(self) -> tuple[Job, ...]: ...

    def job_of_row(self, n: int) -> int:
        """The job row ``n`` belongs to (any index past the end: the last job)."""
        ...

    def check_row(self, n: int, row: Row, where: str, pack_id: str) -> None: ...


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

    def tasks(self, done: int = 0, content: Content | None = None,
              keep_rows: bool = True) -> Iterator[Task]:
        """The chunks still to run after the first ``done`` rows, in row order: the arguments
        of ``play_chunk``."""
        for j, job in enumerate(self.jobs):
            first = max(0, done - j * self.battles)
            for a in range(first, self.battles, self.chunk):
                if a < self.battles:
                    yield (job, a, min(self.battles, a + self.chunk), j, content, keep_rows)

    def job_of_row(self, n: int) -> int:
        """The job of row ``n`` (the last one for a row past the end)."""
        return min(n // self.battles, len(self.jobs) - 1)

    def check_row(self, n: int, row: Row, where: str, pack_id: str) -> None:
        """Raise unless ``row`` is row ``n`` of this sweep on the pack ``pack_id`` (a resume's
        check of every column the sweep decides)."""
        if n >= self.total:
            raise ResultsError(f"{where}: more rows ({n + 1}+) than this sweep has ({self.total})")
        j, i = divmod(n, self.battles)
        job = self.jobs[j]
        want = {"job": j, "battle": i, "encounter": job.encounter, "deck": format_deck(job.deck),
                "policy": job.policy, "character": job.character or "", "pack": pack_id,
                "sweep_seed": job.seed, "seed": battle_seed(job.seed, i)}
        diff = [f"{k} {row[k]!r} != {v!r}" for k, v in want.items() if row[k] != v]
        if diff:
            raise ResultsError(f"{where} was written by another sweep, cannot resume it: "
                               + "; ".join(diff))


def resume_from(sweep: RowOrder, path: str | Path, content: Content | None = None,
                each: Callable[[Row], None] | None = None) -> list[Summary]:
    """The summaries of the rows of an interrupted sweep's file, each row checked against
    ``sweep`` (every column, in its type and range), its last row played again (the pack and
    the engine still give it), and only then a half-written last line dropped: a file that is
    not this sweep's is refused unchanged. The rows are read one by one and not kept: the
    writer appends to the file (or, for Parquet, copies it row by row), so a resume needs
    constant memory too. ``content``: the pack already loaded (else each job's pack);
    ``each``: also called with every checked row, in file order."""
    sums = [Summary() for _ in sweep.jobs]
    p = Path(path)
    if not p.exists():
        return sums
    if p.is_dir():
        raise ResultsError(f"{p} is a directory, not a results file")
    last: tuple[int, Row] | None = None
    for n, row in enumerate(read_rows(p, checked=True)):
        job = sweep.jobs[sweep.job_of_row(n)]
        c = content if content is not None else pack_of(job.pack)
        sweep.check_row(n, row, f"{p} row {n}", c.pack_id)
        sums[row["job"]].add_row(row)
        if each is not None:
            each(row)
        last = (n, row)
    if last is not None:
        n, row = last
        j = row["job"]
        job = sweep.jobs[j]
        again = play_row(job, row["battle"], content if content is not None else pack_of(job.pack),
                         j)[0]
        diff = [f"{k}: file {row[k]!r}, played again {again[k]!r}" for k in again
                if row[k] != again[k]]
        if diff:
            raise ResultsError(f"{p} row {n} does not play again the same (another pack or "
                               f"engine version?), cannot resume it: " + "; ".join(diff)[:500])
    truncate_to_complete(p)
    return sums


def run_sweep(sweep: Sweep, backend: Backend | None = None, *, out: str | Path | None = None,
              resume: bool = False, progress: Progress | None = None,
              sink: RowSink | None = None, content: Content | None = None) -> list[Summary]:
    """Run ``sweep`` and return one Summary per job.

    ``out``: a results file the rows stream into (with ``resume``, an existing file's rows are
    kept and only the missing battles run). ``sink`` also gets every chunk's rows, in order.
    ``content``: the pack already loaded (used by the in-process backend only).

    Memory does not grow with the sweep: the backend keeps a few chunks in flight, each job's
    ``Summary`` holds sums and histograms, and rows (made only when ``out`` or ``sink`` needs
    them) go to disk chunk by chunk."""
    backend = backend if backend is not None else InProcess()
    sums = [Summary() for _ in sweep.jobs]
    if out is not None and resume:
        sums = resume_from(sweep, out, content)
    done = sum(s.battles for s in sums)
    writer: RowWriter | None = open_writer(out, resume=resume) if out is not None else None
    local = content if isinstance(backend, InProcess) else None
    keep_rows = writer is not None or sink is not None
    try:
        if progress and done:
            progress(done, sweep.total)
        for chunk in backend.map(play_chunk, sweep.tasks(done, local, keep_rows)):
            _take(chunk, sums, writer, sink)
            done += chunk.summary.battles
            if progress:
                progress(done, sweep.total)
    finally:
        if writer is not None:
            writer.close()
    return sums


def _take(chunk: Chunk, sums: list[Summary], writer: RowWriter | None,
          sink: RowSink | None) -> None:
    """Add one finished chunk to its job's summary, and pass its rows on."""
    sums[chunk.job].add(chunk.summary)
    if writer is not None:
        writer.write(chunk.rows)
    if sink is not None:
        sink(chunk.rows)


def count_rows(path: str | Path) -> int:
    """How many complete rows a results file holds."""
    return sum(1 for _ in read_rows(path))

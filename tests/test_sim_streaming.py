"""A sweep streams: its memory does not grow with the number of battles. Workers send a chunk's
sums (rows only when a results file or a sink needs them), the driver lets every chunk go once
it is counted and written, a ``Summary`` holds sums and histograms only, and a resumed file is
read row by row. Where the sums are made (worker or driver, any chunk size) changes nothing."""

from __future__ import annotations

import dataclasses
import gc
import typing
import weakref
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import gcs
from gcs.sim.backends import InProcess, Task
from gcs.sim.jobs import Chunk, Job, Summary, play_chunk, run_rows
from gcs.sim.results import read_rows
from gcs.sim.sweep import Sweep, resume_from, run_sweep

CONTENT = gcs.builtin_content()
JOBS = (Job(None, "jaw_worm", "random", 3, None, None), Job(None, "cultist", "greedy", 3, None, None))


class Recording(InProcess):
    """The in-process backend, keeping a weak reference to every chunk it hands out and
    checking, before it hands out the next, which earlier chunks are still alive."""

    def __init__(self) -> None:
        self.handed: list[weakref.ref[Chunk]] = []
        self.alive_before: list[int] = []
        self.rows_sent: list[int] = []

    def map(self, fn: Callable[..., Any], tasks: Iterable[Task]) -> Iterator[Any]:
        for t in tasks:
            chunk = fn(*t)
            gc.collect()
            self.alive_before.append(sum(r() is not None for r in self.handed))
            self.handed.append(weakref.ref(chunk))
            self.rows_sent.append(len(chunk.rows))
            yield chunk
            del chunk


def test_a_plain_sweep_sends_sums_not_rows() -> None:
    be = Recording()
    sums = run_sweep(Sweep(JOBS, 30, chunk=7), be, content=CONTENT)
    assert be.rows_sent == [0] * len(be.rows_sent) and len(be.rows_sent) == 10
    assert [s.battles for s in sums] == [30, 30]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_the_driver_lets_every_chunk_go_once_it_is_written(suffix: str, tmp_path: Path) -> None:
    be = Recording()
    out = tmp_path / f"rows{suffix}"
    run_sweep(Sweep(JOBS, 30, chunk=7), be, out=out, content=CONTENT)
    assert be.rows_sent == [7, 7, 7, 7, 2] * 2  # rows travel only because the file needs them
    # while the next chunk runs, the sweep still names the last one (its loop variable), no other
    assert be.alive_before == [0] + [1] * 9
    assert len(list(read_rows(out))) == 60


def test_a_summary_holds_sums_and_histograms_only() -> None:
    hints = typing.get_type_hints(Summary)
    for f in dataclasses.fields(Summary):
        assert hints[f.name] in (int, dict[int, int], dict[str, int]), f.name
    small = play_chunk(JOBS[0], 0, 20, 0, CONTENT, keep_rows=False).summary
    big = play_chunk(JOBS[0], 0, 200, 0, CONTENT, keep_rows=False).summary
    # histograms are keyed by turn count and card id: they do not grow with the battles
    assert len(big.turn_hist) <= 40 and set(big.plays) <= set(CONTENT.cards)
    assert big.battles == 200 and small.battles == 20


def test_a_chunk_summary_equals_adding_its_rows_one_by_one() -> None:
    rows = run_rows(JOBS[1], 0, 40, 1, CONTENT)
    by_row = Summary()
    for r in rows:
        by_row.add_row(r)
    by_chunk = Summary()
    for a in range(0, 40, 6):  # the driver adds per-chunk sums, in chunk order
        c = play_chunk(JOBS[1], a, min(40, a + 6), 1, CONTENT, keep_rows=True)
        assert c.job == 1 and c.rows == rows[a:a + 6]
        by_chunk.add(c.summary)
    assert by_chunk == by_row
    assert list(by_chunk.plays) == list(by_row.plays)  # even the first-seen key order
    assert list(by_chunk.turn_hist) == list(by_row.turn_hist)


def test_with_or_without_rows_a_sweep_sums_the_same(tmp_path: Path) -> None:
    plain = run_sweep(Sweep(JOBS, 25, chunk=4), content=CONTENT)
    seen: list[int] = []
    filed = run_sweep(Sweep(JOBS, 25, chunk=9), out=tmp_path / "r.jsonl", content=CONTENT,
                      sink=lambda rows: seen.append(len(rows)))
    assert [s.to_dict() for s in plain] == [s.to_dict() for s in filed]
    assert sum(seen) == 50


def test_a_resume_reads_the_file_into_sums_only(tmp_path: Path) -> None:
    sweep = Sweep(JOBS, 12, chunk=5)
    out = tmp_path / "r.parquet"
    full = run_sweep(sweep, out=out, content=CONTENT)
    sums = resume_from(sweep, out)
    assert all(isinstance(s, Summary) for s in sums)
    assert [s.to_dict() for s in sums] == [s.to_dict() for s in full]
    again = run_sweep(sweep, out=out, resume=True, content=CONTENT)  # nothing left to run
    assert [s.to_dict() for s in again] == [s.to_dict() for s in full]
    assert [r["battle"] for r in read_rows(out)] == list(range(12)) * 2


def test_parquet_row_groups_do_not_depend_on_the_chunk_size(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from gcs.sim.results import open_writer

    base = run_rows(JOBS[0], 0, 10, 0, CONTENT)
    rows = [dict(base[i % 10], battle=i) for i in range(20_000)]
    files = []
    for piece in (7, 250):
        path = tmp_path / f"by{piece}.parquet"
        w = open_writer(path)
        for a in range(0, len(rows), piece):
            w.write(rows[a:a + piece])
        w.close()
        files.append(path.read_bytes())
        meta = pq.ParquetFile(path).metadata
        assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [8192, 8192, 3616]
    assert files[0] == files[1]

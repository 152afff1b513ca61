"""Per-battle result rows and their files: ``.csv``, ``.jsonl`` or ``.parquet`` by suffix.

A row is a plain dict with the keys of ``COLUMNS`` (see docs/simulation.md). Writers stream:
rows go to disk chunk by chunk, so a sweep of any size needs constant memory, and an
interrupted CSV/JSONL file keeps every complete row (a half-written last line is dropped when
the file is read back or resumed). Parquet (the ``parquet`` extra) is written to
``FILE.partial`` and renamed on close, so the file at ``FILE`` is always a complete one.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from ..errors import GameError

Row = dict[str, Any]

#: Every column of a results file, in file order.
COLUMNS: tuple[str, ...] = (
    "job", "encounter", "deck", "policy", "character", "pack", "sweep_seed",
    "battle", "seed", "won", "unfinished", "turns", "hp_left", "damage_taken", "actions",
    "plays", "damage",
)
_INT = ("job", "sweep_seed", "battle", "seed", "turns", "hp_left", "damage_taken", "actions")
_BOOL = ("won", "unfinished")
_STR = ("encounter", "deck", "policy", "character", "pack")
_MAPS = ("plays", "damage")
FORMATS = (".csv", ".jsonl", ".parquet")


class ResultsError(GameError):
    """A results file that cannot be read, written or resumed."""


def file_format(path: str | Path) -> str:
    """The format of a results file by its suffix (``.csv``, ``.jsonl`` or ``.parquet``)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ResultsError(f"{path}: a results file ends in .csv, .jsonl or .parquet "
                           f"(not {suffix or 'no suffix'!r})")
    return suffix


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        raise ResultsError("parquet files need pyarrow: pip install 'gcs[parquet]'") from exc
    return pyarrow


def _schema(pa: Any) -> Any:
    types = {"job": pa.int64(), "sweep_seed": pa.int64(), "battle": pa.int64(),  # seed: 64 bits
             "seed": pa.uint64(), "turns": pa.int64(), "hp_left": pa.int64(),
             "damage_taken": pa.int64(), "actions": pa.int64(), "won": pa.bool_(),
             "unfinished": pa.bool_(), "plays": pa.map_(pa.string(), pa.int64()),
             "damage": pa.map_(pa.string(), pa.int64())}
    return pa.schema([(c, types.get(c, pa.string())) for c in COLUMNS])


def normalize(raw: dict[str, Any], where: str) -> Row:
    """A row read back from any format, with its values in their Python types."""
    try:
        row: Row = {}
        for c in COLUMNS:
            v = raw[c]
            if c in _INT:
                row[c] = int(v)
            elif c in _BOOL:
                row[c] = v if isinstance(v, bool) else str(v).lower() in ("true", "1")
            elif c in _MAPS:
                if isinstance(v, str):
                    v = json.loads(v) if v else {}
                if isinstance(v, list):  # pyarrow gives a map as a list of (key, value)
                    v = dict(v)
                row[c] = {str(k): int(n) for k, n in v.items()}
            else:
                row[c] = "" if v is None else str(v)
        return row
    except KeyError as exc:
        raise ResultsError(f"{where}: not a gcs results row (no column {exc.args[0]!r})") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise ResultsError(f"{where}: a malformed results row ({exc})") from None


class RowWriter(Protocol):
    """Writes rows to a results file (``write`` per chunk, ``close`` at the end)."""

    def write(self, rows: Iterable[Row]) -> None: ...

    def close(self) -> None: ...


class _TextWriter:
    def __init__(self, path: Path, fmt: str, append: bool) -> None:
        self.fmt = fmt
        fresh = not append or not path.exists() or path.stat().st_size == 0
        self.fh = open(path, "a" if append else "w", encoding="utf-8", newline="")  # noqa: SIM115
        self.csv = csv.writer(self.fh, lineterminator="\n") if fmt == ".csv" else None
        if self.csv is not None and fresh:
            self.csv.writerow(COLUMNS)
            self.fh.flush()

    def write(self, rows: Iterable[Row]) -> None:
        if self.csv is not None:
            for r in rows:
                self.csv.writerow([_csv_value(r[c]) for c in COLUMNS])
        else:
            for r in rows:
                self.fh.write(json.dumps({c: r[c] for c in COLUMNS}, separators=(",", ":"),
                                         sort_keys=False) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def _csv_value(v: Any) -> Any:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return json.dumps(dict(sorted(v.items())), separators=(",", ":"))
    return v


class _ParquetWriter:
    BUFFER = 8192  # rows per row group: every row group but the last holds exactly this many

    def __init__(self, path: Path, resume: bool) -> None:
        self.pa = _pyarrow()
        self.path = path
        self.tmp = path.with_name(path.name + ".partial")
        self.schema = _schema(self.pa)
        self.writer = self.pa.parquet.ParquetWriter(str(self.tmp), self.schema)
        self.buf: list[Row] = []
        if resume and path.exists():  # a Parquet file cannot be appended to: copy its rows over
            for row in read_rows(path):  # one by one, through the buffer (constant memory)
                self.write((row,))

    def write(self, rows: Iterable[Row]) -> None:
        self.buf.extend(rows)
        # cut at exactly BUFFER rows, not at the first chunk that crosses it: the file's row
        # groups (and so its bytes) do not depend on --chunk, --workers or a resume
        while len(self.buf) >= self.BUFFER:
            self._flush(self.BUFFER)

    def _flush(self, n: int | None = None) -> None:
        """Write the first ``n`` buffered rows (all of them for None) as one row group."""
        rows = self.buf[:n]
        if rows:
            cols = {c: [_arrow_value(r[c]) for r in rows] for c in COLUMNS}
            self.writer.write_table(self.pa.table(cols, schema=self.schema))
            del self.buf[:len(rows)]

    def close(self) -> None:
        self._flush()
        self.writer.close()
        os.replace(self.tmp, self.path)


def _arrow_value(v: Any) -> Any:
    return sorted(v.items()) if isinstance(v, dict) else v


def open_writer(path: str | Path, *, resume: bool = False) -> RowWriter:
    """A streaming writer for ``path``. ``resume``: the rows already in the file stay and new
    rows follow them (check them first: ``gcs.sim.sweep.resume_from``); without it the file is
    started afresh."""
    p = Path(path)
    fmt = file_format(p)
    if fmt == ".parquet":
        return _ParquetWriter(p, resume)
    return _TextWriter(p, fmt, append=resume)


def read_rows(path: str | Path) -> Iterator[Row]:
    """Every complete row of a results file, in file order (a half-written last line of an
    interrupted CSV/JSONL file is left out)."""
    p = Path(path)
    fmt = file_format(p)
    if not p.exists():
        raise ResultsError(f"no results file {path}")
    if fmt == ".parquet":
        pf = _pyarrow().parquet.ParquetFile(str(p))
        n = 0
        for batch in pf.iter_batches():
            for raw in batch.to_pylist():
                yield normalize(raw, f"{path} row {n}")
                n += 1
        return
    for n, line in enumerate(_complete_lines(p, fmt)):
        yield _parse_line(line, fmt, f"{path} row {n}")


def _complete_lines(p: Path, fmt: str) -> Iterator[str]:
    with open(p, encoding="utf-8", newline="") as fh:
        if fmt == ".csv":
            header = fh.readline()
            if header and header.rstrip("\r\n").split(",") != list(COLUMNS):
                raise ResultsError(f"{p}: not a gcs results file (its CSV header differs)")
        for line in fh:
            if line.endswith("\n"):
                yield line


def _parse_line(line: str, fmt: str, where: str) -> Row:
    if fmt == ".csv":
        values = next(csv.reader(io.StringIO(line)))
        if len(values) != len(COLUMNS):
            raise ResultsError(f"{where}: {len(values)} values, expected {len(COLUMNS)}")
        return normalize(dict(zip(COLUMNS, values, strict=True)), where)
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ResultsError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(raw, dict):
        raise ResultsError(f"{where}: a JSONL row is a JSON object")
    return normalize(raw, where)


def truncate_to_complete(path: str | Path) -> None:
    """Drop a half-written last line of an interrupted CSV/JSONL file (before appending)."""
    p = Path(path)
    if file_format(p) == ".parquet" or not p.exists():
        return
    data = p.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with open(p, "r+b") as fh:
            fh.truncate(end)


def row_at(path: str | Path, index: int) -> Row:
    """Row ``index`` (0-based, in file order) of a results file."""
    if index < 0:
        raise ResultsError(f"row {index}: rows are numbered from 0")
    n = 0
    for row in read_rows(path):
        if n == index:
            return row
        n += 1
    raise ResultsError(f"{path} has no row {index} (it has {n} rows, numbered from 0)")

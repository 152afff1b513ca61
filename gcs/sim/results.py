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
import re
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from . import outfile
from .rowcheck import (
    CHECK,
    COLUMNS,
    FILE_COLUMNS,
    PRE_BLOCK,
    ResultsError,
    Row,
    normalize,
    row_check,
)

__all__ = ["COLUMNS", "FILE_COLUMNS", "FORMATS", "ResultsError", "Row", "RowWriter", "check_replaceable",
           "file_format", "normalize", "open_writer", "read_rows", "row_at",
           "truncate_to_complete"]

FORMATS = (".csv", ".jsonl", ".parquet")
MAX_LINE = 4_000_000  # bytes of one CSV/JSONL line: a row is far shorter
_HEADER = ",".join(FILE_COLUMNS)
# the headers of files a resume does not append to, read all the same: one without the check
# column (before it, or with it cut), and those written before the block column
_OLDER: dict[str, tuple[str, ...]] = {
    ",".join(c): c for c in (COLUMNS, (*PRE_BLOCK, CHECK), PRE_BLOCK)}
_JSONL_START = '{"job":'  # how every JSONL row the writer writes begins


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
             "damage": pa.map_(pa.string(), pa.int64()),
             "block": pa.map_(pa.string(), pa.int64())}
    return pa.schema([(c, types.get(c, pa.string())) for c in FILE_COLUMNS])


def _one_line(exc: BaseException) -> str:
    """An outside library's message on one line, at most 200 characters."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:197] + "..."


def _cannot(action: str, path: object, exc: OSError) -> ResultsError:
    return ResultsError(f"cannot {action} {path}: {exc.strerror or exc}")


class RowWriter(Protocol):
    """Writes rows to a results file (``write`` per chunk, ``close`` at the end)."""

    def write(self, rows: Iterable[Row]) -> None: ...

    def close(self) -> None: ...


class _TextWriter:
    def __init__(self, path: Path, fmt: str, append: bool) -> None:
        self.path = path
        self.fmt = fmt
        try:
            fresh = not append or not path.exists() or path.stat().st_size == 0
            self.fh = open(path, "a" if append else "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as exc:
            raise _cannot("write", path, exc) from None
        self.csv = csv.writer(self.fh, lineterminator="\n") if fmt == ".csv" else None
        if self.csv is not None and fresh:
            self.csv.writerow(FILE_COLUMNS)
            self._flush()

    def write(self, rows: Iterable[Row]) -> None:
        try:
            if self.csv is not None:
                for r in rows:
                    self.csv.writerow([*(_csv_value(r[c]) for c in COLUMNS), row_check(r)])
            else:
                for r in rows:
                    d = {c: r[c] for c in COLUMNS}
                    d[CHECK] = row_check(r)
                    self.fh.write(json.dumps(d, separators=(",", ":"), sort_keys=False) + "\n")
        except OSError as exc:
            raise _cannot("write", self.path, exc) from None
        self._flush()

    def _flush(self) -> None:
        try:
            self.fh.flush()
        except OSError as exc:
            raise _cannot("write", self.path, exc) from None

    def close(self) -> None:
        try:
            self.fh.close()
        except OSError as exc:
            raise _cannot("write", self.path, exc) from None


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
        try:
            self.writer = self.pa.parquet.ParquetWriter(str(self.tmp), self.schema)
        except OSError as exc:
            raise _cannot("write", self.tmp, exc) from None
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
            cols[CHECK] = [row_check(r) for r in rows]
            try:
                self.writer.write_table(self.pa.table(cols, schema=self.schema))
            except OSError as exc:
                raise _cannot("write", self.tmp, exc) from None
            del self.buf[:len(rows)]

    def close(self) -> None:
        self._flush()
        try:
            self.writer.close()
            os.replace(self.tmp, self.path)
        except OSError as exc:
            raise _cannot("write", self.path, exc) from None


def _arrow_value(v: Any) -> Any:
    return sorted(v.items()) if isinstance(v, dict) else v


def open_writer(path: str | Path, *, resume: bool = False) -> RowWriter:
    """A streaming writer for ``path``. ``resume``: the rows already in the file stay and new
    rows follow them (check them first: ``gcs.sim.sweep.resume_from``); without it the file is
    started afresh, unless it holds something other than results (``check_replaceable``)."""
    p = Path(path)
    fmt = file_format(p)
    if not resume:
        check_replaceable(p)
    if fmt == ".parquet":
        return _ParquetWriter(p, resume)
    return _TextWriter(p, fmt, append=resume)


def check_replaceable(path: str | Path) -> None:
    """Raise unless writing a new results file at ``path`` destroys nothing a user wrote: the
    path is free, an empty file, or a gcs results file (which a new sweep replaces)."""
    file_format(path)
    outfile.check_replaceable(path, "gcs results file", _is_results, ResultsError)


def _is_results(p: Path) -> bool:
    """Whether ``p`` reads as a results file: its first row (and header) are a sweep's."""
    rows = read_rows(p)
    try:
        next(rows, None)
    except ResultsError:
        return False
    finally:
        rows.close()
    return p.suffix.lower() == ".parquet" or _first_line_ours(p, p.suffix.lower())


def _first_line_ours(p: Path, fmt: str) -> bool:
    """Whether a CSV/JSONL file starts as the writer starts one (also when it has no row)."""
    with open(p, "rb") as fh:
        head = fh.read(len(_HEADER) + 1).decode("utf-8", "ignore")
    want = _HEADER + "\n" if fmt == ".csv" else _JSONL_START
    return head.startswith(want) or want.startswith(head)


def read_rows(path: str | Path, *, checked: bool = False) -> Generator[Row, None, None]:
    """Every complete row of a results file, in file order, each checked (a half-written last
    line of an interrupted CSV/JSONL file is left out); ResultsError names the file and row.
    ``checked``: every row must carry its ``check`` (a file a resume appends to)."""
    p = Path(path)
    fmt = file_format(p)
    if not p.exists():
        raise ResultsError(f"no results file {path}")
    if p.is_dir():
        raise ResultsError(f"{path} is a directory, not a results file")
    if fmt == ".parquet":
        yield from _parquet_rows(p, checked)
        return
    for n, (line_no, line, cols) in enumerate(_complete_lines(p, fmt, checked)):
        yield _parse_line(line, cols, f"{path} row {n} (line {line_no})", checked)


def _unchecked(p: Path) -> ResultsError:
    return ResultsError(f"{p} was written by an older gcs (without row checks or the block "
                        "column): it can be read, not resumed; run the sweep again without "
                        "--resume")


def _parquet_rows(p: Path, checked: bool) -> Iterator[Row]:
    pa = _pyarrow()
    try:
        pf = pa.parquet.ParquetFile(str(p))
        names = list(pf.schema_arrow.names)
    except Exception as exc:  # (pyarrow's own errors: ArrowInvalid, OSError, ...)
        raise ResultsError(f"{p}: not a Parquet results file ({type(exc).__name__}: "
                           f"{_one_line(exc)})") from None
    if names != list(FILE_COLUMNS) and tuple(names) not in _OLDER.values():
        raise ResultsError(f"{p}: not a gcs results file (its columns differ)")
    if checked and names != list(FILE_COLUMNS):
        raise _unchecked(p)
    n = 0
    batches = pf.iter_batches()
    while True:
        try:
            batch = next(batches, None)
            raws = [] if batch is None else batch.to_pylist()
        except Exception as exc:
            raise ResultsError(f"{p}: unreadable after row {n} ({type(exc).__name__}: "
                               f"{_one_line(exc)})") from None
        if batch is None:
            return
        for raw in raws:
            yield normalize(raw, f"{p} row {n}")
            n += 1


def _complete_lines(p: Path, fmt: str,
                    checked: bool) -> Iterator[tuple[int, str, tuple[str, ...] | None]]:
    """(line number, text, the CSV header's columns or None for JSONL) of each complete row
    line (the CSV header checked and skipped)."""
    try:
        fh = open(p, "rb")  # noqa: SIM115 (closed below; a generator's ``with`` would do too)
    except OSError as exc:
        raise _cannot("read", p, exc) from None
    with fh:
        line_no = 0
        cols: tuple[str, ...] | None = None
        while True:
            try:
                raw = fh.readline(MAX_LINE + 1)
            except OSError as exc:
                raise _cannot("read", p, exc) from None
            if not raw:
                return
            line_no += 1
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_LINE:
                    raise ResultsError(f"{p} line {line_no}: longer than {MAX_LINE} bytes: not "
                                       "a results row")
                if line_no == 1 and fmt == ".csv" and not _header_start(
                        raw.decode("utf-8", "ignore")):
                    raise ResultsError(f"{p}: not a gcs results file (its CSV header differs)")
                return  # a half-written last line (an interrupted write)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ResultsError(f"{p} line {line_no}: not UTF-8 text (byte {exc.start})") \
                    from None
            if line_no == 1 and fmt == ".csv":
                header = text.rstrip("\r\n")
                if header != _HEADER and header not in _OLDER:
                    raise ResultsError(f"{p}: not a gcs results file (its CSV header differs)")
                if checked and header != _HEADER:
                    raise _unchecked(p)
                cols = FILE_COLUMNS if header == _HEADER else _OLDER[header]
                continue
            yield line_no, text, cols


def _header_start(text: str) -> bool:
    """Whether ``text`` (a first line cut short) is the start of a results file's header."""
    return any((h + "\n").startswith(text) for h in (_HEADER, *_OLDER))


def _parse_line(line: str, cols: tuple[str, ...] | None, where: str, checked: bool) -> Row:
    if cols is not None:  # (a CSV row, of the header's columns)
        try:
            values = next(csv.reader(io.StringIO(line)), [])
        except csv.Error as exc:
            raise ResultsError(f"{where}: not a CSV row ({exc})") from None
        if len(values) != len(cols):
            raise ResultsError(f"{where}: {len(values)} values, expected {len(cols)}")
        return normalize(dict(zip(cols, values, strict=True)), where, text=True)
    try:
        raw = json.loads(line)
    except (ValueError, RecursionError) as exc:  # (JSONDecodeError, too many digits, too deep)
        msg = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        raise ResultsError(f"{where}: not JSON ({msg})") from None
    if not isinstance(raw, dict):
        raise ResultsError(f"{where}: a JSONL row is a JSON object")
    if checked and CHECK not in raw:
        raise ResultsError(f"{where}: no column 'check' (a row written without its check)")
    if checked and "block" not in raw:
        raise ResultsError(f"{where}: no column 'block' (a row written by an older gcs: it can "
                           "be read, not resumed)")
    return normalize(raw, where)


def truncate_to_complete(path: str | Path) -> None:
    """Drop a half-written last line of an interrupted CSV/JSONL file (before appending). Only
    the start of a row (or of the CSV header) is dropped: anything else is refused, and the
    file is left as it is."""
    p = Path(path)
    if file_format(p) == ".parquet" or not p.exists():
        return
    try:
        size = p.stat().st_size
        with open(p, "rb") as fh:
            fh.seek(max(0, size - MAX_LINE - 1))
            tail = fh.read()
    except OSError as exc:
        raise _cannot("read", p, exc) from None
    cut = tail.rfind(b"\n")
    if cut < 0 and size > MAX_LINE:
        raise ResultsError(f"{p}: its last line is longer than {MAX_LINE} bytes: not a results "
                           "file, not changed")
    part = tail[cut + 1:]
    if not part:
        return
    text = part.decode("utf-8", "ignore")
    whole = size == len(part)  # no complete line at all: the part is the first line
    if p.suffix.lower() == ".csv":
        ok = _header_start(text) if whole else _CSV_START.fullmatch(text) is not None
    else:
        ok = text.startswith(_JSONL_START) or _JSONL_START.startswith(text)
    if not ok:
        raise ResultsError(f"{p}: its last line {text[:40]!r} is not the start of a results row: "
                           "not changed")
    try:
        with open(p, "r+b") as fh:
            fh.truncate(size - len(part))
    except OSError as exc:
        raise _cannot("write", p, exc) from None


_CSV_START = re.compile(r"[0-9]*(,[^\n]*)?")  # a row cut short: its job number, then anything


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

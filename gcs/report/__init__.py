"""The balance report: one self-contained, offline HTML file (plotly, the ``report`` extra)."""

from __future__ import annotations

from pathlib import Path

from ..errors import GameError
from .aggregate import Aggregate

MARK = "id='gcs-report-data'"  # in every report page (the embedded numbers)


class ReportError(GameError):
    """A report that cannot be written where it was asked (the message names the file)."""


def write_report(source: str | Path | Aggregate, out: str | Path, title: str | None = None) -> Aggregate:
    """Write the report of a results file (or of rows already aggregated) to ``out``. Every row
    is checked first (a damaged row is a ``ResultsError`` naming it, and no report is written);
    an existing ``out`` is replaced only if it is a gcs report."""
    from .html import render

    check_replaceable(out)
    if isinstance(source, Aggregate):
        agg = source
        name = "simulation"
    else:
        from ..sim.results import read_rows

        agg = Aggregate()
        for row in read_rows(source):
            agg.add_row(row)
        name = Path(source).name
    page = render(agg, title or f"gcs balance report: {name}")
    p = Path(out)
    tmp = p.with_name(p.name + ".partial")
    try:
        tmp.write_text(page, encoding="utf-8")
        tmp.replace(p)
    except OSError as exc:
        raise ReportError(f"cannot write the report {out}: {exc.strerror or exc}") from None
    return agg


def check_replaceable(out: str | Path) -> None:
    """Raise unless writing a report at ``out`` destroys nothing a user wrote: the path is
    free, an empty file or a gcs report."""
    p = Path(out)
    if p.is_dir():
        raise ReportError(f"{out} is a directory: give a file name for the report")
    try:
        if not p.exists() or p.stat().st_size == 0:
            return
        with open(p, "rb") as fh:
            ours = MARK.encode() in fh.read(64_000_000)
    except OSError as exc:
        raise ReportError(f"cannot read {out}: {exc.strerror or exc}") from None
    if not ours:
        raise ReportError(f"{out} exists and is not a gcs report: not overwritten (move it "
                          "away or give another --out)")


__all__ = ["Aggregate", "ReportError", "check_replaceable", "write_report"]

"""The balance report: one self-contained, offline HTML file (plotly, the ``report`` extra)."""

from __future__ import annotations

from pathlib import Path

from ..errors import GameError
from ..sim import outfile
from ..sim.outfile import write_text
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
    rows: Path | None = None
    if isinstance(source, Aggregate):
        agg = source
        name = "simulation"
    else:
        rows = Path(source)
        from ..sim.results import read_rows

        agg = Aggregate()
        for row in read_rows(source):
            agg.add_row(row)
        name = Path(source).name
    write_text(out, render(agg, title or f"gcs balance report: {name}", rows), "report",
               ReportError)
    return agg


def check_replaceable(out: str | Path) -> None:
    """Raise unless writing a report at ``out`` destroys nothing a user wrote: the path is
    free, an empty file or a gcs report."""
    outfile.check_replaceable(out, "gcs report", _is_report, ReportError)


def _is_report(p: Path) -> bool:
    with open(p, "rb") as fh:
        return MARK.encode() in fh.read(64_000_000)


__all__ = ["Aggregate", "ReportError", "check_replaceable", "write_report"]

"""The balance report: one self-contained, offline HTML file (plotly, the ``report`` extra)."""

from __future__ import annotations

from pathlib import Path

from .aggregate import Aggregate


def write_report(source: str | Path | Aggregate, out: str | Path, title: str | None = None) -> Aggregate:
    """Write the report of a results file (or of rows already aggregated) to ``out``."""
    from .html import render

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
    Path(out).write_text(render(agg, title or f"gcs balance report: {name}", rows),
                         encoding="utf-8")
    return agg


__all__ = ["Aggregate", "write_report"]

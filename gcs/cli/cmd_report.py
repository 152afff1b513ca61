"""``gcs report``: the HTML balance report of a results file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import console, escape


def register(app: typer.Typer) -> None:
    """Add ``report``."""
    app.command("report", help="write a self-contained offline HTML balance report of a results file")(report)


def report(file: Annotated[Path, typer.Argument(help="results file (.csv, .jsonl, .parquet)")],
           out: Annotated[Path | None, typer.Option(help="the HTML file (default: FILE.html)")] = None,
           title: Annotated[str | None, typer.Option(help="the page title")] = None) -> None:
    """Write the report and say where."""
    from ..report import write_report

    target = out if out is not None else file.with_suffix(".html")
    agg = write_report(file, target, title)
    console().print(f"report of {agg.battles} battles in {len(agg.groups)} group(s) -> "
                    f"{escape(str(target))}")

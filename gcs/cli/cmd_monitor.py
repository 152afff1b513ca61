"""``gcs monitor``: play a bundled battle in the Game Card Monitor web page (the ``monitor`` extra)."""

from __future__ import annotations

import typer

from .app import forward


def register(app: typer.Typer) -> None:
    """Add ``gcs monitor`` (its options are ``gcs.monitor.command``'s: ``gcs monitor --help``)."""
    forward(app, "monitor", "gcs.monitor.command:main",
            help="serve a battle in the Game Card Monitor web page and play it in the browser")

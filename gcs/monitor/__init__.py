"""The Game Card Monitor: ``render`` (text, for ``gcs play``) and ``serve`` (a live web page).

``import gcs.monitor`` stays light: the web server (Starlette, uvicorn: the ``monitor`` extra)
is imported only when ``serve`` is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .text import render

if TYPE_CHECKING:
    from pathlib import Path

    from ..game import Game
    from .server import Monitor

__all__ = ["Monitor", "render", "serve"]


def serve(game: Game, host: str = "127.0.0.1", port: int = 0, *,
          art: str | Path | None = None) -> Monitor:
    """Serve a live, read-only page of ``game`` from a background thread; returns at once.
    ``art``: the directory (the pack's) that cards' pack-relative ``art`` paths are read from;
    a URL ``art`` is shown as it is."""
    from .server import watch

    return watch(game, host=host, port=port, art=art)


def __getattr__(name: str) -> object:
    """``gcs.monitor.Monitor`` (the running server's handle), imported on first use."""
    if name == "Monitor":
        from .server import Monitor

        return Monitor
    raise AttributeError(f"module 'gcs.monitor' has no attribute {name!r}")

"""Many seeded battles of one job; results do not depend on the backend or number of workers."""

from __future__ import annotations

from collections.abc import Callable

from ..content.db import Content
from .backends import make_backend
from .jobs import Job, Summary, format_deck, parse_deck, run_chunk, run_rows
from .sweep import Sweep, run_sweep

__all__ = ["Job", "Summary", "format_deck", "parse_deck", "run_chunk", "run_rows", "simulate"]


def simulate(job: Job, battles: int, workers: int = 1, chunk: int = 250,
             progress: Callable[[int, int], None] | None = None,
             content: Content | None = None, backend: str = "local",
             address: str | None = None) -> Summary:
    """Run ``battles`` seeded battles on ``workers`` processes (1: in this process) or on Ray
    (``backend="ray"``, the cluster at ``address``)."""
    be = make_backend(backend, workers, address)
    try:
        return run_sweep(Sweep((job,), battles, chunk), be, progress=progress, content=content)[0]
    finally:
        be.close()

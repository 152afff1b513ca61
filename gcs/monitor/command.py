"""``python -m gcs.monitor ...``: the same command as ``gcs monitor ...`` (``gcs/cli/cmd_monitor.py``)."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    """Run ``gcs monitor`` with ``argv``; returns its exit code."""
    from ..cli import main as cli_main

    return cli_main(["monitor", *argv])

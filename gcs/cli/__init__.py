"""The ``gcs`` command line on typer + rich: one module per command group (see ``COMMANDS``).

Adding a command is one module with ``register(app)``, listed in ``COMMANDS``. A command that
hands its raw arguments to another ``main(argv) -> int`` is one ``forward`` call, e.g. a
``cmd_tool.py`` holding::

    def register(app: typer.Typer) -> None:
        forward(app, "tool", "package.tool:main", help="run the tool")
"""

from __future__ import annotations

from .app import EXIT_CODES, app, forward, main
from .cmd_battle import register as _battle
from .cmd_compare import register as _compare
from .cmd_content import register as _content
from .cmd_monitor import register as _monitor
from .cmd_replay import register as _replay
from .cmd_report import register as _report
from .cmd_simulate import register as _simulate

COMMANDS = (_simulate, _battle, _replay, _report, _content, _monitor, _compare)
for _register in COMMANDS:
    _register(app)

__all__ = ["EXIT_CODES", "app", "forward", "main"]

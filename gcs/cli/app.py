"""The typer application, its exit codes, ``--version``, errors, and ``forward``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from .._version import __version__, engine_kind
from ..errors import ContentError, GameError

#: The exit codes of every command (also shown by ``gcs --help``).
EXIT_CODES: dict[int, str] = {
    0: "success",
    1: "an invalid content pack (gcs validate, or a --pack that does not load)",
    2: "bad usage or a runtime error: unknown id, bad option, a replay that does not re-run",
    3: "a run (gcs run) that was lost",
    130: "interrupted (Ctrl-C); a simulate --out file can be resumed with --resume",
}

_EPILOG = "Exit codes: " + "; ".join(f"{k} {v}" for k, v in EXIT_CODES.items()) + "."

app = typer.Typer(
    name="gcs", help="GCS card-battle runtime: simulate, play, replay, report, browse a pack.",
    epilog=_EPILOG, add_completion=False, no_args_is_help=True,
    pretty_exceptions_enable=False, context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"gcs {__version__} ({engine_kind()} engine)")
        raise typer.Exit(0)


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="print the version and engine kind, then exit")] = False) -> None:
    """GCS card-battle runtime."""


def error(message: str) -> None:
    """One ``error: ...`` line on stderr."""
    print(f"error: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    cmd = typer.main.get_command(app)
    try:
        cmd.main(args=args, prog_name="gcs", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except (GameError, ValueError) as exc:
        error(str(exc))
        return 2
    except BrokenPipeError:
        return 0
    return 0


def forward(app: typer.Typer, name: str, target: str | Callable[[list[str]], int],
            help: str) -> None:
    """Add the command ``name`` to ``app`` that passes its raw arguments (options, ``--help``
    and all) to ``target(argv) -> int``: a callable, or ``"module:function"`` imported only when
    the command runs (so an extra's dependencies load only then)."""

    @app.command(name, help=help, add_help_option=False, context_settings={
        "allow_extra_args": True, "ignore_unknown_options": True})
    def _forwarded(ctx: typer.Context) -> None:
        fn: Any = target
        if isinstance(fn, str):
            mod, _, attr = fn.partition(":")
            fn = getattr(importlib.import_module(mod), attr)
        raise typer.Exit(int(fn(list(ctx.args))))

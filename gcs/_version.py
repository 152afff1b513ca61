"""The package version, and which engine (compiled or pure Python) this process runs."""

from __future__ import annotations

__version__ = "0.2.0"


def engine_kind() -> str:
    """``"compiled"`` when the engine core is the mypyc-compiled build, else ``"pure"``."""
    from . import engine

    return "pure" if engine.__file__.endswith(".py") else "compiled"

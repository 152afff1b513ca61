"""The error raised when the ``gym`` extra (gymnasium, numpy) is not installed."""

from __future__ import annotations

from ..errors import GameError

INSTALL_HINT = "pip install 'gcs[gym]'"


class MissingExtraError(GameError, ImportError):
    """An optional feature was used without its extra installed; the message says what to install."""


def missing_gym_extra(exc: ImportError) -> MissingExtraError:
    """The error for a failed import of gymnasium or numpy (``exc``), naming the extra to install."""
    name = exc.name or "gymnasium"
    return MissingExtraError(
        f"gcs.env needs the 'gym' extra ({name} is not installed): {INSTALL_HINT}")

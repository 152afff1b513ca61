"""Environments for learning agents (the ``gym`` extra: ``pip install 'gcs[gym]'``).

``import gcs.env`` works without the extra; with gymnasium installed it also registers the
tasks of :mod:`gcs.env.registry` (``gymnasium.make("gcs/JawWorm-v0")``). The environment
itself is ``gcs.env.gym.GcsEnv``, the batched one ``gcs.env.vector.GcsVectorEnv``; importing
either without the extra raises :class:`MissingExtraError` naming the install command.
"""

from __future__ import annotations

from ._extra import INSTALL_HINT, MissingExtraError
from .registry import TASKS

try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # without the extra: nothing to register
    pass
else:
    from .registry import register as _register

    _register()

__all__ = ["INSTALL_HINT", "TASKS", "MissingExtraError"]

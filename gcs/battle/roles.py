"""A unit's status roles (gcs/content/roles.py), read once and kept while nothing changes them.

Every rule that asks "does this unit hold a status that ...?" tests a bit of ``roles_of``. The
engine keeps the roles of two units: the player's and those of the enemy asked last (a phase
asks the player and an enemy in turn). A change of a unit's set of statuses through
``apply_status`` or ``die`` and a handler that ran (it may change a live unit by hand) forget
them (``forget_roles``); so does every facade call and run of the engine loop once a live unit
object has been handed out (``Engine.roles_open``: its holder may change it by hand between
calls), and never otherwise: the engine's own changes all go through those primitives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Unit

if TYPE_CHECKING:
    from ..engine import Engine


def roles_of(e: Engine, u: Unit) -> int:
    """The roles of the statuses ``u`` holds, as bits. (A unit that holds no status plays no
    role: the hot callers test ``u.statuses`` first and make no call then.)"""
    if e.roles_player is u:
        return e.roles_p
    if e.roles_unit is u:
        return e.roles
    bits = 0
    table = e.c.status_roles
    for sid in u.statuses:
        bits |= table.get(sid, 0)  # (a status the content lacks plays no role)
    if u.uid:
        e.roles_unit = u
        e.roles = bits
    else:
        e.roles_player = u
        e.roles_p = bits
    return bits


def forget_roles(e: Engine) -> None:
    """The roles kept are stale: a unit's set of statuses changed (or may have, by hand)."""
    e.roles_player = None
    e.roles_unit = None

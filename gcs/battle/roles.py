"""A unit's status roles (gcs/content/roles.py), read once and kept while nothing changes them.

Every rule that asks "does this unit hold a status that ...?" tests a bit of ``roles_of``. The
engine keeps the roles of the unit asked last; a change of statuses through ``apply_status``
or ``die``, a handler that ran (it may change a live unit by hand) and every run of the engine
loop (a caller may have, between calls) forget them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Unit

if TYPE_CHECKING:
    from ..engine import Engine


def roles_of(e: Engine, u: Unit) -> int:
    """The roles of the statuses ``u`` holds, as bits. (A unit that holds no status plays no
    role: the hot callers test ``u.statuses`` first and make no call then.)"""
    if e.roles_unit is u:
        return e.roles
    bits = 0
    table = e.c.status_roles
    for sid in u.statuses:
        bits |= table.get(sid, 0)  # (a status the content lacks plays no role)
    e.roles_unit = u
    e.roles = bits
    return bits

"""A unit's status roles (gcs/content/roles.py), read once and kept while nothing changes them.

Every rule that asks "does this unit hold a status that ...?" tests a bit of ``roles_of``. Each
unit keeps its roles, valid while its ``roles_at`` is the engine's ``roles_epoch``: a change of
its statuses through ``apply_status`` or ``die`` forgets that unit's (``roles_at = -1``); a
handler that ran (it may change a live unit by hand) and every run of the engine loop or
outermost call (a caller may have, between calls) forget every unit's at once, by a new epoch
(``roles_epoch += 1``). A copied or loaded unit is at -1, never an epoch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import Unit

if TYPE_CHECKING:
    from ..engine import Engine


def roles_of(e: Engine, u: Unit) -> int:
    """The roles of the statuses ``u`` holds, as bits. (A unit that holds no status plays no
    role: the hot callers test ``u.statuses`` first and make no call then.)"""
    epoch = e.roles_epoch
    if u.roles_at == epoch:
        return u.roles
    bits = 0
    table = e.c.status_roles
    for sid in u.statuses:
        bits |= table.get(sid, 0)  # (a status the content lacks plays no role)
    u.roles = bits
    u.roles_at = epoch
    return bits


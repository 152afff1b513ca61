"""The save format's version, and the loading of saves made in an older one.

Format 6 adds the block each card gained (``block``: the block credit of gcs/battle/credit.py;
an older save holds none: its battle's block so far is not counted) and the rule
``keyed_shuffle`` (an older save's game shuffles by Fisher-Yates). Format 5 adds to each unit
row who applied its statuses' stacks (item 14, the sources that damage credit reads:
gcs/battle/credit.py; a row without it knows no source, its stacks credited to "(none)"), and
keeps the gold a battle's rewards hold besides the table's (``loot``: the ``reward_gold``
node's, a Looter's loot); an older save holds none of either. Format 4 numbers a procedure
frame's steps as the seeds do (gcs/battle/frames.py: ten times the seed's step number, plus its
part), and the EnemyPhase frame keeps how many enemies it has reached in its data. Format 3
added the places in Draw the player knows (``known``). A format 2 to 5 save is
brought up to date on load (``upgrade``), before it is checked.
"""

from __future__ import annotations

from typing import Any, Final

from . import frames as K

# 6: block credit, the keyed shuffle rule; 5: status sources in unit rows and the rewards'
# loot; 4: the seeds' step numbers; 3: known Draw places; 2: rolled move numbers, nested plays,
# just applied statuses
FORMAT: Final = 6

# format 2's and 3's ``pc`` of each renumbered kind (the number of step groups done) -> format 4's
_STEPS_2: Final[dict[int, dict[int, int]]] = {
    K.START: {0: K.START_OPENING_HAND, 1: K.START_TURN_ONE, 2: K.START_INTENTS,
              3: K.START_TURN_START},
    K.TURN_START: {0: K.TURN_START_HOOKS, 1: K.TURN_START_PLAYED, 2: K.TURN_START_DRAW_PHASE,
                   3: K.TURN_START_DRAW, 4: K.TURN_START_STARTED},
    K.TURN_END: {0: K.TURN_END_DISCARD_PHASE, 1: K.TURN_END_CARDS, 2: K.TURN_END_HAND_RULE,
                 3: K.TURN_END_STATUSES, 4: K.TURN_END_DECAY, 5: K.TURN_END_ENDED},
    K.ENEMY_TURN: {0: K.ENEMY_TURN_START, 1: K.ENEMY_TURN_CONTROL, 2: K.ENEMY_TURN_END,
                   3: K.ENEMY_TURN_DECAY},
    K.PLAY: {0: K.PLAY_ON_PLAY, 1: K.PLAY_STATUSES, 2: K.PLAY_HOOKS, 3: K.PLAY_DONE},
    K.WON: {0: K.WON_BRANCHES, 1: K.WON_REWARDS},
    K.LOST: {0: K.LOST_BRANCHES, 1: K.LOST_ENDED},
}


def upgrade(data: Any) -> Any:
    """``data``, a save as loaded from JSON, in the current format (a new dict; ``data`` is not
    changed): a format 2 to 5 save holds no block credit and shuffles by Fisher-Yates; a format
    2, 3 or 4 one holds no loot (and its unit rows, without item 14, no
    status sources); a format 2 or 3 one is renumbered, and a format 2 one knows no place in
    Draw (its game was played before the places were kept); anything else is returned as it
    is, for the checks to accept or refuse. Rows that are not frames are left alone too."""
    if not isinstance(data, dict) or type(data.get("format")) is not int or data["format"] not in (
            2, 3, 4, 5):
        return data
    old = data["format"]
    out = dict(data, format=FORMAT)
    rules = data.get("rules")
    if isinstance(rules, dict) and "keyed_shuffle" not in rules:
        out["rules"] = dict(rules, keyed_shuffle=False)
    state = data.get("state")
    if isinstance(state, dict):
        st = dict(state)
        if "block" not in st:
            st["block"] = {}
        if "loot" not in st:
            st["loot"] = 0
        if old == 2 and "known" not in st:
            st["known"] = [0, 0]
        if old in (2, 3):
            st["stack"] = _frames(state.get("stack"))
            delayed = state.get("delayed")
            if isinstance(delayed, list):
                st["delayed"] = [[*d[:2], _frames(d[2]), *d[3:]]
                                 if isinstance(d, list) and len(d) > 2 else d for d in delayed]
        out["state"] = st
    return out


def _frames(rows: Any) -> Any:
    if not isinstance(rows, list):
        return rows
    return [_frame(r) for r in rows]


def _frame(row: Any) -> Any:
    """One frame row ``[kind, node, pc, data, scope]`` renumbered."""
    if not (isinstance(row, list) and len(row) == 5 and type(row[0]) is int
            and type(row[2]) is int):
        return row
    kind, node, pc, data, ctx = row
    steps = _STEPS_2.get(kind)
    if steps is not None:
        return [kind, node, steps.get(pc, pc), data, ctx]
    if kind == K.ENEMY_PHASE:
        if data is None:
            return [kind, node, K.ENEMY_PHASE_TURNS if pc == 0 else pc, data, ctx]
        if isinstance(data, list) and len(data) == 2 and isinstance(data[0], list):
            # (format 2's ``pc``: the enemies reached; one more once step 5 ran)
            n = len(data[0])
            if 0 <= pc <= n:
                return [kind, node, K.ENEMY_PHASE_TURNS, [data[0], data[1], pc], ctx]
            if pc == n + 1:
                return [kind, node, K.ENEMY_PHASE_ROUND_END, [data[0], data[1], n], ctx]
    return row

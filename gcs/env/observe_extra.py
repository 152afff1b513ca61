"""The observation options beyond the default (``GcsEnv(observation=...)``, docs/env.md).

``"information"`` adds the player's information state that the default observation leaves
out: the draw-pile places the player knows (cards put on top or at the bottom in view, e.g.
by Headbutt or Warcry, until a shuffle or a random insertion hides them again) and this turn's
plays in order. ``"privileged"`` adds to that the whole draw pile in draw order, which the
player does not know: its parts are named ``privileged_*``, for teacher-student training (a
teacher that sees them, a student that does not). Both only add parts: the default parts are
the same arrays with the same values.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from ._extra import missing_gym_extra

try:
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # the gym extra is not installed
    raise missing_gym_extra(exc) from exc

if TYPE_CHECKING:
    from ..act.run import ActRun
    from ..battle.state import State
    from .observe import Observer

DEFAULT = "default"
INFORMATION = "information"
PRIVILEGED = "privileged"
OBSERVATIONS = (DEFAULT, INFORMATION, PRIVILEGED)
MAX_KNOWN = 10  # known draw-pile places shown at each end
MAX_PLAYED = 10  # this turn's plays shown (the last ones, in play order)
MAX_DRAW = 60  # draw-pile places shown by the privileged observation (top first)
INFO_ROWS = ("known_top", "known_bottom", "played")
LIMIT = 4.0
# an act task's part ``run``: the decision, the run's numbers, the boss (by its place among
# the pack's bosses, sorted), and the room behind each map answer ``choice0 + k``
RUN_ROOMS = ("M", "E", "R", "$", "T", "?", "B")
MAX_BOSSES = 3
MAX_PATHS = 7
RUN_FEATURES = (["decision_battle", "decision_path", "decision_rest", "floor", "hp_fraction",
                 "max_hp", "gold"] + [f"boss_{i}" for i in range(MAX_BOSSES)]
                + [f"path{k}_{r}" for k in range(MAX_PATHS) for r in RUN_ROOMS])


def extra_parts(nc: int, privileged: bool) -> dict[str, spaces.Space[Any]]:
    """The parts added to the default ones for a pack of ``nc`` cards, in order."""
    ids = [nc + 1]
    parts: dict[str, spaces.Space[Any]] = {
        "known_top_ids": spaces.MultiDiscrete(ids * MAX_KNOWN),
        "known_bottom_ids": spaces.MultiDiscrete(ids * MAX_KNOWN),
        "played_ids": spaces.MultiDiscrete(ids * MAX_PLAYED),
        "information": spaces.Box(0.0, LIMIT, (len(INFO_ROWS), MAX_KNOWN + 1), np.float32),
    }
    if privileged:
        parts["privileged_draw_ids"] = spaces.MultiDiscrete(ids * MAX_DRAW)
        parts["privileged_draw_upgraded"] = spaces.Box(0.0, 1.0, (MAX_DRAW,), np.float32)
    return parts


def write_extra(obs: Observer, s: State, stores: list[array[Any]], sizes: list[int],
                row: int) -> None:
    """Write the extra parts of row ``row`` (the stores are zeroed; nothing outside a battle)."""
    if not s.active:
        return
    card_id = obs.vocab.card_id
    cards = s.cards
    draw = s.draw
    top_a, bottom_a, played_a, info_a = stores[14:18]
    w = MAX_KNOWN + 1
    ib = row * sizes[17]
    # the known places: top first from the top (draw[-1] is drawn next), bottom from the bottom
    ends = ((top_a, [draw[-1 - k] for k in range(min(s.known_top, MAX_KNOWN))], s.known_top),
            (bottom_a, draw[:min(s.known_bottom, MAX_KNOWN)], s.known_bottom),
            (played_a, s.played[-MAX_PLAYED:], len(s.played)))
    for r, (a, uids, count) in enumerate(ends):
        b = row * sizes[14 + r]
        for k, uid in enumerate(uids):
            inst = cards[uid]
            a[b + k] = card_id[inst.card_id]
            if inst.upgraded:
                info_a[ib + r * w + k] = 1.0
        info_a[ib + r * w + MAX_KNOWN] = min(LIMIT, count / 10.0)
    if obs.observation == PRIVILEGED:
        ids_a, up_a = stores[18:20]
        b = row * MAX_DRAW
        for k, uid in enumerate(reversed(draw[-MAX_DRAW:])):
            inst = cards[uid]
            ids_a[b + k] = card_id[inst.card_id]
            if inst.upgraded:
                up_a[b + k] = 1.0


def write_run(run: ActRun, bosses: list[str], out: dict[str, Any], row: int) -> None:
    """Write the ``run`` part of row ``row`` (an act task): see RUN_FEATURES."""
    v = out["run"][row]
    v[:] = 0.0
    v[("battle", "path", "rest").index(run.phase) if run.phase != "over" else 0] = 1.0
    hp, max_hp = run.game.run_hp
    v[3] = run.floor / 16.0
    v[4] = hp / max_hp if max_hp > 0 else 0.0
    v[5] = min(LIMIT, max_hp / 100.0)
    v[6] = min(LIMIT, run.game.gold / 300.0)
    if run.boss in bosses and bosses.index(run.boss) < MAX_BOSSES:
        v[7 + bosses.index(run.boss)] = 1.0
    if run.phase == "path":
        for k, x in enumerate(run.path_options()[:MAX_PATHS]):
            room = run.room_ahead(x)
            if room in RUN_ROOMS:
                v[7 + MAX_BOSSES + k * len(RUN_ROOMS) + RUN_ROOMS.index(room)] = 1.0

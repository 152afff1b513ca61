"""An act's map as the game generates it: 15 floors of 7 columns, 6 paths, then the boss.

The steps are the game's MapGenerator and RoomTypeAssigner (read in sts_lightspeed's Map.cpp),
on this package's seeded streams instead of the game's Java RNG, so a seed gives a map of the
game's shape but not the game's map for that seed:

1. Six paths climb from floor 1 to floor 15, each starting in a random column (the second never
   where the first did) and moving to a column at most one step left or right per floor. A step
   that would rejoin a path that split one floor below (a loop shorter than the game's minimum
   gap of 3 floors) is drawn again towards the same side or straight on, and a step never
   crosses a neighbour's edge (paths touch at nodes, never cross). Floor 15 leads to the boss.
2. Duplicate edges out of floor 1 (two starts leading to the same node) are dropped.
3. Floor 1 is monsters, floor 9 treasure, floor 15 rest. The other rooms come from one shuffled
   list: of the ``total`` nodes (every node on a path except floor 14's, as the game counts),
   5% shops, 12% rest sites, 8% elites (A0) and 22% unknown rooms, each rounded as the game
   rounds a float, and monsters for the rest. Floor by floor, left to right, a node takes the
   first room of the list that its rules allow: no elite or rest site on floors 1-5, no rest
   site on floors 14-15; an elite, rest site, shop or treasure never right after the same room
   on a path (the floor below), and no room of a kind a sibling (a node sharing a forking
   parent) already has; a monster or unknown room only checks its siblings. A node that no
   room fits is a monster room. (Floors 1 and 9 do not count as parents in that check, as in
   the game.)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Final

from ..rng import Rng

HEIGHT: Final = 15
WIDTH: Final = 7
PATHS: Final = 6
BOSS_X: Final = 3  # the game's edge from floor 15 to the boss goes to column 3

MONSTER: Final = "M"
ELITE: Final = "E"
REST: Final = "R"
SHOP: Final = "$"
TREASURE: Final = "T"
EVENT: Final = "?"
ROOMS: Final = (MONSTER, ELITE, REST, SHOP, TREASURE, EVENT)
ROOM_NAMES: Final = {MONSTER: "monster", ELITE: "elite", REST: "rest", SHOP: "shop",
                     TREASURE: "treasure", EVENT: "unknown"}

# the room list's shares (the game's Exordium chances at A0), as the game's float constants
_SHARES: Final = ((SHOP, 0.05), (REST, 0.12), (TREASURE, 0.0), (ELITE, 0.08), (EVENT, 0.22))
_PARENT_RULE: Final = frozenset((ELITE, REST, SHOP, TREASURE))
_ROW_MONSTER: Final = 0
_ROW_TREASURE: Final = 8
_ROW_REST: Final = HEIGHT - 1


@dataclass
class Node:
    """One map node: its children's columns on the next floor (sorted), parents, room."""

    x: int
    y: int
    edges: list[int] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)  # as added (a column may repeat)
    room: str = ""

    def add_edge(self, x: int) -> None:
        if x not in self.edges:
            self.edges.append(x)
            self.edges.sort()


@dataclass
class ActMap:
    """The generated map: ``rows[y][x]`` (floor ``y + 1``), the boss after floor 15."""

    rows: list[list[Node]]

    def node(self, x: int, y: int) -> Node:
        return self.rows[y][x]

    def starts(self) -> list[int]:
        """The columns of floor 1 a run can start in (left to right)."""
        return [n.x for n in self.rows[0] if n.edges]

    def rooms(self) -> list[Node]:
        """Every node on a path, floor by floor, left to right."""
        return [n for row in self.rows for n in row if n.edges]

    def text(self) -> str:
        """The map as text, floor 15 on top: room letters and the edges between floors."""
        lines: list[str] = ["boss".center(WIDTH * 3)]
        for y in range(HEIGHT - 1, -1, -1):
            links = ""
            if y < HEIGHT - 1:
                for n in self.rows[y]:
                    left = "\\" if any(e < n.x for e in n.edges) else " "
                    mid = "|" if n.x in n.edges else " "
                    right = "/" if any(e > n.x for e in n.edges) else " "
                    links += left + mid + right
                lines.append(links)
            lines.append("".join(f" {n.room or ' '} " if n.edges else "   "
                                 for n in self.rows[y]) + f"  {y + 1}")
        return "\n".join(lines[:1] + lines[1:])


def _f32(x: float) -> float:
    """``x`` rounded to a 32-bit float (the game computes its room counts in floats)."""
    v: float = struct.unpack("f", struct.pack("f", x))[0]
    return v


def _round_half_up(x: float) -> int:
    return int(x + 0.5)


def _range(rng: Rng, lo: int, hi: int) -> int:
    return lo + rng.below(hi - lo + 1)


def _gap_too_small(rows: list[list[Node]], x1: int, x2: int, y: int) -> bool:
    """Do the nodes ``x1`` and ``x2`` of floor ``y`` split from one node just below?

    The game orders the pair by comparing a column with the floor number (kept as it is) and
    compares the left node's rightmost parent with the right node's leftmost one."""
    if y < 0:
        return False
    left, right = (x1, x2) if x1 < y else (x2, x1)
    lp, rp = rows[y][left].parents, rows[y][right].parents
    return bool(lp) and bool(rp) and max(lp) == min(rp)


def _next_x(rows: list[list[Node]], rng: Rng, x: int, y: int) -> int:
    lo = 0 if x == 0 else -1
    hi = 0 if x == WIDTH - 1 else 1
    nx = x + _range(rng, lo, hi)
    for px in list(rows[y + 1][nx].parents):  # (the first pick's parents, as the game)
        if px == x or not _gap_too_small(rows, px, x, y):
            continue
        if nx > x:
            nx = x + _range(rng, -1, 0)
            nx = x if nx < 0 else nx
        elif nx == x:
            nx = x + _range(rng, -1, 1)
            nx = x - 1 if nx > WIDTH - 1 else x + 1 if nx < 0 else nx
        else:
            nx = x + _range(rng, 0, 1)
            nx = x if nx > WIDTH - 1 else nx
    if x > 0 and rows[y][x - 1].edges:  # never cross the left neighbour's rightmost edge
        nx = max(nx, rows[y][x - 1].edges[-1])
    if x < WIDTH - 1 and rows[y][x + 1].edges:  # nor the right neighbour's leftmost one
        nx = min(nx, rows[y][x + 1].edges[0])
    return nx


def _paths(rows: list[list[Node]], rng: Rng) -> None:
    first = _range(rng, 0, WIDTH - 1)
    for i in range(PATHS):
        x = first
        if i > 0:
            x = _range(rng, 0, WIDTH - 1)
            while i == 1 and x == first:
                x = _range(rng, 0, WIDTH - 1)
        for y in range(HEIGHT - 1):
            nx = _next_x(rows, rng, x, y)
            rows[y][x].add_edge(nx)
            rows[y + 1][nx].parents.append(x)
            x = nx
        rows[HEIGHT - 1][x].add_edge(BOSS_X)


def _drop_duplicate_starts(rows: list[list[Node]]) -> None:
    seen: set[int] = set()
    for node in rows[0]:
        for dest in list(reversed(node.edges)):
            if dest in seen:
                child = rows[1][dest]
                child.parents = [p for p in child.parents if p != node.x]
                node.edges.remove(dest)
            else:
                seen.add(dest)


def _room_list(rows: list[list[Node]], rng: Rng) -> list[str]:
    total = 0
    free = 0
    for y, row in enumerate(rows):
        for n in row:
            if not n.edges:
                continue
            if y == _ROW_MONSTER:
                n.room = MONSTER
            elif y == _ROW_TREASURE:
                n.room = TREASURE
            elif y == _ROW_REST:
                n.room = REST
            else:
                free += 1
            if y != HEIGHT - 2:  # (the game leaves floor 14 out of the total it takes shares of)
                total += 1
    rooms: list[str] = []
    for room, share in _SHARES:
        rooms += [room] * _round_half_up(_f32(_f32(float(total)) * _f32(share)))
    rooms += [MONSTER] * (free - len(rooms))
    for i in range(len(rooms), 1, -1):  # Fisher-Yates, as the game's
        j = rng.below(i)
        rooms[i - 1], rooms[j] = rooms[j], rooms[i - 1]
    return rooms


def _allowed(room: str, y: int, parent_rooms: set[str], sibling_rooms: set[str]) -> bool:
    if room in sibling_rooms:
        return False
    if room in (ELITE, REST) and y <= 4:
        return False
    if room == REST and y >= HEIGHT - 2:
        return False
    return not (room in _PARENT_RULE and room in parent_rooms)


def _assign(rows: list[list[Node]], rooms: list[str]) -> None:
    for y in range(1, HEIGHT - 1):
        if y == _ROW_TREASURE:
            continue
        below = rows[y - 1]
        for n in rows[y]:
            if not n.edges:
                continue
            parents = [p for p in below if n.x in p.edges]
            parent_rooms = set() if y - 1 in (_ROW_MONSTER, _ROW_TREASURE) else {
                p.room for p in parents}
            sibling_rooms = {rows[y][e].room for p in parents if len(p.edges) > 1
                             for e in p.edges if e != n.x}
            for i, room in enumerate(rooms):
                if _allowed(room, y, parent_rooms, sibling_rooms):
                    n.room = room
                    del rooms[i]
                    break
            else:
                n.room = MONSTER


def generate(rng: Rng) -> ActMap:
    """A new act map from ``rng`` (the steps in this module's docstring)."""
    rows = [[Node(x, y) for x in range(WIDTH)] for y in range(HEIGHT)]
    _paths(rows, rng)
    _drop_duplicate_starts(rows)
    _assign(rows, _room_list(rows, rng))
    return ActMap(rows)

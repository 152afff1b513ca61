"""Frame kinds: what a suspended unit of work is (the interpreter dispatches on these).

``Final``: the compiled engine reads them as C constants (no module attribute lookup).
"""

from typing import Final

ENTRY: Final = 0        # one behaviour entry: node = root; pc 0 = not started, 1 = running
NODE: Final = 1         # a composite node (Sequence, Loop, Foreach, While) in progress
CHOICE: Final = 2       # an answered Choice continues into its ``then`` branch
DRAW: Final = 3         # data = [remaining, automatic(0/1)]
EACH: Final = 4         # a per-card action over data = [card ids]
DAMAGE: Final = 5       # data = [amount, [target uids], hits, random(0/1)]
# a card play in progress; data = [card uid, target uid, nested 0/1, authored pile or ""]
PLAY: Final = 6
START: Final = 7        # StartBattle steps
TURN_START: Final = 8   # PlayerTurnStart steps
TURN_END: Final = 9     # EndPlayerTurn steps
ENEMY_PHASE: Final = 10  # EnemyPhase steps; data = [[enemy uids], [[uid, status] just applied]]
ENEMY_TURN: Final = 11  # one enemy's turn; data = enemy uid
WON: Final = 12         # victory steps
LOST: Final = 13        # defeat steps
HAND_END: Final = 14    # turn-end hand processing; data = [card ids]

NAMES = {
    ENTRY: "entry", NODE: "node", CHOICE: "choice", DRAW: "draw", EACH: "each",
    DAMAGE: "damage", PLAY: "play", START: "start", TURN_START: "turn_start",
    TURN_END: "turn_end", ENEMY_PHASE: "enemy_phase", ENEMY_TURN: "enemy_turn", WON: "won",
    LOST: "lost", HAND_END: "hand_end",
}

"""Frame kinds: what a suspended unit of work is (the interpreter dispatches on these)."""

ENTRY = 0        # one behaviour entry: node = root; pc 0 = not started, 1 = running
NODE = 1         # a composite node (Sequence, Loop, Foreach, While) in progress
CHOICE = 2       # an answered Choice continues into its ``then`` branch
DRAW = 3         # data = [remaining, automatic(0/1)]
EACH = 4         # a per-card action over data = [card ids]
DAMAGE = 5       # data = [amount, [target uids], hits, random(0/1)]
PLAY = 6         # a card play in progress; data = [card uid, target uid, nested 0/1, authored pile or ""]
START = 7        # StartBattle steps
TURN_START = 8   # PlayerTurnStart steps
TURN_END = 9     # EndPlayerTurn steps
ENEMY_PHASE = 10  # EnemyPhase steps; data = [[enemy uids], [[uid, status] just applied]]
ENEMY_TURN = 11  # one enemy's turn; data = enemy uid
WON = 12         # victory steps
LOST = 13        # defeat steps
HAND_END = 14    # turn-end hand processing; data = [card ids]

NAMES = {
    ENTRY: "entry", NODE: "node", CHOICE: "choice", DRAW: "draw", EACH: "each",
    DAMAGE: "damage", PLAY: "play", START: "start", TURN_START: "turn_start",
    TURN_END: "turn_end", ENEMY_PHASE: "enemy_phase", ENEMY_TURN: "enemy_turn", WON: "won",
    LOST: "lost", HAND_END: "hand_end",
}

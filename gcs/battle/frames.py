"""Frames: what a suspended unit of work is, its kind, its steps and its data.

A frame of a seed procedure (StartBattle, PlayerTurnStart, EndPlayerTurn, EnemyPhase, one
enemy's turn, a card's play, the battle's end) holds in ``pc`` its next step as the seed
numbers it, times ten: PlayerTurnStart's step 3 is ``TURN_START_ENERGY``, 30. A seed step that
goes on after work it queued half-way has a second part, one more: PlayerTurnStart's step 7
queues the draw-phase behaviours and draws after them, so its draw is ``TURN_START_DRAW``, 71.
The step tables (gcs/steps/) are keyed by these constants and nothing else names a step.

``Final``: the compiled engine reads them as C constants (no module attribute lookup).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .state import Frame

# ---------------------------------------------------------------- kinds
ENTRY: Final = 0        # one behaviour entry: node = root; pc 0 = not started, 1 = running
NODE: Final = 1         # a composite node (Sequence, Loop, Foreach, While) in progress
CHOICE: Final = 2       # an answered Choice continues into its ``then`` branch
DRAW: Final = 3         # draws one by one; data = [remaining, automatic(0/1)]
EACH: Final = 4         # a per-card action over data = [card ids]
DAMAGE: Final = 5       # data = [amount, [target uids], hits, random(0/1), next target]
# a card's play (seed 004); data = [card uid, target uid, nested 0/1, authored pile or ""]
PLAY: Final = 6
START: Final = 7        # StartBattle steps 4-7
TURN_START: Final = 8   # PlayerTurnStart steps 1-8
TURN_END: Final = 9     # EndPlayerTurn steps 1-6
# EnemyPhase; data = [[enemy uids], [[uid, status] just applied], enemies reached]
ENEMY_PHASE: Final = 10
ENEMY_TURN: Final = 11  # one enemy's turn, EnemyPhase steps 1-4; data = the enemy's uid
WON: Final = 12         # victory
LOST: Final = 13        # defeat
HAND_END: Final = 14    # the turn-end hand, one card at a time; data = [card ids], pc = next

NAMES: Final = {
    ENTRY: "entry", NODE: "node", CHOICE: "choice", DRAW: "draw", EACH: "each",
    DAMAGE: "damage", PLAY: "play", START: "start", TURN_START: "turn_start",
    TURN_END: "turn_end", ENEMY_PHASE: "enemy_phase", ENEMY_TURN: "enemy_turn", WON: "won",
    LOST: "lost", HAND_END: "hand_end",
}

# ---------------------------------------------------------------- steps (seed 001 unless said)
# StartBattle: 1-3 run in the call itself (gcs/steps/start.py), then its frame
START_OPENING_HAND: Final = 40  # 4. Innate cards first, then the opening hand
START_TURN_ONE: Final = 50      # 5. TurnNumber = 1, OnBattleStarted
START_INTENTS: Final = 60       # 6. the first intents, the battle-start status behaviours
START_TURN_START: Final = 70    # 7. PlayerTurnStart, then the first PlayerPhase

TURN_START_HOOKS: Final = 10       # 1. expired Scope = Turns card hooks removed
TURN_START_ARMOR: Final = 20       # 2. the player's armor by ArmorDecayRule
TURN_START_ENERGY: Final = 30      # 3. this turn's energy
TURN_START_DELAYED: Final = 40     # 4. delayed triggers of PlayerTurnStart
TURN_START_PLAYED: Final = 50      # 5. the played-this-turn record cleared
TURN_START_BEHAVIOURS: Final = 60  # 6. turn-start behaviours of statuses and hand cards
TURN_START_DRAW_PHASE: Final = 70  # 7. from turn 2: DrawnThisTurn cleared, OnDrawPhase, ...
TURN_START_DRAW: Final = 71        # 7. ... then the draw (after the draw-phase behaviours)
TURN_START_STARTED: Final = 80     # 8. OnTurnStarted, then PlayerPhase

TURN_END_DISCARD_PHASE: Final = 10  # 1. OnDiscardPhase and its status behaviours
TURN_END_CARDS: Final = 20          # 2. the hand: the cards' On Turn End behaviours, ...
TURN_END_HAND_RULE: Final = 21      # 2. ... then the Hand Rule (a HAND_END frame)
TURN_END_STATUSES: Final = 30       # 3. turn-end behaviours of the player's statuses
TURN_END_DECAY: Final = 40          # 4. decay, temporary cost rules, delayed triggers
TURN_END_ENDED: Final = 50          # 5. OnTurnEnded
TURN_END_NEXT: Final = 60           # 6. an extra turn, else EnemyPhase

ENEMY_PHASE_TURNS: Final = 10     # 1-4 for each living enemy in encounter order (ENEMY_TURN)
ENEMY_PHASE_DELAYED: Final = 50   # 5. delayed triggers of the end of EnemyPhase
ENEMY_PHASE_ROUND_END: Final = 60  # 6. the next intents, TurnNumber + 1, PlayerTurnStart

ENEMY_TURN_START: Final = 10    # 1. its armor and turn-start statuses
ENEMY_TURN_CONTROL: Final = 20  # 2. control statuses such as skip-turn
ENEMY_TURN_INTENT: Final = 30   # 3. the planned Intent Behavior
ENEMY_TURN_END: Final = 40      # 4. turn-end statuses, ...
ENEMY_TURN_DECAY: Final = 41    # 4. ... then status decay and Hooks

# the play (seed 004); steps 1-2 commit it before its frame is made (gcs/battle/play.py)
PLAY_ON_PLAY: Final = 30       # 3. OnCardPlayed is out: the card's On Play Behavior, ...
PLAY_STATUSES: Final = 31      # 3. ... then the statuses' On Play branches
PLAY_HOOKS: Final = 40         # 4. the card's persistent hooks
PLAY_DESTINATION: Final = 50   # 5. its pile: the authored one, else Exhaust or Discard
PLAY_DONE: Final = 51          # 5. ... done: the battlefield re-read, a requested turn end

WON_BRANCHES: Final = 10   # 1. BattleWon; every battle-end status branch completes
WON_REWARDS: Final = 20    # 2-3. reward candidates, OnBattleRewardOffered
LOST_BRANCHES: Final = 10  # BattleLost; every battle-end status branch completes
LOST_ENDED: Final = 20     # OnBattleEnded(won=False)

# the steps a frame of each procedure kind can be at (saves are checked against them)
STEPS: Final[dict[int, tuple[int, ...]]] = {
    START: (START_OPENING_HAND, START_TURN_ONE, START_INTENTS, START_TURN_START),
    TURN_START: (TURN_START_HOOKS, TURN_START_ARMOR, TURN_START_ENERGY, TURN_START_DELAYED,
                 TURN_START_PLAYED, TURN_START_BEHAVIOURS, TURN_START_DRAW_PHASE,
                 TURN_START_DRAW, TURN_START_STARTED),
    TURN_END: (TURN_END_DISCARD_PHASE, TURN_END_CARDS, TURN_END_HAND_RULE, TURN_END_STATUSES,
               TURN_END_DECAY, TURN_END_ENDED, TURN_END_NEXT),
    ENEMY_PHASE: (ENEMY_PHASE_TURNS, ENEMY_PHASE_DELAYED, ENEMY_PHASE_ROUND_END),
    ENEMY_TURN: (ENEMY_TURN_START, ENEMY_TURN_CONTROL, ENEMY_TURN_INTENT, ENEMY_TURN_END,
                 ENEMY_TURN_DECAY),
    PLAY: (PLAY_ON_PLAY, PLAY_STATUSES, PLAY_HOOKS, PLAY_DESTINATION, PLAY_DONE),
    WON: (WON_BRANCHES, WON_REWARDS),
    LOST: (LOST_BRANCHES, LOST_ENDED),
}


# ---------------------------------------------------------------- the EnemyPhase frame's data
def enemy_phase(stack: list[Frame]) -> Frame | None:
    """The running EnemyPhase frame (its data set: the phase has begun), or None."""
    for f in stack:
        if f.kind == ENEMY_PHASE and f.data is not None:
            return f
    return None


def keep_intent(stack: list[Frame], uid: int) -> None:
    """Mark ``uid`` in the running EnemyPhase as keeping its planned intent into the next round
    (step 6 does not re-plan it): it was dead when reached, a control status made it skip its
    turn, or it died during its own turn."""
    f = enemy_phase(stack)
    if f is not None:
        data: list[Any] = f.data
        ids: list[int] = data[0]
        if uid in ids:
            ids[ids.index(uid)] = -1 - uid


def turn_began(stack: list[Frame], uid: int) -> bool:
    """Has the enemy ``uid`` been reached by the running EnemyPhase (its turn began)?"""
    f = enemy_phase(stack)
    if f is None:
        return False
    data: list[Any] = f.data
    ids: list[int] = data[0]
    reached: int = data[2]
    return uid in ids and ids.index(uid) < reached


def just_applied(stack: list[Frame], uid: int, sid: str) -> None:
    """Record in the running EnemyPhase a round-end status an enemy just applied to ``uid``
    (it skips this round's decay: Slay the Spire's "just applied")."""
    f = enemy_phase(stack)
    if f is not None:
        data: list[Any] = f.data
        fresh: list[list[object]] = data[1]
        if [uid, sid] not in fresh:
            fresh.append([uid, sid])

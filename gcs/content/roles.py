"""The roles a status plays in a battle, as bits: what a rule looks for in a unit's statuses.

A status's roles are derived from its definition (``status_roles``): a branch for an entry (On
Turn End, On Drawn, ...), a decay moment, skipping its holder's turn, keeping its block, hooks,
a damage or block modifier at a fold stage. ``Content.status_roles`` holds them by status id;
the battle asks a unit's roles once (gcs/battle/roles.py) and each rule then tests its bit, so a
new entry or decay moment is read wherever it is asked for, with no set kept by hand.
"""

from __future__ import annotations

from typing import Final

from ..enums import DECAY_NONE
from .defs import STATUS_ENTRIES, StatusDef

ON_BATTLE_START: Final = 1
ON_TURN_START: Final = 2
ON_DRAW_PHASE: Final = 4
ON_DRAWN: Final = 8
ON_PLAY: Final = 16
ON_DISCARD: Final = 32
ON_EXHAUST: Final = 64
ON_DISCARD_PHASE: Final = 128
ON_TURN_END: Final = 256
ON_BATTLE_END: Final = 512
ON_DAMAGE_TAKEN: Final = 1024
ON_ATTACKED: Final = 2048
ON_DEATH: Final = 4096
ON_APPLY: Final = 8192
DECAY_TURN_END: Final = 16384    # decays at its holder's turn end
DECAY_ROUND_END: Final = 32768   # decays at the round's end (EnemyPhase step 6)
SKIP_TURN: Final = 65536         # a control status: its holder skips its turn
KEEPS_BLOCK: Final = 131072      # its holder's block survives the ArmorDecayRule
HOOKS: Final = 262144            # rules on costs, playability, hand size, draws, energy
DEALS: Final = 524288            # a modifier of the attacks its holder deals
TAKES: Final = 1048576           # a modifier of the attacks its holder takes
BLOCKS: Final = 2097152          # a modifier of the block its holder gains
ON_BLOCK_GAINED: Final = 4194304
ANY: Final = 8388607             # every role: what a unit not yet read may hold

# status entry -> its role (every entry in STATUS_ENTRIES has one)
ENTRY_ROLES: Final[dict[str, int]] = {
    "on_battle_start": ON_BATTLE_START, "on_turn_start": ON_TURN_START,
    "on_draw_phase": ON_DRAW_PHASE, "on_drawn": ON_DRAWN, "on_play": ON_PLAY,
    "on_discard": ON_DISCARD, "on_exhaust": ON_EXHAUST, "on_discard_phase": ON_DISCARD_PHASE,
    "on_turn_end": ON_TURN_END, "on_battle_end": ON_BATTLE_END,
    "on_damage_taken": ON_DAMAGE_TAKEN, "on_attacked": ON_ATTACKED, "on_death": ON_DEATH,
    "on_apply": ON_APPLY, "on_block_gained": ON_BLOCK_GAINED,
}
DECAY_ROLES: Final[dict[str, int]] = {"turn_end": DECAY_TURN_END, "round_end": DECAY_ROUND_END}
STAGE_ROLES: Final[dict[str, int]] = {"deal": DEALS, "take": TAKES, "block": BLOCKS}

assert tuple(ENTRY_ROLES) == STATUS_ENTRIES  # (a new entry needs its role here)


def status_roles(st: StatusDef) -> int:
    """The roles of one status, from its definition."""
    bits = 0
    for name in st.entries:
        bits |= ENTRY_ROLES.get(name, 0)  # (an entry no rule runs plays no role)
    if st.decay is not DECAY_NONE:
        bits |= DECAY_ROLES.get(st.decay_at, 0)
    if st.skip_turn:
        bits |= SKIP_TURN
    if st.keeps_block:
        bits |= KEEPS_BLOCK
    if st.hooks:
        bits |= HOOKS
    for m in st.modifiers:
        bits |= STAGE_ROLES.get(m.stage, 0)
    return bits

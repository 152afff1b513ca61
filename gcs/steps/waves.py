"""Waves: the work a facade call queues, run to its end under the busy flag, and the calls that
go on with a paused wave (a Choice answered, time advanced past a Wait, a Gate opened), a
turn ended and a won battle's reward taken.

Both the facade (``gcs.Game``) and the agent surface (``gcs.agent.apply``) run these: each
is written once, here, in the compiled engine core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..battle.refusals import end_turn_refusal, start_error
from ..battle.rewards import apply as apply_reward_to_run
from ..battle.state import GATE, NO_PAUSE, WAIT, Frame, Reward
from ..content.defs import CharacterDef, EncounterDef
from ..enums import PHASE_PLAYER_PHASE
from ..events import EffectResumed
from ..interp.pause import answer_choice
from .battle_end import finish_battle
from .runner import check_end, start
from .start import begin_battle
from .turn_end import push_turn_end

if TYPE_CHECKING:
    from ..engine import Engine


def run_wave(e: Engine, f: Frame | None = None) -> None:
    """Run the wave a facade call queued (under the busy flag: a handler's changing call is
    refused), then ``settle_wave``; ``f``: the procedure frame it queued alone on the stack,
    whose steps run at once (``runner.start``)."""
    e.busy = True
    try:
        if f is None:
            e.run()
        else:
            start(e, f)
        settle_wave(e)
    finally:
        e.busy = False


def start_battle(e: Engine, enc: EncounterDef, char: CharacterDef | None, seed: int) -> None:
    """StartBattle steps 1-7 under the busy flag: the battle set up (``begin_battle``), then
    its START frame run; it returns in the first PlayerPhase, or paused. Refused (a
    ``GameError``, nothing changed) while a reward is offered or once the run is over."""
    why = start_error(e)
    if why is not None:
        raise why
    e.busy = True
    try:
        begin_battle(e, enc, char, seed)
        e.run()
    finally:
        e.busy = False


def run_busy(e: Engine, queue: Callable[[], object],
             counted: Callable[[], int] = lambda: 0) -> int:
    """A facade call's own change (``queue``: it may publish events and queue work), then its
    wave, all under the busy flag; ``counted`` is read once that wave ran, before
    ``settle_wave`` starts a turn end a behaviour asked for."""
    e.busy = True
    try:
        queue()
        e.run()
        out = counted()
        settle_wave(e)
    finally:
        e.busy = False
    return out


def settle_wave(e: Engine) -> None:
    """A wave started by a facade call (not a play or a phase) has completed in PlayerPhase:
    commit a decided battle, else a turn end a behaviour asked for (seed 001: after the whole
    effect wave)."""
    s = e.s
    if (not s.active or s.stack or s.pause != NO_PAUSE
            or s.phase is not PHASE_PLAYER_PHASE):
        return
    if check_end(e):
        e.run()
    elif s.end_turn:
        s.end_turn = False
        push_turn_end(e)
        e.run()


def end_turn(e: Engine) -> bool:
    """EndPlayerTurn steps 1-6 and what follows until the next PlayerPhase (or a pause), or
    False (and no change) if the turn cannot end now (docs/rules/refusals.md)."""
    if end_turn_refusal(e) is not None:
        return False
    run_wave(e, push_turn_end(e))
    return True


def choose(e: Engine, selection: Sequence[Any] | Any) -> None:
    """Answer the open Choice (ChoiceError, and no change, for a wrong answer), then go on."""
    answer_choice(e, selection)
    run_wave(e)


def advance_time(e: Engine, seconds: float) -> bool:
    """Advance the game clock by ``seconds`` (checked); a Wait that ends in that span resumes
    its wave at its own end time, and the rest of the span counts towards the next Wait the
    wave starts. True if one resumed."""
    s = e.s
    left = seconds
    resumed = False
    while s.pause == WAIT and left + 1e-9 >= s.wait_left:
        left = max(0.0, left - s.wait_left)
        s.clock += s.wait_left
        s.wait_left = 0.0
        s.pause = NO_PAUSE
        if e.hot:
            e.emit(EffectResumed("wait"))
        run_wave(e)
        resumed = True
    if s.pause == WAIT:
        s.wait_left -= left
    s.clock += left
    return resumed


def complete_animation(e: Engine, gate: str | None) -> bool:
    """Open the pending Animation Gate (any, or the one named) and go on; True if one opened."""
    s = e.s
    if s.pause != GATE or (gate is not None and gate != s.gate):
        return False
    s.pause = NO_PAUSE
    s.gate = ""
    if e.hot:
        e.emit(EffectResumed("gate"))
    run_wave(e)
    return True


def settle(e: Engine) -> None:
    """Finish every pending Wait and Animation Gate at once (the headless clock)."""
    s = e.s
    while s.pause == WAIT or s.pause == GATE:
        if s.pause == WAIT:
            advance_time(e, s.wait_left)
        else:
            complete_animation(e, None)


def take_reward(e: Engine, reward: Reward) -> None:
    """Take an offered reward (checked by the caller): the final BattleEnded, the battle closes."""
    e.busy = True
    try:
        apply_reward_to_run(e, reward)
        finish_battle(e, won=True, reward=str(reward))
    finally:
        e.busy = False


def skip_reward(e: Engine) -> None:
    """Take no reward (one is offered): the final BattleEnded (reward None), the battle closes."""
    e.busy = True
    try:
        finish_battle(e, won=True)
    finally:
        e.busy = False

"""The battle's end (seed 001, "战斗结果与奖励"): BattleWon or BattleLost, the battle-end status
branches, then the rewards or the final BattleEnded. Each step is an engine step of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..battle import frames as K
from ..battle.cards import close_piles, push_entries
from ..battle.combat import status_entries
from ..battle.rewards import offer_rewards
from ..battle.state import Frame
from ..enums import PHASE_BATTLE_LOST, PHASE_BATTLE_WON, PHASE_NONE
from ..events import BattleEnded
from .runner import END, GO, Procedure, Step, enter

if TYPE_CHECKING:
    from ..engine import Engine


def _battle_end_branches(e: Engine) -> None:
    """Queue the battle-end status branches: the player's (even after a defeat), then each
    living enemy's, in encounter order; each unit's in snapshot order."""
    units = e.s.units
    entries = status_entries(e, units[0], "on_battle_end")
    for u in units[1:]:
        if u.alive:
            entries += status_entries(e, u, "on_battle_end")
    if entries:
        push_entries(e, entries)


class Won(Step):
    """1. 战斗胜利后，GCS 会等待全部战斗结束状态分支及其 Wait 或 Choice 恢复路径完成 (after a victory,
    every battle-end status branch completes, with its Wait or Choice resumes): BattleWon,
    then those branches."""

    def run(self, e: Engine, f: Frame) -> int:
        enter(e, PHASE_BATTLE_WON)
        _battle_end_branches(e)
        return GO


class Rewards(Step):
    """2-3. 再生成奖励候选并发布 OnBattleRewardOffered (then the reward candidates, and
    OnBattleRewardOffered: waiting for ApplyReward or SkipReward)."""

    def run(self, e: Engine, f: Frame) -> int:
        e.pop()
        offer_rewards(e)
        return END


class Lost(Step):
    """如果战斗失败 ... 运行时会等待全部战斗结束状态分支及其延迟恢复路径完成 (after a defeat, every
    battle-end status branch and its deferred resumes complete): BattleLost, then those
    branches; no rewards."""

    def run(self, e: Engine, f: Frame) -> int:
        enter(e, PHASE_BATTLE_LOST)
        _battle_end_branches(e)
        return GO


class Ended(Step):
    """再发布 OnBattleEnded，其中 Won = false (then OnBattleEnded with Won = false)."""

    def run(self, e: Engine, f: Frame) -> int:
        e.pop()
        finish_battle(e, won=False)
        return END


def finish_battle(e: Engine, won: bool, reward: str | None = None) -> None:
    """Publish BattleEnded on the final state, then close the battle.

    BattleEnded's handlers read the battle as it ended: phase BATTLE_WON or BATTLE_LOST,
    the units with their final HP, the piles as they were (the run's HP and the result are
    already set, no reward waits). Then the battle closes (piles emptied, hooks and delayed
    triggers dropped, phase NONE with its PhaseChanged, the very last event): after the call
    that published BattleEnded returns, ``is_battle_active`` is False.
    """
    s = e.s
    player = s.units[0]
    s.hp = player.hp if won else 0  # the run's HP, the result, no reward waiting any more
    s.max_hp = player.max_hp  # (raised in the battle: Feed)
    s.result = won
    s.rewards = None
    if e.hot:
        e.record(BattleEnded(won, s.turn, player.hp, player.max_hp,
                  tuple(u.hp for u in s.units[1:]), reward))
    s.active = False
    close_piles(e)
    s.hooks = []
    s.delayed = []
    s.end_turn = False
    s.extra_turns = 0
    enter(e, PHASE_NONE)


BATTLE_WON: Final = Procedure("BattleWon", K.WON, {
    K.WON_BRANCHES: Won(),
    K.WON_REWARDS: Rewards(),
}, each_step_a_call=True)

BATTLE_LOST: Final = Procedure("BattleLost", K.LOST, {
    K.LOST_BRANCHES: Lost(),
    K.LOST_ENDED: Ended(),
}, each_step_a_call=True)

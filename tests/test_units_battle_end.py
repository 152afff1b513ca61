"""Battle end: BattleWon / BattleLost, battle-end branches, rewards waiting, BattleEnded last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from test_units_support import (
    PLAYER,
    TARGET,
    card,
    encounter,
    enemy,
    game,
    hit,
    in_order,
    mark,
    marks,
    pack,
    seq,
    status,
    trace,
)

import gcs
from gcs import events as ev
from gcs.content.db import Content
from gcs.content.defs import DeckEntry, GameCard
from gcs.enums import BattlePhase, PileScope, TargetMode
from gcs.errors import GameError
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel


def end_pack(cards: Sequence[GameCard] = (), **kw: Any) -> Content:
    return pack(
        statuses=[status("farewell", entries={"on_battle_end": mark(1)}),
                  status("slow_farewell", entries={"on_battle_end": seq(N.Wait(2.0), mark(2))}),
                  status("gloat", entries={"on_battle_end": mark(3)})],
        enemies=[enemy("wisp", 1, [hit("zap", 3)]),
                 enemy("ogre", 99, [hit("club", 200)], statuses={"gloat": 1})],
        encounters=[encounter("wisp", rewards="normal"), encounter("ogre"),
                    encounter("wisps", "wisp", "wisp")],
        cards=[card("finish", 0, target=TargetMode.SINGLE_ENEMY,
                    on_play=seq(N.DealDamage(99, TARGET), N.Wait(1.0),
                                N.SpawnEnemy("wisp"))),
               card("suicide", 0, on_play=seq(N.LoseHp(999, PLAYER), N.Wait(1.0),
                                              N.Revive(PLAYER, 5))),
               *cards],
        deck=[DeckEntry("strike", count=10)],
        **kw,
    )


def win(g: gcs.Game) -> None:
    for u in g.enemies:
        if u.alive:
            assert g.try_play_card(next(c for c in g.hand() if c.card_id == "strike"), u)


def test_battle_won_sequence_branches_rewards_then_battle_ended_last() -> None:
    g = game(end_pack(player_statuses={"farewell": 1}), "wisp")
    n = len(g.event_log)
    win(g)
    tr = trace(g, n)
    assert in_order(tr, ("UnitDied", 1), ("phase", "BATTLE_WON"))
    i = tr.index(("phase", "BATTLE_WON"))
    assert tr[i + 1] == ("mark", 1)
    assert tr[i + 2][0] == "gold" and tr[i + 3] == ("BattleRewardOffered",)
    assert g.is_waiting_for_reward and g.is_battle_active and g.phase is BattlePhase.BATTLE_WON
    assert not [t for t in tr if t[0] == "BattleEnded"]
    n = len(g.event_log)
    g.apply_reward(0)
    tr = trace(g, n)
    assert tr == [("CardAddedToDeck",), ("RewardApplied",), ("BattleEnded", True),
                  ("phase", "NONE")]
    end = next(x for x in g.event_log[n:] if isinstance(x, ev.BattleEnded))
    applied = next(x for x in g.event_log[n:] if isinstance(x, ev.RewardApplied))
    assert end.reward == applied.reward
    assert not g.is_waiting_for_reward and not g.is_battle_active
    assert g.phase is BattlePhase.NONE and g.last_result is True


def test_battle_won_inputs_are_rewards_only_while_waiting() -> None:
    g = game(end_pack(), "wisp")
    win(g)
    assert g.is_waiting_for_reward
    assert not g.end_player_turn()
    defend = g.add_card_to_master_deck("defend")  # run calls stay allowed
    assert defend.card_id == "defend"
    hand = g.hand()
    assert hand and not g.can_play_card(hand[0]) and not g.try_play_card(hand[0], g.enemies[0])
    g.skip_reward()
    with pytest.raises(GameError):
        g.skip_reward()


def test_battle_won_skip_reward_ends_the_battle_without_changing_the_deck() -> None:
    g = game(end_pack(), "wisp")
    deck = g.get_master_deck()
    win(g)
    n = len(g.event_log)
    g.skip_reward()
    assert trace(g, n) == [("BattleEnded", True), ("phase", "NONE")]
    end = g.event_log[-2]
    assert isinstance(end, ev.BattleEnded) and end.reward is None
    assert g.get_master_deck() == deck


def test_battle_won_waits_for_deferred_battle_end_branches_before_rewards() -> None:
    g = game(end_pack(player_statuses={"slow_farewell": 1}), "wisp")
    n = len(g.event_log)
    win(g)
    assert g.is_waiting and not g.is_waiting_for_reward
    assert ("BattleRewardOffered",) not in trace(g, n)
    assert g.advance_time(2.0)
    assert in_order(trace(g, n), ("mark", 2), ("BattleRewardOffered",))
    assert g.is_waiting_for_reward


def test_battle_end_handlers_read_the_final_state_then_the_battle_closes() -> None:
    g = game(end_pack(), "wisp")
    seen: list[tuple[object, ...]] = []
    g.subscribe(ev.BattleEnded, lambda e: seen.append(
        (e.won, g.phase, g.is_battle_active, len(g.pile(PileScope.ALL)), g.enemies[0].hp,
         g.is_waiting_for_reward, g.last_result)))
    win(g)
    cards = len(g.pile(PileScope.ALL))
    g.skip_reward()
    assert seen == [(True, BattlePhase.BATTLE_WON, True, cards, 0, False, True)] and cards > 0
    assert g.phase is BattlePhase.NONE and not g.is_battle_active
    assert g.hand() == [] and g.current_hand is None and g.pile(PileScope.ALL) == []


def test_battle_lost_branches_then_battle_ended_false_no_rewards() -> None:
    g = game(end_pack(player_statuses={"farewell": 1}), "ogre")
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    i = tr.index(("phase", "BATTLE_LOST"))
    # the player's battle-end branches (it keeps its statuses when it dies), then the living
    # enemies' ones, then BattleEnded(won=False) as the last event
    assert tr[i:] == [("phase", "BATTLE_LOST"), ("mark", 1), ("mark", 3),
                      ("BattleEnded", False), ("phase", "NONE")]
    assert ("BattleRewardOffered",) not in tr
    assert not g.is_waiting_for_reward and not g.is_battle_active
    assert g.last_result is False and g.run_hp[0] == 0
    with pytest.raises(GameError):
        g.apply_reward(0)


def test_battle_end_kill_wait_spawn_does_not_end_the_battle() -> None:
    g = game(end_pack(), "wisp")
    assert g.try_play_card(g.add_card_to_hand("finish"), g.enemies[0])
    assert g.is_waiting and g.phase is BattlePhase.PLAYER_PHASE  # intermediate: not committed
    g.settle()
    assert g.is_battle_active and g.phase is BattlePhase.PLAYER_PHASE
    assert [u.alive for u in g.enemies] == [False, True]


def test_battle_end_death_wait_revive_does_not_end_the_battle() -> None:
    g = game(end_pack(), "wisp")
    assert g.try_play_card(g.add_card_to_hand("suicide"))
    g.settle()
    assert g.is_battle_active and g.player is not None and g.player.hp == 5


def test_battle_won_when_the_last_of_several_enemies_dies() -> None:
    g = game(end_pack(), "wisps")
    assert g.try_play_card(g.hand()[0], g.enemies[0])
    assert g.phase.name == "PLAYER_PHASE"
    assert g.try_play_card(g.hand()[0], g.enemies[1])
    assert g.phase.name == "BATTLE_WON"
    assert g.offered_rewards == []  # no reward table: an empty offer, skipped to end
    g.skip_reward()
    assert g.last_result is True


def test_battle_end_phase_history_records_the_end() -> None:
    g = game(end_pack(), "wisp")
    win(g)
    g.skip_reward()
    phases = [p for p, _ in g.phase_history]
    assert phases[-3:] == [BattlePhase.PLAYER_PHASE, BattlePhase.BATTLE_WON, BattlePhase.NONE]
    assert marks(g) == []


def test_battle_end_everyone_dead_is_a_loss() -> None:
    c = end_pack(cards=[card("doom", 0, on_play=seq(N.Kill(UnitSel("all_enemies")),
                                                     N.Kill(PLAYER)))])
    g = game(c, "wisp")
    assert g.try_play_card(g.add_card_to_hand("doom"))
    assert g.last_result is False and ("BattleRewardOffered",) not in trace(g)


def test_battle_lost_is_seen_by_phase_changed_and_battle_ended_subscribers() -> None:
    g = game(end_pack(), "ogre")
    seen: list[tuple[object, ...]] = []
    g.subscribe(ev.PhaseChanged, lambda x: seen.append(("phase", x.new, g.phase)))
    g.subscribe(ev.BattleEnded, lambda x: seen.append(
        ("ended", x.won, g.phase, g.is_battle_active, x.player_hp, x.enemy_hp,
         tuple(u.hp for u in g.enemies))))
    g.end_player_turn()
    tail = seen[-3:]
    assert tail[0] == ("phase", BattlePhase.BATTLE_LOST, BattlePhase.BATTLE_LOST)
    assert tail[1][:5] == ("ended", False, BattlePhase.BATTLE_LOST, True, 0)
    assert tail[1][5] == tail[1][6]  # the payload's enemy HP is what the units show then
    assert tail[2] == ("phase", BattlePhase.NONE, BattlePhase.NONE)
    assert not g.is_battle_active and g.phase is BattlePhase.NONE

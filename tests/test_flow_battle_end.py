"""SPEC 2.17: a win or loss seen while a deferred branch runs is intermediate; the
battlefield is re-read after the whole wave and its Entry batch complete."""

from __future__ import annotations

from typing import Any

from flow_support import ALL, PLAYER, SELF, M, add, card, enemy, seq, start, trace
from flow_support import status as mkstatus

from gcs.enums import BattlePhase, PileScope
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel
from gcs.game import Game

WAIT = N.Wait(1.0)


def play(g: Game, card_id: str, target: Any = None) -> list[str]:
    inst = add(g, card_id)
    assert g.try_play_card(inst, target), g.play_refusal(inst, target)
    return trace(g)


def ended(g: Game) -> bool:
    return any(p in (BattlePhase.BATTLE_WON, BattlePhase.BATTLE_LOST)
               for p, _ in g.phase_history)


def test_kill_wait_spawn_does_not_end_the_battle() -> None:
    g = start(card("c", 0, on_play=seq(N.Kill(ALL), WAIT, N.SpawnEnemy("post"), M(1))))
    play(g, "c")
    assert all(not u.alive for u in g.enemies)
    assert g.is_waiting and g.phase is BattlePhase.PLAYER_PHASE  # intermediate: no end yet
    g.advance_time(1)
    assert trace(g, "died", "spawn", "m", "phase") == ["died 1", "spawn 2 post", "m1"]
    assert g.phase is BattlePhase.PLAYER_PHASE and g.is_battle_active and not ended(g)


def test_kill_choice_spawn_does_not_end_the_battle() -> None:
    g = start(card("c", 0, on_play=seq(N.Kill(ALL), N.Choice(CardSel("hand"), "p"),
                                       N.SpawnEnemy("post"))))
    play(g, "c")
    g.choose(0)
    assert g.phase is BattlePhase.PLAYER_PHASE and not ended(g)


def test_death_wait_revive_of_the_player_does_not_lose_the_battle() -> None:
    g = start(card("c", 0, on_play=seq(N.LoseHp(999, PLAYER), WAIT, N.Revive(PLAYER, 10))))
    play(g, "c")
    p = g.player
    assert p is not None and not p.alive and g.is_waiting
    g.advance_time(1)
    assert trace(g, "died", "revived") == ["died 0", "revived 0 10"]
    assert p.alive and p.hp == 10 and g.phase is BattlePhase.PLAYER_PHASE and not ended(g)


def test_an_enemys_death_branch_that_waits_then_revives_it() -> None:
    phoenix = mkstatus("phoenix", on_death=seq(WAIT, N.Revive(SELF, 5)))
    g = start(card("c", 0, on_play=N.Kill(ALL)), statuses=[phoenix],
              enemies=[enemy("post", statuses={"phoenix": 1})])
    play(g, "c")
    assert g.is_waiting and not ended(g)
    g.advance_time(1)
    assert trace(g, "died", "revived", "intent") == ["died 1", "revived 1 5", "intent 1"]
    assert g.phase is BattlePhase.PLAYER_PHASE and not ended(g)


def test_a_real_win_is_committed_after_the_whole_wave() -> None:
    g = start(card("c", 0, on_play=seq(N.Kill(ALL), WAIT, M(1))),
              statuses=[mkstatus("echo", on_play=M(2))], player_statuses={"echo": 1})
    play(g, "c")
    assert g.phase is BattlePhase.PLAYER_PHASE
    g.advance_time(1)
    assert trace(g, "m", "phase", "rewards") == ["m1", "m2", "phase BATTLE_WON", "rewards"]
    assert g.is_waiting_for_reward


def test_a_real_loss_is_committed_after_the_whole_wave() -> None:
    g = start(card("c", 0, on_play=seq(N.LoseHp(999, PLAYER), WAIT, M(1))))
    play(g, "c")
    g.advance_time(1)
    assert trace(g, "m", "phase", "ended") == [
        "m1", "phase BATTLE_LOST", "ended False", "phase NONE"]


def test_kill_wait_spawn_in_an_enemy_intent_does_not_end_the_battle() -> None:
    g = start(enemies=[enemy("foe", behaviour=seq(N.Kill(SELF), WAIT, N.SpawnEnemy("post")))],
              encounter="foe")
    g.end_player_turn()
    assert g.phase is BattlePhase.ENEMY_PHASE and g.is_waiting
    g.advance_time(1)
    phase: BattlePhase = g.phase
    assert phase is BattlePhase.PLAYER_PHASE and g.turn_number == 2 and not ended(g)


def test_battle_end_branches_finish_their_waits_before_rewards() -> None:
    g = start(card("c", 0, on_play=N.Kill(ALL)),
              statuses=[mkstatus("last", on_battle_end=seq(M(1), WAIT, M(2)))],
              player_statuses={"last": 1})
    play(g, "c")
    assert g.phase is BattlePhase.BATTLE_WON and g.is_waiting and not g.is_waiting_for_reward
    g.advance_time(1)
    assert trace(g, "m", "phase", "rewards") == ["phase BATTLE_WON", "m1", "m2", "rewards"]


def test_defeat_branches_finish_their_choice_before_battle_ended() -> None:
    g = start(card("c", 0, on_play=N.LoseHp(999, PLAYER)),
              statuses=[mkstatus("last", on_battle_end=seq(
                  M(1), N.Choice(CardSel("hand"), "p"), M(2)))],
              player_statuses={"last": 1})
    play(g, "c")
    assert g.phase is BattlePhase.BATTLE_LOST and g.is_waiting_for_choice
    g.choose(0)
    assert trace(g, "m", "phase", "ended") == [
        "phase BATTLE_LOST", "m1", "m2", "ended False", "phase NONE"]


def test_a_wave_started_by_the_facade_is_rechecked_after_its_wait() -> None:
    g = start(card("k", 1, on_discard=seq(N.Kill(ALL), WAIT, M(1))))
    k = add(g, "k")
    g.move_card_to_pile(k, PileScope.DISCARD)
    assert g.phase is BattlePhase.PLAYER_PHASE and g.is_waiting
    g.advance_time(1)
    assert trace(g, "m", "phase")[-2:] == ["m1", "phase BATTLE_WON"]

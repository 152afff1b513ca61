"""WaitUntil: delayed continuations resumed at PlayerTurnStart step 4, PlayerTurnEnd step 4
and EnemyPhase step 5 (SPEC 2.12-2.14, 2.16), N turns later, with their captured state."""

from __future__ import annotations

from typing import Any

from flow_support import ALL, PLAYER, THIS, M, add, card, enemy, flow_pack, seq, start, trace
from flow_support import status as mkstatus

from gcs.enums import BattlePhase, PileScope, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import (
    BinOp,
    CardFilter,
    CardSel,
    Compare,
    CountOf,
    StacksOf,
    UnitSel,
    UnitStat,
    Var,
)
from gcs.game import Game

PTS, PTE, EPE = "player_turn_start", "player_turn_end", "enemy_phase_end"


def play(g: Game, card_id: str, target: Any = None) -> list[str]:
    inst = add(g, card_id)
    assert g.try_play_card(inst, target), g.play_refusal(inst, target)
    return trace(g)


def since(g: Game, first: str, *kinds: str) -> list[str]:
    """The (filtered) trace from the first occurrence of ``first`` on."""
    t = trace(g, *kinds)
    return t[t.index(first):]


def probe(base: Any, value: Any) -> N.GainGold:
    """GainGold(base + value): a marker that also shows a number read at that moment."""
    return N.GainGold(BinOp("add", base, value))


def test_player_turn_start_resumes_at_step_4() -> None:
    """After the hook expiry (1), armor (2) and energy (3); before played-this-turn is
    cleared (5), the turn-start behaviours (6), the draw (7) and TurnStarted (8). The play
    itself completes at once: the rest of the entry was detached."""
    later = seq(M(1), N.GainEnergy(5), N.WaitUntil(PTS),
                probe(1000, UnitStat("energy")), probe(2000, CountOf(CardSel("played"))))
    g = start(card("later", 0, on_play=later),
              statuses=[mkstatus("tick", on_turn_start=M(60))], player_statuses={"tick": 1})
    play(g, "later")
    assert not g.is_waiting and g.discard_pile()[-1].card_id == "later"
    assert g.can_play_card(g.hand()[0])
    assert g.energy == 8
    g.end_player_turn()
    assert since(g, "phase PLAYER_TURN_START", "m", "phase", "draw", "turnstart") == [
        "phase PLAYER_TURN_START", "m1003", "m2001", "m60",
        "draw defend", "draw defend", "draw defend", "draw defend", "draw defend",
        "turnstart 2", "phase PLAYER_PHASE"]


def test_player_turn_start_n_turns_later() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(PTS, turns=2),
                                           probe(1000, UnitStat("turn")))))
    play(g, "later")
    g.end_player_turn()
    assert trace(g, "m") == []
    g.end_player_turn()
    assert trace(g, "m") == ["m1003"]
    g.end_player_turn()
    assert trace(g, "m") == ["m1003"]


def test_player_turn_end_resumes_at_step_4_of_this_turn() -> None:
    """After the turn-end status behaviours (3) and status decay (4); before TurnEnded."""
    g = start(card("later", 0, on_play=seq(N.ApplyStatus("weak", 2, PLAYER), N.WaitUntil(PTE),
                                           probe(1000, StacksOf("weak", PLAYER)))),
              statuses=[mkstatus("tock", on_turn_end=M(70))], player_statuses={"tock": 1})
    play(g, "later")
    g.end_player_turn()
    assert since(g, "phase PLAYER_TURN_END", "m", "phase", "turnend", "discard")[:3] == [
        "phase PLAYER_TURN_END", "discard defend", "discard defend"]
    assert since(g, "phase PLAYER_TURN_END", "m", "phase", "turnend") == [
        "phase PLAYER_TURN_END", "m70", "m1001", "turnend 1", "phase ENEMY_PHASE",
        "phase PLAYER_TURN_START", "phase PLAYER_PHASE"]


def test_player_turn_end_n_turns_later() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(PTE, turns=2),
                                           probe(1000, UnitStat("turn")))))
    play(g, "later")
    g.end_player_turn()
    assert trace(g, "m") == []
    g.end_player_turn()
    assert since(g, "m1002", "m", "turnend") == ["m1002", "turnend 2"]


def test_enemy_phase_end_resumes_at_step_5() -> None:
    """After every enemy's turn; before the next intents are planned and the turn number
    is incremented (6)."""
    g = start(card("later", 0, on_play=seq(N.WaitUntil(EPE), probe(1000, UnitStat("turn")))),
              enemies=[enemy("foe", behaviour=M(80))], encounter="post_foe")
    play(g, "later")
    g.end_player_turn()
    assert since(g, "phase ENEMY_PHASE", "m", "phase", "intent") == [
        "phase ENEMY_PHASE", "m80", "m1001", "intent 1", "intent 2",
        "phase PLAYER_TURN_START", "phase PLAYER_PHASE"]


def test_enemy_phase_end_n_turns_later() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(EPE, turns=3),
                                           probe(1000, UnitStat("turn")))))
    play(g, "later")
    for _ in range(3):
        g.end_player_turn()
    assert trace(g, "m") == ["m1003"]


# ---------------------------------------------------------------- which occurrence is next
def test_wait_until_counts_the_next_occurrence_still_ahead() -> None:
    """Decision: turns=N is the N-th occurrence of the phase point that is still ahead.
    From PlayerTurnEnd step 1 the same turn's step 4 is ahead; from a continuation resumed at
    step 4 the next is a turn later. The same holds for EnemyPhase step 5."""
    again_pte = seq(probe(1000, UnitStat("turn")), N.WaitUntil(PTE),
                    probe(2000, UnitStat("turn")))
    g = start(statuses=[mkstatus("s", on_discard_phase=N.Branch(
        Compare("eq", UnitStat("turn"), 1),
        seq(N.WaitUntil(PTE), again_pte)))], player_statuses={"s": 1})
    g.end_player_turn()
    assert trace(g, "m") == ["m1001"]  # step 1 of turn 1 -> step 4 of turn 1
    g.end_player_turn()
    assert trace(g, "m") == ["m1001", "m2002"]  # step 4 of turn 1 -> step 4 of turn 2

    again_epe = seq(probe(1000, UnitStat("turn")), N.WaitUntil(EPE),
                    probe(2000, UnitStat("turn")))
    first = N.Branch(Compare(
        "eq", UnitStat("turn"), 1), seq(N.WaitUntil(EPE), again_epe))
    g = start(enemies=[enemy("foe", behaviour=first)], encounter="foe")
    g.end_player_turn()
    assert trace(g, "m") == ["m1001"]  # an enemy turn -> step 5 of this EnemyPhase
    g.end_player_turn()
    assert trace(g, "m") == ["m1001", "m2002"]


def test_wait_until_from_turn_start_behaviour_means_the_next_turn() -> None:
    g = start(statuses=[mkstatus("s", on_turn_start=seq(probe(1000, UnitStat("turn")),
                                                        N.WaitUntil(PTS),
                                                        probe(2000, UnitStat("turn"))))],
              player_statuses={"s": 1})
    g.end_player_turn()
    g.end_player_turn()
    assert trace(g, "m") == ["m1002", "m2003", "m1003"]


def test_wait_until_from_battle_start_resumes_in_turn_1() -> None:
    early = mkstatus("early", on_battle_start=seq(M(1), N.WaitUntil(PTS), M(2)))
    g = Game(flow_pack(statuses=[early], enemies=[enemy("foe", statuses={"early": 1})]), seed=3)
    g.start_battle("foe")
    assert since(g, "m1", "m", "phase") == [
        "m1", "phase PLAYER_TURN_START", "m2", "phase PLAYER_PHASE"]


def test_continuations_due_together_resume_in_scheduling_order() -> None:
    g = start(card("a", 0, on_play=seq(N.WaitUntil(PTS), M(1))),
              card("b", 0, on_play=seq(N.WaitUntil(PTS), M(2))))
    play(g, "b")
    play(g, "a")
    g.end_player_turn()
    assert trace(g, "m") == ["m2", "m1"]


def test_a_loop_around_wait_until_runs_one_iteration_per_turn() -> None:
    """The Loop frame travels with the continuation: its next iteration starts only after
    the resumed one has completed, a turn later."""
    g = start(card("c", 0, on_play=N.Loop(3, seq(
        probe(Var("i"), BinOp("mul", UnitStat("turn"), 10)), N.WaitUntil(PTS)), var="i")))
    play(g, "c")
    assert trace(g, "m") == ["m10"]
    g.end_player_turn()
    assert trace(g, "m") == ["m10", "m21"]
    g.end_player_turn()
    g.end_player_turn()
    assert trace(g, "m") == ["m10", "m21", "m32"]


# ---------------------------------------------------------------- captured state
def test_value_slots_frozen_object_slots_live_across_turns() -> None:
    """SetVar keeps the number of the moment; an object slot (and the source card's
    numbers, which are the live card) reads the current state on resume."""
    slow = seq(N.SetVar("hp0", UnitStat("hp", UnitSel("target"))),
               N.SetObj("foe", UnitSel("target")),
               N.WaitUntil(PTS),
               N.GainGold(Var("hp0")),
               N.GainGold(UnitStat("hp", UnitSel("var", var="foe"))),
               N.GainGold(Var("damage")),
               N.DealDamage(1, UnitSel("target")))
    g = start(card("slow", 0, target=TargetMode.SINGLE_ENEMY, numbers={"damage": 6},
                   upgrade={"damage": 9}, on_play=slow),
              card("up", 0, on_play=N.UpgradeCard(CardSel("discard",
                                                          CardFilter(card="slow")))))
    play(g, "slow", 0)
    play(g, "strike", 0)
    play(g, "up")
    g.end_player_turn()
    assert trace(g, "m", "dmg") == ["m500", "m494", "m9", "dmg 1 1"]  # strike dealt 6


def test_hooks_after_a_wait_until_in_on_play_register_when_the_continuation_runs() -> None:
    """The play completes at once and registers the hooks made before the WaitUntil; hooks
    made after it register as soon as the continuation makes them."""
    early = N.RegisterCardHook(N.HookDef("energy", amount=1))
    late = N.RegisterCardHook(N.HookDef("energy", amount=10))
    g = start(card("h", 0, on_play=seq(early, N.WaitUntil(PTS), late)))
    play(g, "h")
    assert len(g._e.s.hooks) == 1
    g.end_player_turn()
    assert g.energy == 4  # the late hook came at step 4, after the step-3 refill
    assert len(g._e.s.hooks) == 2
    g.end_player_turn()
    assert g.energy == 14


def test_wait_until_at_the_root_of_an_api_started_lifecycle() -> None:
    g = start(card("w", 1, on_discard=N.Sequence((N.WaitUntil(PTS), M(1)))))
    w = add(g, "w")
    g.move_card_to_pile(w, PileScope.DISCARD)
    assert not g.is_waiting and trace(g) == ["discard w"]
    g.end_player_turn()
    assert trace(g, "m") == ["m1"]


def test_a_continuation_can_pause_the_phase_it_resumes_in() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(PTS), M(1), N.Wait(2), M(2))))
    play(g, "later")
    g.end_player_turn()
    assert g.phase is BattlePhase.PLAYER_TURN_START and g.is_waiting
    assert trace(g, "m", "draw")[-1] == "m1"
    g.advance_time(2)
    assert since(g, "m1", "m", "draw", "phase") == [
        "m1", "m2", "draw defend", "draw defend", "draw defend", "draw defend", "draw defend",
        "phase PLAYER_PHASE"]


def test_continuation_of_a_card_that_left_the_battle_selects_nothing_by_this() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(PTS), N.GainGold(CountOf(THIS)))),
              card("purge", 0, on_play=N.MoveCard(CardSel("discard", CardFilter(card="later")),
                                                  PileScope.MASTER)))
    play(g, "later")
    play(g, "purge")
    g.end_player_turn()
    assert trace(g, "m") == ["m0"]


def test_battle_end_drops_pending_continuations() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(PTS), M(1))),
              card("win", 0, on_play=N.Kill(ALL)))
    play(g, "later")
    play(g, "win")
    assert g.phase is BattlePhase.BATTLE_WON and g.is_waiting_for_reward
    g.skip_reward()
    assert trace(g, "m") == [] and g._e.s.delayed == []


def test_wait_until_in_a_battle_end_branch_drops_the_rest_of_it() -> None:
    g = start(card("win", 0, on_play=N.Kill(ALL)),
              statuses=[mkstatus("last", on_battle_end=seq(M(1), N.WaitUntil(PTS), M(2)))],
              player_statuses={"last": 1})
    play(g, "win")
    assert trace(g, "m", "rewards") == ["m1", "rewards"] and not g.is_waiting
    g.skip_reward()
    assert trace(g, "m") == ["m1"] and not g.is_battle_active


def test_end_turn_in_a_continuation_at_turn_start_ends_that_turn() -> None:
    g = start(card("later", 0, on_play=seq(N.WaitUntil(PTS), N.EndTurn())))
    play(g, "later")
    g.end_player_turn()
    # turn 2 starts, enters PlayerPhase and ends at once; turn 3 is played normally
    assert g.turn_number == 3 and g.phase is BattlePhase.PLAYER_PHASE
    assert trace(g, "turnend") == ["turnend 1", "turnend 2"]


def test_enemy_phase_end_from_the_last_of_three_enemies_is_this_phases_step_5() -> None:
    """Scheduled during the EnemyPhase before its step 5, ``enemy_phase_end`` is still ahead
    in this same phase, however many enemies come before (the EnemyPhase frame counts them)."""
    from minipack import mini

    from gcs.content.defs import DeckEntry, EncounterDef

    later = enemy("foe", behaviour=seq(N.WaitUntil(EPE), probe(1000, UnitStat("turn"))))
    content = mini(extra_enemies=(later, enemy("post")),
                   extra_encounters=(EncounterDef("three", "Three", ("post", "post", "foe")),),
                   deck=(DeckEntry("defend", count=10),))
    g = Game(content, seed=7)
    g.start_battle("three")
    g.clear_event_log()
    g.end_player_turn()
    assert since(g, "phase ENEMY_PHASE", "m", "phase") == [
        "phase ENEMY_PHASE", "m1001", "phase PLAYER_TURN_START", "phase PLAYER_PHASE"]

"""Statuses: stacks, decay, every entry kind at its moment, snapshot order, skip turn."""

from __future__ import annotations

from typing import Any

from test_units_support import (
    SELF,
    TARGET,
    card,
    encounter,
    enemy,
    game,
    hit,
    idle,
    in_order,
    mark,
    marks,
    pack,
    probe,
    seq,
    status,
    trace,
)

from gcs.content.db import Content
from gcs.content.defs import AiDef, DeckEntry, StatusDef
from gcs.enums import Decay, Keyword, PileScope, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import CardSel, UnitStat, Var

# tags of the probe status entries
TAGS = {
    "on_battle_start": 1, "on_turn_start": 2, "on_draw_phase": 3, "on_drawn": 4, "on_play": 5,
    "on_discard": 6, "on_exhaust": 7, "on_discard_phase": 8, "on_turn_end": 9,
    "on_battle_end": 10, "on_attacked": 11, "on_damage_taken": 12, "on_death": 13,
    "on_apply": 14,
}


def probe_status(sid: str = "probe", base: int = 0) -> StatusDef:
    entries: dict[str, N.Node] = {k: mark(base + v) for k, v in TAGS.items()}
    entries["on_attacked"] = probe(base + 11, Var("amount"))
    entries["on_damage_taken"] = probe(base + 12, Var("amount"))
    entries["on_death"] = probe(base + 13, Var("stacks"))
    entries["on_apply"] = probe(base + 14, Var("amount"))
    return status(sid, entries=entries)


def probe_pack(player: bool = True, enemy_probe: bool = False, **kw: Any) -> Content:
    bag = enemy("bag", 60, [hit("poke", 4)],
                statuses={"eprobe": 2} if enemy_probe else None)
    return pack(
        statuses=[probe_status(), probe_status("eprobe", 100),
                  status("plain"), status("fading", decay=Decay.MINUS_ONE),
                  status("flash", decay=Decay.REMOVE)],
        enemies=[bag, enemy("frail_bag", 1, [hit("poke", 4)])],
        encounters=[encounter("bag"), encounter("two_bags", "bag", "frail_bag")],
        cards=[
            card("apply_probe", 0, on_play=N.ApplyStatus("probe", 2, SELF)),
            card("burn", 0, keywords=(Keyword.EXHAUST,), on_play=mark(50)),
            card("toss", 0, on_play=N.DiscardCard(CardSel("hand", top=1))),
        ],
        player_statuses={"probe": 1} if player else None,
        **kw,
    )


# ---------------------------------------------------------------- entries at their moment
def test_status_entry_battle_start_runs_after_first_intents_before_player_turn_start() -> None:
    g = game(probe_pack(enemy_probe=True), "bag")
    tr = trace(g)
    # StartBattle step 5 then 6: intents first, then battle-start behaviours (player, enemy)
    assert in_order(tr, ("BattleStarted",), ("intent", 1, "poke", 4), ("mark", 1), ("mark", 101),
                    ("phase", "PLAYER_TURN_START"))
    assert tr.count(("mark", 1)) == 1 and tr.count(("mark", 101)) == 1


def test_status_starting_statuses_are_set_up_without_on_apply() -> None:
    g = game(probe_pack(enemy_probe=True), "bag")
    assert ("mark", 14, 1) not in marks(g) and ("mark", 114, 2) not in marks(g)
    assert g.player is not None and g.player.statuses == {"probe": 1}
    assert g.enemies[0].statuses == {"eprobe": 2}


def test_status_entry_turn_start_runs_at_player_turn_start_step_6_and_enemy_turn_step_1() -> None:
    g = game(probe_pack(enemy_probe=True), "bag")
    tr = trace(g)
    assert in_order(tr, ("phase", "PLAYER_TURN_START"), ("mark", 2), ("TurnStarted",),
                    ("phase", "PLAYER_PHASE"))
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    # enemy: its turn-start status before its intent behaviour; player: before the draw phase
    assert in_order(tr, ("phase", "ENEMY_PHASE"), ("mark", 102), ("dmg", 1, 0, 4, 0, 4),
                    ("phase", "PLAYER_TURN_START"), ("mark", 2), ("DrawPhase",), ("CardDrawn",
                                                                               "strike"))


def test_status_entry_draw_phase_runs_after_draw_phase_event_before_turn_draws() -> None:
    g = game(probe_pack(), "bag")
    assert ("mark", 3) not in marks(g)  # turn 1 skips the draw phase
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    i = tr.index(("DrawPhase",))
    assert tr[i + 1] == ("mark", 3)
    assert tr[i + 2][0] == "CardDrawn"


def test_status_entry_on_drawn_runs_after_each_card_drawn_before_the_next() -> None:
    g = game(probe_pack(), "bag")
    tr = [t for t in trace(g) if t[0] in ("CardDrawn", "mark")]
    opening = tr[:10]
    assert [t[0] for t in opening] == ["CardDrawn", "mark"] * 5
    assert all(t == ("mark", 4) for t in opening[1::2])


def test_status_entry_on_play_runs_after_card_on_play() -> None:
    g = game(probe_pack(deck=[DeckEntry("burn", count=10)]), "bag")
    n = len(g.event_log)
    inst = g.hand()[0]
    assert g.try_play_card(inst)
    tr = trace(g, n)
    assert in_order(tr, ("CardPlayed", "burn"), ("mark", 50), ("mark", 5), ("CardExhausted",
                                                                           "burn"), ("mark", 7))


def test_status_entry_on_discard_runs_after_card_discarded() -> None:
    g = game(probe_pack(deck=[DeckEntry("toss", count=10)]), "bag")
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0])
    tr = trace(g, n)
    assert in_order(tr, ("CardPlayed", "toss"), ("CardDiscarded", "toss"), ("mark", 6),
                    ("mark", 5))


def test_status_entry_on_exhaust_runs_after_card_exhausted() -> None:
    g = game(probe_pack(), "bag")
    inst = g.hand()[0]
    n = len(g.event_log)
    g.move_card_to_pile(inst, PileScope.EXHAUST)
    assert trace(g, n) == [("CardExhausted", inst.card_id), ("mark", 7)]


def test_status_entries_discard_phase_turn_end_run_at_player_turn_end_steps_1_and_3() -> None:
    g = game(probe_pack(), "bag")
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    end = tr[: tr.index(("TurnEnded",)) + 1]
    assert end[:3] == [("phase", "PLAYER_TURN_END"), ("DiscardPhase",), ("mark", 8)]
    # step 2 discards the hand (each with its On Discard branch), then step 3
    assert [t for t in end if t[0] == "CardDiscarded"] and end[-2:] == [("mark", 9),
                                                                         ("TurnEnded",)]
    assert end.index(("mark", 9)) > max(i for i, t in enumerate(end) if t[0] == "CardDiscarded")


def test_status_entry_battle_end_runs_after_battle_won_before_rewards() -> None:
    g = game(probe_pack(deck=[DeckEntry("strike", count=10)]), "two_bags")
    g.enemies[0].hp = 1
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0], g.enemies[0])
    assert g.try_play_card(g.hand()[0], g.enemies[1])
    tr = trace(g, n)
    assert in_order(tr, ("UnitDied", 2), ("phase", "BATTLE_WON"), ("mark", 10),
                    ("BattleRewardOffered",))


def test_status_entries_attacked_and_damage_taken_see_the_amounts() -> None:
    g = game(probe_pack(player=False, enemy_probe=True), "bag")
    strike = next(c for c in g.hand() if c.card_id == "strike")
    n = len(g.event_log)
    assert g.try_play_card(strike, g.enemies[0])
    # the enemy's reactions to the hit, then its status On Play branch (after the card's)
    assert trace(g, n) == [("EnergySpent",), ("CardPlayed", "strike"), ("dmg", 0, 1, 6, 0, 6),
                           ("mark", 111, 6), ("mark", 112, 6), ("mark", 105)]


def test_status_entry_on_attacked_runs_when_fully_blocked_but_damage_taken_does_not() -> None:
    g = game(probe_pack(deck=[DeckEntry("defend", count=10)]), "bag")
    assert g.try_play_card(g.hand()[0])
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert in_order(tr, ("dmg", 1, 0, 4, 4, 0), ("mark", 11, 4))
    assert not [t for t in tr if t[:2] == ("mark", 12)]


def test_status_entry_on_death_runs_after_unit_died_with_frozen_stacks() -> None:
    g = game(probe_pack(enemy_probe=True, deck=[DeckEntry("strike", count=10)]),
             "bag")
    g.enemies[0].hp = 3
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0], g.enemies[0])
    tr = trace(g, n)
    assert in_order(tr, ("dmg", 0, 1, 6, 0, 3), ("UnitDied", 1), ("mark", 111, 6),
                    ("mark", 112, 3), ("mark", 113, 2), ("phase", "BATTLE_WON"))
    assert g.enemies[0].statuses == {}  # a dead enemy loses its statuses


def test_status_entry_on_apply_runs_after_status_applied_with_the_added_stacks() -> None:
    g = game(probe_pack(deck=[DeckEntry("apply_probe", count=10)]), "bag")
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0])
    tr = trace(g, n)
    assert in_order(tr, ("status", 0, "probe", 2, 3), ("mark", 14, 2), ("mark", 5))


def test_status_on_apply_does_not_run_on_reduction_or_decay() -> None:
    c = pack(statuses=[status("fading", decay=Decay.MINUS_ONE,
                              entries={"on_apply": probe(14, Var("amount"))})],
             cards=[card("fade", 0, on_play=N.ApplyStatus("fading", 3, SELF)),
                    card("unfade", 0, on_play=N.ApplyStatus("fading", -1, SELF))],
             deck=[DeckEntry("fade", count=5), DeckEntry("unfade", count=5)])
    g = game(c, "dummy")
    fade = next(i for i in g.hand() if i.card_id == "fade")
    assert g.try_play_card(fade)
    unfade = next((i for i in g.hand() if i.card_id == "unfade"), None)
    if unfade is not None:
        assert g.try_play_card(unfade)
    g.end_player_turn()
    assert marks(g) == [(14, 3)]


# ---------------------------------------------------------------- stacks and decay
def decay_pack() -> Content:
    return pack(
        statuses=[status("plain"), status("fading", decay=Decay.MINUS_ONE),
                  status("flash", decay=Decay.REMOVE),
                  status("capped", max_stacks=5)],
        enemies=[enemy("bag", 60, [idle("wait", seq(N.ApplyStatus("fading", 2, SELF),
                                                    N.ApplyStatus("flash", 2, SELF)))])],
        encounters=[encounter("bag")],
        cards=[card("buff", 0, on_play=seq(
            N.ApplyStatus("plain", 2, SELF), N.ApplyStatus("fading", 2, SELF),
            N.ApplyStatus("flash", 3, SELF), N.ApplyStatus("capped", 4, SELF),
            N.ApplyStatus("capped", 4, SELF)))],
        deck=[DeckEntry("buff", count=10)],
    )


def test_status_stacks_add_and_cap_at_max_stacks() -> None:
    g = game(decay_pack(), "bag")
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0])
    assert g.player is not None
    assert g.player.statuses == {"plain": 2, "fading": 2, "flash": 3, "capped": 5}
    assert ("status", 0, "capped", 1, 5) in trace(g, n)
    assert g.try_play_card(g.hand()[0])
    assert g.player.statuses == {"plain": 4, "fading": 4, "flash": 6, "capped": 5}
    # at the cap nothing changes: no event
    assert [t for t in trace(g, n) if t[:3] == ("status", 0, "capped")] == [
        ("status", 0, "capped", 4, 4), ("status", 0, "capped", 1, 5)]


def test_status_decay_none_minus_one_remove_at_player_turn_end_step_4() -> None:
    g = game(decay_pack(), "bag")
    assert g.try_play_card(g.hand()[0])
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    end = tr[: tr.index(("TurnEnded",)) + 1]
    # in snapshot order: plain (none) stays, fading -1, flash removed, capped stays
    assert end[-4:] == [("status", 0, "fading", -1, 1), ("status", 0, "flash", -3, 0),
                        ("removed", 0, "flash"), ("TurnEnded",)]
    assert g.player is not None
    assert g.player.statuses == {"plain": 2, "fading": 1, "capped": 5}


def test_status_decay_of_an_enemy_happens_at_its_own_turn_end() -> None:
    g = game(decay_pack(), "bag")
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    enemy_part = tr[tr.index(("phase", "ENEMY_PHASE")):tr.index(("phase", "PLAYER_TURN_START"))]
    assert in_order(enemy_part, ("status", 1, "fading", 2, 2), ("status", 1, "flash", 2, 2),
                    ("status", 1, "fading", -1, 1), ("removed", 1, "flash"))
    assert g.enemies[0].statuses == {"fading": 1}
    # the player's turn end does not decay enemy statuses
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    assert tr.index(("status", 1, "fading", -1, 2)) > tr.index(("phase", "ENEMY_PHASE"))


def test_status_bash_vulnerable_lasts_through_the_next_player_turn() -> None:
    g = game(pack(deck=[DeckEntry("bash", count=10)]), "jaw_worm")
    assert g.try_play_card(g.hand()[0], g.enemies[0])
    assert g.enemies[0].statuses["vulnerable"] == 2
    g.end_player_turn()
    assert g.enemies[0].statuses["vulnerable"] == 1  # decayed at the enemy's turn end
    g.end_player_turn()
    assert "vulnerable" not in g.enemies[0].statuses


def test_status_negative_stacks_need_allow_negative() -> None:
    c = pack(statuses=[status("plain")],
             cards=[card("sap", 0, on_play=seq(N.ApplyStatus("strength", -2, SELF),
                                               N.ApplyStatus("plain", -2, SELF)))],
             deck=[DeckEntry("sap", count=10)])
    g = game(c, "dummy")
    assert g.try_play_card(g.hand()[0])
    assert g.player is not None and g.player.statuses == {"strength": -2}
    g.end_player_turn()
    assert g.player.statuses == {"strength": -2}  # Decay.NONE


def test_status_remove_status_by_amount_and_whole() -> None:
    c = pack(cards=[card("cleanse", 0, on_play=seq(
        N.ApplyStatus("strength", 5, SELF), N.RemoveStatus("strength", SELF, 2),
        N.ApplyStatus("weak", 3, SELF), N.RemoveStatus("weak", SELF)))],
        deck=[DeckEntry("cleanse", count=10)])
    g = game(c, "dummy")
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0])
    assert g.player is not None and g.player.statuses == {"strength": 3}
    assert in_order(trace(g, n), ("status", 0, "strength", -2, 3), ("removed", 0, "weak"))


# ---------------------------------------------------------------- snapshot order
def order_pack() -> Content:
    sts = [status(sid, entries={"on_turn_start": mark(tag), "on_turn_end": mark(tag + 10)})
           for sid, tag in (("a", 1), ("b", 2), ("c", 3))]
    # a's turn-end branch removes b and adds d: b still runs (snapshot), d does not
    sts[0] = status("a", entries={"on_turn_start": mark(1), "on_turn_end": seq(
        mark(11), N.RemoveStatus("b", SELF), N.ApplyStatus("d", 1, SELF))})
    sts.append(status("d", entries={"on_turn_end": mark(14), "on_turn_start": mark(4)}))
    return pack(statuses=sts, player_statuses={"a": 1, "b": 1, "c": 1},
                cards=[card("reorder", 0, on_play=seq(N.RemoveStatus("a", SELF),
                                                      N.ApplyStatus("a", 1, SELF)))],
                deck=[DeckEntry("reorder", count=10)])


def test_status_branches_run_in_snapshot_order_of_application() -> None:
    g = game(order_pack(), "dummy")
    assert marks(g) == [(1,), (2,), (3,)]
    n = len(g.event_log)
    g.end_player_turn()
    # turn end: a, b (removed by a, still in the snapshot), c; d (added meanwhile) waits
    assert marks(g, n) == [(11,), (12,), (13,), (1,), (3,), (4,)]


def test_status_reapplied_status_moves_to_the_end_of_the_snapshot_order() -> None:
    g = game(order_pack(), "dummy")
    assert g.try_play_card(g.hand()[0])  # removes and re-applies a
    assert g.player is not None and list(g.player.statuses) == ["b", "c", "a"]
    n = len(g.event_log)
    g.end_player_turn()
    assert marks(g, n)[:3] == [(12,), (13,), (11,)]


def test_status_lifecycle_branches_are_the_players_but_on_play_reaches_enemies() -> None:
    g = game(probe_pack(player=False, enemy_probe=True,
                        deck=[DeckEntry("burn", count=10)]), "bag")
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0])
    g.end_player_turn()
    tags = {m[0] for m in marks(g, n)}
    # card effect; the enemy's On Play branch (it reacts to the player's plays, like Enrage),
    # its turn start and turn end; never its On Drawn / On Discard / On Exhaust / phase entries
    assert tags == {50, 105, 102, 109}


# ---------------------------------------------------------------- control statuses
def stun_pack() -> Content:
    return pack(
        statuses=[status("stunned", skip_turn=True, decay=Decay.MINUS_ONE),
                  status("ticker", entries={"on_turn_start": mark(1), "on_turn_end": mark(3)})],
        enemies=[enemy("brute", 60, [hit("smash", 7), hit("jab", 2)],
                       AiDef(cycle=("smash", "jab")), statuses={"ticker": 1})],
        encounters=[encounter("brute")],
        cards=[card("stun", 0, target=TargetMode.SINGLE_ENEMY,
                    on_play=N.ApplyStatus("stunned", 1, TARGET))],
        deck=[DeckEntry("stun", count=10)],
    )


def test_status_skip_turn_skips_the_intent_but_not_the_turn_statuses() -> None:
    g = game(stun_pack(), "brute")
    b = g.enemies[0]
    assert b.pending_intents[0].move == "smash"
    assert g.try_play_card(g.hand()[0], b)
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    part = tr[tr.index(("phase", "ENEMY_PHASE")):tr.index(("phase", "PLAYER_TURN_START"))]
    assert ("mark", 1) in part and ("mark", 3) in part
    assert not [t for t in part if t[0] == "dmg"]
    assert ("removed", 1, "stunned") in part  # decayed at its turn end
    # the planned move is kept, not consumed: smash comes next round, then jab
    assert b.pending_intents[0].move == "smash" and b.history == ["smash"]
    # the intent showed STUN while it would skip; once the status is gone, the kept move
    assert [t for t in part if t[0] == "intent"] == [("intent", 1, "smash", 7)]
    n = len(g.event_log)
    g.end_player_turn()
    assert ("dmg", 1, 0, 7, 0, 7) in trace(g, n)
    assert b.pending_intents[0].move == "jab"


def test_status_unit_stat_sees_live_hp_in_branches() -> None:
    c = pack(statuses=[status("watch", entries={"on_damage_taken": probe(
        7, UnitStat("hp", SELF))})],
        enemies=[enemy("bag", 50, [idle()], statuses={"watch": 1})],
        encounters=[encounter("bag")], deck=[DeckEntry("strike", count=10)])
    g = game(c, "bag")
    assert g.try_play_card(g.hand()[0], g.enemies[0])
    assert marks(g) == [(7, 44)]


def test_status_player_turn_is_skipped_by_an_end_turn_branch_not_by_skip_turn() -> None:
    # skip_turn is read at EnemyPhase step 2 only; a player "control status" is content: an
    # on_turn_start branch that asks to end the turn (PlayerPhase opens and closes at once)
    c = pack(statuses=[status("dazed", decay=Decay.MINUS_ONE, entries={"on_turn_start":
                                                                      N.EndTurn()}),
                       status("frozen", skip_turn=True)],
             cards=[card("daze", 0, on_play=N.ApplyStatus("dazed", 2, SELF)),
                    card("freeze", 0, on_play=N.ApplyStatus("frozen", 1, SELF))],
             deck=[DeckEntry("strike", count=10)])
    g = game(c, "dummy")
    assert g.try_play_card(g.add_card_to_hand("daze"))
    n = len(g.event_log)
    g.end_player_turn()
    tr = trace(g, n)
    # turn 2 passes by itself: PlayerPhase, then straight into PlayerTurnEnd and EnemyPhase
    assert in_order(tr, ("phase", "PLAYER_TURN_START"), ("TurnStarted",), ("phase", "PLAYER_PHASE"),
                    ("phase", "PLAYER_TURN_END"), ("phase", "ENEMY_PHASE"),
                    ("phase", "PLAYER_TURN_START"), ("phase", "PLAYER_PHASE"))
    assert g.turn_number == 3 and g.phase.name == "PLAYER_PHASE"
    assert g.try_play_card(g.add_card_to_hand("freeze"))
    g.end_player_turn()
    assert g.turn_number == 4 and g.phase.name == "PLAYER_PHASE"  # skip_turn: no effect

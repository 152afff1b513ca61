"""Seeded full battles against every enemy end in a win or a loss; the step cap."""

from __future__ import annotations

import pytest
from test_units_support import (
    ALL_ENEMIES,
    PLAYER,
    SELF,
    TARGET,
    autoplay,
    card,
    encounter,
    enemy,
    game,
    hit,
    idle,
    pack,
    seq,
    status,
)

import gcs
from gcs.content.defs import AiDef, DeckEntry, HpRule, Modifier, MoveDef, WeightedMove
from gcs.enums import Decay, IntentKind, TargetMode
from gcs.errors import StepLimitError
from gcs.flow import nodes as N
from gcs.flow.exprs import Var

STATUSES = [
    status("thorns", entries={"on_attacked": N.DealDamage(Var("stacks"), TARGET)}),
    status("stunned", skip_turn=True, decay=Decay.MINUS_ONE),
    status("ritual", entries={"on_turn_end": N.ApplyStatus("strength", Var("stacks"), SELF)}),
    status("plated", entries={"on_turn_end": N.GainBlock(Var("stacks"), SELF)}),
    status("frail", decay=Decay.MINUS_ONE, modifiers=(Modifier("block", "mul", num=3, den=4),)),
    status("barricade", keeps_block=True),
    status("splitter", entries={"on_death": seq(N.SpawnEnemy("slimeling"),
                                                N.SpawnEnemy("slimeling"))}),
]
ENEMIES = [
    enemy("spiky", 30, [hit("prick", 5)], statuses={"thorns": 2}),
    enemy("cultist", 48, [idle("incant", N.ApplyStatus("ritual", 3, SELF)), hit("dark", 6)],
          AiDef(opener=("incant",), cycle=("dark",))),
    enemy("summoner", 35, [idle("summon", N.SpawnEnemy("slimeling")), hit("slap", 4)],
          AiDef(cycle=("summon", "slap", "slap"))),
    enemy("slimeling", 6, [hit("lick", 2)]),
    enemy("mother", 20, [hit("slam", 6)], statuses={"splitter": 1}),
    enemy("hexer", 40, [
        MoveDef("hex", "Hex", IntentKind.DEBUFF,
                behaviour=seq(N.ApplyStatus("weak", 2, PLAYER), N.ApplyStatus("frail", 2, PLAYER))),
        hit("bolt", 7), MoveDef("stun", "Stun", IntentKind.STRONG_DEBUFF,
                                behaviour=N.ApplyStatus("stunned", 1, SELF))],
        AiDef(weighted=(WeightedMove("hex", 2, 1), WeightedMove("bolt", 3, 2),
                        WeightedMove("stun", 1, 1)))),
    enemy("berserker", 60, [hit("chop", 8), hit("frenzy", 3, hits=4),
                            idle("fortify", seq(N.ApplyStatus("barricade", 1, SELF),
                                                N.GainBlock(10, SELF)))],
          AiDef(cycle=("chop", "chop"), hp_rules=(HpRule(50, "fortify"), HpRule(25, "frenzy",
                                                                                 once=False)))),
    enemy("plated_golem", 50, [hit("stomp", 9)], statuses={"plated": 4}),
]
ENCOUNTERS = [encounter(d.id) for d in ENEMIES if d.id != "slimeling"] + [
    encounter("gang", "spiky", "cultist", "slimeling")]


def full_pack() -> gcs.Content:
    return pack(statuses=STATUSES, enemies=ENEMIES, encounters=ENCOUNTERS,
                cards=[card("cleave", 1, target=TargetMode.NONE,
                            on_play=N.DealDamage(8, ALL_ENEMIES))],
                deck=[DeckEntry("strike", count=5), DeckEntry("defend", count=4),
                      DeckEntry("bash"), DeckEntry("cleave", count=2)])


ALL = ["jaw_worm", "dummy", "two_dummies", *[e.id for e in ENCOUNTERS]]


@pytest.mark.parametrize("enc", ALL)
def test_full_battle_seeded_ends_in_a_win_or_a_loss(enc: str) -> None:
    c = full_pack()
    results = []
    for seed in range(6):
        g = game(c, enc, seed=seed)
        autoplay(g, max_turns=80)
        assert not g.is_battle_active and g.phase is gcs.BattlePhase.NONE
        assert g.last_result in (True, False)
        end, close = g.event_log[-2:]
        assert isinstance(end, gcs.events.BattleEnded) and end.won is g.last_result
        assert isinstance(close, gcs.events.PhaseChanged) and close.new is gcs.BattlePhase.NONE
        results.append((g.last_result, g.turn_number, g.run_hp))
    again = game(c, enc, seed=3)
    autoplay(again, max_turns=80)
    assert (again.last_result, again.turn_number, again.run_hp) == results[3]  # reproducible


def test_full_battle_helpless_player_loses_against_every_attacker_never_hangs() -> None:
    c = pack(statuses=STATUSES, enemies=ENEMIES, encounters=ENCOUNTERS, max_hp=15,
             cards=[card("shrug", 0)], deck=[DeckEntry("shrug", count=10)])
    for enc in ALL:
        if enc in ("dummy", "two_dummies"):
            continue  # they never attack: nobody can end that battle
        g = game(c, enc, seed=1)
        autoplay(g, max_turns=80)
        assert g.last_result is False, enc


def test_step_limit_raises_a_clear_error_for_a_content_loop_in_a_card() -> None:
    c = pack(cards=[card("forever", 0, on_play=N.Loop(10**9, N.GainBlock(1, SELF)))],
             deck=[DeckEntry("forever", count=10)])
    g = game(c, "dummy", rules=gcs.BattleRules(step_limit=3000))
    with pytest.raises(StepLimitError, match=r"exceeded 3000 engine steps.*turn 1, phase "
                                             r"PLAYER_PHASE.*loops"):
        g.try_play_card(g.hand()[0])


def test_step_limit_raises_for_a_content_loop_in_an_enemy_behaviour() -> None:
    c = pack(enemies=[enemy("looper", 10, [idle("spin", N.Loop(10**9, N.GainBlock(1, SELF)))])],
             encounters=[encounter("looper")])
    g = game(c, "looper", rules=gcs.BattleRules(step_limit=3000))
    with pytest.raises(StepLimitError, match="ENEMY_PHASE"):
        g.end_player_turn()


def test_step_limit_is_per_battle_not_per_run() -> None:
    c = pack(enemies=[enemy("wisp", 1, [hit("zap", 1)])], encounters=[encounter("wisp")],
             deck=[DeckEntry("strike", count=10)])
    g = gcs.Game(c, seed=1, rules=gcs.BattleRules(step_limit=400))
    for _ in range(10):
        g.start_battle("wisp")
        autoplay(g)
        assert g.last_result is True

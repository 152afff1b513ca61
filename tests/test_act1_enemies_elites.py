"""Act 1's elites at A0, as the game plays them: Lagavulin (asleep with Metallicize, woken by
HP loss or after three turns, Stunned when woken by damage, then Attack, Attack, Siphon Soul)
and the Three Sentries (Artifact, Bolt's Dazed and Beam alternating, the middle one starting
with Beam)."""

from __future__ import annotations

from collections import Counter

import gcs
from gcs import events as ev
from gcs.agent import observation
from gcs.battle import combat

C = gcs.builtin_content()


def battle(encounter: str, seed: int = 1) -> gcs.Game:
    g = gcs.Game(C, seed=seed)
    g.start_battle(encounter)
    return g


def hero(g: gcs.Game) -> gcs.Unit:
    return g._e.s.units[0]


def hit(g: gcs.Game, u: gcs.Unit, amount: int) -> None:
    """An attack of ``amount`` from the player on ``u``, its reactions run."""
    combat.deal_damage(g._e, hero(g), u, amount, None, attack=True)
    g._e.run()


# ---------------------------------------------------------------- Lagavulin
def test_lagavulin_starts_asleep_with_8_block_and_metallicize_8() -> None:
    hps = Counter()
    for seed in range(1, 60):
        u = battle("lagavulin", seed).enemies[0]
        hps[u.max_hp] += 1
        assert u.hp == u.max_hp and u.block == 8
        assert u.statuses == {"metallicize": 8, "asleep": 3}
        assert u.move == "sleep" and u.intent is not None and u.intent.kind.value == "sleep"
    assert set(hps) == {109, 110, 111}


def test_lagavulin_asleep_is_hidden_from_the_player_view() -> None:
    g = battle("lagavulin")
    assert observation(g._e)["enemies"][0]["statuses"] == {"metallicize": 8}


def test_lagavulin_sleeps_three_turns_gaining_8_block_then_attacks_attacks_siphons() -> None:
    g = battle("lagavulin")
    u = g.enemies[0]
    for _ in range(2):
        g.end_player_turn()
        assert u.block == 8 and u.move == "sleep"  # Metallicize: 8 Block at its turn end
    g.end_player_turn()  # the third sleep: it wakes (Metallicize -8), Attack next
    assert u.statuses == {} and u.block == 0 and u.move == "attack"
    assert u.intent is not None and u.intent.damage == 18
    hp = hero(g).hp
    g.end_player_turn()
    assert hero(g).hp == hp - 18 and u.move == "attack"
    g.end_player_turn()
    assert u.move == "siphon_soul" and u.intent is not None
    assert u.intent.kind.value == "strong_debuff"
    g.end_player_turn()
    assert hero(g).statuses.get("strength") == -1 and hero(g).statuses.get("dexterity") == -1
    assert u.history == ["sleep"] * 3 + ["attack", "attack", "siphon_soul", "attack"]


def test_lagavulin_woken_by_hp_loss_is_stunned_at_once_then_attacks() -> None:
    g = battle("lagavulin")
    u = g.enemies[0]
    g.end_player_turn()  # one sleep: 8 Block
    hit(g, u, 8)  # all blocked: no HP lost, still asleep
    assert u.statuses == {"metallicize": 8, "asleep": 2} and u.move == "sleep"
    n = len(g.event_log)
    g._e.logging = True
    hit(g, u, 5)
    assert u.hp == u.max_hp - 5
    assert u.statuses == {} and u.move == "stunned"  # awake: Metallicize gone, Stunned now
    assert u.intent is not None and u.intent.kind.value == "stun"
    changed = [x for x in g.event_log[n:] if isinstance(x, ev.EnemyUnitIntentChanged)]
    assert [x.move for x in changed] == ["stunned"]
    hp = hero(g).hp
    g.end_player_turn()  # the stunned turn: nothing happens, no Block
    assert hero(g).hp == hp and u.block == 0 and u.move == "attack"
    for _ in range(3):
        g.end_player_turn()
    assert u.history == ["sleep", "stunned", "attack", "attack", "siphon_soul", "attack"]


def test_lagavulin_woken_on_the_first_turn_never_sleeps_again() -> None:
    g = battle("lagavulin", 7)
    u = g.enemies[0]
    hit(g, u, 30)
    assert u.move == "stunned" and u.history == ["stunned"]
    for _ in range(8):
        g.end_player_turn()
        if g.phase is not gcs.BattlePhase.PLAYER_PHASE:
            break
    assert "sleep" not in u.history


# ---------------------------------------------------------------- the Three Sentries
def test_three_sentries_left_and_right_bolt_first_and_the_middle_beams_first() -> None:
    hps = Counter()
    for seed in range(1, 40):
        g = battle("three_sentries", seed)
        us = g.enemies
        assert [u.name for u in us] == ["Sentry"] * 3
        assert [u.move for u in us] == ["bolt", "beam", "bolt"]
        for u in us:
            hps[u.max_hp] += 1
            assert u.statuses == {"artifact": 1}
    assert set(hps) == {38, 39, 40, 41, 42}


def test_sentries_alternate_and_bolt_shuffles_two_dazed_into_the_discard_pile() -> None:
    g = battle("three_sentries")
    us = g.enemies
    hp = hero(g).hp
    g.end_player_turn()  # two Bolts (4 Dazed) and one Beam (9)
    assert hero(g).hp == hp - 9
    assert sum(c.card_id == "dazed" for c in g.discard_pile()) == 4
    assert [u.move for u in us] == ["beam", "bolt", "beam"]
    for _ in range(4):
        g.end_player_turn()
    for u in us:
        assert all(a != b for a, b in zip(u.history, u.history[1:], strict=False)), u.history
    dazed = C.card("dazed")
    assert dazed.type.value == "status"
    assert {k.value for k in dazed.keywords} == {"unplayable", "ethereal"}


def test_artifact_negates_the_first_debuff_then_is_gone() -> None:
    g = battle("three_sentries")
    g._e.logging = True
    u = g.enemies[0]
    n = len(g.event_log)
    combat_apply(g, u, "vulnerable", 2)
    assert "vulnerable" not in u.statuses and "artifact" not in u.statuses
    got = [x for x in g.event_log[n:] if isinstance(x, ev.DebuffNegated)]
    assert got == [ev.DebuffNegated(u.uid, "vulnerable", "artifact")]
    combat_apply(g, u, "vulnerable", 2)
    assert u.statuses == {"vulnerable": 2}


def test_artifact_negates_lost_strength_but_not_buffs_or_removals() -> None:
    g = battle("three_sentries")
    u = g.enemies[1]
    combat_apply(g, u, "strength", 3)  # a buff: applied, Artifact kept
    assert u.statuses == {"artifact": 1, "strength": 3}
    combat_apply(g, u, "strength", -1)  # lost Strength is a debuff (Disarm): negated
    assert u.statuses == {"strength": 3}
    combat_apply(g, u, "strength", -1)
    assert u.statuses == {"strength": 2}


def combat_apply(g: gcs.Game, u: gcs.Unit, status: str, amount: int) -> None:
    """An ``apply`` effect of the player on ``u`` (the interpreter's ApplyStatus)."""
    from gcs.battle.state import Ctx
    from gcs.flow import nodes as N
    from gcs.flow.exprs import UnitSel
    from gcs.interp.unit_actions import UNIT_ACTIONS
    node = N.ApplyStatus(status, amount, UnitSel("target"))
    UNIT_ACTIONS[N.ApplyStatus](g._e, node, Ctx(0, -1, u.uid))
    g._e.run()


def test_bash_and_disarm_on_a_sentry_are_spent_on_its_artifact() -> None:
    g = gcs.Game(C, seed=3)
    g.start_battle("three_sentries")
    u = g.enemies[0]
    g._e.s.energy = 9
    assert g.try_play_card(g.add_card_to_hand("bash"), u)  # 8 damage, its Vulnerable negated
    assert u.hp == u.max_hp - 8 and u.statuses == {}
    assert g.try_play_card(g.add_card_to_hand("disarm", upgraded=True), u)
    assert u.statuses == {"strength": -3}  # Artifact spent: Disarm+ takes 3 Strength
    v = g.enemies[1]
    assert g.try_play_card(g.add_card_to_hand("disarm"), v)  # Artifact takes Disarm
    assert v.statuses == {}
    assert g.try_play_card(g.add_card_to_hand("bash"), v)
    assert v.statuses == {"vulnerable": 2}

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

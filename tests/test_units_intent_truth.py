"""Intents tell the truth (issue 9 item 4): when nothing changes between an intent being shown
and the move, the damage dealt equals the damage shown during the player's turn. Statuses
have a decay moment (the holder's turn end or the round's end, Slay the Spire's "just
applied" rule), and a stunned enemy shows a STUN intent while it will skip its turn."""

from __future__ import annotations

import pytest
from core_support import pack
from minipack import card

import gcs
from gcs import events as ev
from gcs.agent import END
from gcs.content.defs import AiDef, DeckEntry, EncounterDef, EnemyDef, MoveDef, StatusDef
from gcs.enums import BattlePhase, Decay, IntentKind, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import UnitSel
from gcs.sim.policies import RandomPolicy

BUILTIN = gcs.builtin_content()
ENCOUNTERS = sorted(BUILTIN.encounters)
PLAYER = UnitSel("player")
TARGET = UnitSel("target")


def checked_attacks(enc: str, seed: int) -> tuple[int, list[str]]:
    """Play one random battle; compare every enemy hit on the player with the intent shown
    when the player ended the turn. A hit is excused only if a modifier status of the
    attacker or the player changed during the EnemyPhase before it (something changed).
    Returns (hits compared, mismatches)."""
    g = gcs.Game(BUILTIN, seed=seed)
    g.start_battle(enc)
    policy = RandomPolicy(seed)
    mods = BUILTIN.modifier_statuses
    compared = 0
    bad: list[str] = []
    for _ in range(400):
        if not g.is_battle_active:
            break
        legal = g.legal_actions()
        a = policy(g, legal)
        shown: dict[int, int | None] = {}
        if a.kind == END:
            shown = {u.uid: u.pending_intents[0].damage for u in g.enemies
                     if u.alive and u.pending_intents}
        n = len(g.event_log)
        g.apply(a)
        if a.kind != END:
            continue
        in_enemy_phase = False
        changed: set[int] = set()
        for x in g.event_log[n:]:
            if isinstance(x, ev.PhaseChanged):
                in_enemy_phase = x.new is BattlePhase.ENEMY_PHASE
            elif not in_enemy_phase:
                continue
            elif isinstance(x, ev.StatusApplied) and x.status in mods:
                changed.add(x.unit)
            elif isinstance(x, ev.DamageDealt) and x.target == 0 and x.source:
                if x.source in changed or 0 in changed or x.source not in shown:
                    continue
                compared += 1
                if shown[x.source] != x.amount:
                    bad.append(f"{enc} seed {seed} turn {g.turn_number}: unit {x.source} "
                               f"showed {shown[x.source]}, dealt {x.amount}")
    return compared, bad


def test_intent_truth_damage_dealt_equals_damage_shown_in_random_battles() -> None:
    compared = 0
    bad: list[str] = []
    for enc in ENCOUNTERS:
        for seed in range(12):
            c, b = checked_attacks(enc, seed)
            compared += c
            bad += b
    assert compared > 300  # the check really ran over many attacks
    assert bad == []


def test_intent_truth_red_slaver_seed_4_deals_what_it_showed() -> None:
    compared, bad = checked_attacks("red_slaver", 4)
    assert compared > 0 and bad == []


def test_intent_truth_player_vulnerable_from_an_enemy_lasts_through_the_next_enemy_attack() -> None:
    g = gcs.Game(BUILTIN, seed=4)
    g.start_battle("red_slaver")
    slaver = g.enemies[0]
    p = g.player
    assert p is not None
    for _ in range(12):  # end turns until the slaver has made the player Vulnerable
        if p.stacks("vulnerable"):
            break
        g.end_player_turn()
    assert p.stacks("vulnerable") >= 1
    shown = slaver.pending_intents[0]
    n = len(g.event_log)
    g.end_player_turn()
    hits = [x for x in g.event_log[n:] if isinstance(x, ev.DamageDealt) and x.source == 1]
    if shown.damage is not None:
        assert hits and hits[0].amount == shown.damage
    # the player's Vulnerable decays only at the end of the round, after the enemy attacked
    evs = g.event_log[n:]
    decay = [i for i, x in enumerate(evs) if isinstance(x, ev.StatusApplied)
             and x.unit == 0 and x.status == "vulnerable" and x.delta < 0]
    enemy_phase = next(i for i, x in enumerate(evs)
                       if isinstance(x, ev.PhaseChanged) and x.new is BattlePhase.ENEMY_PHASE)
    assert all(i > enemy_phase for i in decay)


# ---------------------------------------------------------------- decay moments, small pack
def _pack(decay_at: str) -> gcs.Content:
    vuln = StatusDef("vuln", "Vuln", debuff=True, decay=Decay.MINUS_ONE, decay_at=decay_at,
                     modifiers=BUILTIN.statuses["vulnerable"].modifiers)
    shouter = EnemyDef(
        "shouter", "Shouter", 50, 50,
        moves=(MoveDef("hex", "Hex", IntentKind.DEBUFF,
                       behaviour=N.ApplyStatus("vuln", 1, PLAYER)),
               MoveDef("hit", "Hit", IntentKind.ATTACK, damage=10,
                       behaviour=N.DealDamage(10, PLAYER))),
        ai=AiDef(cycle=("hex", "hit")))
    zap = card("vzap", 0, target=TargetMode.SINGLE_ENEMY, on_play=N.ApplyStatus("vuln", 2, TARGET))
    return pack(zap, statuses=[vuln], enemies=[shouter],
                encounters=[EncounterDef("shout", "Shout", ("shouter",))],
                deck=[DeckEntry("zero", count=10)])


def _decays(g: gcs.Game, n: int, unit: int) -> list[tuple[str, int]]:
    """(phase when it happened, stacks after) for each decay of ``vuln`` on ``unit``."""
    out = []
    phase = g.phase
    for x in g.event_log[n:]:
        if isinstance(x, ev.PhaseChanged):
            phase = x.new
        elif isinstance(x, ev.StatusApplied) and x.unit == unit and x.status == "vuln" \
                and x.delta < 0:
            out.append((phase.name, x.stacks))
    return out


def test_status_decay_at_round_end_skips_the_round_an_enemy_applied_it() -> None:
    g = gcs.Game(_pack("round_end"), seed=1)
    g.start_battle("shout")
    p = g.player
    assert p is not None
    g.end_player_turn()  # round 1: the enemy hexes the player (just applied: no decay)
    assert p.stacks("vuln") == 1
    shown = g.enemies[0].pending_intents[0]
    assert shown.move == "hit" and shown.damage == 15  # shown with Vulnerable, all turn long
    n = len(g.event_log)
    g.end_player_turn()  # round 2: the hit lands with Vulnerable, then the round ends
    hit = next(x for x in g.event_log[n:] if isinstance(x, ev.DamageDealt))
    assert hit.amount == 15 == hit.hp_lost
    assert _decays(g, n, 0) == [("ENEMY_PHASE", 0)]
    assert g.event_log[n:].index(hit) < next(
        i for i, x in enumerate(g.event_log[n:]) if isinstance(x, ev.StatusRemoved))


def test_status_decay_at_turn_end_is_the_holders_turn_end() -> None:
    g = gcs.Game(_pack("turn_end"), seed=1)
    g.start_battle("shout")
    g.end_player_turn()
    n = len(g.event_log)
    g.end_player_turn()  # decays at the player's turn end, before the hit: 10, as shown now
    assert _decays(g, n, 0) == [("PLAYER_TURN_END", 0)]
    hit = next(x for x in g.event_log[n:] if isinstance(x, ev.DamageDealt))
    assert hit.amount == 10


def test_status_decay_at_round_end_from_the_player_counts_this_round() -> None:
    g = gcs.Game(_pack("round_end"), seed=1)
    g.start_battle("shout")
    foe = g.enemies[0]
    g.add_card_to_hand("vzap")
    assert g.try_play_card(g.hand()[-1], foe)
    n = len(g.event_log)
    g.end_player_turn()  # applied by the player: decays at this round's end (2 -> 1)
    assert _decays(g, n, 1) == [("ENEMY_PHASE", 1)]
    assert foe.stacks("vuln") == 1


def test_status_stacks_added_by_an_enemy_to_an_existing_status_still_decay_this_round() -> None:
    g = gcs.Game(_pack("round_end"), seed=1)
    g.start_battle("shout")
    p = g.player
    assert p is not None
    g.end_player_turn()  # round 1: hex (just applied), round 2: hit, decays to 0
    g.end_player_turn()
    assert p.stacks("vuln") == 0
    g._e.s.units[0].statuses["vuln"] = 1  # as if it were still there from earlier
    n = len(g.event_log)
    g.end_player_turn()  # round 3: hex adds a stack to the one it has: 2, then decays to 1
    assert _decays(g, n, 0) == [("ENEMY_PHASE", 1)]


# ---------------------------------------------------------------- STUN intents
def test_enemy_stunned_shows_a_stun_intent_while_it_will_skip() -> None:
    stunned = StatusDef("stunned", "Stunned", debuff=True, decay=Decay.REMOVE, skip_turn=True)
    brute = EnemyDef("brute", "Brute", 40, 40,
                     moves=(MoveDef("smash", "Smash", IntentKind.ATTACK, damage=7,
                                    behaviour=N.DealDamage(7, PLAYER)),),
                     ai=AiDef(cycle=("smash",)))
    stun = card("stun", 0, target=TargetMode.SINGLE_ENEMY,
                on_play=N.ApplyStatus("stunned", 1, TARGET))
    g = gcs.Game(pack(stun, statuses=[stunned], enemies=[brute],
                      encounters=[EncounterDef("brute", "Brute", ("brute",))],
                      deck=[DeckEntry("stun", count=10)]), seed=1)
    g.start_battle("brute")
    b = g.enemies[0]
    assert b.pending_intents[0].kind is IntentKind.ATTACK and b.pending_intents[0].damage == 7
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0], b)
    it = b.pending_intents[0]
    assert (it.move, it.kind, it.damage) == ("smash", IntentKind.STUN, None)
    assert ev.EnemyUnitIntentChanged(1, "smash", None, 0) in g.event_log[n:]
    n = len(g.event_log)
    g.end_player_turn()  # it skips; the status goes at its turn end; the kept move shows again
    assert not [x for x in g.event_log[n:] if isinstance(x, ev.DamageDealt)]
    it = b.pending_intents[0]
    assert (it.move, it.kind, it.damage) == ("smash", IntentKind.ATTACK, 7)


@pytest.mark.parametrize("status", ["weak", "vulnerable", "frail"])
def test_bundled_debuffs_decay_at_the_round_end_like_slay_the_spire(status: str) -> None:
    assert BUILTIN.statuses[status].decay_at == "round_end"
    assert BUILTIN.statuses[status].decay is Decay.MINUS_ONE

"""The generic engine features the last Act 1 mechanics needed, pinned on the bundled pack as the
game plays them:

- ``wait_until: wave_end``: the rest of a reaction after the work already queued in the current
  effect wave (the game's ``addToBottom`` from inside ``damage()``): The Guardian's 20 Block and
  Defensive Mode after the whole card whose hit ran Mode Shift out, Lagavulin's Metallicize
  loss after the card that woke it. A pause in the card holds the continuation, which a save
  and a clone keep as frames.
- ``block: {raw: true}`` (Entrench: the current Block again, no Dexterity or Frail) and
  ``deal: {kind: thorns}`` (Burn, Decay: the game's THORNS damage: no Strength, Weak,
  Vulnerable, no ``on_attacked`` reaction; Block absorbs it).
- The ``gold`` value and ``reward_gold``: the Looter takes min(15, gold) and its loot comes back
  with the combat rewards, not when it dies; if it escapes, the gold is gone.
"""

from __future__ import annotations

from act1_support import battle as start
from act1_support import hero

import gcs
from gcs import events as ev
from gcs.battle import combat

C = gcs.builtin_content()


def battle(encounter: str, seed: int = 1) -> gcs.Game:
    """A started battle that logs its events as they happen (the tests below change the
    state directly, which a deferred log could not replay)."""
    g = start(C, encounter, seed)
    assert g.event_log is not None  # (reading the log ends its deferral)
    return g


def play(g: gcs.Game, card: str, target: gcs.Unit | None = None) -> None:
    g._e.s.energy = 9
    assert g.try_play_card(g.add_card_to_hand(card), target)


def lose(g: gcs.Game, u: gcs.Unit, amount: int) -> None:
    """``amount`` HP lost by ``u`` to an attack outside any card (no block), reactions run."""
    u.block = 0
    combat.deal_damage(g._e, hero(g), u, amount, None, attack=True)
    g._e.run()


# ---------------------------------------------------------------- the end of the wave
def test_guardian_shifts_after_the_whole_twin_strike_whose_first_hit_ran_mode_shift_out() -> None:
    g = battle("the_guardian")
    u = g.enemies[0]
    lose(g, u, 27)  # Mode Shift 3 left
    assert u.statuses["mode_shift"] == 3 and u.hp == 213
    play(g, "twin_strike", u)
    # the first hit (5) ran it out; Twin Strike waits 0.5 s before its second hit
    assert g.is_waiting and u.hp == 208 and "mode_shift" not in u.statuses
    assert u.block == 0 and u.move == "charging_up"  # the shift waits for the end of the wave
    g.advance_time(0.5)
    # the second hit is not blocked by those 20 (the game: ChangeStateAction at the bottom)
    assert u.hp == 203
    assert u.block == 20 and u.move == "defensive_mode"
    assert u.statuses == {"shift_threshold": 40}
    hits = [x for x in g.event_log if isinstance(x, ev.DamageDealt) and x.target == u.uid]
    assert [(x.amount, x.blocked) for x in hits[-2:]] == [(5, 0), (5, 0)]


def test_guardian_shift_on_the_last_hit_blocks_nothing_of_that_card_either() -> None:
    g = battle("the_guardian")
    u = g.enemies[0]
    lose(g, u, 22)  # 8 left: the second Twin Strike hit runs it out
    play(g, "twin_strike", u)
    g.advance_time(0.5)
    assert u.hp == 240 - 32 and u.block == 20 and u.move == "defensive_mode"


def test_a_paused_wave_saves_and_clones_its_wave_end_continuation() -> None:
    g = battle("the_guardian")
    u = g.enemies[0]
    lose(g, u, 27)
    play(g, "twin_strike", u)
    assert g.is_waiting and u.block == 0
    twin = g.clone()
    loaded = gcs.Game.from_json(C, g.to_json())
    for x in (g, twin, loaded):
        x.advance_time(0.5)
        v = x.enemies[0]
        assert (v.hp, v.block, v.move) == (203, 20, "defensive_mode")
    assert loaded.to_json() == g.to_json() == twin.to_json()


def test_lagavulin_loses_metallicize_after_the_card_that_woke_it() -> None:
    g = battle("lagavulin")
    u = g.enemies[0]
    u.block = 0
    play(g, "twin_strike", u)
    # woken by the first hit: stunned at once, Metallicize still there until the wave ends
    assert g.is_waiting and u.move == "stunned" and u.statuses == {"metallicize": 8}
    g.advance_time(0.5)
    assert u.statuses == {} and u.hp == u.max_hp - 10


def test_wave_end_in_a_wave_of_a_facade_call_resumes_before_the_call_returns() -> None:
    g = battle("the_guardian")
    u = g.enemies[0]
    lose(g, u, 30)  # no card, no phase: the wave is this call's; it ends with it
    assert u.block == 20 and u.move == "defensive_mode"


# ---------------------------------------------------------------- unfolded block, thorns
def test_entrench_doubles_the_block_untouched_by_dexterity_and_frail() -> None:
    g = battle("the_guardian")
    p = hero(g)
    combat.apply_status(g._e, p, "dexterity", 2)
    g._e.run()
    play(g, "defend")
    assert p.block == 7  # a Defend folds: 5 + 2 Dexterity
    play(g, "entrench")
    assert p.block == 14  # the game: GainBlockAction(current block), no Dexterity
    combat.apply_status(g._e, p, "frail", 2)
    g._e.run()
    play(g, "entrench")
    assert p.block == 28  # nor Frail


def test_burn_deals_thorns_damage_no_strength_weak_vulnerable_or_on_attacked() -> None:
    g = battle("the_guardian")  # Charging Up: no attack in the enemy's first turn
    p = hero(g)
    for sid, n in (("strength", 3), ("weak", 2), ("vulnerable", 2), ("flame_barrier", 4)):
        combat.apply_status(g._e, p, sid, n)
    g._e.run()
    for c in list(g.hand()):
        g.move_card_to_pile(c, gcs.PileScope.DISCARD)
    g.add_card_to_hand("burn")
    p.block = 1
    hp, guardian = p.hp, g.enemies[0].hp
    n = len(g.event_log)
    g.end_player_turn()
    hits = [x for x in g.event_log[n:] if isinstance(x, ev.DamageDealt) and x.target == 0]
    assert [(x.amount, x.blocked, x.hp_lost) for x in hits] == [(2, 1, 1)]  # Block absorbs it
    assert p.hp == hp - 1
    assert g.enemies[0].hp == guardian  # no Flame Barrier reaction: not an attack


def test_upgraded_burn_and_decay_deal_their_number_unmodified() -> None:
    g = battle("the_guardian")
    p = hero(g)
    combat.apply_status(g._e, p, "vulnerable", 2)
    g._e.run()
    for c in list(g.hand()):
        g.move_card_to_pile(c, gcs.PileScope.DISCARD)
    g.add_card_to_hand("burn", upgraded=True)
    g.add_card_to_hand("decay")
    hp = p.hp
    g.end_player_turn()
    assert p.hp == hp - 4 - 2


# ---------------------------------------------------------------- gold and rewards
def test_looter_takes_at_most_the_gold_the_player_has_and_remembers_it() -> None:
    g = battle("looter")
    u = g.enemies[0]
    g._e.s.gold = 20
    g.end_player_turn()  # Mug: 15
    assert g.gold == 5 and u.stacks("stolen_gold") == 15
    g.end_player_turn()  # Mug: only 5 left
    assert g.gold == 0 and u.stacks("stolen_gold") == 20


def test_looter_with_no_gold_to_take_holds_no_loot() -> None:
    g = battle("looter")
    g._e.s.gold = 0
    g.end_player_turn()
    assert g.gold == 0 and "stolen_gold" not in g.enemies[0].statuses


def test_looter_loot_comes_back_with_the_combat_rewards_not_when_it_dies() -> None:
    g = battle("looter")
    u = g.enemies[0]
    gold = g.gold
    g.end_player_turn()
    g.end_player_turn()  # two Mugs
    assert g.gold == gold - 30 and u.stacks("stolen_gold") == 30
    n = len(g.event_log)
    play(g, "twin_strike", u)  # the kill, in a paused wave: the loot waits in the rewards
    u.block = 0
    combat.lose_hp(g._e, u, u.hp - 1)
    g.advance_time(0.5)
    assert not u.alive and g.is_waiting_for_reward
    added = [x for x in g.event_log[n:] if isinstance(x, ev.RewardGoldAdded)]
    assert [(x.amount, x.total) for x in added] == [(30, 30)]
    gained = [x.amount for x in g.event_log[n:] if isinstance(x, ev.GoldGained)]
    table = C.reward_tables[C.encounter("looter").rewards]
    assert len(gained) == 2 and table.gold_min <= gained[0] <= table.gold_max
    assert gained[1] == 30  # the loot, after the table's gold, when the rewards are offered
    assert g.gold == gold - 30 + gained[0] + 30 and g.reward_gold == 0


def test_looter_loot_waits_in_the_rewards_until_the_battle_is_won() -> None:
    g = battle("looter")
    u = g.enemies[0]
    g.end_player_turn()
    gold = g.gold
    combat.lose_hp(g._e, u, u.hp)
    g._e.run()  # its on_death branch: the loot goes into the rewards, not to the player
    assert not u.alive and g.reward_gold == 15 and g.gold == gold
    g.add_card_to_hand("defend")  # a facade call's wave ends with the battle re-read: won
    assert g.is_waiting_for_reward and g.reward_gold == 0
    table = C.reward_tables[C.encounter("looter").rewards]
    assert gold + table.gold_min + 15 <= g.gold <= gold + table.gold_max + 15


def test_looter_that_escapes_keeps_the_gold() -> None:
    g = battle("looter", 1)
    gold = g.gold
    u = g.enemies[0]
    n = len(g.event_log)
    while u.alive and g.turn_number < 10:
        g.end_player_turn()
    assert u.history[-1] == "escape" and g.is_waiting_for_reward
    assert not [x for x in g.event_log[n:] if isinstance(x, ev.RewardGoldAdded)]
    changes = [x.amount for x in g.event_log[n:] if isinstance(x, ev.GoldGained)]
    stolen = [-a for a in changes if a < 0]
    assert stolen in ([15, 15], [15, 15, 15])  # two Mugs, and a Lunge on one of the paths
    granted = [a for a in changes if a > 0]
    assert len(granted) == 1  # the table's gold only: the loot left with the Looter
    assert g.gold == gold - sum(stolen) + granted[0] and g.reward_gold == 0


def test_the_gold_value_reads_the_players_gold() -> None:
    from gcs.flow.exprs import UnitStat
    from gcs.interp.values import val
    g = battle("looter")
    g._e.s.gold = 42
    ctx = gcs.battle.state.Ctx(0, -1, -1, "", "test")
    assert val(g._e, UnitStat("gold"), ctx) == 42

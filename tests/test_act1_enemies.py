"""The bundled Act 1 plays like Slay the Spire at A0: compositions, openers, repeat limits,
re-pick odds, the Large Slime's split, Bite rolled per louse, Red Slaver and Looter AI.

Statistical checks draw N independent picks on seeded streams and accept a frequency within
``TOL`` of the game's probability. ``TOL`` is a 4-sigma binomial bound for the worst case
p = 1/2 at N = 20,000 (sigma = sqrt(p(1-p)/N) ~ 0.0035, so 4 sigma ~ 0.014): a correct
implementation fails with probability < 1e-4 per check, and the seeds are fixed, so the
result never changes between runs; every wrong odds this suite guards against (a re-pick in
proportion to the remaining weights, a 50/50 instead of 40/60) is off by >= 0.04.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import pairwise

import gcs
from gcs.battle import combat
from gcs.battle.intents import choose_move, plan_intent
from gcs.enums import BattlePhase
from gcs.rng import Rng, derive
from gcs.steps.start import roll_enemies

C = gcs.builtin_content()
N = 20_000
TOL = 4 * math.sqrt(0.25 / N)


def near(count: int, p: float, n: int = N) -> bool:
    """``count`` successes out of ``n`` are within the 4-sigma bound of probability ``p``."""
    return abs(count / n - p) <= 4 * math.sqrt(0.25 / n)


def hero(g: gcs.Game) -> gcs.Unit:
    return g._e.s.units[0]


def rolls(encounter: str, n: int = N) -> Counter[tuple[str, ...]]:
    enc = C.encounter(encounter)
    return Counter(roll_enemies(enc, Rng(derive(i, "encounter"))) for i in range(n))


def battle(encounter: str, seed: int = 1) -> gcs.Game:
    g = gcs.Game(C, seed=seed)
    g.start_battle(encounter)
    return g


def first(encounter: str, enemy: str, limit: int = 200) -> gcs.Game:
    """The first seeded battle of ``encounter`` whose first enemy is ``enemy``."""
    for seed in range(1, limit):
        g = battle(encounter, seed)
        if g.enemies[0].def_id == enemy:
            return g
    raise AssertionError(f"no seed below {limit} rolls {enemy} in {encounter}")


def picks(g: gcs.Game, history: list[str], n: int = N, i: int = 0) -> Counter[str]:
    """``n`` independent next-move picks of enemy ``i`` after ``history``."""
    u = g.enemies[i]
    u.history = list(history)
    d = C.enemies[u.def_id]
    return Counter(choose_move(g._e, u, d) for _ in range(n))


def planned(g: gcs.Game, n: int, i: int = 0) -> list[str]:
    """Enemy ``i``'s first ``n`` planned moves (planned directly, battle not played)."""
    u = g.enemies[i]
    for _ in range(n - len(u.history)):
        plan_intent(g._e, u)
    return list(u.history)


def runs(history: list[str], move: str) -> int:
    """The longest run of ``move`` in ``history``."""
    best = cur = 0
    for m in history:
        cur = cur + 1 if m == move else 0
        best = max(best, cur)
    return best


# ---------------------------------------------------------------- compositions
def test_large_slime_is_acid_or_spike_slime_l_fifty_fifty() -> None:
    got = rolls("large_slime")
    assert set(got) == {("acid_slime_l",), ("spike_slime_l",)}
    assert near(got["acid_slime_l",], 0.5)


def test_small_slimes_pair_one_small_with_one_medium_of_the_other_kind_fifty_fifty() -> None:
    got = rolls("small_slimes")
    assert set(got) == {("spike_slime_s", "acid_slime_m"), ("acid_slime_s", "spike_slime_m")}
    assert near(got["spike_slime_s", "acid_slime_m"], 0.5)


def test_two_louses_roll_each_louse_colour_per_slot() -> None:
    got = rolls("two_louses")
    kinds = ("louse_red", "louse_green")
    assert set(got) == {(a, b) for a in kinds for b in kinds}
    for combo in got:
        assert near(got[combo], 0.25), (combo, got[combo])


def test_encounter_roll_is_seeded_and_the_battle_fields_the_rolled_enemies() -> None:
    seen = set()
    for seed in range(1, 30):
        a = [u.def_id for u in battle("two_louses", seed).enemies]
        assert a == [u.def_id for u in battle("two_louses", seed).enemies]
        seen.add(tuple(a))
    assert len(seen) == 4


def test_fixed_encounters_keep_their_enemies() -> None:
    assert [u.def_id for u in battle("two_fungi_beasts").enemies] == ["fungi_beast"] * 2
    assert C.encounter("jaw_worm").groups == ()


# ---------------------------------------------------------------- jaw worm
def test_jaw_worm_re_picks_with_the_game_odds_when_a_repeat_limit_blocks() -> None:
    # The game's odds beside what a re-pick in proportion to the other weights would give
    # (after a Chomp: Bellow 0.6000; after a Bellow: Chomp 0.4545): 80,000 picks put the
    # 4-sigma bound at 0.0071, inside both gaps (0.0094 and 0.0173).
    n = 80_000
    g = battle("jaw_worm")
    assert planned(g, 1) == ["chomp"]
    # Chomp last -> Chomp's 25% re-picks Bellow 56.25% / Thrash: Bellow 0.45 + 0.140625
    got = picks(g, ["chomp"], n)
    assert got["chomp"] == 0 and near(got["bellow"], 0.590625, n)
    # Bellow last -> Bellow's 45% re-picks Chomp 41.6% / Thrash: Chomp 0.25 + 0.1872
    got = picks(g, ["chomp", "bellow"], n)
    assert got["bellow"] == 0 and near(got["chomp"], 0.4372, n)
    # Thrash twice -> Thrash's 30% re-picks Chomp 35.7% / Bellow: Chomp 0.25 + 0.1071
    got = picks(g, ["chomp", "thrash", "thrash"], n)
    assert got["thrash"] == 0 and near(got["chomp"], 0.3571, n)
    # nothing blocked: the plain 25/30/45 draw
    got = picks(g, ["chomp", "thrash"], n)
    assert near(got["chomp"], 0.25, n) and near(got["thrash"], 0.30, n)


def test_jaw_worm_never_chomps_or_bellows_twice_nor_thrashes_three_times() -> None:
    h = planned(battle("jaw_worm", 2), 3000)
    assert h[0] == "chomp"
    assert runs(h, "chomp") == 1 and runs(h, "bellow") == 1 and runs(h, "thrash") == 2


# ---------------------------------------------------------------- louses
def test_louse_bite_is_rolled_5_to_7_once_per_louse() -> None:
    seen: Counter[int] = Counter()
    differ = False
    for seed in range(1, 120):
        g = battle("two_louses", seed)
        bites = [u.rolled["bite"] for u in g.enemies]
        seen.update(bites)
        differ = differ or bites[0] != bites[1]
        for u in g.enemies:
            plan_intent(g._e, u)  # a louse keeps its roll for the whole battle
            assert u.rolled["bite"] == bites[u.uid - 1]
            it = u.intent
            if it is not None and it.move == "bite":
                assert it.damage == u.rolled["bite"]
    assert set(seen) == {5, 6, 7} and differ


def test_louse_bite_deals_the_louse_own_roll() -> None:
    for seed in range(1, 60):
        g = battle("two_louses", seed)
        u = g.enemies[0]
        if u.move == "bite":
            hp = hero(g).hp
            g._e.s.units[2].alive = False  # only the first louse acts
            g.end_player_turn()
            assert hp - hero(g).hp == u.rolled["bite"]
            return
    raise AssertionError("no seed opens with a Bite")


def test_red_louse_grow_and_green_louse_spit_web_repeat_at_most_twice() -> None:
    for enemy, buff in (("louse_red", "grow"), ("louse_green", "spit_web")):
        g = first("two_louses", enemy)
        h = planned(g, 3000)
        assert runs(h, buff) == 2, enemy  # twice in a row happens, three times never
        assert runs(h, "bite") == 2
        # a blocked pick takes the other move: the buff after Bite, Bite after the buff
        assert picks(g, ["bite", "bite"], 200) == Counter({buff: 200})
        assert picks(g, [buff, buff], 200) == Counter({"bite": 200})
        assert near(picks(g, ["bite"])[buff], 0.25)


# ---------------------------------------------------------------- slimes
def test_acid_slime_m_and_l_lick_twice_in_a_row_but_not_three_times() -> None:
    for enc, enemy, i in (("small_slimes", "spike_slime_s", 1), ("large_slime", "acid_slime_l", 0)):
        g = first(enc, enemy)  # Small Slimes: Spike Slime (S) + Acid Slime (M), the second unit
        assert g.enemies[i].def_id in ("acid_slime_m", "acid_slime_l")
        h = planned(g, 3000, i)
        assert runs(h, "lick") == 2 and runs(h, "corrosive_spit") == 2 and runs(h, "tackle") == 1
        assert near(picks(g, ["tackle"], i=i)["corrosive_spit"], 0.46)


def test_acid_slime_re_picks_with_the_game_odds_when_a_repeat_limit_blocks() -> None:
    g = first("large_slime", "acid_slime_l")
    # Spit twice -> Spit's 30% re-picks Tackle/Lick 50/50: Tackle 0.40 + 0.15
    got = picks(g, ["corrosive_spit", "corrosive_spit"])
    assert got["corrosive_spit"] == 0 and near(got["tackle"], 0.55)
    # Tackle last -> Tackle's 40% re-picks Spit 40% / Lick 60%: Spit 0.30 + 0.16
    got = picks(g, ["tackle"])
    assert got["tackle"] == 0 and near(got["corrosive_spit"], 0.46)
    # Lick twice -> Lick's 30% re-picks Spit 40% / Tackle 60%: Spit 0.30 + 0.12
    got = picks(g, ["lick", "lick"])
    assert got["lick"] == 0 and near(got["corrosive_spit"], 0.42)
    # nothing blocked: the plain 30/40/30 draw
    got = picks(g, ["lick"])
    assert near(got["corrosive_spit"], 0.30) and near(got["tackle"], 0.40)


def test_spike_slime_tackle_and_lick_repeat_at_most_twice() -> None:
    g = first("large_slime", "spike_slime_l")
    h = planned(g, 3000)
    assert runs(h, "flame_tackle") == 2 and runs(h, "lick") == 2
    assert picks(g, ["lick", "lick"], 200) == Counter({"flame_tackle": 200})
    assert near(picks(g, ["lick"])["flame_tackle"], 0.30)


def test_acid_slime_s_opens_at_random_then_alternates_tackle_and_lick() -> None:
    opens: Counter[str] = Counter()
    for seed in range(1, 400):
        g = battle("small_slimes", seed)
        if g.enemies[0].def_id != "acid_slime_s":
            continue
        h = planned(g, 12)
        opens[h[0]] += 1
        assert all(a != b for a, b in pairwise(h)), h
    n = sum(opens.values())
    assert set(opens) == {"tackle", "lick"} and near(opens["tackle"], 0.5, n)


def test_spike_slime_s_always_tackles_for_5() -> None:
    g = first("small_slimes", "spike_slime_s")
    assert planned(g, 5) == ["tackle"] * 5 and g.enemies[0].intent is not None
    assert g.enemies[0].intent.damage == 5


def test_large_slime_switches_to_split_the_moment_its_hp_reaches_half() -> None:
    for enemy in ("acid_slime_l", "spike_slime_l"):
        g = first("large_slime", enemy)
        e = g._e
        u = g.enemies[0]
        above = u.hp - (u.max_hp // 2 + 1)  # leaves it one HP above half: no change
        combat.lose_hp(e, u, above)
        assert u.move != "split"
        n = len(g.event_log)
        combat.deal_damage(e, hero(g), u, 1, None, attack=True)  # now exactly half (or less)
        assert u.hp * 2 <= u.max_hp and u.move == "split"
        log = g.event_log[n:]
        assert [type(x).__name__ for x in log] == ["DamageDealt", "EnemyUnitIntentChanged"]
        assert log[1].move == "split"  # type: ignore[attr-defined]
        assert u.history == ["split"]  # the replaced move was never made
        left = u.hp
        g.end_player_turn()
        assert not u.alive
        kids = g.enemies[1:]
        medium = enemy.replace("_l", "_m")
        assert [k.def_id for k in kids] == [medium, medium]
        assert all(k.alive and k.hp == k.max_hp == left for k in kids)


def test_large_slime_killed_outright_does_not_split() -> None:
    g = first("large_slime", "acid_slime_l")
    u = g.enemies[0]
    combat.lose_hp(g._e, u, u.hp)
    assert not u.alive and u.move != "split"
    assert len(g.enemies) == 1


# ---------------------------------------------------------------- slavers, looter
def test_red_slaver_opens_with_stab_and_entangles_at_most_once() -> None:
    entangled = 0
    for seed in range(1, 200):
        g = battle("red_slaver", seed)
        h = planned(g, 30)
        assert h[0] == "stab"
        assert h.count("entangle") <= 1
        entangled += "entangle" in h
        assert runs(h, "scrape") <= 2 and runs(h, "stab") <= 2
        if "entangle" in h:  # Stab before Entangle only after two Scrapes
            pre = h[1:h.index("entangle")]
            for i, m in enumerate(pre):
                assert m != "stab" or pre[i - 2:i] == ["scrape", "scrape"], pre
    assert entangled > 190  # 25% per planning: 0.75**29 of the battles never entangle


def test_red_slaver_odds_before_and_after_entangle() -> None:
    g = battle("red_slaver")
    got = picks(g, ["stab"])
    assert near(got["entangle"], 0.25) and got["entangle"] + got["scrape"] == N
    got = picks(g, ["stab", "scrape", "scrape"])  # Scrape blocked -> Stab
    assert near(got["stab"], 0.75) and got["scrape"] == 0
    got = picks(g, ["stab", "entangle"])  # used: Stab 45 / Scrape 55, never Entangle again
    assert got["entangle"] == 0 and near(got["stab"], 0.45)
    got = picks(g, ["entangle", "stab", "stab"])
    assert got == Counter({"scrape": N})


def test_looter_mugs_twice_then_lunges_or_smoke_bombs_fifty_fifty() -> None:
    paths: Counter[tuple[str, ...]] = Counter()
    for seed in range(1, 801):
        paths[tuple(planned(battle("looter", seed), 5))] += 1
    assert set(paths) == {("mug", "mug", "smoke_bomb", "escape", "escape"),
                          ("mug", "mug", "lunge", "smoke_bomb", "escape")}
    assert near(paths["mug", "mug", "lunge", "smoke_bomb", "escape"], 0.5, 800)


def test_looter_escapes_on_the_turn_after_its_smoke_bomb() -> None:
    for seed in (1, 2, 3, 4, 5, 6):
        g = battle("looter", seed)
        u = g.enemies[0]
        made: list[str] = []
        while u.alive and g.turn_number < 10:
            made.append(u.move)
            g.end_player_turn()
        assert made[-2:] == ["smoke_bomb", "escape"], made
        assert not u.alive and g.phase is BattlePhase.BATTLE_WON  # it left: the battle is over


def test_looter_returns_the_stolen_gold_when_killed_but_not_when_it_escapes() -> None:
    g = battle("looter", 1)
    u = g.enemies[0]
    gold = g.gold
    g.end_player_turn()
    g.end_player_turn()  # two Mugs
    assert g.gold == gold - 30 and u.stacks("stolen_gold") == 30
    combat.lose_hp(g._e, u, u.hp)
    g._e.run()  # its on_death branch: the loot goes into the rewards (the game's)
    assert g.reward_gold == 30 and g.gold == gold - 30
    g.add_card_to_hand("strike")  # a call whose wave ends with the battle re-read: won
    assert g.is_waiting_for_reward and g.reward_gold == 0 and g.gold >= gold
    g = battle("looter", 1)
    gold = g.gold
    while g.enemies[0].alive and g.turn_number < 10:
        g.end_player_turn()
    assert g.gold < gold  # it escaped with the loot

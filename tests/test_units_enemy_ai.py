"""Generic enemy-AI and encounter features: weighted fallbacks, once/after/before entries,
at-once HP rules, per-unit rolled move damage, spawning with a given HP, rolled encounters
(YAML, builder, dump and validation included)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from test_units_support import TARGET, card, encounter, enemy, game, hit, idle, pack, status

import gcs
from gcs.battle import combat
from gcs.battle.intents import choose_move, plan_intent
from gcs.content import builder as b
from gcs.content.db import Content
from gcs.content.defs import AiDef, DeckEntry, EncounterDef, EnemyDef, HpRule, MoveDef, WeightedMove
from gcs.content.dump import dump_content
from gcs.enums import IntentKind, TargetMode
from gcs.errors import ContentError
from gcs.flow import nodes as N
from gcs.flow.exprs import BinOp, UnitSel, Var


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GCS_CACHE_DIR", str(tmp_path / "cache"))


def ai_pack(ai: AiDef, hp: int = 100, extra: tuple[EnemyDef, ...] = ()) -> Content:
    moves = [idle(m) for m in ("a", "b", "c", "rage")]
    return pack(enemies=[enemy("bot", hp, moves, ai), *extra], encounters=[encounter("bot")],
                cards=[card("smack", 0, target=TargetMode.SINGLE_ENEMY,
                            on_play=N.DealDamage(30, TARGET))],
                deck=[DeckEntry("smack", count=10)])


def draws(ai: AiDef, history: list[str], n: int = 4000) -> Counter[str]:
    g = game(ai_pack(ai), "bot")
    u = g.enemies[0]
    u.history = list(history)
    d = g.content.enemies["bot"]
    return Counter(choose_move(g._e, u, d) for _ in range(n))


# ---------------------------------------------------------------- weighted tables
def test_weighted_blocked_entry_with_fallback_stays_in_the_draw_and_re_picks_from_it() -> None:
    ai = AiDef(weighted=(WeightedMove("a", 50, 1, fallback=(("c", 1),)), WeightedMove("b", 50)))
    got = draws(ai, ["a"])
    assert got["a"] == 0 and set(got) == {"b", "c"}
    assert abs(got["c"] / 4000 - 0.5) < 4 * (0.25 / 4000) ** 0.5  # a's half goes to c
    assert set(draws(ai, ["b"])) == {"a", "b"}  # not blocked: no fallback


def test_weighted_blocked_entry_without_fallback_is_left_out_as_before() -> None:
    ai = AiDef(weighted=(WeightedMove("a", 50, 1), WeightedMove("b", 25), WeightedMove("c", 25)))
    got = draws(ai, ["a"])
    assert got["a"] == 0 and abs(got["b"] / 4000 - 0.5) < 0.04  # b and c share a's weight


def test_weighted_once_entry_is_planned_at_most_once() -> None:
    ai = AiDef(weighted=(WeightedMove("a", 90, once=True), WeightedMove("b", 10)))
    assert draws(ai, ["a"]) == Counter({"b": 4000})
    assert draws(ai, [])["a"] > 3000


def test_weighted_after_and_before_entries_follow_the_planned_moves() -> None:
    ai = AiDef(opener=("c",), weighted=(WeightedMove("a", 1, before="rage"),
                                        WeightedMove("b", 1, after="rage")))
    assert draws(ai, ["c"], 200) == Counter({"a": 200})
    assert draws(ai, ["c", "rage"], 200) == Counter({"b": 200})


def test_weighted_fallback_draw_uses_its_own_weights() -> None:
    ai = AiDef(weighted=(WeightedMove("a", 1, 1, fallback=(("b", 1), ("c", 3))),))
    got = draws(ai, ["a"])
    assert got["a"] == 0 and abs(got["c"] / 4000 - 0.75) < 4 * (0.25 / 4000) ** 0.5


# ---------------------------------------------------------------- HP rules at once
def test_hp_rule_at_once_replaces_the_planned_move_when_the_damage_lands() -> None:
    ai = AiDef(cycle=("a", "b"), hp_rules=(HpRule(50, "rage", at_once=True),))
    g = game(ai_pack(ai), "bot")
    u = g.enemies[0]
    assert u.move == "a"
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0], u)  # 100 -> 70: above half, nothing
    assert u.move == "a"
    assert g.try_play_card(g.hand()[0], u)  # 70 -> 40
    kinds = [type(x).__name__ for x in g.event_log[n:]]
    assert kinds.count("EnemyUnitIntentChanged") == 1
    assert u.move == "rage" and u.history == ["rage"] and u.intent is not None
    assert u.intent.move == "rage"
    g.end_player_turn()  # the rule was used: the cycle resumes at its first move
    assert u.history == ["rage", "a"]


def test_hp_rule_at_once_during_the_enemy_own_turn_is_kept_for_its_next_turn() -> None:
    thorns = N.DealDamage(60, UnitSel("target"))  # Flame Barrier-like: hits the attacker back
    ai = AiDef(cycle=("hit",), hp_rules=(HpRule(50, "rage", at_once=True),))
    moves = [hit("hit", 1), idle("rage")]
    c = pack(enemies=[enemy("bot", 100, moves, ai)], encounters=[encounter("bot")],
             statuses=[status("spiky", entries={"on_attacked": thorns})],
             player_statuses={"spiky": 1})
    g = game(c, "bot")
    u = g.enemies[0]
    g.end_player_turn()  # its Hit runs, the thorns drop it to 40/100 during its own turn
    assert u.hp == 40 and u.move == "rage" and u.history == ["hit", "rage"]
    g.end_player_turn()  # Rage is made, then the cycle goes on
    assert u.history == ["hit", "rage", "hit"]


def test_hp_rule_without_at_once_waits_for_the_planning() -> None:
    ai = AiDef(cycle=("a", "b"), hp_rules=(HpRule(50, "rage"),))
    g = game(ai_pack(ai), "bot")
    u = g.enemies[0]
    combat.lose_hp(g._e, u, 60)
    assert u.move == "a"
    g.end_player_turn()
    assert u.move == "rage"


# ---------------------------------------------------------------- rolled damage, spawn HP
def rolled_pack() -> Content:
    bite = MoveDef("bite", "Bite", IntentKind.ATTACK, damage=5, damage_max=7,
                   behaviour=N.DealDamage(Var("damage"), UnitSel("target")))
    return pack(enemies=[enemy("louse", 30, [bite])], encounters=[encounter("two", "louse", "louse")])


def test_rolled_damage_is_rolled_once_per_unit_and_shown_and_dealt() -> None:
    seen = set()
    for seed in range(1, 40):
        g = game(rolled_pack(), "two", seed=seed)
        for u in g.enemies:
            assert 5 <= u.rolled["bite"] <= 7
            assert u.intent is not None and u.intent.damage == u.rolled["bite"]
            seen.add(u.rolled["bite"])
        hp = g._e.s.units[0].hp
        g.end_player_turn()
        assert hp - g._e.s.units[0].hp == sum(u.rolled["bite"] for u in g.enemies)
    assert seen == {5, 6, 7}


def test_rolled_damage_survives_clone_and_json() -> None:
    g = game(rolled_pack(), "two", seed=4)
    want = [u.rolled for u in g.enemies]
    assert [u.rolled for u in g.clone().enemies] == want
    again = gcs.Game.from_json(g.content, g.to_json())
    assert [u.rolled for u in again.enemies] == want


def test_spawn_with_hp_sets_the_summoned_unit_max_and_current_hp() -> None:
    split = idle("split", N.SpawnEnemy("kid", hp=BinOp("add", 10, 7)))
    kid = enemy("kid", 50, [hit("poke", 1)])
    c = pack(enemies=[enemy("mom", 40, [split]), kid], encounters=[encounter("mom")])
    g = game(c, "mom")
    g.end_player_turn()
    spawned = g.enemies[1]
    assert spawned.def_id == "kid" and spawned.hp == spawned.max_hp == 17


# ---------------------------------------------------------------- encounters
def test_encounter_groups_and_rolled_slots_pick_among_their_options() -> None:
    two = EncounterDef("mix", "Mix", ("louse",), groups=((("louse",), ("louse", "bot")),))
    c = pack(enemies=[enemy("louse", 30, [hit("bite", 1)]), enemy("bot", 30, [idle("a")])],
             encounters=[two])
    got = Counter(tuple(u.def_id for u in game(c, "mix", seed=s).enemies) for s in range(1, 200))
    assert set(got) == {("louse", "louse"), ("louse", "bot")}
    assert two.enemy_ids() == ("louse", "bot")


YAML = {
    "pack": "t",
    "enemies": {
        "louse": {"hp": [10, 15], "moves": {"bite": {"intent": "attack", "damage": [5, 7]},
                                            "grow": {"intent": "buff"},
                                            "split": {"intent": "unknown",
                                                      "do": {"spawn": {"enemy": "louse",
                                                                       "hp": {"hp": "self"}}}}},
                  "ai": {"opener": ["bite"],
                         "weighted": [{"move": "bite", "weight": 3, "max_in_row": 2,
                                       "fallback": {"grow": 1}},
                                      {"move": "grow", "weight": 1, "once": True},
                                      {"move": "grow", "weight": 2, "after": "grow",
                                       "before": "split"}],
                         "hp_rules": [{"below_percent": 50, "move": "split", "at_once": True}]}},
        "slug": {"hp": 5, "moves": {"nap": {"intent": "sleep"}}, "ai": {"cycle": ["nap"]}},
    },
    "encounters": {
        "lice": {"enemies": [["louse", "slug"], "louse"]},
        "either": {"groups": [["louse"], ["slug", "slug"]]},
    },
}


def test_new_fields_load_from_yaml_match_the_builder_and_dump_round_trips() -> None:
    c = gcs.load_content(YAML)
    louse = c.enemies["louse"]
    assert louse.move("bite").damage == 5 and louse.move("bite").damage_max == 7
    w = louse.ai.weighted
    assert w[0].fallback == (("grow", 1),) and w[1].once and w[2].after == "grow"
    assert louse.ai.hp_rules[0].at_once
    assert c.encounters["lice"].groups == ((("louse", "slug"), ("louse",)),)
    assert c.encounters["either"].groups == ((("louse",),), (("slug",), ("slug",)))
    again = gcs.load_content(dump_content(c))
    assert dict(again.enemies) == dict(c.enemies)
    assert dict(again.encounters) == dict(c.encounters)
    built = b.pack(
        "t",
        b.enemy("louse", hp=(10, 15), moves=[
            b.enemy_move("bite", "attack", damage=(5, 7)), b.enemy_move("grow", "buff"),
            b.enemy_move("split", "unknown", do={"spawn": {"enemy": "louse", "hp": {"hp": "self"}}})],
            ai=b.ai(opener=["bite"], weighted=YAML["enemies"]["louse"]["ai"]["weighted"],  # type: ignore[index]
                    hp_rules=[{"below_percent": 50, "move": "split", "at_once": True}])),
        b.enemy("slug", hp=5, moves=[b.enemy_move("nap", "sleep")], ai=b.ai(cycle=["nap"])),
        b.encounter("lice", [["louse", "slug"], "louse"]),
        b.encounter("either", groups=[["louse"], ["slug", "slug"]]),
    )
    assert dict(built.enemies) == dict(c.enemies)
    assert dict(built.encounters) == dict(c.encounters)


@pytest.mark.parametrize(("patch", "message"), [
    ({"encounters": {"x": {"enemies": ["louse"], "groups": [["louse"]]}}}, "exactly one of"),
    ({"encounters": {"x": {}}}, "exactly one of"),
    ({"encounters": {"x": {"enemies": [[]]}}}, "at least one enemy id"),
    ({"encounters": {"x": {"groups": [["nobody"]]}}}, "unknown enemy"),
    ({"enemies": {"slug": {"hp": 5, "moves": {"nap": {"intent": "sleep"}},
                           "ai": {"weighted": {"nap": {"weight": 1, "fallback": {"zzz": 1}}}}}}},
     "unknown move 'zzz'"),
    ({"enemies": {"slug": {"hp": 5, "moves": {"nap": {"intent": "sleep"}},
                           "ai": {"weighted": [{"weight": 1}]}}}}, "missing"),
    ({"enemies": {"slug": {"hp": 5, "moves": {"nap": {"intent": "attack", "damage": [7, 5]}},
                           "ai": {"cycle": ["nap"]}}}}, "bad range"),
])
def test_new_fields_are_validated(patch: dict[str, object], message: str) -> None:
    data = {**YAML, **{k: {**YAML[k], **v} for k, v in patch.items()}}  # type: ignore[dict-item]
    with pytest.raises(ContentError, match=message):
        gcs.load_content(data)


def test_plan_intent_uses_fallbacks_in_a_real_battle() -> None:
    ai = AiDef(weighted=(WeightedMove("a", 1, 1, fallback=(("b", 1),)),))
    g = game(ai_pack(ai), "bot")
    u = g.enemies[0]
    for _ in range(5):
        plan_intent(g._e, u)
    assert u.history == ["a", "b", "a", "b", "a", "b"]

"""Generic enemy-AI features for Act 1's elites: AI ``rules`` (a condition picks the move), a
move's ``next``, the ``set_move`` node, and hidden statuses (YAML, builder, dump and validation
included)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import gcs
from gcs.agent import observation
from gcs.battle import combat
from gcs.content import builder as b
from gcs.content.dump import dump_content
from gcs.enums import BattlePhase
from gcs.env.observe import Vocab
from gcs.errors import ContentError
from gcs.monitor.snapshot import build
from gcs.monitor.text import render


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GCS_CACHE_DIR", str(tmp_path / "cache"))


def yaml_pack() -> dict[str, Any]:
    return {
        "pack": "t",
        "cards": {"poke": {"name": "Poke", "cost": 0, "type": "attack", "target": "single_enemy",
                           "on_play": "deal 5"}},
        "characters": {"hero": {"max_hp": 50, "deck": {"poke": 10}}},
        "statuses": {
            "dozing": {"hidden": True, "text": "asleep",
                       "on_damage_taken": ["remove_status dozing", "set_move jolt"]},
            "ward": {"negates_debuffs": True},
            "weak": {"debuff": True, "decay": "minus_one", "modifiers": ["deal *3/4"]},
        },
        "enemies": {
            "bear": {"hp": 40, "statuses": {"dozing": 1},
                     "moves": {"snore": {"intent": "sleep"}, "jolt": {"intent": "stun"},
                               "swipe": {"intent": "attack", "damage": 3},
                               "roar": {"intent": "buff", "next": "swipe"},
                               "hug": {"intent": "attack", "damage": 1},
                               "hex": {"intent": "debuff", "do": "apply weak 1 to target"}},
                     "ai": {"rules": [{"when": {"has_status": "dozing"}, "move": "snore"},
                                      {"when": {"lt": [{"hp": "target"}, 45]}, "move": "roar"}],
                            "cycle": ["hug"]}},
        },
        "encounters": {"bear": {"enemies": ["bear"]}},
    }


def battle(data: dict[str, Any] | None = None) -> gcs.Game:
    g = gcs.Game(gcs.load_content(data or yaml_pack()), seed=1)
    g.start_battle("bear")
    return g


def test_ai_rules_are_checked_in_order_before_the_cycle() -> None:
    g = battle()
    u = g.enemies[0]
    assert u.move == "snore"  # the first rule holds
    g.end_player_turn()
    g.end_player_turn()
    assert u.history == ["snore", "snore", "snore"]  # still dozing: no cycle move yet
    assert g.player.hp == 50


def test_a_rule_reads_target_as_the_player_and_next_follows_the_move_made() -> None:
    data = yaml_pack()
    data["enemies"]["bear"]["statuses"] = {}
    g = battle(data)
    u = g.enemies[0]
    assert u.move == "hug"  # player at 50 HP: no rule holds, the cycle
    g.end_player_turn()  # Hug: 49 HP, below 45? no
    assert u.history == ["hug", "hug"]
    combat.lose_hp(g._e, g._e.s.units[0], 10)  # 39 HP: now the roar rule holds
    g.end_player_turn()
    assert u.history[-1] == "roar"
    combat.heal(g._e, g._e.s.units[0], 30)  # the rule no longer holds
    g.end_player_turn()  # Roar made: its next is Swipe, whatever the cycle says
    assert u.history[-2:] == ["roar", "swipe"]
    g.end_player_turn()
    assert u.history[-1] == "hug"  # neither rules nor next: the cycle (not advanced by them)
    assert u.history == ["hug", "hug", "roar", "swipe", "hug"]


def test_set_move_replaces_the_planned_move_at_once_and_the_ai_goes_on() -> None:
    g = battle()
    u = g.enemies[0]
    g.end_player_turn()
    n = len(g.event_log)
    assert g.try_play_card(g.hand()[0], u)  # HP lost: dozing's reaction wakes it
    log = g.event_log[n:]
    changed = [x for x in log if isinstance(x, gcs.events.EnemyUnitIntentChanged)]
    assert [x.move for x in changed] == ["jolt"]
    assert u.move == "jolt" and u.history == ["snore", "jolt"]  # the planned Snore never made
    assert u.intent is not None and u.intent.kind.value == "stun"
    g.end_player_turn()
    assert u.history == ["snore", "jolt", "hug"]


def test_set_move_on_a_unit_without_that_move_changes_nothing() -> None:
    data = yaml_pack()
    data["characters"]["hero"]["statuses"] = {"dozing": 1}  # the player holds it too
    data["enemies"]["bear"]["statuses"] = {}
    data["cards"]["ouch"] = {"name": "Ouch", "cost": 0, "type": "skill", "on_play": "lose_hp 1"}
    data["characters"]["hero"]["deck"] = {"ouch": 10}
    g = battle(data)
    u = g.enemies[0]
    before = (u.move, list(u.history))
    assert g.try_play_card(g.hand()[0])
    assert (u.move, u.history) == before and "dozing" not in g.player.statuses


def test_a_hidden_status_works_but_views_and_observations_leave_it_out() -> None:
    g = battle()
    u = g.enemies[0]
    assert u.statuses == {"dozing": 1}  # the state has it (and rules read it)
    obs = observation(g._e)
    assert obs["enemies"][0]["statuses"] == {}
    assert "dozing" not in render(g)
    assert "dozing" not in Vocab(g.content).statuses
    assert build(g)["units"][1]["statuses"] == []


def test_rules_next_set_move_and_hidden_load_from_the_builder_and_round_trip() -> None:
    c = gcs.load_content(yaml_pack())
    bear = c.enemies["bear"]
    assert [r.move for r in bear.ai.rules] == ["snore", "roar"]
    assert bear.move("roar").next == "swipe" and c.statuses["dozing"].hidden
    assert c.statuses["ward"].negates_debuffs and c.negating_statuses == {"ward"}
    again = gcs.load_content(dump_content(c))
    assert dict(again.enemies) == dict(c.enemies) and dict(again.statuses) == dict(c.statuses)
    built = b.pack(
        "t",
        b.card("poke", "Poke", cost=0, type="attack", target="single_enemy", on_play="deal 5"),
        b.character("hero", max_hp=50, deck={"poke": 10}),
        b.status("dozing", text="asleep", hidden=True,
                 on_damage_taken=["remove_status dozing", b.set_move("jolt")]),
        b.status("ward", negates_debuffs=True),
        b.status("weak", debuff=True, decay="minus_one", modifiers=["deal *3/4"]),
        b.enemy("bear", hp=40, statuses={"dozing": 1}, moves=[
            b.enemy_move("snore", "sleep"), b.enemy_move("jolt", "stun"),
            b.enemy_move("swipe", "attack", damage=3),
            b.enemy_move("roar", "buff", next_="swipe"),
            b.enemy_move("hug", "attack", damage=1),
            b.enemy_move("hex", "debuff", do="apply weak 1 to target")],
            ai=b.ai(rules=[{"when": {"has_status": "dozing"}, "move": "snore"},
                           {"when": {"lt": [{"hp": "target"}, 45]}, "move": "roar"}],
                    cycle=["hug"])),
        b.encounter("bear", ["bear"]),
    )
    assert dict(built.enemies) == dict(c.enemies) and dict(built.statuses) == dict(c.statuses)


def _patched(path: tuple[str, ...], value: object) -> dict[str, Any]:
    data = yaml_pack()
    at: Any = data
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    return data


@pytest.mark.parametrize(("path", "value", "message"), [
    (("enemies", "bear", "ai", "rules"), [{"when": True, "move": "zzz"}],
     r"ai.rules\[0\].move': unknown move 'zzz'"),
    (("enemies", "bear", "ai", "rules"), [{"move": "snore"}], "missing"),
    (("enemies", "bear", "ai", "rules"), [{"when": {"lt": ["$n", 1]}, "move": "snore"}],
     "unknown number"),
    (("enemies", "bear", "ai", "rules"), [{"when": {"bogus": 1}, "move": "snore"}],
     "ai.rules"),
    (("enemies", "bear", "moves", "roar", "next"), "zzz", r"moves.roar.next': unknown move"),
    (("statuses", "dozing", "on_damage_taken"), "set_move zzz", "unknown move 'zzz'"),
    (("statuses", "dozing", "hidden"), "yes", "hidden"),
    (("statuses", "ward", "negates_debuffs"), 1, "negates_debuffs"),
])
def test_the_new_fields_are_validated(path: tuple[str, ...], value: object, message: str) -> None:
    with pytest.raises(ContentError, match=message):
        gcs.load_content(_patched(path, value))


def test_a_woken_enemy_plays_out_to_the_end_of_the_battle() -> None:
    g = battle()
    for _ in range(40):
        if g.phase is not BattlePhase.PLAYER_PHASE:
            break
        hand = g.hand()
        if hand and g.enemies[0].alive:
            g.try_play_card(hand[0], g.enemies[0])
        else:
            g.end_player_turn()
    assert g.phase is BattlePhase.BATTLE_WON


@pytest.mark.parametrize("stepwise", [False, True])
def test_a_move_applying_a_debuff_to_a_warded_player_is_negated(stepwise: bool) -> None:
    # the plain-move path (the combat primitives, no interpreter) and the interpreter's agree
    data = yaml_pack()
    data["characters"]["hero"]["statuses"] = {"ward": 2}
    data["enemies"]["bear"]["statuses"] = {}
    data["enemies"]["bear"]["ai"] = {"cycle": ["hex"]}
    g = gcs.Game(gcs.load_content(data), seed=1, log_events=True)
    g._e.stepwise = stepwise
    g.start_battle("bear")
    g.end_player_turn()
    assert g.player.statuses == {"ward": 1}
    g.end_player_turn()
    assert g.player.statuses == {}
    got = [x for x in g.event_log if isinstance(x, gcs.events.DebuffNegated)]
    assert got == [gcs.events.DebuffNegated(0, "weak", "ward")] * 2
    g.end_player_turn()
    assert g.player.statuses == {"weak": 1}


# ---------------------------------------------------------------- drawn slots, filtered units, $attack
def gang_pack() -> dict[str, Any]:
    data = yaml_pack()
    data["enemies"]["bear"]["statuses"] = {}
    data["statuses"]["sore"] = {"on_damage_taken": {"if": {"eq": ["$attack", 1]},
                                                    "then": "apply ward 1 to self"}}
    data["enemies"]["cub"] = {
        "hp": 10, "statuses": {"sore": 1},
        "moves": {"shield": {"intent": "defend", "do": {"block": {"amount": 5, "to": {
            "units": "all_enemies", "exclude": "self", "random": 1}}}}},
        "ai": {"cycle": ["shield"]}}
    data["encounters"]["gang"] = {"enemies": {"draw": 3, "from": ["bear", "cub", "cub", "cub"]}}
    return data


def test_drawn_slots_draw_without_replacement_and_round_trip() -> None:
    c = gcs.load_content(gang_pack())
    x = c.encounters["gang"]
    assert (x.draw, x.draw_from, x.enemies) == (3, ("bear", "cub", "cub", "cub"), ("bear", "cub", "cub"))
    assert x.enemy_ids() == ("bear", "cub")
    seen = Counter()
    for seed in range(1, 80):
        g = gcs.Game(c, seed=seed)
        g.start_battle("gang")
        ids = Counter(u.def_id for u in g.enemies)
        assert sum(ids.values()) == 3 and ids["bear"] <= 1
        seen[ids["bear"]] += 1
    assert set(seen) == {0, 1}  # the bear is drawn 3 times in 4
    again = gcs.load_content(dump_content(c))
    assert dict(again.encounters) == dict(c.encounters) and dict(again.enemies) == dict(c.enemies)
    built = b.encounter("gang", {"draw": 3, "from": ["bear", "cub", "cub", "cub"]})
    assert built.data == gang_pack()["encounters"]["gang"]


def test_a_filtered_unit_selection_leaves_out_the_excluded_and_picks_at_random() -> None:
    c = gcs.load_content(gang_pack())
    picked = Counter()
    for seed in range(1, 60):
        g = gcs.Game(c, seed=seed)
        g.start_battle("gang")
        if [u.def_id for u in g.enemies] != ["cub", "cub", "cub"]:
            continue
        g.end_player_turn()  # each cub shields another cub (the last one's gift lasts)
        for i, u in enumerate(g.enemies):
            if u.block:
                picked[i] += 1
    assert picked and 2 not in picked  # the last cub acts last: no one shields it after


def test_attack_tells_an_attack_from_other_hp_loss() -> None:
    c = gcs.load_content(gang_pack())
    for seed in range(1, 40):
        g = gcs.Game(c, seed=seed)
        g.start_battle("gang")
        cub = next((u for u in g.enemies if u.def_id == "cub"), None)
        if cub is not None:
            break
    assert cub is not None
    combat.lose_hp(g._e, cub, 1)  # not an attack
    g._e.run()
    assert "ward" not in cub.statuses
    combat.deal_damage(g._e, g._e.s.units[0], cub, 1, None, attack=True)
    g._e.run()
    assert cub.statuses.get("ward") == 1


@pytest.mark.parametrize(("path", "value", "message"), [
    (("encounters", "gang", "enemies"), {"draw": 5, "from": ["bear", "cub"]}, "more than the 2"),
    (("encounters", "gang", "enemies"), {"draw": 1, "from": ["bear", "nobody"]}, "unknown enemy"),
    (("encounters", "gang", "enemies"), {"draw": 1}, "missing"),
    (("encounters", "gang", "enemies"), {"draw": 0, "from": ["bear"]}, "draw"),
    (("enemies", "cub", "moves", "shield", "do"),
     {"block": {"amount": 5, "to": {"units": "all_enemies", "exclude": "$x"}}}, "exclude"),
    (("enemies", "cub", "moves", "shield", "do"),
     {"block": {"amount": 5, "to": {"units": "all_enemies", "random": 0}}}, "random"),
    (("statuses", "sore", "on_attacked"), "apply ward $attack to self", "unknown number"),
])
def test_drawn_slots_filtered_units_and_attack_are_validated(
        path: tuple[str, ...], value: object, message: str) -> None:
    data = gang_pack()
    at: Any = data
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    with pytest.raises(ContentError, match=message):
        gcs.load_content(data)


# ---------------------------------------------------------------- damage read at planning
def test_a_move_damage_value_is_read_when_planned_and_kept_until_planned_again() -> None:
    data = yaml_pack()
    data["enemies"]["bear"]["statuses"] = {}
    data["enemies"]["bear"]["moves"]["maul"] = {
        "intent": "attack", "damage": {"sub": [{"hp": "target"}, 40]}, "hits": 2}
    data["enemies"]["bear"]["ai"] = {"cycle": ["maul"]}
    c = gcs.load_content(data)
    m = c.enemies["bear"].move("maul")
    assert m.damage_value is not None and m.damage_max == 0
    g = gcs.Game(c, seed=1)
    g.start_battle("bear")
    u = g.enemies[0]
    assert u.intent is not None and (u.intent.damage, u.intent.hits) == (10, 2)  # 50 - 40
    combat.lose_hp(g._e, g._e.s.units[0], 5)  # read at planning: still 10
    assert u.intent.damage == 10
    g.end_player_turn()  # 45 - 20 = 25 HP; planned again: 25 - 40 floors at 0
    assert g.player.hp == 25 and u.intent is not None and u.intent.damage == 0
    again = gcs.load_content(dump_content(c))
    assert dict(again.enemies) == dict(c.enemies)
    built = b.enemy_move("maul", "attack", damage={"sub": [{"hp": "target"}, 40]}, hits=2)
    assert built[1] == data["enemies"]["bear"]["moves"]["maul"]


@pytest.mark.parametrize(("damage", "message"), [
    ({"sub": ["$nope", 1]}, "unknown number"),
    ({"bogus": 1}, "damage"),
])
def test_a_move_damage_value_is_validated(damage: object, message: str) -> None:
    data = yaml_pack()
    data["enemies"]["bear"]["moves"]["maul"] = {"intent": "attack", "damage": damage}
    with pytest.raises(ContentError, match=message):
        gcs.load_content(data)

"""Dumping a pack back to data: every definition reloads equal, and a dumped pack plays the same."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from gcs import Game
from gcs.content.db import Content
from gcs.content.defs import GameCard
from gcs.content.dump import DumpError, dump_content, dump_yaml
from gcs.content.loader import builtin_content, load_content
from gcs.content.schema import SECTIONS, UPGRADE_FIELDS
from gcs.enums import CardType, TargetMode
from gcs.flow import nodes as N
from gcs.sim.policies import RandomPolicy
from gcs.sim.runner import play_battle

# section name in a pack -> attribute of Content
ATTRS = {"cards": "cards", "statuses": "statuses", "enemies": "enemies",
         "encounters": "encounters", "characters": "characters", "rewards": "reward_tables",
         "graphs": "graphs"}


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GCS_CACHE_DIR", str(tmp_path / "gcs-cache"))


@pytest.fixture(scope="module")
def reloaded() -> Content:
    return load_content(dump_content(builtin_content()), use_cache=False)


def section(c: Content, name: str) -> Mapping[str, Any]:
    got: Mapping[str, Any] = getattr(c, ATTRS[name])
    return got


def assert_same_section(original: Content, again: Content, name: str) -> None:
    want, got = section(original, name), section(again, name)
    assert want, f"the bundled pack has no {name}"
    assert list(got) == list(want), f"{name}: ids or their order differ"
    for ident, definition in want.items():
        assert got[ident] == definition, f"{name}: {ident!r} does not round-trip"
        if name == "cards" and definition.upgrade is not None:
            assert got[ident].upgrade == definition.upgrade, f"cards: {ident!r} upgrade differs"


def test_every_section_is_dumped() -> None:
    data = dump_content(builtin_content())
    assert list(data) == ["pack", *SECTIONS]
    assert data["pack"] == {"id": "ironclad"}


@pytest.mark.parametrize("name", SECTIONS)
def test_every_definition_round_trips_through_the_mapping(name: str, reloaded: Content) -> None:
    assert reloaded.pack_id == builtin_content().pack_id
    assert_same_section(builtin_content(), reloaded, name)


@pytest.fixture(scope="module")
def yaml_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dumped")
    dump_yaml(builtin_content(), path)
    return path


def test_dump_yaml_writes_one_file_per_section(yaml_dir: Path) -> None:
    assert sorted(p.name for p in yaml_dir.iterdir()) == sorted(
        f"{s}.yaml" for s in ("pack", *SECTIONS))
    assert yaml.safe_load((yaml_dir / "pack.yaml").read_text()) == {"id": "ironclad"}


@pytest.mark.parametrize("name", SECTIONS)
def test_every_definition_round_trips_through_yaml_files(name: str, yaml_dir: Path) -> None:
    again = load_content(yaml_dir, use_cache=False)
    assert again.pack_id == "ironclad"
    assert_same_section(builtin_content(), again, name)


def test_dumping_is_a_fixed_point(reloaded: Content) -> None:
    assert dump_content(reloaded) == dump_content(builtin_content())


def test_upgrades_state_only_what_changes() -> None:
    cards = dump_content(builtin_content())["cards"]
    assert isinstance(cards, dict)
    assert cards["strike"]["upgrade"] == {"numbers": {"damage": 9}}
    assert cards["body_slam"]["upgrade"] == {"cost": 0}
    assert cards["limit_break"]["upgrade"] == {"keywords": [], "text": "Double your Strength."}
    assert cards["bash"]["upgrade"] == {"numbers": {"damage": 10, "vulnerable": 3}}
    for ident, card in cards.items():
        up = card.get("upgrade", {})
        assert set(up) <= set(UPGRADE_FIELDS), ident
        for key, val in up.items():
            if key != "numbers":
                assert card.get(key) != val, f"{ident}: upgrade repeats {key}"
        for key, n in up.get("numbers", {}).items():
            assert card.get("numbers", {}).get(key) != n, f"{ident}: upgrade repeats ${key}"


def test_defaults_that_depend_on_the_card_are_written() -> None:
    cards = dump_content(builtin_content())["cards"]
    assert isinstance(cards, dict)
    assert cards["strike"]["on_play"] == {"deal": {"amount": "$damage", "to": "target", "hits": 1}}
    assert cards["cleave"]["on_play"] == {
        "deal": {"amount": "$damage", "to": "all_enemies", "hits": 1}}
    assert cards["bash"]["on_play"][1] == {
        "apply": {"status": "vulnerable", "amount": "$vulnerable", "to": "target"}}


# ---------------------------------------------------------------- play


def wide_deck(c: Content, seed: int) -> list[tuple[str, bool]]:
    """Every card of the pack (curses and statuses too), every other one upgraded."""
    return [(cid, (i + seed) % 2 == 1 and c.cards[cid].upgrade is not None)
            for i, cid in enumerate(c.cards)]


def play(c: Content, encounter: str, seed: int, wide: bool) -> tuple[object, dict[str, Any]]:
    g = Game(c, seed=seed, log_events=False)
    if wide:
        g.set_master_deck(wide_deck(c, seed))
    result = play_battle(g, encounter, RandomPolicy(seed), record=True)
    state = g.to_json()
    state.pop("digest")  # the hash of the pack's source, which differs by construction
    return result, state


@pytest.mark.parametrize("encounter", sorted(builtin_content().encounters))
def test_a_dumped_pack_plays_identically(encounter: str, reloaded: Content,
                                         yaml_dir: Path) -> None:
    from_yaml = load_content(yaml_dir, use_cache=False)
    for seed in range(6):
        wide = seed % 3 != 0
        original = play(builtin_content(), encounter, seed, wide)
        assert original[1]["pack"] == "ironclad"
        assert play(reloaded, encounter, seed, wide) == original, (encounter, seed)
        assert play(from_yaml, encounter, seed, wide) == original, (encounter, seed)


def test_a_save_of_the_original_loads_on_the_dumped_pack(reloaded: Content) -> None:
    g = Game(builtin_content(), seed=11, log_events=False)
    g.set_master_deck(wide_deck(builtin_content(), 11))
    g.start_battle("gremlin_nob")
    g.settle()
    policy = RandomPolicy(11)
    for _ in range(40):  # stop mid-battle, with paused effects and node references live
        legal = g.legal_actions()
        if not legal or not g.is_battle_active:
            break
        g.apply(policy(g, legal))
    saved = g.to_json()
    again = Game.from_json(reloaded, saved, allow_other_content=True)  # same rules, other bytes
    assert {**again.to_json(), "digest": None} == {**saved, "digest": None}


# ---------------------------------------------------------------- forms the bundled pack lacks

EXOTIC = """\
pack: {id: exotic}
cards:
  zap:
    name: Zap
    cost: x
    type: attack
    target: all_enemies
    keywords: [retain]
    tags: [a, b]
    numbers: {n: 2}
    text: "Deal {n} damage X times."
    on_play:
      - repeat: x
        as: i
        do: deal $n
      - if: {le: [{random: [1, 3]}, {max: [energy, turn]}]}
        then: gain_energy 1
        else: extra_turn
      - set: {name: m, to: {min: [{div: [hand_size, 2]}, {missing_hp: self}]}}
      - while: {any: [{ne: [$m, 0]}, false]}
        do: {set: {name: m, to: 0}}
        max_iterations: 3
      - select: {units: random_enemy, as: foe}
      - deal: {amount: {stacks: weak, of: $foe}, to: $foe, hits: {block: player}}
      - for_each: {units: $foe}
        as: f
        do: [apply weak 1 to $f, {if: {all: [{eq: [{count: {units: $foe}}, 1]}, true]}, then: end_turn}]
      - choose: {from: all_enemies, as: pick, min: 0, max: 2, then: kill $pick, skipped: end_turn}
    upgrade:
      name: Zap Plus
      cost: 1
      target: single_enemy
      keywords: []
      tags: []
  husk:
    name: Husk
    cost: unplayable
    type: curse
    rarity: curse
    keywords: [ethereal]
    hooks: [{kind: hand_size, op: add, amount: -1}]
    on_turn_end: lose_hp 1
    on_drawn: {apply: {status: weak, amount: 1, to: enemies_and_player}}
    upgrade: {cost: 0, text: "now playable"}
  sorter:
    name: Sorter
    cost: 1
    type: skill
    on_play:
      - move: {from: draw, top: 2, to: discard, position: bottom}
      - move: {from: discard, where: {card: husk, upgraded: false, exclude_self: true}, to: draw}
      - modify_cost: {from: hand, where: {keyword: retain}, amount: -1, duration: run}
      - transform: {from: hand, where: {tags: a}, random: 1, into: husk}
      - card_hook: {kind: energy, op: add, amount: 1, turns: 2}
      - card_hook: {kind: cost, op: set, amount: 0, where: {upgradable: false}}
      - add_card: {card: husk, to: draw, position: top, upgraded: true, count: {count: played}}
      - discard: {from: drawn}
      - upgrade: this
      - remove_status weak
      - remove_status: {status: weak, amount: 1, from: player}
      - heal: {amount: 2, to: player}
      - gain_gold -3
      - wait 1.5
      - animation
      - wait_until: {when: player_turn_start, turns: 2}
      - call helper
      - spawn: {enemy: blob, as: minion}
      - kill $minion
      - revive: {unit: self, hp: {max_hp: self}}
      - exhaust: {from: hand, where: {type: status}}
      - draw: {count: {count: exhaust}}
      - [block 1, [draw 1, draw 2]]
    upgrade:
      on_turn_start: block 1
      hooks: [{kind: playable, op: forbid}]
statuses:
  aura:
    name: Aura
    text: "{stacks}"
    debuff: true
    decay: minus_one
    allow_negative: true
    max_stacks: 5
    skip_turn: true
    keeps_block: true
    modifiers: [deal +2 stacks, block +3, take *1/2,
                {stage: deal, op: add, amount: -1, per_stack: false}]
    hooks: [{kind: draw, op: set, amount: 4}]
    on_apply: block $amount
    on_attacked: deal $amount
  weak: {decay: remove}
enemies:
  blob:
    hp: 7
    statuses: {aura: [2, 2], weak: 1}
    moves:
      ooze: {intent: attack, damage: 3, hits: 2, block: 1, do: [apply weak 1 to target, block 2]}
      nap: {intent: sleep}
      count: {intent: unknown, hits: 3}
      flop: {intent: attack, damage: 0, do: [[draw 1, draw 1]]}
    ai:
      cycle: [ooze, nap, count, flop]
      hp_rules: [{below_percent: 30, move: nap, once: false}]
  blob2:
    name: Blob Two
    hp: [3, 9]
    moves: {nap: {intent: sleep, name: Zz}}
    ai: {opener: [nap], weighted: {nap: 3}}
encounters:
  blobs: {enemies: [blob, blob2], kind: boss, hand_discard: persist}
characters:
  hero: {max_hp: 10, deck: {zap: 2, zap+: 1, sorter: 1}, gold: 0}
rewards:
  tiny: {cards: 1, pool: [zap], gold: 5, upgrade: true, remove: true}
  bare: {}
graphs:
  helper:
    - for_each: {from: hand, random: 1}
      as: c
      do: {exhaust: $c}
    - call leaf
  leaf: {if: {has_status: weak, on: player}, then: draw 1}
"""


@pytest.fixture(scope="module")
def exotic(tmp_path_factory: pytest.TempPathFactory) -> Content:
    path = tmp_path_factory.mktemp("exotic") / "pack.yaml"
    path.write_text(EXOTIC)
    return load_content(path, use_cache=False)


def test_the_exotic_pack_uses_what_it_should(exotic: Content) -> None:
    zap = exotic.cards["zap"]
    assert zap.x_cost and zap.upgrade is not None and not zap.upgrade.x_cost
    # the upgrade's new target re-read the base effects: `deal $n` now hits the target
    assert zap.upgrade.target is TargetMode.SINGLE_ENEMY and zap.upgrade.on_play != zap.on_play
    assert exotic.cards["husk"].type is CardType.CURSE
    assert exotic.enemies["blob"].move("nap").behaviour is None


@pytest.mark.parametrize("name", SECTIONS)
def test_exotic_definitions_round_trip(name: str, exotic: Content, tmp_path: Path) -> None:
    assert_same_section(exotic, load_content(dump_content(exotic), use_cache=False), name)
    dump_yaml(exotic, tmp_path / "pack")
    assert_same_section(exotic, load_content(tmp_path / "pack", use_cache=False), name)


def test_the_exotic_upgrade_with_a_new_target_writes_its_effects(exotic: Content) -> None:
    c = exotic
    up = dump_content(c)["cards"]["zap"]["upgrade"]  # type: ignore[index]
    assert up["target"] == "single_enemy" and "on_play" in up
    assert up["on_play"][0]["do"] == {"deal": {"amount": "$n", "to": "target", "hits": 1}}
    husk = dump_content(c)["cards"]["husk"]  # type: ignore[index]
    assert husk["cost"] == "unplayable" and husk["upgrade"] == {"cost": 0, "text": "now playable"}


# ---------------------------------------------------------------- what the format cannot say


def test_a_definition_the_format_cannot_express_is_reported_by_id() -> None:
    one_step = GameCard("solo", "Solo", 1, on_play=N.Sequence((N.DrawCards(1),)))
    with pytest.raises(DumpError, match=r"card 'solo'.*one step"):
        dump_content(Content(pack_id="gap", cards=[one_step]))
    x_cost = GameCard("xx", "XX", 2, x_cost=True)
    with pytest.raises(DumpError, match=r"card 'xx'.*X-cost"):
        dump_content(Content(pack_id="gap", cards=[x_cost]))
    base = GameCard("lose", "Lose", 1, on_play=N.DrawCards(1))
    lose = GameCard("lose", "Lose", 1, upgrade=GameCard("lose", "Lose+", 1, is_upgraded=True),
                    on_play=N.DrawCards(1))
    assert dump_content(Content(pack_id="ok", cards=[base]))["cards"]
    with pytest.raises(DumpError, match=r"card 'lose'.*on_play"):
        dump_content(Content(pack_id="gap", cards=[lose]))

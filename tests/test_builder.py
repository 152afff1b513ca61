"""The Python builder gives the same definitions as YAML (one compiler behind both)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from gcs.content import builder as b
from gcs.content.db import Content
from gcs.content.loader import builtin_content, load_content
from gcs.errors import ContentError


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GCS_CACHE_DIR", str(tmp_path / "gcs-cache"))


def strike() -> b.Def:
    return b.card("strike", "Strike", cost=1, type="attack", rarity="basic",
                  target="single_enemy", character="ironclad", tags=["strike"],
                  numbers={"damage": 6}, text="Deal {damage} damage.",
                  on_play=[b.deal("$damage")], upgrade={"numbers": {"damage": 9}})


def bash() -> b.Def:
    return b.card("bash", "Bash", cost=2, type="attack", rarity="basic", target="single_enemy",
                  character="ironclad", numbers={"damage": 8, "vulnerable": 2},
                  text="Deal {damage} damage. Apply {vulnerable} Vulnerable.",
                  on_play=[b.deal("$damage"), b.apply("vulnerable", b.var("vulnerable"))],
                  upgrade={"numbers": {"damage": 10, "vulnerable": 3}})


def defend() -> b.Def:
    return b.card("defend", "Defend", cost=1, type="skill", rarity="basic", target="self",
                  character="ironclad", numbers={"block": 5}, text="Gain {block} Block.",
                  on_play=[b.block("$block")], upgrade={"numbers": {"block": 8}})


VULNERABLE = b.status("vulnerable", text="Takes 50% more damage from attacks.", debuff=True,
                      decay="minus_one", decay_at="round_end", modifiers=["take *3/2"])
STRENGTH = b.status("strength", text="Increases attack damage by {stacks}.",
                    allow_negative=True, modifiers=["deal +stacks"])


def test_builder_matches_the_bundled_yaml() -> None:
    built = b.pack("ironclad", strike(), bash(), defend(), VULNERABLE, STRENGTH)
    shipped = builtin_content()
    for cid in ("strike", "bash", "defend"):
        assert built.cards[cid] == shipped.cards[cid], cid
    assert built.statuses["vulnerable"] == shipped.statuses["vulnerable"]
    assert built.statuses["strength"] == shipped.statuses["strength"]


YAML_CARDS = """\
armaments:
  name: Armaments
  cost: 1
  type: skill
  target: self
  numbers: {block: 5}
  on_play:
    - block $block
    - choose: {from: hand, where: {upgraded: false}, as: card, then: upgrade $card}
  upgrade:
    on_play: [block $block, upgrade hand]
flex:
  name: Flex
  cost: 0
  type: skill
  target: self
  numbers: {strength: 2}
  on_play:
    - apply strength $strength
    - wait_until player_turn_end
    - apply: {status: strength, amount: {sub: [0, $strength]}}
second_wind:
  name: Second Wind
  cost: 1
  type: skill
  target: self
  numbers: {block: 5}
  on_play:
    for_each: hand
    as: card
    do:
      if: {not: {exists: {from: $card, where: {type: attack}}}}
      then: [exhaust $card, block $block]
whirlwind:
  name: Whirlwind
  cost: x
  type: attack
  target: all_enemies
  numbers: {damage: 5}
  on_play: deal $damage hits x
  upgrade: {numbers: {damage: 8}}
fiend_fire:
  name: Fiend Fire
  cost: 2
  type: attack
  target: single_enemy
  keywords: [exhaust]
  numbers: {damage: 7}
  on_play:
    - set: {name: burned, to: {count: hand}}
    - exhaust hand
    - deal $damage hits $burned
battle_trance:
  name: Battle Trance
  cost: 0
  type: skill
  numbers: {cards: 3}
  on_play: [draw $cards, {card_hook: {kind: draw, op: forbid, turns: 1}}]
"""


def builder_cards() -> list[b.Def]:
    return [
        b.card("armaments", "Armaments", cost=1, type="skill", target="self",
               numbers={"block": 5},
               on_play=[b.block("$block"),
                        b.choose(b.cards("hand", where=b.where(upgraded=False)), as_="card",
                                 then=b.upgrade("$card"))],
               upgrade={"on_play": [b.block("$block"), b.upgrade("hand")]}),
        b.card("flex", "Flex", cost=0, type="skill", target="self", numbers={"strength": 2},
               on_play=[b.apply("strength", "$strength"), b.wait_until("player_turn_end"),
                        b.apply("strength", b.sub(0, "$strength"))]),
        b.card("second_wind", "Second Wind", cost=1, type="skill", target="self",
               numbers={"block": 5},
               on_play=b.for_each("hand", as_="card", do=b.branch(
                   b.not_(b.exists(b.cards("$card", where=b.where(type="attack")))),
                   [b.exhaust("$card"), b.block("$block")]))),
        b.card("whirlwind", "Whirlwind", cost="x", type="attack", target="all_enemies",
               numbers={"damage": 5}, on_play=b.deal("$damage", hits=b.X),
               upgrade={"numbers": {"damage": 8}}),
        b.card("fiend_fire", "Fiend Fire", cost=2, type="attack", target="single_enemy",
               keywords=["exhaust"], numbers={"damage": 7},
               on_play=[b.set_var("burned", b.count("hand")), b.exhaust("hand"),
                        b.deal("$damage", hits="$burned")]),
        b.card("battle_trance", "Battle Trance", cost=0, type="skill", numbers={"cards": 3},
               on_play=[b.draw("$cards"), b.card_hook("draw", op="forbid", turns=1)]),
    ]


def yaml_pack(tmp_path: Path, files: dict[str, str]) -> Content:
    (tmp_path / "pack.yaml").write_text("id: t\n")
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    return load_content(tmp_path, use_cache=False)


def test_round_trip_cards(tmp_path: Path) -> None:
    from_yaml = yaml_pack(tmp_path, {"cards.yaml": YAML_CARDS,
                                     "statuses.yaml": "strength: {allow_negative: true}\n"})
    built = b.pack("t", *builder_cards(), b.status("strength", allow_negative=True))
    assert list(built.cards) == list(from_yaml.cards)
    for cid in from_yaml.cards:
        assert built.cards[cid] == from_yaml.cards[cid], cid


ENEMY_YAML = {
    "statuses.yaml": "strength: {allow_negative: true, modifiers: ['deal +stacks']}\n"
                     "curl_up:\n  on_damage_taken: [block $stacks, remove_status curl_up]\n",
    "enemies.yaml": """\
        louse:
          name: Red Louse
          hp: [10, 15]
          statuses: {curl_up: [3, 7]}
          moves:
            bite: {intent: attack, damage: 6}
            grow: {intent: buff, do: apply strength 3 to self}
          ai:
            weighted:
              bite: {weight: 75, max_in_row: 2}
              grow: {weight: 25, max_in_row: 1}
            hp_rules: [{below_percent: 50, move: grow}]
        """,
    "encounters.yaml": "lice:\n  enemies: [louse, louse]\n  rewards: normal\n  kind: elite\n",
    "characters.yaml": "hero:\n  max_hp: 70\n  deck: {strike: 5, strike+: 1}\n  gold: 50\n",
    "rewards.yaml": "normal:\n  rarity_weights: {common: 60, rare: 3}\n  pool: [strike]\n"
                    "  gold: [10, 20]\n",
    "graphs.yaml": "twice: [draw 1, draw 1]\n",
    "cards.yaml": "strike:\n  name: Strike\n  cost: 1\n  type: attack\n  target: single_enemy\n"
                  "  on_play: [deal 6, call twice]\n",
}


def test_round_trip_other_definitions(tmp_path: Path) -> None:
    from_yaml = yaml_pack(tmp_path, ENEMY_YAML)
    built = b.pack(
        "t",
        b.status("strength", allow_negative=True, modifiers=["deal +stacks"]),
        b.status("curl_up", on_damage_taken=[b.block("$stacks"), b.remove_status("curl_up")]),
        b.enemy("louse", name="Red Louse", hp=(10, 15), statuses={"curl_up": (3, 7)},
                moves=[b.enemy_move("bite", "attack", damage=6),
                       b.enemy_move("grow", "buff", do=b.apply("strength", 3, to="self"))],
                ai=b.ai(weighted={"bite": {"weight": 75, "max_in_row": 2},
                                  "grow": {"weight": 25, "max_in_row": 1}},
                        hp_rules=[{"below_percent": 50, "move": "grow"}])),
        b.encounter("lice", ["louse", "louse"], rewards="normal", kind="elite"),
        b.character("hero", max_hp=70, deck={"strike": 5, "strike+": 1}, gold=50),
        b.reward_table("normal", rarity_weights={"common": 60, "rare": 3}, pool=["strike"],
                       gold=(10, 20)),
        b.graph("twice", [b.draw(1), b.draw(1)]),
        b.card("strike", "Strike", cost=1, type="attack", target="single_enemy",
               on_play=[b.deal(6), b.call("twice")]),
    )
    for section in ("cards", "statuses", "enemies", "encounters", "characters",
                    "reward_tables", "graphs"):
        assert dict(getattr(built, section)) == dict(getattr(from_yaml, section)), section


def test_builder_problems_are_content_errors() -> None:
    with pytest.raises(ContentError) as info:
        b.pack("t", b.card("x", "X", cost=1, type="attack", target="single_enemy",
                           on_play=[b.deal(6), b.apply("vulnerabel", 2)]))
    assert info.value.problems == [
        "cards: card 'x': field 'on_play[1].apply.status': unknown status 'vulnerabel' "
        "(none are defined)"]


def test_builder_duplicate_id() -> None:
    with pytest.raises(ContentError, match="duplicate id"):
        b.pack_data("t", strike(), strike())


def test_builder_output_is_plain_data() -> None:
    assert b.deal(6, to="all_enemies", hits=2) == {
        "deal": {"amount": 6, "to": "all_enemies", "hits": 2}}
    assert b.exhaust(b.cards("hand", random=1)) == {"exhaust": {"from": "hand", "random": 1}}
    assert b.end_turn() == "end_turn"
    assert b.animation() == {"animation": None}


def test_builder_helpers_of_the_end_of_the_wave_thorns_raw_block_and_reward_gold() -> None:
    from gcs.flow import nodes as N
    from gcs.flow.exprs import UnitStat
    assert b.deal("$damage", to="self", kind="thorns") == {
        "deal": {"amount": "$damage", "to": "self", "kind": "thorns"}}
    assert b.block({"block": "self"}, raw=True) == {
        "block": {"amount": {"block": "self"}, "raw": True}}
    assert b.wait_until("wave_end") == {"wait_until": {"when": "wave_end"}}
    c = b.pack(
        "t", b.card("burnt", "Burnt", cost=0, type="status", numbers={"damage": 2},
                    on_turn_end=[b.deal("$damage", to="self", kind="thorns"),
                                 b.wait_until("wave_end"), b.block(3, raw=True),
                                 b.reward_gold("gold")]),
        b.status("vulnerable", debuff=True, decay="minus_one", modifiers=["take *3/2"]))
    steps = c.card("burnt").on_turn_end
    assert isinstance(steps, N.Sequence)
    deal, wait, block, loot = steps.steps
    assert isinstance(deal, N.DealDamage) and deal.kind == "thorns"
    assert wait == N.WaitUntil("wave_end") and block == N.GainBlock(3, block.target, raw=True)
    assert loot == N.RewardGold(UnitStat("gold"))

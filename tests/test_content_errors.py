"""Content validation: every kind of problem is reported with file, line, definition and field,
and every problem of a pack is reported at once."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from gcs.content.loader import load_content, validate_path
from gcs.errors import ContentError

STATUSES = """\
vulnerable: {debuff: true, decay: minus_one, modifiers: ['take *3/2']}
strength: {allow_negative: true, modifiers: ['deal +stacks']}
"""


def write_pack(root: Path, files: dict[str, str], pack_id: str = "t") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    if "pack.yaml" not in files:
        (root / "pack.yaml").write_text(f"id: {pack_id}\n")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def problems(tmp_path: Path, files: dict[str, str]) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_content(write_pack(tmp_path / "pack", files), use_cache=False)
    return info.value.problems


def card_file(on_play: str, extra: str = "") -> str:
    """A cards.yaml whose card 'bash' starts on line 1; on_play items start on line 8."""
    return (
        "bash:\n"                          # 1
        "  name: Bash\n"                   # 2
        "  cost: 2\n"                      # 3
        "  type: attack\n"                 # 4
        "  target: single_enemy\n"         # 5
        "  numbers: {damage: 8, vuln: 2}\n"  # 6
        "  on_play:\n"                     # 7
        + textwrap.indent(textwrap.dedent(on_play), "    ")
        + extra
    )


def test_unknown_node_kind(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal $damage\n- dael 3\n")})
    assert len(got) == 1
    assert got[0].startswith(
        "cards.yaml:9: card 'bash': field 'on_play[1]': unknown node kind 'dael' (known: deal,")


def test_unknown_node_kind_mapping_form(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal $damage\n- blok: 5\n")})
    assert got[0].startswith("cards.yaml:9: card 'bash': field 'on_play[1].blok': "
                             "unknown node kind 'blok' (known: block,")


def test_wrong_type(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal: {amount: 6, hits: many}\n")})
    assert got == ["cards.yaml:8: card 'bash': field 'on_play[0].deal.hits': wrong type: "
                   "expected a value (an integer, '$name', 'x', 'energy', 'turn', 'hand_size', "
                   "'gold' or a mapping like {add: [a, b]}), got the string 'many'"]


def test_wrong_type_of_cost(tmp_path: Path) -> None:
    text = card_file("- deal $damage\n").replace("cost: 2", "cost: two")
    got = problems(tmp_path, {"cards.yaml": text})
    assert got == ["cards.yaml:3: card 'bash': field 'cost': wrong type: expected an integer "
                   ">= 0, 'x' or 'unplayable', got 'two'"]


def test_missing_field(tmp_path: Path) -> None:
    text = card_file("- deal $damage\n").replace("  name: Bash\n", "")
    got = problems(tmp_path, {"cards.yaml": text})
    assert got == ["cards.yaml:1: card 'bash': field 'name': missing required field"]


def test_missing_field_of_a_node(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- apply: {status: vulnerable}\n"),
                              "statuses.yaml": STATUSES})
    assert got == ["cards.yaml:8: card 'bash': field 'on_play[0].apply.amount': "
                   "missing required field"]


def test_unknown_field(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal $damage\n", "  damge: 3\n")})
    assert len(got) == 1
    assert got[0].startswith("cards.yaml:9: card 'bash': field 'damge': unknown field "
                             "(expected one of: name,")


def test_unknown_field_next_to_a_verb(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal: 6\n  to: all_enemies\n")})
    assert got == ["cards.yaml:9: card 'bash': field 'on_play[0].to': unknown field next to "
                   "'deal' (put the fields inside: 'deal: {field: value, ...}')"]


def test_dangling_status(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal $damage\n- apply vulnerabel $vuln\n"),
                              "statuses.yaml": STATUSES})
    assert got == ["cards.yaml:9: card 'bash': field 'on_play[1].apply.status': unknown status "
                   "'vulnerabel' (known: vulnerable, strength)"]


def test_dangling_card_enemy_graph(tmp_path: Path) -> None:
    body = "- add_card wund to discard\n- spawn: {enemy: jaw_wrm}\n- call: finisher\n"
    got = problems(tmp_path, {"cards.yaml": card_file(body)})
    assert got == [
        "cards.yaml:8: card 'bash': field 'on_play[0].add_card.card': unknown card 'wund' "
        "(known: bash)",
        "cards.yaml:9: card 'bash': field 'on_play[1].spawn.enemy': unknown enemy 'jaw_wrm' "
        "(none are defined)",
        "cards.yaml:10: card 'bash': field 'on_play[2].call.graph': unknown graph 'finisher' "
        "(none are defined)",
    ]


ENEMY = """\
jaw_worm:
  hp: [40, 44]
  moves:
    chomp: {intent: attack, damage: 11}
    bellow: {intent: buff, do: apply strength 3 to self}
  ai:
    opener: [chomp]
    cycle: [bellow, chmop]
"""


def test_enemy_ai_naming_a_move(tmp_path: Path) -> None:
    got = problems(tmp_path, {"enemies.yaml": ENEMY, "statuses.yaml": STATUSES})
    assert got == ["enemies.yaml:8: enemy 'jaw_worm': field 'ai.cycle[1]': unknown move 'chmop' "
                   "(known: chomp, bellow)"]


def test_encounter_character_reward_references(tmp_path: Path) -> None:
    files = {
        "cards.yaml": card_file("- deal $damage\n"),
        "encounters.yaml": "e1:\n  enemies: [cultist]\n  rewards: normal\n",
        "characters.yaml": "hero:\n  max_hp: 80\n  deck: {bash: 1, strike: 5}\n",
        "rewards.yaml": "normal:\n  pool: [bash, pommel]\n",
    }
    got = problems(tmp_path, files)
    assert got == [  # files in section order: cards, statuses, enemies, encounters, ...
        "encounters.yaml:2: encounter 'e1': field 'enemies[0]': unknown enemy 'cultist' "
        "(none are defined)",
        "characters.yaml:3: character 'hero': field 'deck.strike': unknown card 'strike' "
        "(known: bash)",
        "rewards.yaml:2: reward table 'normal': field 'pool[1]': unknown card 'pommel' "
        "(known: bash)",
    ]


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    text = card_file("- deal $damage\n") + "bash:\n  name: Bash\n  cost: 1\n  type: skill\n"
    got = problems(tmp_path, {"cards.yaml": text})
    assert got == ["cards.yaml:9: card 'bash': duplicate id (first defined at cards.yaml:1)"]


def test_duplicate_key_inside_a_definition(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal $damage\n", "  cost: 1\n")})
    assert got == ["cards.yaml:9: card 'bash': field 'cost': duplicate key (first defined at "
                   "cards.yaml:3)"]


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    files = {"cards.yaml": card_file("- deal $damage\n"),
             "cards/extra.yaml": "\n\nbash: {name: Bash, cost: 1, type: skill}\n"}
    got = problems(tmp_path, files)
    assert got == ["cards/extra.yaml:3: card 'bash': duplicate id (first defined at "
                   "cards.yaml:1)"]


def test_cycle_in_graph_calls(tmp_path: Path) -> None:
    graphs = "opener:\n  - draw 1\n  - call: middle\nmiddle: call closer\ncloser: call opener\n"
    got = problems(tmp_path, {"graphs.yaml": graphs})
    assert got == ["graphs.yaml:4: graph 'middle': field 'call.graph': call cycle: "
                   "middle -> closer -> opener -> middle"]


def test_graph_calling_itself(tmp_path: Path) -> None:
    got = problems(tmp_path, {"graphs.yaml": "loop:\n  - draw 1\n  - call loop\n"})
    assert got == ["graphs.yaml:3: graph 'loop': field '[1].call.graph': call cycle: "
                   "loop -> loop"]


def test_bad_enum_value(tmp_path: Path) -> None:
    text = card_file("- deal $damage\n").replace("type: attack", "type: atack")
    got = problems(tmp_path, {"cards.yaml": text})
    assert got == ["cards.yaml:4: card 'bash': field 'type': bad value 'atack' (expected one "
                   "of: attack, skill, power, status, curse)"]


def test_bad_enum_value_inside_a_node(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- add_card bash to dicard\n")})
    assert got == ["cards.yaml:8: card 'bash': field 'on_play[0].add_card.to': bad value "
                   "'dicard' (expected one of: hand, draw, discard, exhaust)"]


def test_while_needs_max_iterations(tmp_path: Path) -> None:
    body = "- while: {lt: [hand_size, 5]}\n  do: draw 1\n"
    got = problems(tmp_path, {"cards.yaml": card_file(body)})
    assert got == ["cards.yaml:8: card 'bash': field 'on_play[0].max_iterations': missing "
                   "required field: a While needs max_iterations >= 1"]


def test_while_max_iterations_below_one(tmp_path: Path) -> None:
    body = "- while: {lt: [hand_size, 5]}\n  do: draw 1\n  max_iterations: 0\n"
    got = problems(tmp_path, {"cards.yaml": card_file(body)})
    assert got == ["cards.yaml:10: card 'bash': field 'on_play[0].max_iterations': bad value 0: "
                   "a While needs max_iterations >= 1"]


def test_choice_min_greater_than_max(tmp_path: Path) -> None:
    body = "- choose:\n    from: hand\n    as: picked\n    min: 3\n    max: 2\n"
    got = problems(tmp_path, {"cards.yaml": card_file(body)})
    assert got == ["cards.yaml:11: card 'bash': field 'on_play[0].choose.min': min 3 is "
                   "greater than max 2"]


def test_unknown_number(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file("- deal $damge\n")})
    assert got == ["cards.yaml:8: card 'bash': field 'on_play[0].deal.amount': unknown number "
                   "'$damge' (this card's numbers: damage, vuln)"]


def test_text_placeholder_must_be_a_number(tmp_path: Path) -> None:
    text = card_file("- deal $damage\n", '  text: "Deal {dmg} damage."\n')
    got = problems(tmp_path, {"cards.yaml": text})
    assert got == ["cards.yaml:9: card 'bash': field 'text': text names {dmg} but the card has "
                   "no such number (numbers: damage, vuln)"]


def test_yaml_syntax_error(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": "bash:\n  name: [Bash\n  cost: 2\n"})
    assert len(got) == 1
    assert got[0].startswith("cards.yaml:3: YAML syntax error:")


def test_every_problem_at_once(tmp_path: Path) -> None:
    files = {
        "cards.yaml": card_file("- deal $damage\n- apply vulnerabel 2\n- dael 3\n",
                                "  rarity: legendary\n"),
        "encounters.yaml": "e1: {enemies: [nobody]}\n",
        "graphs.yaml": "g: call g\n",
    }
    got = problems(tmp_path, files)
    assert [p.split(": ")[0] for p in got] == [
        "cards.yaml:9", "cards.yaml:10", "cards.yaml:11", "encounters.yaml:1", "graphs.yaml:1"]
    with pytest.raises(ContentError, match="5 problems in content"):
        load_content(tmp_path / "pack", use_cache=False)


def test_unknown_file_and_missing_pack_yaml(tmp_path: Path) -> None:
    root = tmp_path / "pack"
    root.mkdir()
    (root / "monsters.yaml").write_text("x: 1\n")
    ok, lines = validate_path(root)
    assert not ok
    assert lines[0] == "pack.yaml: missing: a pack directory needs pack.yaml with the pack 'id'"
    assert lines[1].startswith("monsters.yaml: not a pack file: name it pack.yaml,")


def test_mapping_problems_name_the_section(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as info:
        load_content({"pack": "m", "cards": {"x": {"name": "X", "cost": 1, "type": "attack",
                                                  "on_play": ["deal 6 to nobody"]}}})
    assert info.value.problems == [
        "cards: card 'x': field 'on_play[0].deal.to': bad value 'nobody' (expected one of: "
        "self, player, target, all_enemies, random_enemy, enemies_and_player or '$name')"]


def test_bad_pack_never_half_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("GCS_CACHE_DIR", str(cache))
    root = write_pack(tmp_path / "pack", {"cards.yaml": card_file("- dael 3\n")})
    for _ in range(2):
        with pytest.raises(ContentError):
            load_content(root)
    assert not cache.exists() or not any(cache.iterdir())


def test_hook_op_that_its_kind_cannot_do(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file(
        "- deal $damage\n- card_hook: {kind: playable, op: add, amount: 1}\n"
        "- card_hook: {kind: energy, op: forbid}\n")})
    assert len(got) == 2
    assert got[0].startswith("cards.yaml:9: card 'bash': field 'on_play[1].card_hook.op': "
                             "a hook of kind 'playable' takes op 'forbid', not 'add'")
    assert got[1].startswith("cards.yaml:10: card 'bash': field 'on_play[2].card_hook.op': "
                             "a hook of kind 'energy' takes op 'add' or 'set', not 'forbid'")


def test_wrong_slot_type_cards_read_as_a_value(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file(
        "- choose: {from: hand, as: picked, then: exhaust $picked}\n"
        "- deal $picked\n")})
    assert len(got) == 1
    assert got[0].startswith(
        "cards.yaml:9: card 'bash': field 'on_play[1].deal.amount': wrong slot type: '$picked' holds "
        "cards (bound at 'on_play[0].choose.as') but is read here as a value")


def test_wrong_slot_type_units_used_as_cards_and_rebinding(tmp_path: Path) -> None:
    got = problems(tmp_path, {
        "enemies.yaml": "post: {hp: 9, moves: {idle: {intent: unknown}}, ai: {cycle: [idle]}}\n",
        "cards.yaml": card_file(
            "- spawn: {enemy: post, as: foe}\n"
            "- exhaust $foe\n"
            "- set: [foe, 3]\n")})
    assert len(got) == 2
    assert got[0].startswith("cards.yaml:9: card 'bash': field 'on_play[1].exhaust.from': "
                             "wrong slot type: '$foe' holds units (bound at 'on_play[0].spawn.as') "
                             "but is read here as cards")
    assert got[1].startswith("cards.yaml:10: card 'bash': field 'on_play[2].set.name': wrong "
                             "slot type: '$foe' already holds units")


def test_deal_kind_block_raw_and_wave_end_are_checked(tmp_path: Path) -> None:
    got = problems(tmp_path, {"cards.yaml": card_file(
        "- deal: {amount: 6, kind: magic}\n"
        "- block: {amount: 5, raw: yes}\n"
        "- wait_until: {when: wave_end, turns: 2}\n")})
    assert len(got) == 3
    assert got[0] == ("cards.yaml:8: card 'bash': field 'on_play[0].deal.kind': bad value "
                      "'magic' (expected one of: attack, thorns)")
    assert got[1].startswith("cards.yaml:9: card 'bash': field 'on_play[1].block.raw': ")
    assert got[2] == ("cards.yaml:10: card 'bash': field 'on_play[2].wait_until.turns': the end "
                      "of the wave comes once: 'wave_end' takes no 'turns'")

"""Loading content: the bundled pack, the YAML surface, the compiled cache."""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

from gcs.content import cache
from gcs.content.db import Content
from gcs.content.loader import BUILTIN, builtin_content, load_content, validate_path
from gcs.content.yamldoc import read_yaml
from gcs.enums import CardType, Decay, IntentKind, Keyword, PileScope, Rarity, TargetMode
from gcs.flow import nodes as N
from gcs.flow.exprs import (
    BinOp,
    CardFilter,
    CardSel,
    Compare,
    CountOf,
    Not,
    UnitSel,
    Var,
    XCost,
)

TARGET, SELF = UnitSel("target"), UnitSel("self")


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own cache directory (never the user's ~/.cache/gcs)."""
    path = tmp_path / "gcs-cache"
    monkeypatch.setenv("GCS_CACHE_DIR", str(path))
    return path


def roots(c: Content) -> list[N.Node]:
    out: list[N.Node | None] = []
    for card in c.cards.values():
        for v in (card, card.upgrade):
            if v is not None:
                out += [v.on_play, v.on_drawn, v.on_discard, v.on_exhaust, v.on_turn_start,
                        v.on_turn_end]
    for s in c.statuses.values():
        out += list(s.entries.values())
    for e in c.enemies.values():
        out += [m.behaviour for m in e.moves]
    out += list(c.graphs.values())
    return [n for n in out if n is not None]


# ---------------------------------------------------------------- the bundled pack


def test_builtin_pack_loads() -> None:
    c = builtin_content()
    assert c.pack_id == "ironclad"
    assert builtin_content() is c  # loaded once per process
    assert len(c.cards) >= 43 + 3 and len(c.statuses) >= 10
    assert len(c.enemies) >= 8 and len(c.encounters) >= 8
    assert len(c.digest) == 64


def test_builtin_pack_uses_every_node_kind_and_keyword() -> None:
    c = load_content(BUILTIN, use_cache=False)
    seen = {type(n) for root in roots(c) for n in N.walk(root)}
    assert [t.__name__ for t in N.NODE_TYPES if t not in seen] == []
    keywords = set().union(*(card.keywords for card in c.cards.values()))
    assert keywords == set(Keyword)


def test_builtin_starter_cards_match_slay_the_spire() -> None:
    c = builtin_content()
    strike, bash = c.cards["strike"], c.cards["bash"]
    assert (strike.cost, strike.type, strike.rarity, strike.target) == (
        1, CardType.ATTACK, Rarity.BASIC, TargetMode.SINGLE_ENEMY)
    assert strike.on_play == N.DealDamage(Var("damage"), TARGET)
    assert dict(strike.numbers) == {"damage": 6}
    assert strike.upgrade is not None and strike.upgrade.is_upgraded
    assert (strike.upgrade.name, dict(strike.upgrade.numbers)) == ("Strike+", {"damage": 9})
    assert strike.upgrade.on_play == strike.on_play  # an upgrade inherits what it does not state
    assert bash.on_play == N.Sequence((N.DealDamage(Var("damage"), TARGET),
                                       N.ApplyStatus("vulnerable", Var("vulnerable"), TARGET)))
    deck = c.characters["ironclad"]
    assert deck.max_hp == 80 and dict(deck.statuses) == {"burning_blood": 1}
    assert [(e.card, e.count) for e in deck.starting_deck] == [
        ("strike", 5), ("defend", 4), ("bash", 1)]


def test_builtin_special_costs_and_keywords() -> None:
    c = builtin_content()
    whirl = c.cards["whirlwind"]
    assert (whirl.cost, whirl.x_cost) == (0, True)
    assert whirl.on_play == N.DealDamage(Var("damage"), UnitSel("all_enemies"), XCost())
    wound = c.cards["wound"]
    assert wound.has(Keyword.UNPLAYABLE) and wound.type is CardType.STATUS
    assert c.cards["dazed"].keywords == {Keyword.UNPLAYABLE, Keyword.ETHEREAL}
    limit = c.cards["limit_break"]
    assert limit.has(Keyword.EXHAUST) and limit.upgrade is not None
    assert not limit.upgrade.has(Keyword.EXHAUST)


def test_builtin_enemies_and_statuses() -> None:
    c = builtin_content()
    jaw = c.enemies["jaw_worm"]
    assert (jaw.hp_min, jaw.hp_max, jaw.ai.opener) == (40, 44, ("chomp",))
    assert [(w.move, w.weight, w.max_in_row) for w in jaw.ai.weighted] == [
        ("bellow", 45, 1), ("thrash", 30, 2), ("chomp", 25, 1)]
    thrash = jaw.move("thrash")
    assert thrash.intent is IntentKind.ATTACK_DEFEND
    assert thrash.behaviour == N.Sequence((N.DealDamage(7, TARGET), N.GainBlock(5, SELF)))
    assert dict(c.enemies["louse_red"].status_ranges) == {"curl_up": (3, 7)}
    assert c.enemies["acid_slime_l"].ai.hp_rules[0].move == "split"
    vuln = c.statuses["vulnerable"]
    assert vuln.decay is Decay.MINUS_ONE and vuln.debuff
    assert (vuln.modifiers[0].stage, vuln.modifiers[0].num, vuln.modifiers[0].den) == (
        "take", 3, 2)
    assert c.statuses["barricade"].keeps_block and c.statuses["stunned"].skip_turn
    assert c.encounters["gremlin_nob"].kind == "elite"
    assert c.reward_tables["elite"].pool == c.reward_tables["normal"].pool  # a YAML alias


def test_validate_path_summary() -> None:
    ok, lines = validate_path(BUILTIN)
    c = builtin_content()
    assert ok
    assert lines == [f"ok: pack 'ironclad': {len(c.cards)} cards, {len(c.statuses)} statuses, "
                     f"{len(c.enemies)} enemies, {len(c.encounters)} encounters, 1 character, "
                     f"{len(c.reward_tables)} reward tables, {len(c.graphs)} graphs"]


def test_validate_missing_path(tmp_path: Path) -> None:
    ok, lines = validate_path(tmp_path / "nope")
    assert not ok and lines == [f"{tmp_path / 'nope'}: no such file or directory"]


# ---------------------------------------------------------------- the YAML surface

ARMAMENTS = """\
armaments:
  name: Armaments
  cost: 1
  type: skill
  target: self
  numbers: {block: 5}
  on_play:
    - block $block
    - choose:
        from: hand
        where: {upgraded: false}
        as: card
        then: upgrade $card
  upgrade:
    on_play: [block $block, upgrade hand]
"""


def test_short_mapping_and_list_forms_are_equal() -> None:
    forms = ["apply vulnerable 2 to all_enemies",
             {"apply": {"status": "vulnerable", "amount": 2, "to": "all_enemies"}},
             {"apply": ["vulnerable", 2]}]
    cards = {}
    for i, form in enumerate(forms):
        target = "all_enemies" if i == 2 else "none"
        cards[f"c{i}"] = {"name": "C", "cost": 1, "type": "skill", "target": target,
                          "on_play": [form]}
    c = load_content({"pack": "p", "cards": cards,
                      "statuses": {"vulnerable": {"decay": "minus_one"}}})
    nodes = {c.cards[k].on_play for k in cards}
    assert nodes == {N.ApplyStatus("vulnerable", 2, UnitSel("all_enemies"))}


def test_single_file_pack_and_choice(tmp_path: Path) -> None:
    text = "pack: {id: one}\ncards:\n" + textwrap.indent(ARMAMENTS, "  ")
    (tmp_path / "pack.yaml").write_text(text)
    c = load_content(tmp_path / "pack.yaml")
    arm = c.cards["armaments"]
    assert arm.on_play == N.Sequence((
        N.GainBlock(Var("block"), SELF),
        N.Choice(CardSel("hand", CardFilter(upgraded=False)), "card",
                 then=N.UpgradeCard(CardSel("var", var="card")))))
    assert arm.upgrade is not None
    assert arm.upgrade.on_play == N.Sequence((N.GainBlock(Var("block"), SELF),
                                              N.UpgradeCard(CardSel("hand"))))


def test_yaml_words_stay_words_and_anchors_merge() -> None:
    doc = read_yaml("base: &b {hp: 5, on: yes}\nkid:\n  <<: *b\n  hp: 7\nno: off\n")
    assert doc.errors == [] and doc.dups == []
    assert doc.data == {"base": {"hp": 5, "on": "yes"}, "kid": {"hp": 7, "on": "yes"},
                        "no": "off"}


def test_control_flow_forms() -> None:
    c = load_content({"pack": "p", "cards": {"c": {
        "name": "C", "cost": 1, "type": "skill", "target": "self", "numbers": {"n": 2},
        "on_play": [
            {"for_each": "hand", "as": "card",
             "do": {"if": {"not": {"exists": {"from": "$card", "where": {"type": "attack"}}}},
                    "then": "exhaust $card"}},
            {"repeat": "$n", "do": "draw 1"},
            {"set": {"name": "k", "to": {"count": "hand"}}},
            "deal $k hits x to all_enemies",
        ]}}})
    body = c.cards["c"].on_play
    assert isinstance(body, N.Sequence)
    each, loop, setk, deal = body.steps
    assert each == N.Foreach(CardSel("hand"), "card", N.Branch(
        Not(Compare("gt", CountOf(CardSel("var", CardFilter(type=CardType.ATTACK),
                                            var="card")), 0)),
        N.ExhaustCard(CardSel("var", var="card"))))
    assert loop == N.Loop(Var("n"), N.DrawCards(1))
    assert setk == N.SetVar("k", CountOf(CardSel("hand")))
    assert deal == N.DealDamage(Var("k"), UnitSel("all_enemies"), XCost())


def test_add_card_defaults_and_enemy_moves() -> None:
    c = load_content({"pack": "p", "cards": {"w": {"name": "W", "cost": "unplayable",
                                                   "type": "status"}},
                      "statuses": {"weak": {"modifiers": ["deal *3/4"]}},
                      "enemies": {"slime": {"hp": 10, "moves": {
                          "spit": {"intent": "attack_debuff", "damage": 7, "hits": 2,
                                   "do": ["add_card w to discard", "apply weak 1 to target"]}},
                          "ai": {"cycle": ["spit"]}}}})
    spit = c.enemies["slime"].move("spit")
    assert spit.behaviour == N.Sequence((
        N.DealDamage(7, TARGET, 2), N.AddCards("w", PileScope.DISCARD),
        N.ApplyStatus("weak", 1, TARGET)))
    assert (c.enemies["slime"].hp_min, c.enemies["slime"].hp_max) == (10, 10)


def test_heavy_blade_reads_strength_stacks() -> None:
    blade = builtin_content().cards["heavy_blade"].on_play
    assert isinstance(blade, N.DealDamage) and isinstance(blade.amount, BinOp)


# ---------------------------------------------------------------- the compiled cache


def test_cache_hit_returns_equal_content(tmp_path: Path, private_cache: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(BUILTIN, pack)
    first = load_content(pack)
    files = list(private_cache.iterdir())
    assert len(files) == 1 and files[0].name.startswith("pack-")
    stamp = files[0].stat().st_mtime_ns
    again = load_content(pack)
    assert files[0].stat().st_mtime_ns == stamp  # read, not rewritten
    assert again is not first and again.digest == first.digest
    for name in ("cards", "statuses", "enemies", "encounters", "characters", "reward_tables",
                 "graphs"):
        assert dict(getattr(again, name)) == dict(getattr(first, name)), name
    assert again.node_ref(again.cards["bash"].on_play) == ("card:bash:on_play", 0)


def test_a_cached_pack_loads_without_pyyaml(private_cache: Path) -> None:
    """A cache hit reads no YAML, so PyYAML is never imported (a command's start-up is that much
    shorter); the first load, from the files, does read it."""
    import subprocess
    import sys

    code = ("import sys; from gcs.content.loader import BUILTIN, load_content; "
            "c = load_content(BUILTIN); print(len(c.cards), 'yaml' in sys.modules)")
    env = dict(os.environ, GCS_CACHE_DIR=str(private_cache))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           timeout=300, check=True).stdout.split() for _ in range(2)]
    cards = str(len(builtin_content().cards))
    assert runs == [[cards, "True"], [cards, "False"]]


def test_changed_file_misses_the_cache(tmp_path: Path, private_cache: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(BUILTIN, pack)
    load_content(pack)
    text = (pack / "cards.yaml").read_text().replace("numbers: {damage: 6}",
                                                     "numbers: {damage: 7}", 1)
    (pack / "cards.yaml").write_text(text)
    assert dict(load_content(pack).cards["strike"].numbers) == {"damage": 7}
    assert len(list(private_cache.iterdir())) == 2


def test_corrupt_or_unwritable_cache_is_no_cache(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(BUILTIN, pack)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("GCS_CACHE_DIR", str(blocker / "cache"))
    assert load_content(pack).cards["strike"].name == "Strike"
    good = tmp_path / "cache"
    monkeypatch.setenv("GCS_CACHE_DIR", str(good))
    load_content(pack)
    entry = next(good.iterdir())
    entry.write_bytes(b"not a pickle")
    assert load_content(pack).cards["strike"].name == "Strike"


def test_default_cache_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GCS_CACHE_DIR")
    assert cache.cache_dir() == Path(os.path.expanduser("~")) / ".cache" / "gcs"


def test_card_art_is_read_inherited_by_the_upgrade_dumped_and_built() -> None:
    """Seed 004 lists art among a card definition's parts: an optional ``art`` (a path in the
    pack or a URL, resolved by the UI; the engine never reads it)."""
    from gcs.content import builder as b
    from gcs.content.dump import dump_content
    from gcs.errors import ContentError

    base = {"name": "C", "cost": 1, "type": "skill"}
    c = load_content({"pack": "p", "cards": {
        "plain": dict(base),
        "art": dict(base, art="art/c.png", upgrade={"name": "C+"}),
        "new": dict(base, art="art/n.png", upgrade={"art": "https://example.org/n+.png"})}})
    assert c.cards["plain"].art is None
    assert c.cards["art"].art == "art/c.png" and c.cards["art"].upgrade.art == "art/c.png"
    assert c.cards["new"].upgrade.art == "https://example.org/n+.png"
    data = dump_content(c)
    assert data["cards"]["art"]["art"] == "art/c.png" and "art" not in data["cards"]["plain"]
    assert load_content(data).cards == c.cards
    built = b.pack("p", b.card("x", "X", cost=0, type="skill", art="x.png"))
    assert built.cards["x"].art == "x.png"
    for bad in ("", "a\nb", 5, "x" * 2_001):
        with pytest.raises(ContentError, match=r"card 'art': field 'art': "):
            load_content({"pack": "p", "cards": {"art": dict(base, art=bad)}})

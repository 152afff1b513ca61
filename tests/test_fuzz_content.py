"""Content mutations (issue 10): 2,000+ seeded structural, type, range, reference, byte-level,
depth and alias attacks on a pack. Each either loads (and then a battle of it ends or stops
with a GameError, never hangs) or raises ContentError naming the file; each in well under a
second."""

from __future__ import annotations

import copy
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzz_support import Outcomes, data_paths, garbage
from test_content_fuzz import BASE

import gcs
from gcs.content.loader import load_content
from gcs.errors import ContentError, GameError


def _small_pack() -> dict[str, Any]:
    """The bundled pack cut to a few cards (fast to load), references fixed up."""
    d = copy.deepcopy(BASE)
    keep = set(list(d["cards"])[:14]) | {"strike", "defend", "bash"}
    for _ in range(20):
        d["cards"] = {k: v for k, v in BASE["cards"].items() if k in keep}
        for t in d["rewards"].values():
            t["pool"] = [c for c in t["pool"] if c in keep]
        try:
            load_content(d, use_cache=False)
            return d
        except ContentError as exc:
            missing = set(re.findall(r"unknown card '([\w-]+)'", "\n".join(exc.problems)))
            if not missing:
                raise
            keep |= missing
    raise AssertionError("could not cut the pack")


SMALL = _small_pack()
TEXT = yaml.safe_dump(SMALL, sort_keys=False)




PATHS = [p for p in data_paths(SMALL) if len(p) >= 2]
IDS = sorted({k for sect in ("cards", "statuses", "enemies", "encounters") for k in SMALL[sect]})


MAPPING_FILES = ("<mapping>", *SMALL)  # a mapping's problems name the section as the file


def mutate_mapping(rng: random.Random) -> tuple[dict[str, Any], str]:
    d = copy.deepcopy(SMALL)
    path = rng.choice(PATHS)
    parent: Any = d
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    op = rng.choice(("type", "type", "range", "reference", "drop", "deep", "cycle", "swap"))
    if op == "range":
        parent[key] = rng.choice((10**12, -(10**12), 10**400, 2**63, -1, 0, 10**9 + 1,
                                  float("inf"), float("nan"), 1e300))
    elif op == "reference":
        parent[key] = rng.choice(IDS) + rng.choice(("", "_nope", "x"))
    elif op == "drop":
        del parent[key]
    elif op == "deep":
        v: Any = 1
        for _ in range(rng.choice((70, 300, 2000))):
            v = [v] if rng.random() < 0.5 else {"a": v}
        parent[key] = v
    elif op == "cycle":
        parent[key] = parent
    elif op == "swap":
        other = rng.choice(PATHS)
        src: Any = SMALL
        for k in other:
            src = src[k]
        parent[key] = copy.deepcopy(src)
    else:
        parent[key] = garbage(rng)
    return d, f"{op} at {path}"


BOMB = ("pack: {id: p}\nstuff:\n  a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"  {c}: &{c} [{', '.join(['*' + p] * 9)}]\n"
                  for p, c in zip("abcdefgh", "bcdefghi", strict=True)))


def mutate_bytes(rng: random.Random) -> tuple[bytes, str]:
    data = bytearray(TEXT.encode())
    op = rng.choice(("flip", "insert", "delete", "control", "digits", "alias", "anchor", "deep",
                     "truncate", "bomb"))
    at = rng.randrange(len(data))
    if op == "flip":
        data[at] = rng.randrange(256)
    elif op == "insert":
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    elif op == "delete":
        del data[at:at + rng.randint(1, 40)]
    elif op == "control":
        data[at:at] = bytes([rng.choice((0, 1, 7, 8, 11, 12, 27, 127))])
    elif op == "digits":
        data[at:at] = ("9" * rng.choice((31, 500, 4400, 10000))).encode()
    elif op == "alias":
        data[at:at] = b" *nope "
    elif op == "anchor":
        data = bytearray(TEXT.replace("cards:\n", "cards: &top\n", 1).encode())
        data += b"  loop: *top\n"
    elif op == "deep":
        n = rng.choice((65, 300, 3000))
        data += b"\ngraphs_x: " + b"[" * n + b"]" * n + b"\n"
    elif op == "truncate":
        del data[at:]
    else:
        return BOMB.encode(), "alias bomb"
    return bytes(data), f"{op} at byte {at}"


def _play(content: gcs.Content, rng: random.Random) -> str:
    """A battle of a pack that loaded: it ends, or stops with a GameError (never hangs)."""
    if not content.encounters or not content.characters:
        return "loaded"
    g = gcs.Game(content, seed=rng.randrange(99), rules=gcs.BattleRules(step_limit=20_000))
    try:
        g.start_battle(sorted(content.encounters)[0])
        for _ in range(60):
            if not g.is_battle_active or g.is_waiting_for_reward:
                break
            acts = g.legal_actions()
            if not acts:
                break
            g.apply(rng.choice(acts))
    except GameError:
        return "loaded_then_game_error"
    return "loaded_and_played"


def _check(out: Outcomes, what: str, load: Any, rng: random.Random,
           file_hint: tuple[str, ...]) -> None:
    started = time.perf_counter()
    try:
        content = load()
    except ContentError as exc:
        out.timed(started, what)
        assert exc.problems and all(p for p in exc.problems), what
        assert exc.problems[0].startswith(file_hint), (what, exc.problems[0])
        out.add("refused")
        return
    except Exception as exc:  # pragma: no cover - the failure this suite looks for
        raise AssertionError(f"{what}: {exc!r}") from exc
    out.timed(started, what)
    started = time.perf_counter()
    out.add(_play(content, rng))
    out.timed(started, what + " (battle)")


# A whole pack loaded and a battle played is slower than one facade call: a call over this is a
# hang. (2 s failed on a loaded 2-core machine once the pack grew to every Act 1 encounter; the
# hangs this suite found, an unbounded starting deck and a DAG mapping, run far past 10 s.)
PACK_HANG_S = 10.0


# part 53: the seed on which a wider run found a starting deck that hung the first Game()
@pytest.mark.parametrize("part", [0, 1, 53])
def test_fuzz_content_mapping_mutations(part: int) -> None:
    rng = random.Random(500 + part)
    out = Outcomes(f"content mappings part {part}", PACK_HANG_S)
    for _ in range(600):
        d, what = mutate_mapping(rng)
        _check(out, what, lambda d=d: load_content(d, use_cache=False), rng, MAPPING_FILES)
    out.report()
    assert out.counts["refused"] > 300


@pytest.mark.parametrize("part", range(2))
def test_fuzz_content_byte_mutations(part: int, tmp_path: Path) -> None:
    rng = random.Random(700 + part)
    out = Outcomes(f"content bytes part {part}", PACK_HANG_S)
    f = tmp_path / "pack.yaml"
    for _ in range(450):
        data, what = mutate_bytes(rng)
        f.write_bytes(data)
        _check(out, what, lambda: load_content(f, use_cache=False), rng, ("pack.yaml",))
    out.report()
    assert out.counts["refused"] > 200


def test_alias_bomb_is_refused_fast_naming_the_line(tmp_path: Path) -> None:
    f = tmp_path / "pack.yaml"
    f.write_bytes(BOMB.encode())
    started = time.perf_counter()
    with pytest.raises(ContentError, match=r"pack\.yaml:\d+: aliases expand to more than"):
        load_content(f, use_cache=False)
    assert time.perf_counter() - started < 1.0


def test_recursive_anchor_control_character_huge_integer_and_depth_are_content_errors(
        tmp_path: Path) -> None:
    f = tmp_path / "pack.yaml"
    cases = {
        "pack: {id: p}\ncards: &a\n  x: *a\n": "recursive alias",
        "pack: {id: p}\ncards:\n  x: \x07\n": "control characters",
        "pack: {id: p}\ncards:\n  x: {cost: " + "9" * 4400 + "}\n": "more than 30 digits",
        "pack: {id: p}\ncards:\n  x: " + "[" * 300 + "]" * 300 + "\n": "levels deep",
    }
    for text, message in cases.items():
        f.write_text(text)
        with pytest.raises(ContentError, match=r"pack\.yaml:3: .*" + message):
            load_content(f, use_cache=False)


def test_limits_in_pack_yaml_override_the_count_bound() -> None:
    d = copy.deepcopy(SMALL)
    card = d["cards"]["strike"]
    card["on_play"] = [{"add_card": {"card": "strike", "count": 5000}}]
    with pytest.raises(ContentError, match=r"max_count"):
        load_content(d, use_cache=False)
    d["pack"]["limits"] = {"max_count": 10_000}
    assert load_content(d, use_cache=False).cards["strike"]


def test_a_starting_deck_is_bounded_by_max_count_per_card_and_100000_cards_in_all() -> None:
    # found by a wider run of the mapping fuzz (seed 553): a deck count of 10**6 loaded, and
    # the first battle took seconds; 10**9 would hang Game() building the master deck
    d = copy.deepcopy(SMALL)
    deck = d["characters"]["ironclad"]["deck"]
    for n in (10**6, 10**9, 1000):
        deck["defend"] = n
        with pytest.raises(ContentError, match=r"field 'deck\.defend': bad value \d+: above "
                           r"the limit 999 \(max_count"):
            load_content(d, use_cache=False)
    deck["defend"] = 999  # the limit itself: a deck of 1,005 cards, played
    g = gcs.Game(load_content(d, use_cache=False), seed=1)
    g.start_battle(sorted(g.content.encounters)[0])
    assert len(g.draw_pile()) + len(g.hand()) == 1005
    # a pack may raise max_count, not the size of the whole deck
    d["pack"]["limits"] = {"max_count": 1_000_000}
    d["characters"]["ironclad"]["deck"] = {"strike": 60_000, "defend": 40_000}
    assert load_content(d, use_cache=False).characters["ironclad"]  # (100,000 cards in all)
    d["characters"]["ironclad"]["deck"] = {"strike": 60_000, "defend": 40_001}
    with pytest.raises(ContentError, match=r"field 'deck\.defend': the starting deck passes "
                       r"100000 cards here \(100001 so far\)"):
        load_content(d, use_cache=False)


def test_a_huge_computed_add_card_count_stops_at_the_step_guard_naming_the_card() -> None:
    d = copy.deepcopy(SMALL)
    d["pack"]["limits"] = {"max_count": 1_000_000}
    d["cards"]["defend"]["on_play"] = [{"add_card": {"card": "strike", "count": 1_000_000,
                                                    "to": "discard"}}]
    content = load_content(d, use_cache=False)
    g = gcs.Game(content, seed=1, rules=gcs.BattleRules(step_limit=50_000))
    g.start_battle(sorted(content.encounters)[0])
    defend = next((c for c in g.hand() if c.card_id == "defend"), None)
    if defend is None:
        defend = g.add_card_to_hand("defend")
    started = time.perf_counter()
    with pytest.raises(gcs.GameError, match=r"AddCards of 'strike' in card 'defend'"):
        g.try_play_card(defend)
    assert time.perf_counter() - started < 1.0


def test_a_mapping_built_from_shared_sub_lists_is_bounded_as_yaml_aliases_are() -> None:
    # issue 30: a DAG (each level the same list twice) had 2^18 paths in 12 s, 2^40 hung;
    # PyYAML builds such sharing from anchors when a user parses YAML themselves
    for levels in (18, 40):
        tags: Any = ["x"]
        for _ in range(levels):
            tags = [tags, tags]
        d = copy.deepcopy(SMALL)
        d["cards"]["strike"]["tags"] = tags
        started = time.perf_counter()
        with pytest.raises(ContentError, match=r"<mapping>\.cards: its shared parts expand to "
                           r"more than 100000 values"):
            load_content(d, use_cache=False)
        assert time.perf_counter() - started < 1.0
    # sharing within the bound is read as its copies (as a YAML alias is)
    shared = ["exhaust"]
    d = copy.deepcopy(SMALL)
    d["cards"]["strike"]["keywords"] = shared
    d["cards"]["defend"]["keywords"] = shared
    c = load_content(d, use_cache=False)
    assert c.cards["strike"].keywords == c.cards["defend"].keywords
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    d["cards"]["strike"]["tags"] = cyclic
    with pytest.raises(ContentError, match="levels deep"):
        load_content(d, use_cache=False)

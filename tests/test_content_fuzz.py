"""Malformed content never crashes the loader: any corruption of a valid pack either still
loads or raises ContentError (never another exception, never a half-loaded pack)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from fuzz_support import data_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcs.content.loader import load_content
from gcs.content.yamldoc import read_yaml
from gcs.errors import ContentError

PACK = Path(__file__).resolve().parent.parent / "gcs" / "data" / "ironclad"
SECTIONS = ("cards", "statuses", "enemies", "encounters", "characters", "rewards", "graphs")


def _pack_mapping() -> dict[str, Any]:
    data: dict[str, Any] = {"pack": {"id": "fuzz"}}
    for name in SECTIONS:
        data[name] = {}
        for path in [PACK / f"{name}.yaml", *sorted(PACK.glob(f"{name}_*.yaml"))]:  # split files too
            if path.exists():
                data[name].update(read_yaml(path.read_text()).data)  # the pack's reader
    return data


BASE = _pack_mapping()


def test_the_uncorrupted_mapping_loads() -> None:
    assert len(load_content(BASE, use_cache=False).cards) >= 40

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from(["$nope", "deal", "x", "unplayable", "hand", "self",
                                           "$damage", "on", "draw 1", "deal 6 to nowhere"]),
    st.lists(st.integers(-3, 3), max_size=3), st.dictionaries(st.text(max_size=5),
                                                             st.integers(), max_size=2),
)




PATHS = [p for p in data_paths(BASE) if len(p) >= 2]


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), JUNK), min_size=1, max_size=3))
def test_corrupted_pack_loads_or_raises_content_error(edits: list[tuple[Any, Any]]) -> None:
    data = copy.deepcopy(BASE)
    for path, junk in edits:
        try:
            _set(data, path, junk)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit replaced a parent
    try:
        content = load_content(data, use_cache=False)
    except ContentError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
        return
    # loaded whole: the pack's own id (the corruption may have replaced it with another valid one)
    authored = data["pack"].get("id") if isinstance(data.get("pack"), dict) else None
    if isinstance(authored, str):
        assert content.pack_id == authored
    else:
        assert isinstance(content.pack_id, str) and content.pack_id

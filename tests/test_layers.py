"""The package is layered with no import circle (scripts/import_circles.py reads the imports
from the source: function-local ones count, those only under TYPE_CHECKING do not).

docs/architecture.md draws the layers; each may import only from the layers below it (or its
own package): the base modules, the behaviour-graph data (gcs/flow), the content, the battle
state and primitives (gcs/battle), the interpreter (gcs/interp), the seed procedures and their
runner (gcs/steps), the engine loop; the facade and every adapter above.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))

import import_circles

LAYERS = {  # top-level name under gcs -> its layer (anything else: the facade and adapters)
    "enums": 0, "errors": 0, "rng": 0, "events": 0, "rules": 0,
    "flow": 1, "content": 2, "battle": 3, "interp": 4, "steps": 5, "engine": 6,
}
TOP = 7


def _layer(module: str) -> int:
    parts = module.split(".")
    return TOP if len(parts) == 1 else LAYERS.get(parts[1], TOP)


def test_the_package_has_no_import_circle() -> None:
    assert import_circles.circles() == []


def test_each_layer_imports_only_from_the_layers_below() -> None:
    graph = import_circles.edges(import_circles.modules())
    upward = [(m, t) for m in sorted(graph) for t in sorted(graph[m])
              if _layer(m) < TOP and _layer(t) > _layer(m)]
    assert upward == []
    # (and the engine core knows no adapter: nothing below the facade imports it)
    assert all(_layer(m) == TOP for m in graph if "gcs.game" in graph[m])


def test_the_counter_finds_a_circle_and_skips_type_only_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "gcs"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text("")
    (pkg / "a" / "x.py").write_text("def f():\n    from . import y\n")
    (pkg / "a" / "y.py").write_text("from .x import f\n")
    (pkg / "z.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (pkg / "w.py").write_text("from .a.x import f\n")
    assert import_circles.circles(pkg) == [["gcs.a.x", "gcs.a.y"]]


def test_no_module_is_over_the_size_a_reader_holds() -> None:
    # issue 25: "no module over ~600 lines"; the few near it (the facade, the state) may pass
    # it by a screenful, no more: a module that grows past 650 is split by concept
    root = Path(__file__).parent.parent / "gcs"
    sizes = {str(p.relative_to(root)): len(p.read_text(encoding="utf-8").splitlines())
             for p in sorted(root.rglob("*.py"))}
    assert {name: n for name, n in sizes.items() if n > 650} == {}
    assert max(sizes.values()) > 300  # (the walk found the package's modules)

"""The import circles of the gcs package, read from the source (no import is run).

    .venv/bin/python scripts/import_circles.py          # one circle a line, then the count
    .venv/bin/python scripts/import_circles.py OTHER/gcs   # the same for another tree's package

Every ``import`` and ``from ... import`` of a gcs module counts, at module level or inside a
function (a function-local import is an edge all the same: it only moves the circle to run
time); an import under ``if TYPE_CHECKING:`` does not (it names types for mypy and is never
run). ``from package import name`` is an edge to the submodule ``name`` when there is one,
else to the package. The implicit import of a module's parent packages is not an edge. A
circle is a strongly connected part of that graph with more than one module (or a module
that imports itself); ``circles()`` returns them, ``tests/test_layers.py`` asserts there are
none, and the exit status is 1 when there are.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "gcs"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by dotted name (a package is its ``__init__``)."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module, at any depth, leaving out ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:  # (the ``else`` of it does run)
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def edges(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the gcs modules it imports."""
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source
                           for a in node.names]
            for t in targets:
                if (t in mods and t != name) or t == name:
                    graph[name].add(t)
    return graph


def circles(root: Path = ROOT) -> list[list[str]]:
    """The strongly connected parts of the import graph that are circles, each sorted."""
    graph = edges(modules(root))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 or v in graph[v]:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(out)


def main() -> int:
    found = circles(Path(sys.argv[1]).resolve()) if len(sys.argv) > 1 else circles()
    for part in found:
        print(f"{len(part)} modules: {' '.join(part)}")
    print(f"{len(found)} import circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

"""Both engines play the same game. ``./scripts/test`` runs the suite twice: on the source tree
(pure Python, ``GCS_ENGINE=pure``) and on the wheel installed in ``.venv/compiled`` (the
mypyc-compiled engine the main job runs, ``GCS_ENGINE=compiled``). These tests check that each
pass runs the engine it names, compiled as pyproject.toml lists, and that it plays exactly like
the pure source tree run in another process (with another hash seed). tests/test_wheel.py
checks a freshly built wheel the same way, once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from play_fingerprint import fingerprint

import gcs
from gcs.cli import main

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
ENGINE = os.environ.get("GCS_ENGINE", "pure")


def compiled_modules() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        modules: list[str] = tomllib.load(fh)["tool"]["gcs"]["compiled"]["modules"]
    return modules


def pure_fingerprint_in_another_process() -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="4242")
    r = subprocess.run([sys.executable, "-P", str(TESTS / "play_fingerprint.py")], cwd=TESTS,
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_this_run_tests_the_engine_it_names() -> None:
    assert gcs.engine_kind() == ENGINE
    from_source_tree = Path(gcs.__file__).resolve().is_relative_to(ROOT / "gcs")
    assert from_source_tree == (ENGINE == "pure")


def test_the_compiled_modules_are_those_pyproject_lists() -> None:
    import importlib

    modules = compiled_modules()
    assert "gcs/engine.py" in modules and len(modules) == len(set(modules))
    for path in modules:
        assert (ROOT / path).is_file(), f"[tool.gcs.compiled] lists {path}, which does not exist"
        mod = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert mod.__file__ is not None
        assert mod.__file__.endswith(".py") == (ENGINE == "pure"), mod.__file__


def test_every_frame_handler_is_compiled_on_the_compiled_engine() -> None:
    """The loop hands every frame to its handler: on the compiled engine each one is compiled
    code (a handler's module missing from ``[tool.gcs.compiled]`` would run interpreted, and
    every turn with it)."""
    from gcs import engine

    assert engine.HANDLERS
    for kind, handler in engine.HANDLERS.items():
        assert hasattr(handler, "__code__") == (ENGINE == "pure"), (kind, handler)


def test_this_engine_plays_exactly_like_the_pure_source_tree() -> None:
    here = fingerprint()
    pure = pure_fingerprint_in_another_process()
    assert (here["engine"], pure["engine"]) == (ENGINE, "pure")
    assert here["version"] == pure["version"] == gcs.__version__
    assert here["battles"] == pure["battles"]
    assert len(pure["battles"]) >= 40  # type: ignore[arg-type]


def test_gcs_version_names_the_engine_under_test(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"gcs {gcs.__version__} ({ENGINE} engine)\n"

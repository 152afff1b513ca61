"""The wheel is what users install: ``pip wheel`` of a clean copy of this tree, in a temporary
folder, gives the mypyc-compiled engine where a C compiler is there and a working pure-Python
wheel with a one-line notice where none is; installed in a fresh venv, it plays exactly like the
pure source tree.

Offline: the build uses this environment's setuptools and mypy (``--no-build-isolation``; both
are installed by scripts/_env.sh), the install takes only the wheel (``--no-index --no-deps``),
and the fresh venv borrows this environment's other packages through a ``.pth`` file, written
after the install. ``./scripts/test`` runs this file once, in its pure-Python pass.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

import gcs

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "build", "dist", "__pycache__", "*.egg-info",
                                     ".*_cache", ".hypothesis", "*.so", "*.c", "*.o")
SIMULATE = ["simulate", "--encounter", "jaw_worm", "--battles", "150", "--seed", "5", "--json",
            "--workers", "2"]


def build_env(**env: str) -> dict[str, str]:
    """This environment with the build switches (a forced pure build, a compiler) as given only."""
    base = {k: v for k, v in os.environ.items() if k not in ("GCS_PURE", "CC", "MYPYC_OPT_LEVEL")}
    return dict(base, **env)


def build_wheel(tmp: Path, **env: str) -> tuple[Path, list[str]]:
    """Copy the tree to ``tmp/src``, ``pip wheel`` it into ``tmp/dist``: the wheel and the
    build's ``gcs build:`` notices."""
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCES)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-index",
                        "--no-build-isolation", "-w", str(tmp / "dist"), str(src)],
                       capture_output=True, text=True, timeout=600, env=build_env(**env))
    assert r.returncode == 0, (r.stdout + r.stderr)[-4000:]
    out = (r.stdout + r.stderr).splitlines()
    (wheel,) = (tmp / "dist").glob("gcs-*.whl")
    return wheel, [ln.strip() for ln in out if ln.strip().startswith("gcs build:")]


def fresh_venv_with(wheel: Path, venv: Path) -> Path:
    """A new venv holding only ``wheel``, lent this environment's packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True, timeout=300)
    site = run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    lent = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    Path(site, "_lent_site.pth").write_text("".join(p + "\n" for p in lent))
    return py


def run(exe: Path | str, *args: str, pure_tree: bool = False) -> str:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pure_tree:
        env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run([str(exe), *args], cwd=TESTS, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def installed(py: Path) -> dict[str, str]:
    code = "import gcs, json; print(json.dumps([gcs.engine_kind(), gcs.__version__, gcs.__file__]))"
    kind, version, where = json.loads(run(py, "-P", "-c", code))
    return {"kind": kind, "version": version, "where": where}


@pytest.fixture(scope="module")
def compiled_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    tmp = tmp_path_factory.mktemp("wheel")
    wheel, notices = build_wheel(tmp)
    return wheel, fresh_venv_with(wheel, tmp / "venv"), notices


def test_the_wheel_compiles_the_engine_core(compiled_venv: tuple[Path, Path, list[str]]) -> None:
    wheel, py, notices = compiled_venv
    assert notices == []
    assert wheel.name.startswith(f"gcs-{gcs.__version__}-cp3") and not wheel.name.endswith("-none-any.whl")
    info = installed(py)
    assert info["kind"] == "compiled" and info["version"] == gcs.__version__
    assert not Path(info["where"]).resolve().is_relative_to(ROOT)
    with open(ROOT / "pyproject.toml", "rb") as fh:
        modules = tomllib.load(fh)["tool"]["gcs"]["compiled"]["modules"]
    names = [m.removesuffix(".py").replace("/", ".") for m in modules]
    code = f"import importlib as i, json; print(json.dumps([i.import_module(n).__file__ for n in {names!r}]))"
    files = json.loads(run(py, "-P", "-c", code))
    assert len(files) == len(modules) and all(f.endswith(".so") for f in files), files


def test_gcs_version_names_the_compiled_engine(compiled_venv: tuple[Path, Path, list[str]]) -> None:
    _, py, _ = compiled_venv
    assert run(py.parent / "gcs", "--version") == f"gcs {gcs.__version__} (compiled engine)\n"


def test_the_installed_wheel_plays_exactly_like_the_pure_source_tree(
        compiled_venv: tuple[Path, Path, list[str]]) -> None:
    _, py, _ = compiled_venv
    wheel_play = json.loads(run(py, "-P", str(TESTS / "play_fingerprint.py")))
    pure_play = json.loads(run(sys.executable, "-P", str(TESTS / "play_fingerprint.py"), pure_tree=True))
    assert (wheel_play["engine"], pure_play["engine"]) == ("compiled", "pure")
    assert wheel_play["battles"] == pure_play["battles"]
    assert len(pure_play["battles"]) >= 40
    # the command line too, byte for byte (two worker processes)
    wheel_sim = run(py.parent / "gcs", *SIMULATE)
    assert wheel_sim == run(sys.executable, "-P", "-m", "gcs", *SIMULATE, pure_tree=True)
    assert json.loads(wheel_sim)["battles"] == 150


@pytest.mark.parametrize(("env", "reason"), [({"CC": "/bin/false"}, "no working C compiler"),
                                             ({"GCS_PURE": "1"}, "GCS_PURE is set")])
def test_without_a_c_compiler_the_build_falls_back_to_a_pure_wheel_with_a_one_line_notice(
        tmp_path: Path, env: dict[str, str], reason: str) -> None:
    wheel, notices = build_wheel(tmp_path, **env)
    assert notices == [f"gcs build: {reason}; building the pure-Python engine (slower, same game)"]
    assert wheel.name == f"gcs-{gcs.__version__}-py3-none-any.whl"
    py = fresh_venv_with(wheel, tmp_path / "venv")
    assert installed(py)["kind"] == "pure"
    assert run(py.parent / "gcs", "--version") == f"gcs {gcs.__version__} (pure engine)\n"
    short = [*SIMULATE[:4], "40", *SIMULATE[5:]]
    assert run(py.parent / "gcs", *short) == run(sys.executable, "-P", "-m", "gcs", *short, pure_tree=True)

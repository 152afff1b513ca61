"""Build hook: compile the engine core with mypyc into the wheel, or ship pure Python.

All metadata lives in pyproject.toml; the modules to compile are its ``[tool.gcs.compiled]``
list. ``pip install .`` and ``pip wheel .`` compile them when mypy (a build requirement) and a
working C compiler are there, and otherwise build the pure-Python package and say so in one
line (``pip install -v`` shows it; ``gcs --version`` tells which engine is installed).
``GCS_PURE=1`` forces the pure package. Editable installs (``pip install -e``) are always pure:
the source tree is what runs.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent
# commands that build the extension modules (a wheel, a plain build, a legacy install);
# metadata steps (egg_info, dist_info) and editable_wheel/develop leave them out
_BUILDS = {"bdist_wheel", "build", "build_ext", "install", "bdist"}


def compiled_modules() -> list[str]:
    """The engine modules mypyc compiles, as listed in pyproject.toml ``[tool.gcs.compiled]``."""
    with open(ROOT / "pyproject.toml", "rb") as fh:
        modules: list[str] = tomllib.load(fh)["tool"]["gcs"]["compiled"]["modules"]
    return modules


def _compiler_works() -> bool:
    """Whether the configured C compiler (``$CC`` or Python's own) builds against Python.h."""
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler

    cc: Any = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.c"
        src.write_text("#include <Python.h>\nint gcs_probe(void) { return 0; }\n")
        try:
            cc.compile([str(src)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception:  # any failure (its error classes vary across setuptools versions)
            return False
    return True


def _why_pure() -> str | None:
    """None when the engine core can be compiled here, else the reason it cannot."""
    if os.environ.get("GCS_PURE", "") not in ("", "0"):
        return "GCS_PURE is set"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypy (mypyc) is not installed"
    if not _compiler_works():
        return "no working C compiler"
    return None


def ext_modules() -> list[Any]:
    """mypyc's extension modules for a wheel build; none for metadata or editable builds."""
    if not _BUILDS.intersection(sys.argv[1:]):
        return []
    reason = _why_pure()
    if reason is not None:
        print(f"gcs build: {reason}; building the pure-Python engine (slower, same game)",
              file=sys.stderr)
        return []
    from mypyc.build import mypycify

    os.chdir(ROOT)  # mypycify takes paths relative to the project
    # The type check that compiling needs covers the listed modules only, and reads no config:
    # an isolated build environment has no stubs or runtime dependencies (PyYAML) of
    # the modules they import; `mypy --strict` of the whole package is the test suite's job.
    flags = ["--config-file=", "--ignore-missing-imports", "--follow-imports=silent"]
    exts: list[Any] = mypycify([*flags, *compiled_modules()],
                               opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    return exts


setup(ext_modules=ext_modules())

"""Build the gcs wheel from the sources and install it into ``.venv/compiled``: the installed
package (mypyc-compiled engine core) that ``./scripts/gcs`` runs and the second pytest pass of
``./scripts/test`` tests.

    python scripts/build_engine.py [--if-stale] [--build-requires]

The wheel is built exactly as ``pip wheel .`` builds it (setup.py decides compiled or pure),
from a clean copy of the sources, without build isolation (the build requirements are installed
in ``.venv`` by scripts/_env.sh). ``.venv/compiled`` is a virtual environment that holds only
gcs; a ``.pth`` file lends it the packages of ``.venv`` (PyYAML, typer, pytest, ...), so
nothing is installed twice. It is rebuilt only when the sources, mypy or Python change.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("GCS_VENV", ROOT / ".venv"))
TARGET = VENV / "compiled"
STAMP = TARGET / ".gcs-built"
# what a build reads: the package, its build hook and metadata
SOURCES = ("gcs", "setup.py", "pyproject.toml", "README.md")
SKIP = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.o", "*.egg-info", "*.pyc")
NOTICE = "gcs build:"  # how setup.py's one-line notices start


def build_requires() -> list[str]:
    """The ``[build-system] requires`` of pyproject.toml."""
    with open(ROOT / "pyproject.toml", "rb") as fh:
        reqs: list[str] = tomllib.load(fh)["build-system"]["requires"]
    return reqs


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and "__pycache__" not in f.parts
                          and f.suffix not in (".so", ".c", ".o", ".pyc"))
        else:
            out.append(p)
    return out


def source_digest() -> str:
    """sha256 over the build inputs: sources, Python, mypy and the GCS_PURE switch."""
    try:
        import mypy.version

        mypy_version = mypy.version.__version__
    except ImportError:
        mypy_version = "none"
    h = hashlib.sha256(f"{sys.version}|{mypy_version}|{os.environ.get('GCS_PURE', '')}".encode())
    for f in _files():
        h.update(str(f.relative_to(ROOT)).encode() + b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()


def is_fresh() -> bool:
    """Whether ``.venv/compiled`` holds the wheel of the current sources."""
    return STAMP.exists() and STAMP.read_text() == source_digest() and (TARGET / "bin" / "gcs").exists()


def build_wheel(src: Path, dist: Path, env: dict[str, str] | None = None) -> tuple[Path, list[str]]:
    """``pip wheel`` the project at ``src`` into ``dist``; returns the wheel and setup.py's notices."""
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-index",
                        "--no-build-isolation", "-w", str(dist), str(src)],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-6000:] + r.stderr[-6000:])
        raise SystemExit(f"building the gcs wheel failed (exit {r.returncode})")
    notices = [ln.strip() for ln in (r.stdout + r.stderr).splitlines() if ln.strip().startswith(NOTICE)]
    (wheel,) = dist.glob("gcs-*.whl")
    return wheel, notices


def install_wheel(wheel: Path, venv: Path, lend: list[str]) -> Path:
    """A fresh venv at ``venv`` holding only ``wheel``, lent the site directories ``lend``."""
    subprocess.run([sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    # written after the install, so pip never sees the lent packages as part of this venv
    Path(site, "_gcs_lent_site.pth").write_text("".join(p + "\n" for p in lend))
    return py


def own_site_dirs() -> list[str]:
    """This interpreter's site-packages directories (the packages a venv borrows from it)."""
    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths["purelib"], paths["platlib"]]))


def build() -> None:
    digest = source_digest()  # of what is copied next, before it can change
    with tempfile.TemporaryDirectory(prefix="gcs-build-") as tmp:
        src = Path(tmp, "src")
        src.mkdir()
        for name in SOURCES:
            p = ROOT / name
            if p.is_dir():
                shutil.copytree(p, src / name, ignore=SKIP)
            else:
                shutil.copy2(p, src / name)
        wheel, notices = build_wheel(src, Path(tmp, "dist"))
        py = install_wheel(wheel, TARGET, own_site_dirs())
    kind = subprocess.run([str(py), "-P", "-c", "import gcs; print(gcs.engine_kind())"],
                          check=True, capture_output=True, text=True).stdout.strip()
    for line in notices:
        print(line, file=sys.stderr)
    STAMP.write_text(digest)
    print(f"installed {wheel.name} ({kind} engine) into {TARGET}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--if-stale", action="store_true", help="build only if the sources changed")
    ap.add_argument("--build-requires", action="store_true",
                    help="print the build requirements (one a line) and exit")
    a = ap.parse_args()
    if a.build_requires:
        print("\n".join(build_requires()))
        return
    if a.if_stale and is_fresh():
        return
    print("building the gcs wheel (mypyc compiles the engine core, about a minute) ...", file=sys.stderr)
    build()


if __name__ == "__main__":
    main()

# Sourced by scripts/*: makes the project's environment. It does not change the directory, so
# relative paths given to a command are the caller's (scripts/test enters the repository itself).
#   .venv           gcs installed editable (pure Python: the source tree is what runs) with what
#                   the main job needs: its dependencies and the build requirements of the
#                   compiled engine (`ensure_core`). An extra a command needs is added when that
#                   command first runs (`ensure_extra`); the dev tools and every extra when the
#                   test suite first runs (`ensure_dev`). Each is made again when pyproject.toml
#                   or setup.py change.
#   .venv/compiled  gcs installed from the wheel built from the sources (the mypyc-compiled engine),
#                   lent .venv's other packages; `ensure_engine` rebuilds it when the sources change.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${GCS_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
CPY="$VENV/compiled/bin/python"
export GCS_VENV="$VENV"

# whether the stamp file $1 is missing or older than the project's metadata
_stale() {
  [ ! -f "$1" ] || [ "$ROOT/pyproject.toml" -nt "$1" ] || [ "$ROOT/setup.py" -nt "$1" ]
}

# pip install into .venv, quietly (the package index's own warnings stay on stderr)
_pip() {
  "$PY" -m pip install --quiet --disable-pip-version-check "$@" >&2
}

# gcs editable with extras "$1" ("" for none), without build isolation (the build requirements
# are installed first); setuptools says an editable install is one, in a warning block: not news
_editable() {
  local spec="$ROOT"
  if [ -n "$1" ]; then spec="$ROOT[$1]"; fi
  PYTHONWARNINGS="ignore:Editable installation" _pip --no-build-isolation -e "$spec"
}

ensure_core() {
  if [ ! -x "$PY" ]; then
    python3 -m venv "$VENV"
  fi
  if _stale "$VENV/.gcs-installed"; then
    # shellcheck disable=SC2046  # one requirement a line, none with spaces
    _pip $("$PY" "$ROOT/scripts/build_engine.py" --build-requires)
    _editable ""
    touch "$VENV/.gcs-installed"
  fi
}

# the optional feature "$1" (an extra of pyproject.toml: monitor, report, parquet, ray, gym)
ensure_extra() {
  if _stale "$VENV/.gcs-extra-$1" && _stale "$VENV/.gcs-dev"; then
    echo "gcs: installing the '$1' extra into .venv (once)" >&2
    _editable "$1"
    touch "$VENV/.gcs-extra-$1"
  fi
}

# the test suite's tools and every extra
ensure_dev() {
  if _stale "$VENV/.gcs-dev"; then
    echo "gcs: installing the dev tools and every extra into .venv (once)" >&2
    _editable "dev"
    touch "$VENV/.gcs-dev"
  fi
}

# builds and installs the wheel into .venv/compiled when the sources changed since the last build
ensure_engine() {
  "$PY" "$ROOT/scripts/build_engine.py" --if-stale
}

ensure_core

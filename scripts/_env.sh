# Sourced by scripts/*: makes the project's environments and enters the repository.
#   .venv           the development environment: the dev tools, the build requirements, and gcs
#                   installed editable (pure Python: the source tree is what runs). Made once, and
#                   again when pyproject.toml or setup.py change.
#   .venv/compiled  gcs installed from the wheel built from the sources (the mypyc-compiled engine),
#                   lent .venv's other packages; `ensure_engine` rebuilds it when the sources change.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${GCS_VENV:-$ROOT/.venv}"
STAMP="$VENV/.gcs-installed"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ] || [ "$ROOT/setup.py" -nt "$STAMP" ]; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  # shellcheck disable=SC2046  # one requirement a line, none with spaces
  "$VENV/bin/python" -m pip install --quiet $("$VENV/bin/python" "$ROOT/scripts/build_engine.py" --build-requires) >&2
  # (setuptools says an editable install is one, in a warning block: not news here)
  PYTHONWARNINGS="ignore:Editable installation" \
    "$VENV/bin/python" -m pip install --quiet --no-build-isolation -e "$ROOT[dev]" >&2
  touch "$STAMP"
fi
PY="$VENV/bin/python"
CPY="$VENV/compiled/bin/python"
export GCS_VENV="$VENV"

# builds and installs the wheel into .venv/compiled when the sources changed since the last build
ensure_engine() {
  "$PY" "$ROOT/scripts/build_engine.py" --if-stale
}
cd "$ROOT"

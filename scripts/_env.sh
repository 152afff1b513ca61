# Sourced by scripts/*: makes .venv (once, and again when pyproject.toml changes) and enters it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${GCS_VENV:-$ROOT/.venv}"
STAMP="$VENV/.gcs-installed"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT[dev]" >&2
  touch "$STAMP"
fi
PY="$VENV/bin/python"
cd "$ROOT"

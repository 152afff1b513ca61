"""``python -m gcs.monitor --encounter ID ...``: the same as ``gcs monitor ...``."""

from __future__ import annotations

import sys

from .command import main

raise SystemExit(main(sys.argv[1:]))

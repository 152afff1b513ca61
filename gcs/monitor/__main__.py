"""``python -m gcs.monitor --encounter ID ...``: the play-mode monitor (see ``command``)."""

from __future__ import annotations

import sys

from .command import main

raise SystemExit(main(sys.argv[1:]))

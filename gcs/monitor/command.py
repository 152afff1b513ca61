"""``gcs monitor``: start a battle and serve the monitor page with play enabled.

    python -m gcs.monitor --encounter jaw_worm --seed 1 [--pack P] [--deck strike*5,defend*4]
                          [--port N] [--host H] [--open] [--save FILE]

The first line of output is the page's URL (with its token).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import ContentError, GameError


def parser() -> argparse.ArgumentParser:
    """The command's arguments (also used by ``gcs monitor``)."""
    ap = argparse.ArgumentParser(prog="gcs monitor",
                                 description="Play a battle in the browser, with the live monitor.")
    ap.add_argument("--encounter", required=True, help="encounter id (see the content pack)")
    ap.add_argument("--pack", default=None, help="content pack directory (default: bundled)")
    ap.add_argument("--seed", type=int, default=1, help="game seed (default 1)")
    ap.add_argument("--deck", default=None, help="master deck, e.g. strike*5,defend*4,bash")
    ap.add_argument("--character", default=None, help="character id (default: the pack's first)")
    ap.add_argument("--port", type=int, default=0, help="port (default 0: a free one)")
    ap.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    ap.add_argument("--open", action="store_true", help="open the page in a web browser")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="write the first battle's replay here (read by 'gcs replay')")
    return ap


def main(argv: list[str]) -> int:
    """Run the command; returns the exit code (0, or 2 for bad arguments or content)."""
    a = parser().parse_args(argv)
    try:
        from . import server
    except ImportError as exc:
        print(f"gcs monitor needs the 'monitor' extra (pip install 'gcs[monitor]'): {exc}",
              file=sys.stderr)
        return 2
    from ..content.loader import pack_content
    from ..sim.simulate import parse_deck
    from .play import PlaySession

    try:
        session = PlaySession(pack_content(a.pack), a.encounter, a.seed,
                              deck=parse_deck(a.deck), character=a.character, save=a.save)
        monitor = server.play(session, host=a.host, port=a.port)
    except (ContentError, GameError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(monitor.url, flush=True)
    print("playing in the browser; Ctrl-C stops the server", file=sys.stderr, flush=True)
    if a.open:
        import webbrowser

        webbrowser.open(monitor.url)
    try:
        monitor.wait()
    except KeyboardInterrupt:
        pass
    finally:
        monitor.close()
    return 0

"""Monitor latency benchmark: how long after a ``Game`` call returns the live page has drawn
the new state (target < 100 ms), and what watching costs the game's own thread.

    python benchmarks/bench_monitor.py [--changes N]

Needs the ``monitor`` extra, Playwright for Python and Debian's chromium (/usr/bin/chromium).
The latency is measured from Python: the call returns, then Playwright waits until the page's
drawn version changes, so it includes one Playwright round trip (an upper bound).

Output (stable wording, one line each):
    page latency after a call: median 6.1 ms, p95 9.8 ms, max 14.0 ms over 200 changes (target < 100 ms)
    apply() while watched: 310 us per call (unwatched 25 us)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright

import gcs
from gcs.monitor import serve

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def step(g: gcs.Game) -> None:
    if not g.is_battle_active:
        g.start_battle("jaw_worm")
        return
    g.apply(g.legal_actions()[0])


def per_call_us(g: gcs.Game, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        step(g)
    return (time.perf_counter() - t) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=200)
    a = ap.parse_args()
    content = gcs.builtin_content()
    bare = per_call_us(gcs.Game(content, seed=1), 2000)
    g = gcs.Game(content, seed=1)
    lat: list[float] = []
    with serve(g) as m, sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = b.new_page()
        page.goto(m.url)
        page.wait_for_function("document.body.dataset.version !== undefined")
        for _ in range(a.changes):
            v = page.evaluate("document.body.dataset.version")
            step(g)
            t = time.perf_counter()
            page.wait_for_function("v => document.body.dataset.version !== v", arg=v,
                                   polling="raf", timeout=5000)
            lat.append((time.perf_counter() - t) * 1000)
        b.close()
        watched = per_call_us(g, 2000)
    lat.sort()
    p95 = lat[int(len(lat) * 0.95) - 1]
    print(f"page latency after a call: median {statistics.median(lat):.1f} ms, p95 {p95:.1f} ms, "
          f"max {lat[-1]:.1f} ms over {len(lat)} changes (target < 100 ms)")
    print(f"apply() while watched: {watched:.0f} us per call (unwatched {bare:.0f} us)")


if __name__ == "__main__":
    main()

"""Monitor latency benchmark: how long after a ``Game`` call returns the live page has drawn
the new state (target < 100 ms), with the Events tab open and a long event history, and what
watching costs the game's own thread.

    python benchmarks/bench_monitor.py [--sizes 500,3000,10000] [--changes 100]

For each size N the watched game first publishes N events (whole battles against a Jaw Worm,
the first legal action each time), then the page is opened on the Events tab and ``--changes``
more calls are made, one at a time, each timed until the page has drawn it. Needs the
``monitor`` extra, Playwright for Python and Debian's chromium (/usr/bin/chromium). The latency
is measured from Python: the call returns, then Playwright waits until the page's drawn version
changes, so it includes one Playwright round trip (an upper bound).

Output (stable wording, one line each):
    events tab, 500 events: page latency median 6.1 ms, p95 9.8 ms, max 14.0 ms over 100 changes
        (target < 100 ms)
    ...
    apply() while watched: 310 us per call (unwatched 25 us)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Page, sync_playwright

import gcs
from gcs.monitor import serve

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def step(g: gcs.Game) -> None:
    """One call: the next battle when none is going on, else the first legal action."""
    if not g.is_battle_active:
        g.start_battle("jaw_worm")
        return
    g.apply(g.legal_actions()[0])


def per_call_us(g: gcs.Game, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        step(g)
    return (time.perf_counter() - t) / n * 1e6


def published(m: object) -> int:
    """How many events the monitor has recorded so far."""
    return int(m.hub.recorder.next_seq)  # type: ignore[attr-defined]


def latency(page: Page, g: gcs.Game, changes: int) -> list[float]:
    out: list[float] = []
    for _ in range(changes):
        v = page.evaluate("document.body.dataset.version")
        step(g)
        t = time.perf_counter()
        page.wait_for_function("v => document.body.dataset.version !== v", arg=v,
                               polling="raf", timeout=30_000)
        out.append((time.perf_counter() - t) * 1000)
    return out


def measure(content: gcs.Content, page: Page, size: int, changes: int) -> list[float]:
    g = gcs.Game(content, seed=1)
    with serve(g) as m:
        while published(m) < size:
            step(g)
        page.goto(m.url)
        page.wait_for_function("document.body.dataset.version !== undefined")
        page.click("#tabs [data-tab=events]")
        page.wait_for_function("document.querySelector('#events .event-row') !== null")
        return latency(page, g, changes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,3000,10000",
                    help="event history sizes to measure at (comma-separated)")
    ap.add_argument("--changes", type=int, default=100, help="timed calls per size")
    a = ap.parse_args()
    content = gcs.builtin_content()
    bare = per_call_us(gcs.Game(content, seed=1), 2000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = b.new_page(viewport={"width": 1280, "height": 900})
        for size in (int(x) for x in a.sizes.split(",") if x.strip()):
            lat = sorted(measure(content, page, size, a.changes))
            p95 = lat[max(0, int(len(lat) * 0.95) - 1)]
            print(f"events tab, {size} events: page latency median {statistics.median(lat):.1f} ms, "
                  f"p95 {p95:.1f} ms, max {lat[-1]:.1f} ms over {len(lat)} changes "
                  f"(target < 100 ms)", flush=True)
        b.close()
    g = gcs.Game(content, seed=1)
    with serve(g):
        watched = per_call_us(g, 2000)
    print(f"apply() while watched: {watched:.0f} us per call (unwatched {bare:.0f} us)")


if __name__ == "__main__":
    main()

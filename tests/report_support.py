"""Opening a report page in Debian's headless Chromium with the network blocked (the balance
report's and the comparison page's browser tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def render_offline(page: Path, charts: int, probe: str,
                   shot: Path) -> tuple[list[Any], list[str], list[str]]:
    """Open ``page`` with every non-``file:`` request blocked and recorded, wait until its
    ``charts`` plotly charts have drawn, screenshot it to ``shot``; return what the JavaScript
    ``probe`` says of the page, the page's errors and the blocked requests."""
    from playwright.sync_api import Route, sync_playwright

    blocked: list[str] = []

    def guard(route: Route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            pg = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.route("**/*", guard)
            pg.goto(page.as_uri())
            pg.wait_for_function(
                f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {2 * charts}",
                timeout=60_000)
            drawn: list[Any] = pg.evaluate(probe)
            pg.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    return drawn, errors, blocked

"""Shared helpers of the monitor's tests: the headless browser (Debian's chromium through
Playwright), screenshots, and a watch on what the server logs or which thread dies."""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    import gcs

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "build" / "artifacts" / "monitor"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
T = 10_000  # ms: the longest any page condition may take (they take milliseconds)


@functools.cache
def enduring_content() -> gcs.Content:
    """The bundled pack with a player of 100,000 HP: a long test plays battle after battle of
    its run and never loses it (a lost run takes no further battle)."""
    import gcs
    from gcs.content.dump import dump_content

    data = dump_content(gcs.builtin_content())
    data["characters"]["ironclad"]["max_hp"] = 100_000  # type: ignore[index]
    return gcs.load_content(data)


def step(g: gcs.Game, encounter: str = "jaw_worm") -> None:
    """One call that publishes events: the next battle, or the first legal action."""
    if not g.is_battle_active:
        g.start_battle(encounter)
    else:
        g.apply(g.legal_actions()[0])


@contextlib.contextmanager
def launch() -> Iterator[Browser]:
    """A headless chromium for a test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@contextlib.contextmanager
def open_page(browser: Browser) -> Iterator[Page]:
    """A page that fails the test if any JavaScript error happened on it."""
    pg = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The monitor's page tests' browser (one chromium a test module). This module is a pytest
    plugin (tests/conftest.py), so every test module has ``browser`` and ``page``; Playwright
    is imported only when a test asks for them."""
    with launch() as b:
        yield b


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page of the module's browser, failing the test on any JavaScript error."""
    with open_page(browser) as pg:
        yield pg


def version(pg: Page) -> str:
    """The live state's version the page last drew (``data-version`` on its body)."""
    return str(pg.evaluate("document.body.dataset.version || ''"))


def shot(pg: Page, name: str) -> None:
    """A full-page screenshot into build/artifacts/monitor/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def tab(pg: Page, name: str) -> None:
    """Open a tab of the page and wait until it shows."""
    from playwright.sync_api import expect

    pg.click(f"#tabs [data-tab={name}]")
    expect(pg.locator(f"#tab-{name}")).to_be_visible(timeout=T)


class Trouble(logging.Handler):
    """What the server logged at WARNING or above, and the threads that died."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def watching_trouble() -> Iterator[Trouble]:
    """Collect trouble while the block runs; fail if there was any."""
    t = Trouble()
    logger = logging.getLogger("uvicorn")
    logger.addHandler(t)
    old = threading.excepthook
    threading.excepthook = lambda a: t.lines.append(
        f"thread died: {a.exc_type.__name__}: {a.exc_value}")
    try:
        yield t
    finally:
        threading.excepthook = old
        logger.removeHandler(t)
    assert t.lines == [], f"the server logged trouble: {t.lines[:5]}"

"""Shared by the browser tests: Debian's chromium driven by Playwright (never a downloaded
browser), the `browser` fixture, logging in, and screenshots into test-output/."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OUTPUT = Path(__file__).resolve().parents[1] / "test-output"
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}

BROWSER_MARKS = [
    pytest.mark.browser,
    # A browser and a live server per test: seconds each, so out of the fast loop
    # (`-m "not slow"`), like the crawl, hostile input and the fault matrix.
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (./test installs it)",
    ),
]


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    # Playwright's 5 s default for expect() is short for a page that the live server renders
    # while the suite runs in two processes on a busy 2-core machine (a navigation through
    # the phone's collapsed navbar once took longer); a real failure still fails, later.
    expect.set_options(timeout=15_000)

    # Playwright's sync API runs an asyncio event loop in this thread, so Django's guard
    # against calling the ORM from async code trips on every query the test makes (creating
    # the demo, reading turns). Nothing here is really async: the test thread only waits on
    # the browser, and the live server answers from its own thread. Set for these tests
    # only (monkeypatch restores it), so the rest of the suite keeps the guard.
    monkeypatch.setitem(os.environ, "DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()
        # A connection opened while Playwright's event loop ran outlived the test (seen on
        # PostgreSQL: "test_test is being accessed by other users" when pytest-django
        # dropped the database at the end); close it here.
        connections.close_all()


def log_in(
    browser: Any,
    base: str,
    username: str,
    viewport: dict[str, int],
    time_zone: str = "America/New_York",
) -> Any:
    # Imported here: this module is loaded by tests/conftest.py, before Django is set up
    # when the engine tests run without it (-p no:django).
    from campaigns.services.demo import DEMO_PASSWORD

    page = browser.new_context(viewport=viewport, timezone_id=time_zone).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    return page


# A full-page screenshot waits for the page's script to let go of the main thread; a map of
# 400 departments laid out on a busy CI machine once held it past Playwright's 30 s default.
SCREENSHOT_TIMEOUT_MS = 90_000


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=True, timeout=SCREENSHOT_TIMEOUT_MS)


def watch_for_errors(page: Any) -> list[str]:
    """Console errors, page errors and Content-Security-Policy violations, as they come;
    each console error with the address it came from (a "Failed to load resource" message
    does not name the resource: its location does)."""
    problems: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error":
            problems.append(f"{message.text} at {message.location.get('url') or '?'}")

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    return problems


def map_ready(page: Any, index: int = 0) -> Any:
    """Wait for the index-th map of the page to be drawn; its Cytoscape nodes' data."""
    page.locator("[data-board-map][data-map-ready]").nth(index).wait_for()
    return page.evaluate(
        f"() => window.boardMaps[{index}].nodes().map(n => Object.assign({{}}, n.data(), "
        "{classes: n.classes(), x: n.position('x'), y: n.position('y')}))"
    )


def shot_map(page: Any, name: str, index: int = 0) -> None:
    """The map alone, at the page's own scale (a full-page shot of a phone is too small to
    judge the map by)."""
    page.locator("[data-map-section]").nth(index).screenshot(
        path=str(OUTPUT / f"{name}.png"), timeout=SCREENSHOT_TIMEOUT_MS
    )


def no_overflow(page: Any) -> None:
    """Nothing sticks out sideways (a long German word would make the page scroll)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"

"""A big board and a big turn report in a real browser (Debian's chromium, issue 15): the GM
searches a board of 400 departments and pages through it, a player's map of it is fetched
from its own URL and drawn, and the GM reads a report of two such boards a board and a page
at a time. No page may break the Content-Security-Policy. Screenshots go to test-output/."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns.management.commands.bench_big_pages import big_campaign
from campaigns.services.demo import DEMO_PASSWORD
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    OUTPUT,
    PHONE,
    SCREENSHOT_TIMEOUT_MS,
    log_in,
    map_ready,
    shot,
    shot_map,
    watch_for_errors,
)

pytestmark = BROWSER_MARKS
SLUG = "big"


def shot_at(page: Any, selector: str, name: str) -> None:
    """The screen as the reader sees it with `selector` at the top (a full page of 100 rows
    is too tall to judge at a glance)."""
    page.locator(selector).first.scroll_into_view_if_needed()
    page.evaluate(f"() => document.querySelector({selector!r}).scrollIntoView()")
    page.screenshot(path=str(OUTPUT / f"{name}.png"), timeout=SCREENSHOT_TIMEOUT_MS)


def big_world() -> None:
    """Two boards of 400 departments, turn 1 processed; big-gm and big-alice can log in."""
    big_campaign(slug=SLUG, boards=2, departments=400, orders=100)
    for name in ("gm", "alice"):
        user = get_user_model().objects.get(username=f"{SLUG}-{name}")
        user.set_password(DEMO_PASSWORD)
        user.save()


def open_as(browser: Any, base: str, name: str, url: str) -> tuple[Any, list[str]]:
    """In the big world, `name` (gm, alice) logged in at `url`; the page and the list its
    console and CSP errors go to."""
    big_world()
    page = log_in(browser, base, f"{SLUG}-{name}", DESKTOP)
    problems = watch_for_errors(page)
    page.goto(f"{base}{url}")
    return page, problems


def test_the_gm_searches_and_pages_a_board_of_400_departments(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    gm, problems = open_as(browser, live_server.url, "gm", reverse("board", args=[SLUG, "b0"]))
    rows = gm.locator("#departments tbody tr")
    expect(rows).to_have_count(50)
    expect(gm.locator("[data-listing-count]")).to_contain_text("400 departments")
    shot(gm, "big-board-gm-desktop")
    gm.get_by_label("Search departments by name, controller or status").fill("Department 12")
    gm.get_by_role("button", name="Search", exact=True).click()
    expect(gm.locator("[data-listing-count]")).to_contain_text("of the 400 departments")
    expect(gm.locator("#departments th", has_text="Department 12").first).to_be_visible()
    shot(gm, "big-board-gm-search-desktop")
    shot_at(gm, "#department-search", "big-board-gm-search-desktop-table")
    gm.get_by_role("link", name="Show all").click()
    gm.locator("nav[aria-label='Pages of departments'] a", has_text="3").first.click()
    expect(gm.locator(".page-item.active")).to_have_text("3")
    expect(rows).to_have_count(50)
    gm.set_viewport_size(PHONE)
    gm.reload()
    # The map of 400 departments is laid out after the page loads; shoot once it is drawn,
    # not while its layout holds the browser's main thread.
    map_ready(gm)
    shot(gm, "big-board-gm-page3-phone")
    assert problems == []


def test_a_players_big_map_comes_from_its_own_url(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    url = reverse("board", args=[SLUG, "b0"])
    alice, problems = open_as(browser, live_server.url, "alice", url)
    seen = int(alice.locator("[data-listing-count]").inner_text().split()[0])
    nodes = map_ready(alice)
    assert len(nodes) == seen > 120
    assert all("stash" not in n for n in nodes if not n.get("mine"))
    shot(alice, "big-board-alice-desktop")
    shot_map(alice, "big-board-alice-desktop-map")
    assert problems == []


def test_the_gm_reads_a_big_report_a_board_and_a_page_at_a_time(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    url = reverse("turn_report", args=[SLUG, 1])
    gm, problems = open_as(browser, live_server.url, "gm", url)
    expect(gm.locator("#report-boards .nav-link.active")).to_have_text("Board 0")
    expect(gm.locator("#board-b0")).to_be_visible()
    shot(gm, "big-report-gm-desktop")
    gm.locator("#report-boards .nav-link", has_text="Board 1").click()
    expect(gm.locator("#board-b1")).to_be_visible()
    gm.locator("#board-b1 a[rel=next]").first.click()
    expect(gm.locator("[data-report-page]")).to_contain_text("Page 2 of 4")
    expect(gm.locator("#spawn-b1 tbody tr")).to_have_count(100)
    shot(gm, "big-report-gm-b1-page2-desktop")
    shot_at(gm, "#board-b1", "big-report-gm-b1-page2-desktop-top")
    gm.set_viewport_size(PHONE)
    gm.reload()
    shot(gm, "big-report-gm-b1-page2-phone")
    shot_at(gm, "#report-boards", "big-report-gm-b1-page2-phone-top")
    assert problems == []

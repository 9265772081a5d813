"""Times in the reader's zone, the same way on every page: a reader in New York (Playwright's
timezone_id, set by tests.support.browser.log_in) of a Europe/Berlin campaign sees New York times on
the campaign page, the orders page and the turn report, with Berlin's on hover."""

from __future__ import annotations

import re
from typing import Any
from zoneinfo import ZoneInfo

from django.urls import reverse

from campaigns.models import Turn
from tests.support.browser import BROWSER_MARKS, PHONE, log_in, shot
from tests.support.demo import play_turn_one

pytestmark = BROWSER_MARKS
NEW_YORK = re.compile(r"EST|EDT|GMT-[45]")
BERLIN = re.compile(r"CET|CEST")


def test_a_new_york_reader_sees_new_york_times_everywhere(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    played = play_turn_one()
    assert played.campaign.time_zone == "Europe/Berlin"
    deadline = played.campaign.turns.get(status=Turn.Status.OPEN).deadline
    page = log_in(browser, live_server.url, "alice", PHONE)
    slug = played.campaign.slug
    for name, url in [
        ("campaign", reverse("campaign", args=[slug])),
        ("orders", reverse("orders", args=[slug])),
        ("report", reverse("turn_report", args=[slug, 1])),
    ]:
        page.goto(f"{live_server.url}{url}")
        times = page.locator("time[data-local-time]")
        expect(times.first).to_be_visible()
        for i in range(times.count()):
            expect(times.nth(i)).to_contain_text(NEW_YORK)
            expect(times.nth(i)).to_have_attribute("title", BERLIN)
        shot(page, f"times-new-york-{name}-alice-phone")
    # The orders page's deadline: the same instant, on New York's wall clock (12- or 24-hour,
    # as the browser's locale writes it).
    local = deadline.astimezone(ZoneInfo("America/New_York"))
    h12 = local.hour % 12 or 12
    clock = re.compile(rf"\b(0?{h12}:{local:%M}|{local:%H}:{local:%M})\b")
    page.goto(f"{live_server.url}{reverse('orders', args=[slug])}")
    expect(page.locator("time[data-local-time]").first).to_contain_text(clock)


def test_a_zone_without_an_abbreviation_is_named_not_written_as_an_offset(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    """English has no abbreviation for Tokyo's clock: the browser would write "GMT+9",
    which names no place; the page names the zone."""
    from playwright.sync_api import expect

    played = play_turn_one()
    page = log_in(browser, live_server.url, "alice", PHONE, time_zone="Asia/Tokyo")
    page.goto(f"{live_server.url}{reverse('orders', args=[played.campaign.slug])}")
    deadline = page.locator("time[data-local-time]").first
    expect(deadline).to_contain_text("Asia/Tokyo")
    expect(deadline).not_to_contain_text("GMT")
    shot(page, "times-tokyo-orders-alice-phone")

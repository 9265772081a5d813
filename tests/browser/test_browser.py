"""The pages in a real browser (Debian's chromium, driven by Playwright) against a live
server with the demo campaign: the countdown runs, R50 holds, the GM processes a turn.
Screenshots (phone 375x812 and desktop) go to test-output/ for a human to look at."""

from __future__ import annotations

import re
from typing import Any

import pytest

from campaigns.models import Turn
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


@pytest.mark.parametrize(("viewport", "size"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_alice_sees_the_countdown_and_her_mint_but_not_hidden_departments(
    live_server: Any, transactional_db: None, browser: Any, viewport: dict[str, int], size: str
) -> None:
    from playwright.sync_api import expect

    demo_create()
    page = log_in(browser, live_server.url, "alice", viewport)
    expect(page.get_by_text("Tourmaline")).to_be_visible()
    shot(page, f"my-campaigns-alice-{size}")

    page.get_by_text("Tourmaline").click()
    countdown = page.locator("[data-countdown]")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(re.compile(r"\d+[dhm] .*left"))
    # deadline.js rewrote the campaign's Berlin time into the browser's New York time.
    expect(page.locator("time[data-local-time]").first).to_contain_text(re.compile("EST|EDT|GMT-"))
    shot(page, f"campaign-alice-{size}")

    page.locator("#boards").get_by_text("The City of Tourmaline").click()
    mint = page.locator("#dept-mint")
    expect(mint).to_contain_text("Stash:")
    expect(mint).to_contain_text("Money")
    expect(page.locator("#dept-guild-hall")).not_to_contain_text("Stash")
    content = page.content()
    assert "Printing Press" not in content
    assert "Seminary" not in content
    shot(page, f"board-city-alice-{size}")


def test_the_gm_processes_the_turn_through_the_confirmation(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    page = log_in(browser, live_server.url, "gm", PHONE)
    page.goto(f"{live_server.url}{campaign.get_absolute_url()}")
    shot(page, "campaign-gm-phone")
    page.get_by_role("link", name="Process turn 1 now…").click()
    expect(page.get_by_role("heading")).to_contain_text("Process turn 1")
    # The browser refuses to submit without the required box ticked.
    page.get_by_role("button", name="Process turn 1").click()
    assert campaign.turns.get(number=1).status == Turn.Status.OPEN
    page.get_by_label(re.compile("resolve every queued order")).check()
    shot(page, "process-confirm-gm-phone")
    page.get_by_role("button", name="Process turn 1").click()

    expect(page.locator(".alert-success")).to_contain_text("Turn 1 processed; turn 2 is open.")
    assert campaign.turns.get(number=1).status == Turn.Status.PROCESSED
    expect(page.locator("#turn")).to_contain_text("Turn 2")
    page.set_viewport_size(DESKTOP)
    shot(page, "campaign-gm-after-processing-desktop")

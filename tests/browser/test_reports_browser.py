"""The turn report in a real browser (Debian's chromium via Playwright, as in
tests/web/test_browser.py): Carol reads her report of a turn in which she captured Alice's
City Watch, follows a roll to the verify page and sees it match. Screenshots go to
test-output/ for a human to look at."""

from __future__ import annotations

from typing import Any

from campaigns.services.demo import DEMO_PASSWORD
from tests.support.browser import BROWSER_MARKS, OUTPUT, shot
from tests.support.demo import play_turn_one

pytestmark = BROWSER_MARKS


def test_carol_reads_her_report_and_verifies_a_die(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    played = play_turn_one()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "carol")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/")

    page.goto(f"{live_server.url}{played.campaign.get_absolute_url()}")
    page.locator("[data-report-link]").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Turn 1 report")
    attempt = played.orders["carol_attempt"]
    expect(page.locator(f"#order-{attempt.pk}")).to_contain_text("succeeded")
    expect(page.locator("#changes-city")).to_contain_text("The City Watch was captured")
    # The report opens with what happened, phase by phase (R31): her attempt and the
    # capture it made, before the spawn and consume.
    account = page.locator("#account-city")
    expect(account.locator("[data-phase=attempts]")).to_contain_text(
        "The Thieves' Guild tries to link The City Watch"
    )
    expect(account.locator("[data-phase=attempts]")).to_contain_text("The City Watch was captured")
    phases = account.locator("[data-phase]").evaluate_all("els => els.map(e => e.dataset.phase)")
    assert phases.index("attempts") < phases.index("spawn"), phases
    account.screenshot(path=str(OUTPUT / "report-carol-account.png"))
    content = page.content()
    assert "ALICE-INTENT-SENTINEL" not in content
    assert "BOB-INTENT-SENTINEL" not in content
    shot(page, "report-carol-desktop")
    page.set_viewport_size({"width": 375, "height": 812})
    shot(page, "report-carol-phone")
    # Browse the history: back to the campaign start and forward again.
    page.locator("[data-turn-nav] a[rel=prev]").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("The campaign start")
    page.locator("[data-turn-nav] a[rel=next]").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Turn 1 report")

    page.locator(f"#order-{attempt.pk} a", has_text="verify").first.click()
    expect(page.locator("[data-match]")).to_contain_text("Matches the faces in your report")
    expect(page.locator("[data-commitment-check]")).to_contain_text("matches the commitment")
    shot(page, "verify-carol-phone")

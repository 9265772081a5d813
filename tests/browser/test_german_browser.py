"""The site in German in a real browser (issue 13; Debian's chromium via Playwright): Carol
switches the site to German in the footer and reads an order form, the refusal of an
illegal order and her turn report in German, on a desktop and on a phone. Screenshots go to
test-output/ for a human to look at (German words are long: the phone ones matter)."""

from __future__ import annotations

from typing import Any

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, no_overflow, shot
from tests.support.demo import play_turn_one

pytestmark = BROWSER_MARKS


def test_carol_switches_to_german_and_plays_in_german(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    played = play_turn_one()
    slug = played.campaign.slug
    page = log_in(browser, live_server.url, "carol", DESKTOP)
    page.goto(f"{live_server.url}/c/{slug}/")
    page.select_option("#language-choice", "de")
    page.locator("#language-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("nav")).to_contain_text("Spielanleitung")

    # The orders page and an order form.
    page.goto(f"{live_server.url}/c/{slug}/orders/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ihre Befehle für Runde 2")
    expect(page.locator("#new-order")).to_contain_text("Befehl erteilen")
    expect(page.locator("#new-order")).to_contain_text("Funktionswurf")
    shot(page, "german-orders-desktop")
    page.locator("#new-order a", has_text="Funktionswurf").first.click()
    expect(page.locator("label[for=id_stat]")).to_contain_text("Gewürfelter Wert")
    expect(page.locator("#id_stat")).to_contain_text("Eindruck")
    shot(page, "german-order-form-desktop")

    # An illegal order: spending more Money than the department holds.
    page.fill("#id_spend_money", "99")
    page.fill("#id_intent", "Alles auf eine Karte.")
    page.locator("#order-form button[name=submit]").click()
    refusal = page.locator("#order-form .alert-danger, #order-form .invalid-feedback").first
    expect(refusal).to_contain_text("Geld, der Wurf braucht 99")
    shot(page, "german-refusal-desktop")
    page.set_viewport_size(PHONE)
    no_overflow(page)
    shot(page, "german-refusal-phone")

    # The turn report of turn 1, in which Carol captured Alice's City Watch.
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/c/{slug}/turn/1/report/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bericht zu Runde 1")
    attempt = played.orders["carol_attempt"]
    expect(page.locator(f"#order-{attempt.pk}")).to_contain_text("Angriff")
    expect(page.locator(f"#order-{attempt.pk} [data-status]")).to_have_text("gelungen")
    expect(page.locator("#changes-city")).to_contain_text("wurde von")
    expect(page.locator("#changes-city")).to_contain_text("übernommen")
    expect(page.locator("main")).to_contain_text("Produktion und Verbrauch")
    assert "ALICE-INTENT-SENTINEL" not in page.content()
    shot(page, "german-report-desktop")
    page.set_viewport_size(PHONE)
    no_overflow(page)
    shot(page, "german-report-phone")
    page.goto(f"{live_server.url}/c/{slug}/orders/")
    no_overflow(page)
    shot(page, "german-orders-phone")

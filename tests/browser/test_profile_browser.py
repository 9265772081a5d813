"""The profile page and the site's language in a real browser (Debian's chromium): Bob, whose
browser is in New York, picks Tokyo and German; every time on the campaign page is then in
Tokyo's zone (with and without JavaScript's help) and the page is German; the footer's
switch brings English back."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns.models import Profile
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS
TOKYO = re.compile(r"Asia/Tokyo|JST")


def test_bob_picks_a_time_zone_and_german_then_switches_back(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    base = live_server.url
    bob = log_in(browser, base, "bob", PHONE)
    bob.get_by_role("button", name="Toggle navigation").click()
    bob.locator("#nav-profile").click()
    expect(bob.get_by_role("heading", name="Your profile")).to_be_visible()
    shot(bob, "profile-bob-phone")
    bob.fill("#id_display_name", "Brackwater")
    bob.select_option("#id_time_zone", "Asia/Tokyo")
    bob.select_option("#id_language", "de")
    bob.get_by_role("button", name="Save").click()
    expect(bob.locator("html")).to_have_attribute("lang", "de")
    expect(bob.locator("html")).to_have_attribute("data-time-zone", "Asia/Tokyo")
    assert Profile.objects.get(user__username="bob").time_zone == "Asia/Tokyo"

    bob.goto(f"{base}{reverse('campaign', args=[campaign.slug])}")
    times = bob.locator("time[data-local-time]")
    expect(times.first).to_be_visible()
    for i in range(times.count()):
        expect(times.nth(i)).to_contain_text(TOKYO)  # not the browser's New York
        expect(times.nth(i)).to_have_attribute("title", re.compile(r"Europe/Berlin"))
    expect(bob.locator("#language-choice")).to_have_value("de")
    shot(bob, "profile-campaign-german-tokyo-bob-phone")

    bob.select_option("#language-choice", "en")
    bob.locator("#language-switch button").click()
    expect(bob.locator("html")).to_have_attribute("lang", "en")
    expect(bob).to_have_url(f"{base}{reverse('campaign', args=[campaign.slug])}")
    assert Profile.objects.get(user__username="bob").language == "en"

    desk = log_in(browser, base, "bob", DESKTOP)
    desk.goto(f"{base}{reverse('profile')}")
    expect(desk.locator("#id_time_zone")).to_have_value("Asia/Tokyo")
    expect(desk.locator("#nav-profile")).to_have_text("Brackwater")
    shot(desk, "profile-bob-desktop")


def test_a_visitor_switches_the_site_to_german_without_javascript(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('how_to_play')}")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.select_option("#language-choice", "de")
    page.locator("#language-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page).to_have_url(f"{live_server.url}{reverse('how_to_play')}")
    shot(page, "language-german-visitor-desktop")
    context.close()

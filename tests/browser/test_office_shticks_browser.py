"""The GM grants the Mayor of Tourmaline a shtick and takes it away, in a real browser
(RULES R60, R80; Debian's chromium, Playwright): the office's page lists its shticks in words,
each kind of shtick has its own form, and a refusal of the form keeps the GM on it.
Screenshots go to test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import Office
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def test_the_gm_grants_the_mayor_a_shtick_and_takes_it_away(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    office = Office.objects.get(name="Mayor of Tourmaline")
    page_url = reverse("office_edit", args=[campaign.slug, "city", office.pk])
    gm = log_in(browser, live_server.url, "gm", DESKTOP)
    gm.goto(f"{live_server.url}{reverse('board_offices', args=[campaign.slug, 'city'])}")
    gm.get_by_role("link", name="Change or remove…").click()
    expect(gm.locator("#office-shticks")).to_have_text("Shticks of the office")

    gm.get_by_role("link", name="Raised link limit").click()
    gm.get_by_role("button", name="Save").click()  # neither limit given: refused, stays
    expect(gm.locator(".alert-danger, .invalid-feedback").first).to_contain_text(
        "Give at least one of the two limits."
    )
    gm.get_by_role("link", name="← Mayor of Tourmaline").click()
    gm.get_by_role("link", name="More dice").click()
    gm.select_option("#id_roll", "attack")
    gm.fill("#id_amount", "2")
    shot(gm, "office-shtick-form-gm-desktop")
    gm.get_by_role("button", name="Save").click()

    expect(gm.locator(".alert-success")).to_contain_text("Shtick granted.")
    shticks = gm.locator("[data-office-shticks]")
    expect(shticks).to_contain_text(
        "+2 dice on linking attempts by every department of the holder's controller"
    )
    assert gm.url.endswith(page_url)
    shot(gm, "office-shticks-gm-desktop")
    office.refresh_from_db()
    assert office.shticks == [{"kind": "dice", "roll": "attack", "amount": 2, "department": None}]

    phone = log_in(browser, live_server.url, "gm", PHONE)
    phone.goto(f"{live_server.url}{page_url}")
    shot(phone, "office-shticks-gm-phone")
    phone.locator("[data-office-shticks]").get_by_role("button", name="Remove").click()
    expect(phone.locator(".alert-success")).to_contain_text("Shtick removed.")
    office.refresh_from_db()
    assert office.shticks == []

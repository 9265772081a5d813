"""R46 in a real browser (Debian's chromium, Playwright): bob's departments are attacked twice.
The notice for the Guild Hall promises a reinforcement; its link opens the form, which offers
the routes that reach the Guild Hall, and the one queued shows on the orders page. The notice
for the Shipwright, which no link of bob's reaches, promises nothing and says why, and so does
its form. Screenshots go to tests/test-output/reinforce-*.png."""

from __future__ import annotations

from typing import Any

from campaigns.models import Order
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, PHONE, log_in, shot
from tests.support.demo import submit

pytestmark = BROWSER_MARKS
NO_LINK = "No link from your departments reaches the target"


def test_the_defender_reinforces_from_the_notice_or_is_told_why_not(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    press = {"attacker": "thieves-guild", "target": "printing-press"}
    submit(campaign, "carol", Order.Kind.ATTEMPT, press)
    harbour = campaign.boards.get(slug="harbour")
    shipwright = {"attacker": "spice-house", "target": "shipwright"}
    submit(campaign, "alice", Order.Kind.ATTEMPT, shipwright, board=harbour)
    base = live_server.url
    bob = log_in(browser, base, "bob", PHONE)
    home = f"{base}{campaign.get_absolute_url()}"

    # No link of bob's reaches the Shipwright: no promise, the reason in words (R42, R46).
    bob.goto(home)
    notices = bob.locator("[data-notice]")
    stranded = notices.filter(has_text="The Shipwright is the target")
    expect(stranded).to_contain_text(f"No reinforcement is possible now. {NO_LINK}")
    expect(stranded).not_to_contain_text("You may queue one free reinforcement move")
    stranded.get_by_role("link", name="Open").click()
    expect(bob.locator("[data-why-not]")).to_contain_text(NO_LINK)
    expect(bob.locator("#id_route")).to_have_count(0)
    shot(bob, "reinforce-none-possible-bob-phone")

    # The Printing Press: the promise, and the form offers both routes that reach it.
    bob.goto(home)
    promised = bob.locator("[data-notice]").filter(has_text="The Printing Press is the target")
    expect(promised).to_contain_text("You may queue one free reinforcement move")
    promised.get_by_role("link", name="Open").click()
    expect(bob.get_by_role("heading", name="Reinforce The Printing Press")).to_be_visible()
    expect(bob.locator("#id_route option")).to_have_text(
        [
            "The Dock Workers' Union → The Guild Hall → The Printing Press",
            "The Guild Hall → The Printing Press",
        ]
    )
    shot(bob, "reinforce-form-bob-phone")
    bob.select_option("#id_route", "guild-hall,printing-press")
    bob.fill("#id_tokens_money", "1")
    bob.get_by_role("button", name="Queue order").click()
    expect(bob.locator(".alert-success")).to_contain_text("Reinforce The Printing Press: queued")
    expect(bob.locator("#queued")).to_contain_text("Reinforcement")
    shot(bob, "reinforce-queued-orders-page-bob-phone")
    reinforcement = Order.objects.get(kind=Order.Kind.REINFORCE)
    assert reinforcement.payload["path"] == ["printing-press"]

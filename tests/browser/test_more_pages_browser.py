"""The rest of the pages a player uses, once each in a real browser (Debian's chromium):
the other order forms (break/add link, funding priority, function roll), editing and
cancelling an order, marking orders ready, the standing defence and the mail settings."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import NotificationSettings, Order
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def test_a_player_uses_every_other_order_page(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    base = live_server.url
    alice = log_in(browser, base, "alice", PHONE)

    def new_order(kind: str) -> None:
        alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', kind])}")

    def queue_and_expect_success() -> None:
        alice.get_by_role("button", name="Queue order").click()
        expect(alice.locator(".alert-success")).to_contain_text("queued")

    # R41: the mint's funding priority, then break one of its links (the forms offer only
    # legal picks; the first is fine). Priority first: once a link is broken the mint has
    # one consumer and nothing to order.
    new_order("priority")
    shot(alice, "orders-priority-alice-phone")
    queue_and_expect_success()
    new_order("break_link")
    expect(alice.locator("#id_link")).to_be_visible()
    shot(alice, "orders-break-link-alice-phone")
    queue_and_expect_success()
    # The add-link form plans on the queued break, so the link can be made again.
    new_order("add_link")
    shot(alice, "orders-add-link-alice-phone")
    queue_and_expect_success()

    # R45: a function roll with its intent.
    new_order("function")
    alice.select_option("#id_function", "mint|coinage")
    alice.fill("#id_intent", "Mint a commemorative coin.")
    shot(alice, "orders-function-alice-phone")
    queue_and_expect_success()
    roll = Order.objects.get(kind=Order.Kind.FUNCTION)

    # R40: edit it, then cancel the priority order; both stay in the order log.
    alice.goto(f"{base}{reverse('order_edit', args=[campaign.slug, roll.pk])}")
    alice.fill("#id_intent", "Mint a coin with the Comptroller's face.")
    alice.locator("main form button[type=submit]").last.click()
    expect(alice.locator(".alert-success")).to_be_visible()
    roll.refresh_from_db()
    assert roll.payload["intent"] == "Mint a coin with the Comptroller's face."
    priority = Order.objects.get(kind=Order.Kind.PRIORITY)
    alice.locator(f"#order-{priority.pk}").get_by_role("button", name="Cancel").click()
    expect(alice.locator(".alert-success")).to_contain_text("Funding priority on")
    expect(alice.locator(".alert-success")).to_contain_text(": cancelled.")
    priority.refresh_from_db()
    assert priority.status == Order.Status.CANCELLED
    assert [entry.action for entry in roll.log.all()] == ["submitted", "edited"]

    # Ready (R30 early processing is the GM's choice; the flag is the player's).
    alice.get_by_role("button", name="My orders are ready").click()
    expect(alice.locator("#ready")).to_contain_text("Ready")
    shot(alice, "orders-ready-alice-phone")

    # R47: the mint's standing defence.
    defence = reverse("department_defence", args=[campaign.slug, "city", "mint"])
    alice.goto(f"{base}{defence}")
    expect(alice.get_by_role("heading", name="Standing defence of The Mint")).to_be_visible()
    alice.fill("#id_defence_authority", "1")
    alice.get_by_role("button", name="Save").click()
    expect(alice.locator(".alert-success")).to_contain_text("Standing defence of The Mint saved")
    assert campaign.boards.get(slug="city").departments.get(slug="mint").defence == {"authority": 1}

    # Mail settings, through the phone's collapsed navbar: switch reminders off.
    alice.get_by_role("button", name="Toggle navigation").click()
    # The menu slides open: tap the link once it has stopped moving (a tap mid-slide misses).
    expect(alice.locator(".navbar-collapse.show")).to_be_visible()
    alice.get_by_role("link", name="Mail settings").click()
    alice.wait_for_url("**/settings/notifications/")
    expect(alice.get_by_role("heading", name="Mail settings")).to_be_visible()
    alice.get_by_label("Reminder before the deadline", exact=False).uncheck()
    shot(alice, "mail-settings-alice-phone")
    alice.get_by_role("button", name="Save").click()
    expect(alice.locator(".alert-success")).to_contain_text("Mail settings saved")
    assert NotificationSettings.objects.get(user__username="alice").reminders is False

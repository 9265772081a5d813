"""A paused campaign (RULES R30) says so wherever a deadline is shown, and what a pause does
(campaigns/selectors/turns.py, services/turns.py, selectors/order_checks.py): no turn is
processed on schedule until the GM resumes; orders may still be queued until the deadline;
a deadline that passed during the pause moves to the next weekly slot on resuming. No
countdown runs while paused."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services.campaigns import campaign_pause
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, PHONE, log_in, shot
from tests.support.handmade import ClientFor

SLUG = "tourmaline"
PAUSED = "The GM has paused the campaign"


def deadline_pages() -> list[str]:
    return [
        reverse("campaign", args=[SLUG]),
        reverse("orders", args=[SLUG]),
        reverse("order_new", args=[SLUG, "city", "function"]),
        reverse("home"),
    ]


def test_a_paused_campaign_says_so_and_what_it_means_without_a_countdown(
    demo: Campaign, client_for: ClientFor
) -> None:
    campaign_pause(campaign=demo)
    client = client_for("alice")
    urls = deadline_pages()
    assert urls
    for url in urls:
        html = client.get(url).content.decode()
        assert PAUSED in html, url
        assert "data-countdown" not in html, url
        assert "Open for orders" not in html, url
    orders = client.get(reverse("orders", args=[SLUG])).content.decode()
    assert "You may still queue and change orders until the deadline" in orders
    assert "next weekly deadline" in orders
    assert "no turn is processed on schedule" in orders


def test_a_running_campaign_shows_its_countdown_and_no_pause(
    demo: Campaign, client_for: ClientFor
) -> None:
    client = client_for("alice")
    urls = deadline_pages()
    assert urls
    for url in urls:
        assert PAUSED not in client.get(url).content.decode(), url
    assert "data-countdown" in client.get(reverse("campaign", args=[SLUG])).content.decode()


@pytest.mark.browser
@BROWSER_MARKS[1]
def test_a_player_sees_the_pause_in_a_browser(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    campaign_pause(campaign=campaign)
    page = log_in(browser, live_server.url, "alice", PHONE)
    page.goto(f"{live_server.url}{campaign.get_absolute_url()}")
    expect(page.locator("[data-paused]")).to_contain_text(PAUSED)
    expect(page.locator("[data-countdown]")).to_have_count(0)
    shot(page, "paused-campaign-alice-phone")
    page.goto(f"{live_server.url}{reverse('orders', args=[campaign.slug])}")
    expect(page.locator("[data-paused]")).to_contain_text("You may still queue")
    shot(page, "paused-orders-alice-phone")

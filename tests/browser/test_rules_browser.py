"""The "How to play" page in a real browser (Debian's chromium): reachable from the navbar
on a phone without logging in, readable there (no sideways scrolling), and a rule id on the
orders page leads to its explanation."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_visitor_reads_the_rules_on_a_phone(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Toggle navigation").click()
    page.locator("#main-nav").get_by_role("link", name="How to play").click()
    expect(page.get_by_role("heading", name="How to play")).to_be_visible()
    assert page.url.endswith("/rules/")
    assert no_sideways_scroll(page)
    shot(page, "rules-visitor-phone")
    # The contents lead to a part; a rule id in the text to its rule.
    page.locator("#contents").get_by_role("link", name="Orders").click()
    expect(page.locator("#part-5")).to_be_in_viewport()
    page.locator("#R31").get_by_role("link", name="R43").click()
    assert page.url.endswith("/rules/#R43")
    expect(page.locator("#R43 h3")).to_be_in_viewport()


def test_a_rule_id_on_the_orders_page_opens_its_explanation(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    alice = log_in(browser, live_server.url, "alice", DESKTOP)
    alice.goto(f"{live_server.url}{reverse('orders', args=[campaign.slug])}")
    alice.locator("#defence h2").get_by_role("link", name="R47").click()
    assert alice.url.endswith("/rules/#R47")
    expect(alice.locator("#R47")).to_contain_text("Standing defence")
    expect(alice.locator("#R47 h3")).to_be_in_viewport()
    shot(alice, "rules-R47-alice-desktop")

"""An old notice followed in a real browser (Debian's chromium): alice attacks bob's Guild
Hall, the turn is processed, and bob, reading turn 1's report a turn later, presses the attack
notice's *Open*: he lands on that report's notices, not on a 404 nor on a reinforcement form
for a turn that is over."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from playwright.sync_api import expect

from campaigns.models import Order
from campaigns.services.demo import demo_create
from campaigns.services.turns import turn_process
from tests.support.browser import BROWSER_MARKS, PHONE, log_in, shot, watch_for_errors
from tests.support.demo import ATTACK, submit

pytestmark = BROWSER_MARKS


def test_bob_opens_an_old_attack_notice_from_the_turn_report(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    demo = demo_create()
    submit(demo, "alice", Order.Kind.ATTEMPT, ATTACK)
    turn_process(campaign_id=demo.pk, number=1)
    bob = log_in(browser, live_server.url, "bob", PHONE)
    problems = watch_for_errors(bob)
    report = reverse("turn_report", args=[demo.slug, 1])
    bob.goto(f"{live_server.url}{report}")
    attack = bob.locator("#turn-notices li", has_text="Guild Hall")
    with bob.expect_navigation():
        attack.get_by_role("link", name="Open").click()
    assert bob.url == f"{live_server.url}{report}#turn-notices"
    expect(bob.locator("#turn-notices")).to_be_in_viewport()
    expect(bob.locator("#turn-notices")).to_contain_text("Guild Hall")
    shot(bob, "old-notice-open-bob-phone")
    assert problems == []

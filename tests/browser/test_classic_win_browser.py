"""A win on the classic demo (RULES R98) in a real browser: turn 1 is processed on a board
where two groups win and alice's goal is met; bob, on a phone, reads on the campaign page who
won and how, without a goal's figures (R99); the GM, on a desktop, is offered to end the
campaign or play on, plays on, and the notice is gone. The classic demo's orders page shows
no standard board's linking cut-off or standing defence (R90). Screenshots go to
test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import ClassicBoard
from campaigns.services.demo import demo_create
from campaigns.services.demo_classic import classic_demo_create
from campaigns.services.turns import turn_process
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot, watch_for_errors

pytestmark = BROWSER_MARKS

# Alice's goal (R98), met by her treasuries: a figure no page may show anyone but her and the GM.
GOAL = 17


def test_the_gm_reads_the_win_and_plays_on_and_bob_reads_who_won_on_a_phone(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()  # the users, as ./run makes them
    campaign = classic_demo_create()
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    problems = watch_for_errors(alice)
    alice.goto(f"{base}{reverse('orders', args=[campaign.slug])}")
    expect(alice.locator('[data-classic-kind="defend"]')).to_be_visible()
    expect(alice.locator("body")).not_to_contain_text("Linking attempts")
    expect(alice.locator("#defence")).to_have_count(0)
    shot(alice, "classic-orders-alice-desktop")

    row = ClassicBoard.objects.get(board__campaign=campaign)
    row.state["settings"] = {"win_groups": 2}
    row.state["players"][0]["goal"] = {"kind": "money", "amount": GOAL}
    row.save()
    assert turn_process(campaign_id=campaign.pk, number=1) is not None

    bob = log_in(browser, base, "bob", PHONE)
    bob_problems = watch_for_errors(bob)
    bob.goto(f"{base}{reverse('campaign', args=[campaign.slug])}")
    notice = bob.locator("#victory")
    expect(notice).to_contain_text("Turn 1 has a winner")
    expect(notice).to_contain_text("their Illuminati's goal is met")
    expect(notice).to_contain_text("they control enough groups")
    expect(notice).to_contain_text("The GM now ends the campaign or plays on.")
    expect(notice).not_to_contain_text(str(GOAL))
    expect(notice.get_by_role("button", name="Play on")).to_have_count(0)
    shot(bob, "classic-win-campaign-bob-phone")

    gm = log_in(browser, base, "gm", DESKTOP)
    gm_problems = watch_for_errors(gm)
    gm.goto(f"{base}{reverse('campaign', args=[campaign.slug])}")
    notice = gm.locator("#victory")
    expect(notice.get_by_role("link", name="End the campaign…")).to_be_visible()
    expect(notice.get_by_role("button", name="Play on")).to_be_visible()
    shot(gm, "classic-win-campaign-gm-desktop")
    notice.get_by_role("button", name="Play on").click()
    expect(gm.locator(".alert-success").first).to_contain_text("You play on after turn 1's win")
    expect(gm.locator("#victory")).to_have_count(0)
    shot(gm, "classic-win-played-on-gm-desktop")

    bob.reload()
    expect(bob.locator("#victory")).to_contain_text("The GM plays on.")
    assert problems + bob_problems + gm_problems == []

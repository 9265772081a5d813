"""A week of orders in a real browser (Debian's chromium, Playwright) against a live server
with the demo campaign: alice queues a move and a linking attempt on bob's Guild Hall (R43),
bob is told (R46) and reinforces, the GM processes the turn, both read the outcome.
Screenshots of the order pages (and the report, once that page exists) go to test-output/."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns.models import Order
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot
from tests.support.demo import ATTACK, submit

pytestmark = BROWSER_MARKS


def queue(page: Any) -> None:
    page.get_by_role("button", name="Queue order").click()


def test_two_players_play_a_week_of_orders(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    bob = log_in(browser, base, "bob", PHONE)

    alice.goto(f"{base}{campaign.get_absolute_url()}")
    alice.get_by_role("link", name="Your orders").click()
    expect(alice.get_by_role("heading", name="Your orders for turn 1")).to_be_visible()

    # A move along the mint's link to the treasury (R42).
    alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'move'])}")
    alice.select_option("#id_route", "mint,treasury")
    alice.fill("#id_tokens_money", "1")
    shot(alice, "orders-move-form-alice-desktop")
    queue(alice)
    expect(alice.locator(".alert-success")).to_contain_text("queued")

    # A linking attempt on bob's Guild Hall, previewed first (R43, R6).
    alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'attempt'])}")
    alice.select_option("#id_attacker", "city-watch")
    alice.select_option("#id_target", "guild-hall")
    alice.get_by_role("button", name="Preview").click()
    preview = alice.locator("#preview")
    expect(preview).to_contain_text(re.compile(r"\d+\.\d%"))
    expect(preview).to_contain_text("8 = 7 + 1 opposed")
    expect(preview).to_contain_text("standing defence is unknown; assuming none")
    shot(alice, "orders-attempt-preview-alice-desktop")
    queue(alice)
    expect(alice.locator("#queued")).to_contain_text("The City Watch tries to link The Guild Hall")
    expect(alice.locator("#queued")).to_contain_text("will be checked again at resolution")
    shot(alice, "orders-page-alice-desktop")

    # bob is told at once (R46) and answers with a free move ending at the target.
    bob.goto(f"{base}{campaign.get_absolute_url()}")
    notice = bob.locator("[data-notice]").first
    expect(notice).to_contain_text("The Guild Hall is the target of a linking attempt")
    # R46/R50: "by whom" is the attacking department; bob does not know its card, so not
    # who controls it.
    expect(notice).to_contain_text("by The City Watch this turn")
    expect(notice).not_to_contain_text("Alice Ambergris")
    shot(bob, "campaign-notice-bob-phone")
    notice.get_by_role("link", name="Open").click()
    expect(bob.get_by_role("heading", name="Reinforce The Guild Hall")).to_be_visible()
    bob.select_option("#id_route", "dock-workers,guild-hall")
    bob.fill("#id_tokens_people", "1")
    queue(bob)
    expect(bob.locator("#queued")).to_contain_text("Reinforcement")
    shot(bob, "orders-page-bob-phone")
    assert Order.objects.filter(status=Order.Status.QUEUED).count() == 3

    # The GM processes the turn.
    gm = log_in(browser, base, "gm", DESKTOP)
    gm.goto(f"{base}{reverse('turn_process', args=[campaign.slug])}")
    gm.get_by_label(re.compile("resolve every queued order")).check()
    gm.get_by_role("button", name="Process turn 1").click()
    expect(gm.locator(".alert-success")).to_contain_text("Turn 1 processed")
    assert not Order.objects.filter(status=Order.Status.QUEUED).exists()

    for page, name, size in ((alice, "alice", "desktop"), (bob, "bob", "phone")):
        page.goto(f"{base}{campaign.get_absolute_url()}")
        expect(page.locator("#turn")).to_contain_text("Turn 2")
        shot(page, f"campaign-after-turn-{name}-{size}")
        # Each reads the turn report and verifies a die of the attempt from the seed (R23).
        page.goto(f"{base}{reverse('turn_report', args=[campaign.slug, 1])}")
        expect(page.locator("body")).to_contain_text("The City Watch")
        shot(page, f"turn-report-{name}-{size}")
        page.get_by_role("link", name="verify", exact=True).first.click()
        expect(page.locator("[data-match]")).to_contain_text("Matches the faces in your report")
        shot(page, f"verify-{name}-{size}")


def test_an_attempt_that_cannot_win_warns_and_queues_only_when_confirmed(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    """R43: with Impress 0 and nothing spent the City Watch rolls no dice. "Queue order"
    stores nothing and says why; the page then offers only "Queue it anyway", which queues
    it. A preview says the same before any post. The warning's screenshot:
    test-output/orders-attempt-zero-chance-alice-desktop.png."""
    from playwright.sync_api import expect

    from campaigns.models import Department

    campaign = demo_create()
    Department.objects.filter(board__slug="city", slug="city-watch").update(impress=0)
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'attempt'])}")
    alice.select_option("#id_attacker", "city-watch")
    alice.select_option("#id_target", "guild-hall")
    queue(alice)
    refused = alice.locator(".alert-danger")
    expect(refused).to_contain_text("This attempt cannot win (0%)")
    expect(refused).to_contain_text("its Impress is 0 and no Authority is spent on the roll")
    expect(refused).to_contain_text("Queue it anyway")
    assert not Order.objects.filter(kind=Order.Kind.ATTEMPT).exists()
    # One button, not two that look alike.
    expect(alice.get_by_role("button", name="Queue order")).to_have_count(0)
    alice.get_by_role("button", name="Preview").click()
    warning = alice.locator("[data-zero-chance]")
    expect(warning).to_contain_text("This attempt cannot win (0%)")
    expect(alice.locator("[data-attack-stat]")).to_contain_text("Impress")
    shot(alice, "orders-attempt-zero-chance-alice-desktop")
    alice.get_by_role("button", name="Queue it anyway").click()
    expect(alice.locator("#queued")).to_contain_text("The City Watch tries to link The Guild Hall")
    assert Order.objects.filter(kind=Order.Kind.ATTEMPT).count() == 1


def test_the_rows_show_cost_and_chance_and_keep_their_buttons_beside_a_long_intent(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    """A queued attempt's row shows its cost and chance (R43, R6); a function roll's long
    intent wraps within its own box, so Edit and Cancel stay beside it, together, and on a
    phone they move below it still together."""
    from playwright.sync_api import expect

    campaign = demo_create()
    attempt = submit(campaign, "alice", Order.Kind.ATTEMPT, ATTACK)
    intent = "Mint coins enough to buy the Guild Hall's loyalty " * 12 + "x" * 120
    roll = {"department": "mint", "function": "coinage", "stat": "effect", "intent": intent}
    function = submit(campaign, "alice", Order.Kind.FUNCTION, roll)
    base = live_server.url
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        alice = log_in(browser, base, "alice", viewport)
        alice.goto(f"{base}{reverse('orders', args=[campaign.slug])}")
        expect(alice.locator(f"#order-{attempt.pk} [data-cost]")).to_contain_text("Cost: 2 People")
        expect(alice.locator(f"#order-{attempt.pk} [data-chance]")).to_contain_text("%")
        row = alice.locator(f"#order-{function.pk}")
        words = row.locator("div").first.bounding_box()
        edit = row.get_by_role("link", name="Edit").bounding_box()
        cancel = row.get_by_role("button", name="Cancel").bounding_box()
        assert abs(edit["y"] - cancel["y"]) < 2, (edit, cancel)  # together, on one line
        row_box = row.bounding_box()
        assert words["x"] + words["width"] <= row_box["x"] + row_box["width"]  # no overflow
        if size == "desktop":  # beside the words, not on a line of their own
            assert edit["y"] < words["y"] + words["height"], (edit, words)
            assert edit["x"] > words["x"] + words["width"] - 1, (edit, words)
        shot(alice, f"orders-rows-long-intent-{size}")


def test_the_move_form_shows_only_the_drops_of_the_chosen_path(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    """R42: one drop per department passed before the last; without JavaScript every drop
    field stays (web/test_order_pages.py)."""
    from playwright.sync_api import expect

    campaign = demo_create()
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'move'])}")
    drops = [alice.locator(f"#div_id_drop_{i}") for i in range(1, 5)]
    alice.select_option("#id_route", "mint,treasury")  # passes none before the last
    for drop in drops:
        expect(drop).to_be_hidden()
    alice.select_option("#id_route", "treasury,mint,city-watch")  # passes the mint
    expect(drops[0]).to_be_visible()
    for drop in drops[1:]:
        expect(drop).to_be_hidden()
    shot(alice, "orders-move-form-drops-desktop")

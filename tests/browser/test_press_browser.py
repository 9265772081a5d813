"""Press in a real browser (Debian's chromium), RULES R62: two players exchange messages
under each press rule, Alice on a desktop and Bob on a phone; the reply reaches Alice's open
page without a reload (press.js); grey press hides the sender from the receiver, not from the
GM. Then the GM's press pages, and an order quoted from its form."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Message
from campaigns.press.services.press import press_rules_set
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot
from tests.support.demo import member

pytestmark = BROWSER_MARKS
ALICE, BOB = "Alice Ambergris, Comptroller", "Bob Brackwater, Guildmaster"
POLL_WAIT = 15_000  # ms: press.js asks every 5 s


def game(live_server: Any, rules: str, gm_reads: bool = False) -> tuple[str, str]:
    """The demo campaign under `rules`: (the live server's address, the campaign's slug)."""
    campaign = demo_create()
    gm = member(campaign, "gm").user
    press_rules_set(campaign=campaign, actor=gm, rules=rules, gm_reads=gm_reads)
    return live_server.url, campaign.slug


def open_press(page: Any, base: str, slug: str) -> None:
    page.goto(f"{base}{reverse('press', args=[slug])}")


def start_conversation(alice: Any, to: str, text: str) -> None:
    alice.get_by_role("link", name="New conversation").click()
    alice.get_by_label(to).check()
    alice.fill("#id_subject", "The harbour")
    alice.fill("#id_text", text)
    alice.get_by_role("button", name="Send").click()


@pytest.mark.parametrize("rules", ["full", "grey"])
def test_two_players_talk_privately_and_the_reply_arrives_without_reloading(
    live_server: Any, transactional_db: None, browser: Any, rules: str
) -> None:
    from playwright.sync_api import expect

    base, slug = game(live_server, rules, gm_reads=rules == "grey")
    alice = log_in(browser, base, "alice", DESKTOP)
    bob = log_in(browser, base, "bob", PHONE)

    open_press(alice, base, slug)
    expect(alice.locator("#press-rules")).to_contain_text("Press rules")
    start_conversation(alice, BOB, "Leave the harbour to me and the Mint is yours.")
    expect(alice.locator("#messages")).to_contain_text("Leave the harbour to me")
    expect(alice.locator("[data-participants]")).to_contain_text(BOB)

    bob.goto(f"{base}/")
    expect(bob.locator("#nav-messages [data-unread]")).to_have_text("1 unread")
    open_press(bob, base, slug)
    bob.get_by_role("link", name="The harbour").click()
    first = bob.locator("#messages li").first
    expect(first).to_contain_text("Leave the harbour to me")
    if rules == "grey":
        expect(first.locator("[data-sender]")).to_have_text("Anonymous")
        expect(bob.locator("main")).not_to_contain_text("Alice")
        expect(bob.locator("[data-participants]")).to_contain_text("not shown under grey press")
    else:
        expect(first.locator("[data-sender]")).to_have_text(ALICE)
    # On the phone the rules stand between the messages and the composer: read before writing.
    told = bob.locator("[data-press-rules]:visible")
    expect(told).to_have_count(1)
    assert told.bounding_box()["y"] < bob.locator("#composer").bounding_box()["y"]
    bob.fill("#id_text", "Deal, if you keep out of the Temple.")
    shot(bob, f"press-{rules}-conversation-bob-phone")
    bob.get_by_role("button", name="Send").click()
    expect(bob.locator("#messages li").last).to_contain_text("keep out of the Temple")

    # Alice's page was open all along: the reply appears there without a reload.
    reply = alice.locator("#messages li").last
    expect(reply).to_contain_text("keep out of the Temple", timeout=POLL_WAIT)
    expect(reply.locator("[data-sender]")).to_have_text("Anonymous" if rules == "grey" else BOB)
    expect(reply.locator("time")).not_to_contain_text("CET")  # in the reader's zone (JS)
    shot(alice, f"press-{rules}-conversation-alice-desktop")
    assert Message.objects.count() == 2

    if rules == "grey":  # the GM reads press in this campaign and sees who wrote
        gm = log_in(browser, base, "gm", DESKTOP)
        open_press(gm, base, slug)
        gm.get_by_role("link", name="The harbour").click()
        senders = gm.locator("#messages [data-sender]")
        expect(senders.nth(0)).to_have_text(ALICE)
        expect(senders.nth(1)).to_have_text(BOB)
        shot(gm, "press-grey-conversation-gm-desktop")


def test_under_public_press_players_talk_in_the_channel_only(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    base, slug = game(live_server, "public")
    alice = log_in(browser, base, "alice", DESKTOP)
    bob = log_in(browser, base, "bob", PHONE)
    open_press(alice, base, slug)
    expect(alice.get_by_role("link", name="New conversation")).to_have_count(0)
    expect(alice.locator("#press-rules")).to_contain_text("only in the public channel")
    shot(alice, "press-public-index-alice-desktop")
    alice.get_by_role("link", name="Everyone: the campaign's public channel").click()
    alice.fill("#id_text", "Who wants the Docks?")
    alice.get_by_role("button", name="Send").click()
    open_press(bob, base, slug)
    expect(bob.locator("[data-unread]").first).to_contain_text("1 unread")
    shot(bob, "press-public-index-bob-phone")
    bob.get_by_role("link", name="Everyone: the campaign's public channel").click()
    expect(bob.locator("#messages")).to_contain_text("Who wants the Docks?")
    bob.fill("#id_text", "Not me.")
    bob.get_by_role("button", name="Send").click()
    expect(alice.locator("#messages li").last).to_contain_text("Not me.", timeout=POLL_WAIT)
    shot(bob, "press-public-channel-bob-phone")


def test_under_no_press_players_cannot_write_and_the_gm_still_announces(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    base, slug = game(live_server, "none")
    gm = log_in(browser, base, "gm", DESKTOP)
    gm.goto(f"{base}{reverse('announcement_new', args=[slug])}")
    gm.fill("#id_text", "No press this week: the post office is on strike.")
    shot(gm, "press-announce-gm-desktop")
    gm.get_by_role("button", name="Send the announcement").click()
    expect(gm.locator(".alert-success")).to_contain_text("Announcement sent")

    bob = log_in(browser, base, "bob", PHONE)
    bob.goto(f"{base}{reverse('campaign', args=[slug])}")
    expect(bob.locator("#press [data-announcement]")).to_contain_text("post office is on strike")
    shot(bob, "press-announcement-campaign-bob-phone")
    open_press(bob, base, slug)
    expect(bob.locator("#press-rules")).to_contain_text("may not write to each other")
    bob.get_by_role("link", name="Everyone: the campaign's public channel").click()
    expect(bob.locator("[data-cannot-write]")).to_contain_text("switched press off")
    expect(bob.locator("#composer")).to_have_count(0)
    shot(bob, "press-none-channel-bob-phone")


def test_the_gm_sets_the_rules_and_hides_a_message(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    base, slug = game(live_server, "full")
    carol = log_in(browser, base, "carol", PHONE)
    open_press(carol, base, slug)
    carol.get_by_role("link", name="Everyone: the campaign's public channel").click()
    carol.fill("#id_text", "Bob cheats at dice! https://example.org/proof")
    carol.get_by_role("button", name="Send").click()
    expect(carol.locator("#messages a[href='https://example.org/proof']")).to_be_visible()

    for viewport, size in [("phone", PHONE), ("desktop", DESKTOP)]:
        gm = log_in(browser, base, "gm", size)
        gm.goto(f"{base}{reverse('press_rules', args=[slug])}")
        shot(gm, f"press-rules-gm-{viewport}")
    gm.get_by_label("Grey press", exact=False).check()
    gm.get_by_label("The GM may read every conversation", exact=False).check()
    gm.get_by_role("button", name="Save the press rules").click()
    expect(gm.locator(".alert-success")).to_contain_text("Press rules saved")
    expect(gm.locator("#press-rules")).to_contain_text("Grey press")
    shot(gm, "press-index-gm-desktop")
    gm.get_by_role("link", name="Everyone: the campaign's public channel").click()
    gm.get_by_role("button", name="Hide from the players").click()
    expect(gm.locator(".alert-success")).to_contain_text("Message hidden")
    expect(gm.locator("[data-hidden]")).to_be_visible()
    shot(gm, "press-hidden-gm-desktop")

    carol.reload()
    expect(carol.locator("[data-hidden]")).to_have_text("Hidden by the GM.")
    expect(carol.locator("#messages")).not_to_contain_text("cheats")
    rules = carol.locator("[data-press-rules]:visible")
    expect(rules).to_contain_text("The GM can read every conversation")
    carol.goto(f"{base}{reverse('press_overview')}")
    shot(carol, "press-overview-carol-phone")
    desk = log_in(browser, base, "carol", DESKTOP)
    desk.goto(f"{base}{reverse('press_new', args=[slug])}")
    shot(desk, "press-new-carol-desktop")


def test_alice_quotes_a_move_and_bob_opens_it_prefilled(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    base, slug = game(live_server, "full")
    alice = log_in(browser, base, "alice", PHONE)
    alice.goto(f"{base}{reverse('order_new', args=[slug, 'city', 'move'])}")
    alice.select_option("#id_route", "treasury,mint")
    alice.fill("#id_tokens_money", "1")
    alice.get_by_role("button", name="Quote this order in a message…").click()
    expect(alice.locator("[data-pending-quote]")).to_contain_text("Move on The City")
    shot(alice, "press-quote-pending-alice-phone")
    start_conversation(alice, BOB, "I will send money through the Mint. Here is the order.")
    quote = alice.locator("#messages [data-quote] a")
    expect(quote).to_contain_text("Order form: Move on The City of Tourmaline, prefilled")
    quote.click()
    expect(alice.locator("#id_route")).to_have_value("treasury,mint")
    expect(alice.locator("#id_tokens_money")).to_have_value("1")
    shot(alice, "press-quote-order-form-alice-phone")

    bob = log_in(browser, base, "bob", DESKTOP)
    open_press(bob, base, slug)
    shot(bob, "press-index-bob-desktop")
    bob.get_by_role("link", name="The harbour").click()
    bob.locator("#messages [data-quote] a").click()
    expect(bob.get_by_role("heading", name="Move on The City of Tourmaline")).to_be_visible()
    expect(bob.locator("#id_tokens_money")).to_have_value("1")  # his own form, prefilled

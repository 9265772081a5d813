"""A turn of RULES parts 7 and 8 in a real browser (Debian's chromium, Playwright) on the demo:
alice, whose character has +1 Perception, checks the Temple and gives bob's Guild Hall a
token; bob hands his Dock Workers' Union to carol, who accepts it with one button and links
it in; carol's Thieves' Guild captures alice's City Watch, which opens the sealed envelope
the GM left alice for that; the GM processes the turn. Alice reads her envelope, her sealed
envelope and her goal's moved progress bar; bob's and carol's views of the same turn show
none of her secrets. Screenshots of every page go to test-output/ (desktop and phone)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from types import SimpleNamespace
from typing import Any

from django.urls import reverse
from django.utils import timezone

from campaigns.engine.dice import commitment
from campaigns.models import Campaign, ContingencyEnvelope, IntelEnvelope, Order, Turn
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot
from tests.support.intrigue import outcomes_under

pytestmark = BROWSER_MARKS
SEALED = "The Watch is gone, but its sergeant is not"
INTEL = "The Temple's prophecies are written a week ahead"
TEXT_SHTICK = "Audited the Temple's books once"


def url(campaign: Campaign, name: str, *args: object) -> str:
    return reverse(name, args=[campaign.slug, *args])


def queue(page: Any) -> None:
    page.get_by_role("button", name="Queue order").click()


def choose_seed(campaign: Campaign) -> None:
    """The first seed of a fixed list under which carol's attempt captures the City Watch
    and alice's perception check opens the Temple's envelope (every order of the turn
    resolved as the turn job will, tests/support/intrigue.py)."""
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    attempt = turn.orders.get(kind=Order.Kind.ATTEMPT)
    check = turn.orders.get(kind=Order.Kind.PERCEIVE)
    game = SimpleNamespace(campaign=campaign)
    for i in range(500):
        seed = hashlib.sha256(f"intrigue-browser-{i}".encode()).hexdigest()
        outcomes = outcomes_under(game, seed)  # type: ignore[arg-type]
        if outcomes[attempt.pk]["status"] == "succeeded" and outcomes[check.pk]["envelopes"]:
            Turn.objects.filter(pk=turn.pk).update(seed=seed, commitment=commitment(seed))
            return
    raise AssertionError("no seed in the list captures the Watch and opens the envelope")


def test_a_turn_of_perception_envelopes_deals_and_goals(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    # Attempts close a day before the deadline (R46): whatever the clock, a week ahead.
    campaign.turns.filter(number=1).update(deadline=timezone.now() + dt.timedelta(days=7))
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    bob = log_in(browser, base, "bob", PHONE)
    carol = log_in(browser, base, "carol", DESKTOP)
    gm = log_in(browser, base, "gm", DESKTOP)

    # Alice's character: +1 Perception among her shticks, her goal as the start counted it.
    alice.goto(f"{base}{campaign.get_absolute_url()}")
    character = alice.locator("#character")
    expect(character).to_contain_text("+1 Perception")
    expect(character).to_contain_text("Control 6 departments")
    expect(character).to_contain_text("4 of 6 at the start")
    assert alice.locator("#goals progress").get_attribute("value") == "66"
    shot(alice, "intrigue-campaign-alice-before-desktop")

    # R70: a perception check on the Temple, which she has only heard of.
    alice.goto(f"{base}{url(campaign, 'order_new', 'city', 'perceive')}")
    alice.get_by_label("Department to look into").select_option(label="The Temple of the Eye")
    expect(alice.locator("#order-form")).to_contain_text("3d6 + 3 (your Perception and shticks)")
    shot(alice, "intrigue-perceive-form-alice-desktop")
    queue(alice)
    expect(alice.locator("#queued")).to_contain_text("Perception check on The Temple of the Eye")

    # R62: a gift of one Authority from her Treasury to bob's Guild Hall.
    alice.goto(f"{base}{url(campaign, 'order_new', 'city', 'gift')}")
    alice.get_by_label("From your department").select_option(label="The Treasury")
    alice.get_by_label("To another player's department").select_option(label="The Guild Hall")
    alice.get_by_label("Authority given").fill("1")
    shot(alice, "intrigue-gift-form-alice-desktop")
    queue(alice)
    expect(alice.locator("#queued")).to_contain_text(
        "The Treasury gives 1 Authority to The Guild Hall"
    )
    shot(alice, "intrigue-orders-alice-desktop")

    # R62: bob hands his Dock Workers' Union to carol; she is told at once.
    bob.goto(f"{base}{url(campaign, 'order_new', 'city', 'handover')}")
    bob.get_by_label("Your department").select_option(label="The Dock Workers' Union")
    bob.get_by_label("Hand it over to").select_option(label="Mother Carol of the Eye")
    shot(bob, "intrigue-handover-form-bob-phone")
    queue(bob)
    expect(bob.locator("#queued")).to_contain_text(
        "The Dock Workers' Union is handed over to Mother Carol of the Eye"
    )
    shot(bob, "intrigue-orders-bob-phone")

    # Carol accepts with the one button on her campaign page, and links the union in (R13).
    carol.goto(f"{base}{campaign.get_absolute_url()}")
    offers = carol.locator("#offers")
    expect(offers).to_contain_text(
        "Bob Brackwater, Guildmaster offers to hand The Dock Workers' Union (The City of "
        "Tourmaline) over to you this turn."
    )
    expect(carol.locator("[data-notice]").first).to_contain_text("offers to hand")
    shot(carol, "intrigue-offer-carol-desktop")
    offers.get_by_role("button", name="Accept").click()
    expect(carol.locator(".alert-success")).to_contain_text("queued")
    expect(carol.locator("#offers")).to_have_count(0)
    carol.goto(f"{base}{url(campaign, 'order_new', 'city', 'add_link')}")
    carol.get_by_label("Link").select_option(
        label="The Dock Workers' Union → The Temple of the Eye"
    )
    queue(carol)
    # R43: her Thieves' Guild tries to link alice's City Watch, paying in Money.
    carol.goto(f"{base}{url(campaign, 'order_new', 'city', 'attempt')}")
    carol.get_by_label("Attacker").select_option(label="The Thieves' Guild")
    carol.get_by_label("Target").select_option(label="The City Watch")
    carol.get_by_label("Cost paid in Money").fill("2")
    queue(carol)
    expect(carol.locator("#queued")).to_contain_text("Accept The Dock Workers' Union from Bob")
    expect(carol.locator("#queued")).to_contain_text(
        "The Dock Workers' Union → The Temple of the Eye"
    )
    shot(carol, "intrigue-orders-carol-desktop")

    # The GM processes the turn under dice that make both the capture and the check work.
    choose_seed(campaign)
    gm.goto(f"{base}{campaign.get_absolute_url()}")
    gm.get_by_role("link", name="Process turn 1 now…").click()
    gm.get_by_label("Yes, resolve every queued order now").check()
    gm.get_by_role("button", name="Process turn 1").click()
    expect(gm.locator(".alert-success")).to_contain_text("Turn 1 processed")

    # Alice: her goal's bar moved, her report shows the roll, her sealed envelope, her gift.
    alice.goto(f"{base}{campaign.get_absolute_url()}")
    expect(alice.locator("[data-goal-value]")).to_contain_text("3 of 6 after turn 1")
    expect(alice.locator("[data-dossier-news]")).to_contain_text(
        "Turn 1 opened 2 envelopes for you."
    )
    assert alice.locator("#goals progress").get_attribute("value") == "50"
    shot(alice, "intrigue-campaign-alice-after-desktop")
    alice.goto(f"{base}{url(campaign, 'turn_report', 1)}")
    perception = alice.locator("[data-perception]")
    expect(perception).to_contain_text(re.compile(r"Total \d+ = \d \+ \d \+ \d \(the dice\) \+ 3"))
    expect(perception).to_contain_text("It opened 1 envelope.")
    expect(alice.locator("#sealed-opened")).to_contain_text(SEALED)
    expect(alice.locator("#changes-city")).to_contain_text("The City Watch was captured by")
    expect(alice.locator("main")).not_to_contain_text(INTEL)  # intel: in the dossier only
    shot(alice, "intrigue-report-alice-desktop")
    perception.get_by_role("link", name="Read it in your dossier →").click()
    items = alice.locator("#dossier-items")
    expect(items).to_contain_text(INTEL)
    expect(items).to_contain_text("Intel envelope on The Temple of the Eye")
    expect(items).to_contain_text("you now know its card")
    expect(items).to_contain_text(SEALED)
    shot(alice, "intrigue-dossier-alice-desktop")
    alice_phone = log_in(browser, base, "alice", PHONE)
    alice_phone.goto(f"{base}{url(campaign, 'dossier')}")
    shot(alice_phone, "intrigue-dossier-alice-phone")
    alice_phone.goto(f"{base}{campaign.get_absolute_url()}")
    shot(alice_phone, "intrigue-campaign-alice-after-phone")

    # Carol: the union is hers and linked; the capture; nothing of alice's secrets.
    carol.goto(f"{base}{url(campaign, 'turn_report', 1)}")
    changes = carol.locator("#changes-city")
    expect(changes).to_contain_text(
        "The Dock Workers' Union was handed over to Mother Carol of the Eye by Bob"
    )
    shot(carol, "intrigue-report-carol-desktop")
    # Bob: the gift reached his Guild Hall (the Treasury named, its controller not: he has
    # only heard of it, R50); nothing of alice's secrets.
    bob.goto(f"{base}{url(campaign, 'turn_report', 1)}")
    expect(bob.locator("#received-city")).to_contain_text(
        "The Treasury gave 1 Authority to The Guild Hall"
    )
    expect(bob.locator("#received-city")).not_to_contain_text("Alice")
    shot(bob, "intrigue-report-bob-phone")
    secrets = [SEALED, INTEL, TEXT_SHTICK, "Control 6 departments", "+1 Perception"]
    for page, who in ((bob, "bob"), (carol, "carol")):
        for name in ("campaign", "turn_report", "dossier"):
            args = [1] if name == "turn_report" else []
            page.goto(f"{base}{url(campaign, name, *args)}")
            text = page.locator("body").inner_text()
            assert not [s for s in secrets if s in text], (who, name)

    # The GM reads alice's character: her shticks, goal, sealed envelope opened in turn 1.
    alice_member = campaign.memberships.get(user__username="alice")
    gm.goto(f"{base}{url(campaign, 'member_edit', alice_member.pk)}")
    expect(gm.locator("#gm-sealed")).to_contain_text("opened in turn 1")
    expect(gm.locator("#gm-dossier")).to_contain_text(INTEL)
    expect(gm.locator("#gm-dossier")).to_contain_text("granted known")
    shot(gm, "intrigue-member-alice-gm-desktop")
    gm.goto(f"{base}{url(campaign, 'department_envelopes', 'city', 'temple')}")
    expect(gm.locator("body")).to_contain_text("Opened by Alice Ambergris, Comptroller (turn 1)")
    shot(gm, "intrigue-envelopes-temple-gm-desktop")
    assert ContingencyEnvelope.objects.filter(opened_turn__number=1).count() == 2
    assert IntelEnvelope.objects.get(department__slug="temple").openings.count() == 1

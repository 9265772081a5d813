"""The GM's pages of RULES parts 7 and 8 in a real browser (Debian's chromium): from alice's
member page the GM grants a shtick by its form (a cross_board one), sets a secret goal and
writes a sealed envelope; from the Temple's editor page attaches an intel envelope for bob
only. Alice then reads her new shtick and goal and is offered a link to the other board,
which her board pages list once made. Screenshots (desktop and phone) go to test-output/."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse
from django.utils import timezone

from campaigns.models import ContingencyEnvelope, Goal, IntelEnvelope, Shtick
from campaigns.services.demo import demo_create
from campaigns.services.turns import turn_process
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def test_the_gm_gives_a_character_shticks_goals_and_envelopes(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    campaign.turns.filter(number=1).update(deadline=timezone.now() + dt.timedelta(days=7))
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    alice_pk = campaign.memberships.get(user__username="alice").pk

    gm.goto(f"{base}{reverse('member_edit', args=[campaign.slug, alice_pk])}")
    expect(gm.locator("#gm-shticks")).to_contain_text("+1 Perception")
    gm.locator("#gm-shticks").get_by_role("link", name="Linking across two boards").click()
    gm.get_by_label("One board").select_option(label="The City of Tourmaline")
    gm.get_by_label("The other board").select_option(label="The Merchant Harbour")
    shot(gm, "intrigue-gm-shtick-form-desktop")
    gm.get_by_role("button", name="Save").click()
    expect(gm.locator(".alert-success")).to_contain_text("Shtick granted.")
    expect(gm.locator("#gm-shticks")).to_contain_text(
        "May link departments across The City of Tourmaline and The Merchant Harbour"
    )

    gm.locator("#gm-goals").get_by_role("link", name="Hold tokens of a type").click()
    gm.get_by_label("Type").select_option(label="People")
    gm.get_by_label("Tokens held across the structures").fill("5")
    shot(gm, "intrigue-gm-goal-form-desktop")
    gm.get_by_role("button", name="Save").click()
    expect(gm.locator("#gm-goals")).to_contain_text("Hold 5 People across your structures")

    gm.locator("#gm-sealed").get_by_role("link", name="A department joins their structure").click()
    gm.get_by_label("Text").fill("The Tax Office's ledgers are yours now: page 12 is forged.")
    gm.get_by_label("Department").select_option(label="The Tax Office (The City of Tourmaline)")
    shot(gm, "intrigue-gm-sealed-form-desktop")
    gm.get_by_role("button", name="Save").click()
    expect(gm.locator("#gm-sealed")).to_contain_text(
        "opens when The Tax Office (The City of Tourmaline) joins their structure"
    )
    shot(gm, "intrigue-gm-member-desktop")

    gm.goto(f"{base}{reverse('department_edit', args=[campaign.slug, 'city', 'temple'])}")
    gm.get_by_role("link", name="Envelopes on this department…").click()
    gm.get_by_label("Text").fill("The high priest cannot read.")
    gm.get_by_label("Target number").fill("14")
    gm.get_by_label("Any player may open it").uncheck()
    gm.get_by_label("Bob Brackwater, Guildmaster").check()
    gm.get_by_label("Opening it also grants").select_option(label="known")
    gm.get_by_role("button", name="Attach").click()
    expect(gm.locator(".alert-success")).to_contain_text("Envelope attached")
    expect(gm.locator("body")).to_contain_text("only Bob Brackwater, Guildmaster")
    gm_phone = log_in(browser, base, "gm", PHONE)
    gm_phone.goto(
        f"{base}{reverse('department_envelopes', args=[campaign.slug, 'city', 'temple'])}"
    )
    shot(gm_phone, "intrigue-gm-envelopes-phone")
    gm_phone.goto(f"{base}{reverse('member_edit', args=[campaign.slug, alice_pk])}")
    shot(gm_phone, "intrigue-gm-member-phone")
    assert Shtick.objects.filter(kind="cross_board").count() == 1
    assert Goal.objects.filter(kind="hold", data__n=5).count() == 1
    assert ContingencyEnvelope.objects.filter(condition="joins").count() == 1
    assert IntelEnvelope.objects.get(text__startswith="The high priest").audience.count() == 1

    # Alice reads her new shtick and goal, and links her City Watch to her Spice House.
    alice = log_in(browser, base, "alice", PHONE)
    alice.goto(f"{base}{campaign.get_absolute_url()}")
    expect(alice.locator("#shticks")).to_contain_text("May link departments across")
    expect(alice.locator("#goals")).to_contain_text("Hold 5 People across your structures")
    shot(alice, "intrigue-campaign-alice-phone")
    alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'add_link'])}")
    alice.get_by_label("Link").select_option(
        label="The City Watch → The Spice House (The Merchant Harbour)"
    )
    shot(alice, "intrigue-cross-link-form-alice-phone")
    alice.get_by_role("button", name="Queue order").click()
    expect(alice.locator("#queued")).to_contain_text(
        "The City Watch → The Spice House (The Merchant Harbour)"
    )
    turn_process(campaign_id=campaign.pk, number=1)
    alice.goto(f"{base}{reverse('board', args=[campaign.slug, 'harbour'])}")
    expect(alice.locator("#cross-links")).to_contain_text(
        "The City Watch (The City of Tourmaline) → The Spice House (The Merchant Harbour)"
    )
    shot(alice, "intrigue-cross-links-board-alice-phone")

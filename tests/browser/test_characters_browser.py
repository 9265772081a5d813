"""Every character on one page in a real browser (RULES R51; Debian's chromium, Playwright):
the GM reaches it from the campaign's set-up line and reads every player's shticks and goals;
once the GM has ended and opened the campaign, a player reaches it from the ended campaign's
page. Screenshots go to test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import Campaign
from campaigns.services.campaigns import campaign_end, campaign_open
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot
from tests.support.demo import member

pytestmark = BROWSER_MARKS


def test_the_gm_and_then_every_player_read_every_character(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    campaign_url = f"{live_server.url}{reverse('campaign', args=[campaign.slug])}"
    gm = log_in(browser, live_server.url, "gm", DESKTOP)
    gm.goto(campaign_url)
    gm.get_by_role("link", name="Every character", exact=True).click()
    expect(gm.get_by_role("heading", name="Characters")).to_be_visible()
    expect(gm.locator("[data-character]")).to_have_count(
        campaign.memberships.filter(role="player").count()
    )
    expect(gm.locator("main")).to_contain_text("Audited the Temple's books once")
    expect(gm.locator("main")).to_contain_text("Only you see this page")
    shot(gm, "characters-gm-desktop")

    bob = log_in(browser, live_server.url, "bob", PHONE)
    refused = bob.goto(f"{live_server.url}{reverse('characters', args=[campaign.slug])}")
    assert refused is not None and refused.status == 403
    expect(bob.locator("[data-refusal]")).to_contain_text("once the GM opens the campaign")

    campaign_end(campaign=campaign, actor=member(campaign, "gm").user)
    campaign_open(campaign=Campaign.objects.get(pk=campaign.pk), actor=member(campaign, "gm").user)
    bob.goto(campaign_url)
    bob.locator("[data-characters-link]").click()
    expect(bob.locator("main")).to_contain_text("The GM has opened the campaign")
    expect(bob.locator("main")).to_contain_text("Audited the Temple's books once")  # alice's
    shot(bob, "characters-player-phone")

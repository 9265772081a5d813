"""Issue 25 in a real browser (Debian's chromium via Playwright): notices are put into words
when read. Bob reads an attack notice and a deadline extension in English, switches the site
to German in the footer, and reads the same notices in German, the deadline in his browser's
zone (New York). Alice's German attempt form writes its chance as German writes it, and the
election page names the election once. Screenshots go to test-output/."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from campaigns.models import Order
from campaigns.services.campaigns import turn_extend_deadline
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot
from tests.support.demo import ATTACK, open_turn, submit

pytestmark = BROWSER_MARKS


def test_bob_reads_his_old_notices_in_german_after_switching(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    from campaigns.services.demo import demo_create

    campaign = demo_create()
    # The attempt form's chance, as German writes a percentage.
    alice = log_in(browser, live_server.url, "alice", DESKTOP)
    alice.goto(f"{live_server.url}/c/{campaign.slug}/")
    alice.select_option("#language-choice", "de")
    alice.locator("#language-switch button").click()
    alice.goto(f"{live_server.url}/c/{campaign.slug}/orders/city/new/attempt/")
    alice.select_option("#id_attacker", ATTACK["attacker"])
    alice.select_option("#id_target", ATTACK["target"])
    alice.locator("#order-form button[name=preview]").click()
    expect(alice.locator("#preview [data-chance]")).to_have_text(re.compile(r"^\d+,\d\u00a0%$"))
    shot(alice, "german-attempt-chance-desktop")

    harbour = campaign.boards.get(slug="harbour")
    submit(campaign, "alice", Order.Kind.ATTEMPT, {"attacker": "spice-house",
           "target": "shipwright"}, board=harbour)  # fmt: skip
    turn = open_turn(campaign)
    new = turn.deadline + dt.timedelta(days=3)
    turn_extend_deadline(campaign=campaign, number=turn.number, deadline=new)

    page = log_in(browser, live_server.url, "bob", DESKTOP)
    page.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
    notices = page.locator("#notices")
    expect(notices).to_contain_text("The GM extended the deadline of turn 1")
    expect(notices).to_contain_text("No reinforcement is possible now.")
    shot(page, "notices-english-desktop")

    page.select_option("#language-choice", "de")
    page.locator("#language-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
    expect(notices).to_contain_text("Die Spielleitung hat die Frist von Runde 1 verlängert")
    expect(notices).to_contain_text("Ziel eines Angriffs durch")
    expect(notices).to_contain_text("Eine Verstärkung ist jetzt nicht möglich.")
    expect(notices).not_to_contain_text("The GM")
    # The new deadline, in the browser's zone (New York), worded in German: Monday.
    told = notices.locator(f'time[datetime="{new.astimezone(dt.UTC).isoformat()}"]')
    expect(told).to_contain_text(re.compile(r"^Mo"))
    expect(told).to_contain_text(f"{new.astimezone(dt.timezone(dt.timedelta(hours=-5))):%H:%M}")
    shot(page, "notices-german-desktop")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "notices-german-phone")


def test_the_german_election_page_names_the_election_once(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    from tests.support.demo import play_turn_one

    slug = play_turn_one().campaign.slug
    page = log_in(browser, live_server.url, "alice", DESKTOP)
    page.goto(f"{live_server.url}/c/{slug}/")
    page.select_option("#language-choice", "de")
    page.locator("#language-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.goto(f"{live_server.url}/c/{slug}/election/")
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Wahl für "))
    expect(page.locator("nav[aria-label=Navigationspfad]")).not_to_contain_text("Wahl")
    shot(page, "german-election-title-desktop")

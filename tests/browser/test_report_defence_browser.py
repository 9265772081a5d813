"""The standing defence in the turn report's account, in a browser (RULES R43 step 4, R46,
R47): Alice reads what her City Watch spent against the Thieves' Guild, on a desktop, on a
phone and in German; Carol, who has only heard of the Watch, reads her attempt's score and
a hidden defend roll. Screenshots go to test-output/."""

from __future__ import annotations

from typing import Any

from tests.support.browser import BROWSER_MARKS, DESKTOP, OUTPUT, PHONE, log_in, shot
from tests.support.defence_report import SPENT, play

pytestmark = BROWSER_MARKS


def no_overflow(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def test_the_defender_and_the_attacker_read_the_defence(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from django.urls import reverse
    from playwright.sync_api import expect

    played = play(carol_knows_the_watch=False)
    url = live_server.url + reverse("turn_report", args=[played.campaign.slug, 1])

    alice = log_in(browser, live_server.url, "alice", DESKTOP)
    alice.goto(url)
    attempts = alice.locator("#account-city [data-phase=attempts]")
    expect(attempts).to_contain_text("your defence held")
    expect(attempts).to_contain_text(SPENT)
    attempts.screenshot(path=str(OUTPUT / "report-defence-alice-account.png"))
    shot(alice, "report-defence-alice-desktop")
    alice.set_viewport_size(PHONE)
    no_overflow(alice)
    attempts.screenshot(path=str(OUTPUT / "report-defence-alice-phone-account.png"))

    alice.select_option("#language-choice", "de")
    alice.locator("#language-switch button").click()
    expect(alice.locator("html")).to_have_attribute("lang", "de")
    alice.goto(url)
    german = alice.locator("#account-city [data-phase=attempts]")
    expect(german).to_contain_text("von ihrer Grundverteidigung")
    no_overflow(alice)
    german.screenshot(path=str(OUTPUT / "report-defence-alice-german-account.png"))

    carol = log_in(browser, live_server.url, "carol", DESKTOP)
    carol.goto(url)
    mine = carol.locator("#account-city [data-phase=attempts]")
    expect(mine).to_contain_text("The defence held")
    expect(mine).not_to_contain_text("standing defence")
    attempt = played.orders["carol_attempt"]
    expect(carol.locator(f"#order-{attempt.pk} [data-hidden-roll]")).to_contain_text(
        "you do not know the target's card"
    )
    carol.locator(f"#order-{attempt.pk}").screenshot(
        path=str(OUTPUT / "report-defence-carol-order.png")
    )
    mine.screenshot(path=str(OUTPUT / "report-defence-carol-account.png"))

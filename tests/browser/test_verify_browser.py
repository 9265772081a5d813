"""Verify the dice (RULES R23) in a real browser: "Check in your browser" recomputes a roll
with the browser's own Web Crypto (campaigns/static/campaigns/verify_dice.js) and gets the
engine's faces, for a d10 roll of the report and for a d6 perception key, with no script
error or CSP violation."""

from __future__ import annotations

from typing import Any

from campaigns.engine.dice import roll_faces
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, shot, watch_for_errors
from tests.support.demo import play_turn_one

pytestmark = BROWSER_MARKS


def test_the_browser_recomputes_a_roll_from_the_published_seed(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    played = play_turn_one()
    (roll,) = played.order("alice_roll").result["rolls"]
    page = log_in(browser, live_server.url, "alice", DESKTOP)
    problems = watch_for_errors(page)
    page.goto(f"{live_server.url}{played.campaign.get_absolute_url()}")
    page.locator("[data-report-link]").first.click()
    page.locator(f"#order-{played.orders['alice_roll'].pk} a", has_text="verify").click()
    check = page.locator("[data-browser-check]")
    expect(check).to_be_visible()
    check.get_by_role("button", name="Check in your browser").click()
    faces = " ".join(str(f) for f in roll["faces"])
    expect(check.locator("[data-browser-faces]")).to_have_text(faces)
    expect(check.locator("[data-browser-match]")).to_have_text(
        "✓ Your browser got the same faces as this page."
    )
    shot(page, "verify-browser-check")

    # A key typed by hand: a perception check's dice are d6 (R70), and nothing is compared
    # with faces the page did not print for that key.
    key = f"1:{played.orders['alice_roll'].pk}:perception"
    page.fill("#id_key", key)
    page.fill("#id_dice", "12")
    check.get_by_role("button", name="Check in your browser").click()
    expected = " ".join(str(f) for f in roll_faces(played.turn.seed, key, 12, 6))
    expect(check.locator("[data-browser-faces]")).to_have_text(expected)
    expect(check.locator("[data-browser-match]")).to_have_text("")
    page.fill("#id_dice", "")
    check.get_by_role("button", name="Check in your browser").click()
    expect(check.locator("[data-browser-faces]")).to_have_text(
        "Type a roll key and a number of dice first."
    )
    assert problems == []

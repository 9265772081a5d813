"""A classic board's history in a real browser (RULES R51, R99): after two processed turns of
the classic demo, alice reads the overview and compares the turns on a desktop, bob the
overview on a phone; each sees their own treasury total and no other player's. Screenshots go
to test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.history.selectors.history_classic import classic_history
from campaigns.services.demo import demo_create
from campaigns.services.demo_classic import classic_demo_create
from campaigns.services.turns import turn_process
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot, watch_for_errors
from tests.support.demo import member

pytestmark = BROWSER_MARKS


def test_alice_and_bob_read_the_classic_history_each_with_only_their_treasuries(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()  # the users, as ./run makes them
    campaign = classic_demo_create()
    for number in (1, 2):
        assert turn_process(campaign_id=campaign.pk, number=number) is not None
    board = campaign.boards.get()
    gm_view = classic_history(board, member(campaign, "gm"))
    totals = {p.name: p.treasury for p in gm_view.turns[-1].players}
    alice_name, bob_name = (
        member(campaign, "alice").display_name,
        member(campaign, "bob").display_name,
    )
    base = live_server.url
    overview = f"{base}{reverse('board_history', args=[campaign.slug, board.slug])}"

    alice = log_in(browser, base, "alice", DESKTOP)
    problems = watch_for_errors(alice)
    alice.goto(overview)
    table = alice.locator("#classic-history-turns table")
    expect(table).to_contain_text(f"{totals[alice_name]} MB")
    expect(table).not_to_contain_text(f"{totals[bob_name]} MB")
    shot(alice, "classic-history-alice-desktop")
    # The form offers the last two turns: comparing them at once needs no correction.
    alice.get_by_role("button", name="Compare").click()
    expect(alice.locator(".alert-warning")).to_have_count(0)
    expect(alice.locator("#comparison-changes")).to_contain_text("From turn 1 to turn 2")
    expect(alice.locator("#classic-drawn")).to_be_visible()
    shot(alice, "classic-compare-alice-desktop")

    bob = log_in(browser, base, "bob", PHONE)
    bob.goto(overview)
    expect(bob.locator("#classic-history-turns")).to_contain_text(f"{totals[bob_name]} MB")
    expect(bob.locator("#classic-history-turns")).not_to_contain_text(f"{totals[alice_name]} MB")
    shot(bob, "classic-history-bob-phone")
    assert problems == []

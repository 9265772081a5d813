"""An election on the demo in a real browser (RULES R80; Debian's chromium, Playwright): the GM
opens turn 2, which holds the election for the Mayor of Tourmaline; alice, bob and carol each
nominate a ticket; bob doubles his Printing Press's support (media) and his orders page says
its queued function roll will be rejected; alice reads the election so far (bob's Printing
Press unknown to her); the GM processes the turn; the report names the winner and why; the
board marks the holder and the deputy; and the Mayor's alignment (Government) changes the
target number of bob's next linking attempt from his deputy, in the attempt's preview.
Screenshots go to test-output/ (desktop and phone)."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns.models import Office
from campaigns.selectors.board_views import node_key
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def process(gm: Any, base: str, slug: str, number: int) -> None:
    from playwright.sync_api import expect

    gm.goto(f"{base}{reverse('turn_process', args=[slug])}")
    gm.get_by_label(re.compile("resolve every queued order")).check()
    gm.get_by_role("button", name=f"Process turn {number}").click()
    expect(gm.locator(".alert-success")).to_contain_text(f"Turn {number} processed")


def order(page: Any, base: str, slug: str, kind: str, fields: dict[str, str]) -> None:
    """Open the order form of `kind` on the city board, pick each field's option by its
    label (the values are opaque keys), queue it."""
    from playwright.sync_api import expect

    page.goto(f"{base}{reverse('order_new', args=[slug, 'city', kind])}")
    for field, label in fields.items():
        page.select_option(f"#id_{field}", label=label)
    page.get_by_role("button", name="Queue order").click()
    expect(page.locator(".alert-success")).to_contain_text("queued")


def support(page: Any, base: str, campaign: Any, department: str, ticket: str) -> None:
    """The support form's radio for `department` backing `ticket` (grouped by department,
    the same ticket's label under each: picked by its value, the departments' keys)."""
    keys = [node_key(campaign.boards.get(slug="city").pk, s) for s in (department, ticket)]
    page.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'support'])}")
    page.check(f'input[name="support"][value="{keys[0]}|{keys[1]}|0"]')
    page.get_by_role("button", name="Queue order").click()


def preview_attempt(page: Any, base: str, slug: str) -> Any:
    """Bob's Printing Press on alice's Mint, previewed (R43, R6)."""
    page.goto(f"{base}{reverse('order_new', args=[slug, 'city', 'attempt'])}")
    page.select_option("#id_attacker", "printing-press")
    page.select_option("#id_target", "mint")
    page.get_by_role("button", name="Preview").click()
    return page.locator("#preview")


def test_three_players_hold_an_election_and_the_office_changes_a_later_attempt(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    slug, base = campaign.slug, live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    alice = log_in(browser, base, "alice", DESKTOP)
    bob = log_in(browser, base, "bob", PHONE)
    carol = log_in(browser, base, "carol", DESKTOP)

    # The GM's offices: the Mayor, its election scheduled in turn 2.
    gm.goto(f"{base}{reverse('board_offices', args=[slug, 'city'])}")
    expect(gm.locator("#offices")).to_contain_text("Turn 2: scheduled")
    shot(gm, "election-offices-gm-desktop")
    process(gm, base, slug, 1)

    # Bob is told, on the campaign page, and finds the election.
    bob.goto(f"{base}{campaign.get_absolute_url()}")
    expect(bob.locator("[data-notice]").first).to_contain_text("election for Mayor of Tourmaline")
    shot(bob, "election-campaign-notice-bob-phone")
    before = preview_attempt(bob, base, slug)
    expect(before).to_contain_text("8 = 7 + 1 opposed − 0 identical")
    bob.goto(f"{base}{campaign.get_absolute_url()}")
    bob.locator("[data-election-link]").click()
    expect(bob.locator("h1")).to_contain_text("Election for Mayor of Tourmaline")
    expect(bob.locator("#no-tickets")).to_be_visible()
    shot(bob, "election-page-empty-bob-phone")

    # Three nominations, each through its form.
    order(alice, base, slug, "nominate", {"candidate": "The Mint", "running_mate": "The Treasury"})
    order(bob, base, slug, "nominate",
          {"candidate": "The Guild Hall", "running_mate": "The Printing Press"})  # fmt: skip
    order(carol, base, slug, "nominate",
          {"candidate": "The Temple of the Eye", "running_mate": "The Seminary"})  # fmt: skip

    # Bob's Printing Press has a function roll queued; then it doubles its support (media).
    bob.goto(f"{base}{reverse('order_new', args=[slug, 'city', 'function'])}")
    bob.select_option("#id_function", "printing-press|media")
    bob.fill("#id_intent", "Print the Guild Hall's manifesto.")
    bob.get_by_role("button", name="Queue order").click()
    bob.goto(f"{base}{reverse('order_new', args=[slug, 'city', 'support'])}")
    form = bob.locator("#order-form")
    expect(form).to_contain_text("The Printing Press (Impress 2)")
    expect(form).to_contain_text("no function roll for The Printing Press this turn")
    shot(bob, "election-support-form-bob-phone")
    bob.get_by_label(
        "The Guild Hall with The Printing Press, doubled (media): no function roll for The "
        "Printing Press this turn", exact=True).check()  # fmt: skip
    bob.get_by_role("button", name="Queue order").click()
    expect(bob.locator("[data-warning]")).to_contain_text(
        "The Printing Press doubled its election support this turn"
    )
    shot(bob, "election-orders-warning-bob-phone")
    support(bob, base, campaign, "guild-hall", "guild-hall")
    expect(bob.locator("#queued")).to_contain_text(
        "The Guild Hall supports the ticket of The Guild Hall"
    )
    support(alice, base, campaign, "mint", "mint")
    order(alice, base, slug, "vote", {"ticket": "The Mint with The Treasury"})

    # Alice reads the election so far: the Printing Press unknown to her, its power hidden.
    alice.goto(f"{base}{reverse('election', args=[slug])}")
    tickets = alice.locator("#tickets")
    expect(tickets).to_contain_text("The Guild Hall")
    expect(tickets).to_contain_text("unknown support")
    expect(tickets).not_to_contain_text("Printing Press")
    shot(alice, "election-page-alice-desktop")

    process(gm, base, slug, 2)
    office = Office.objects.get()
    assert (office.holder.slug, office.deputy.slug) == ("guild-hall", "printing-press")

    # The report names the winner and why, as each knew the departments.
    bob.goto(f"{base}{reverse('turn_report', args=[slug, 2])}")
    result = bob.locator("[data-election-result]")
    expect(result).to_contain_text(
        "The Guild Hall holds Mayor of Tourmaline, with The Printing Press as deputy: "
        "it had the most support"
    )
    expect(bob.locator("#election-city")).to_contain_text("The Printing Press (4)")
    shot(bob, "election-report-bob-phone")
    alice.goto(f"{base}{reverse('turn_report', args=[slug, 2])}")
    expect(alice.locator("[data-election-result]")).to_contain_text(
        "with a department you do not know as deputy"
    )
    expect(alice.locator("[data-followers]")).to_contain_text("The Tax Office supports")
    shot(alice, "election-report-alice-desktop")
    gm.goto(f"{base}{reverse('turn_report', args=[slug, 2])}")
    expect(gm.locator("[data-followers]")).to_contain_text("Chances:")
    shot(gm, "election-report-gm-desktop")

    # The board marks the holder and the deputy; the history says who held it when.
    bob.goto(f"{base}{reverse('board', args=[slug, 'city'])}")
    expect(bob.locator("#offices")).to_contain_text(
        "held by The Guild Hall, deputy The Printing Press"
    )
    expect(bob.locator("[data-post]").first).to_contain_text("Mayor of Tourmaline")
    bob.wait_for_selector("[data-board-map] canvas")
    shot(bob, "election-board-bob-phone")
    gm.goto(f"{base}{reverse('board', args=[slug, 'city'])}")
    gm.wait_for_selector("[data-board-map] canvas")
    shot(gm, "election-board-gm-desktop")
    alice.goto(f"{base}{reverse('board_history', args=[slug, 'city'])}")
    expect(alice.locator("[data-office-timeline]")).to_contain_text(
        "Turn 2: held by The Guild Hall"
    )
    shot(alice, "election-history-alice-desktop")

    # Turn 3: the deputy's office alignment (Government) is identical with the Mint's.
    after = preview_attempt(bob, base, slug)
    expect(after).to_contain_text("7 = 7 + 1 opposed − 1 identical")
    expect(after).to_contain_text("The Printing Press deputy of Mayor of Tourmaline (Government)")
    shot(bob, "election-attempt-preview-bob-phone")

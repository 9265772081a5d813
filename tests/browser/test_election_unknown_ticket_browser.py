"""A ticket whose candidate the player has never heard of, in a real browser (RULES R80, R50;
issue 25, blocker 1): in the demo's turn 2 alice nominates her Mint and bob his Guild Hall,
of which carol has never heard. Carol's election page shows both tickets; her support and vote
forms offer every one of them, named as the page names them; she supports bob's ticket with
her Temple and votes for it, and both orders are queued. Screenshots go to tests/test-output/
(election-unknown-ticket-*.png)."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns.models import Order
from campaigns.selectors.board_views import node_key
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.services.demo import demo_create
from campaigns.words.election import ticket_label
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, shot
from tests.support.demo import member
from tests.support.election import TICKETS, election_turn, queue_election

pytestmark = BROWSER_MARKS
UNHEARD = f"{UNNAMED} with The Printing Press"  # bob's ticket, as carol's page names it


def page_tickets(page: Any) -> list[str]:
    """Each ticket card's candidate and running mate, in the forms' words."""
    named = []
    for card in page.locator("[data-ticket] .card-header").all():
        candidate, mate = (s.inner_text().strip() for s in card.locator("span").all())
        named.append(ticket_label(candidate, re.sub(r"^· running mate ", "", mate)))
    return named


def support_labels(page: Any) -> dict[str, str]:
    """value -> label of every radio of the support form."""
    found = {}
    for radio in page.locator('input[name="support"]').all():
        label = page.locator(f'label[for="{radio.get_attribute("id")}"]').inner_text()
        found[str(radio.get_attribute("value"))] = label.strip()
    return found


def test_carol_supports_and_votes_for_a_ticket_whose_candidate_she_does_not_know(
    live_server: Any,
    transactional_db: None,
    browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    election_turn(campaign)
    queue_election(campaign, TICKETS[:2])  # the Mint with the Treasury, the Guild Hall with ...
    slug, base = campaign.slug, live_server.url
    carol = log_in(browser, base, "carol", DESKTOP)

    carol.goto(f"{base}{reverse('election', args=[slug])}")
    shown = page_tickets(carol)
    assert shown == [f"The Mint with {UNNAMED}", UNHEARD]

    # The support form: each of her three departments may back either ticket.
    carol.goto(f"{base}{reverse('order_new', args=[slug, 'city', 'support'])}")
    radios = support_labels(carol)
    assert sorted(radios.values()) == sorted(shown * 3)
    temple = node_key(campaign.boards.get(slug="city").pk, "temple")
    (pick,) = [v for v, label in radios.items() if label == UNHEARD and v.startswith(temple)]
    carol.check(f'input[name="support"][value="{pick}"]')
    shot(carol, "election-unknown-ticket-support-carol-desktop")
    carol.get_by_role("button", name="Queue order").click()
    expect(carol.locator(".alert-success")).to_contain_text("queued")

    # The vote form: every ticket, by the page's names; she votes for bob's.
    carol.goto(f"{base}{reverse('order_new', args=[slug, 'city', 'vote'])}")
    labels = carol.locator("#id_ticket option").all_inner_texts()
    assert [label.strip() for label in labels if label.strip() != "---------"] == shown
    carol.select_option("#id_ticket", label=UNHEARD)
    form = carol.locator("#order-form")
    expect(form).not_to_contain_text("Guild Hall")
    shot(carol, "election-unknown-ticket-vote-carol-desktop")
    assert "guild-hall" not in carol.content()
    carol.get_by_role("button", name="Queue order").click()
    expect(carol.locator(".alert-success")).to_contain_text("queued")
    expect(carol.locator("#queued")).to_contain_text(f"a vote for the ticket of {UNNAMED}")
    expect(carol.locator("#queued")).not_to_contain_text("Guild Hall")

    queued = Order.objects.filter(player=member(campaign, "carol"), status=Order.Status.QUEUED)
    assert {o.kind: o.payload for o in queued} == {
        Order.Kind.SUPPORT: {"department": "temple", "ticket": "guild-hall"},
        Order.Kind.VOTE: {"ticket": "guild-hall"},
    }

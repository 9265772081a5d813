"""Every ticket the election page shows a player is offered by their support and vote forms
(RULES R80), named as the page names it, even one whose candidate they have never heard of
(R50): the engine decides at the turn. Issue 25, blocker 1.

The demo's Mayor of Tourmaline in turn 2 (tests/support/election.py): alice nominates her Mint
with her Treasury, bob his Guild Hall with his Printing Press. Carol has heard of the Mint
(`rumoured`) and knows the Printing Press's card, but has never heard of the Guild Hall or the
Treasury, so her page shows both tickets, each with one department she does not know."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Department, Order, TurnRecord
from campaigns.selectors.board_views import node_key
from campaigns.selectors.order_checks import OrderRefused
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.services.turns import turn_process
from campaigns.words.election import ticket_label
from tests.support.demo import member, submit
from tests.support.election import TICKETS, election_turn, queue_election
from tests.support.fog import demo_levels, leaks, private_markers, sentinelize, shows
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
ALICE_AND_BOB = TICKETS[:2]  # the Mint with the Treasury, the Guild Hall with the Printing Press
UNHEARD = f"{UNNAMED} with The Printing Press"  # bob's ticket, as carol's page names it
# The Guild Hall's Impress in the leak test: a stat carol may not see (R50).
IMPRESS = 4807


@pytest.fixture
def nominated(demo: Campaign) -> Campaign:
    election_turn(demo)
    queue_election(demo, ALICE_AND_BOB)
    return demo


def page_tickets(client: Client) -> list[str]:
    """The tickets of the election page, named as its cards name them (candidate, running
    mate), in the forms' words."""
    page = html.unescape(client.get(reverse("election", args=[SLUG])).content.decode())
    headers = re.findall(r"<article[^>]*data-ticket>\s*<div class=\"card-header\">(.*?)</div>",
                         page, re.S)  # fmt: skip
    named = []
    for header in headers:
        candidate, mate = re.findall(r"<span[^>]*>(.*?)</span>", header, re.S)
        mate = re.sub(r"\s+", " ", mate).strip().removeprefix("· running mate ")
        named.append(ticket_label(candidate.strip(), mate))
    return named


def form_of(client: Client, kind: str) -> Any:
    response = client.get(reverse("order_new", args=[SLUG, "city", kind]))
    assert response.status_code == 200
    return response


def options(response: Any, field: str) -> list[tuple[str, str]]:
    """Every (value, label) of a field, its groups flattened."""
    found = []
    for value, label in response.context["form"].fields[field].choices:
        found += label if isinstance(label, list) else [(value, label)]
    return found


def value_of(response: Any, field: str, label: str) -> str:
    (value,) = [v for v, lb in options(response, field) if lb == label]
    return value


def post(client: Client, kind: str, data: dict[str, str]) -> Any:
    return client.post(reverse("order_new", args=[SLUG, "city", kind]), {**data, "turn": 2})


def test_carols_forms_offer_every_ticket_her_election_page_shows(
    nominated: Campaign, client_for: ClientFor
) -> None:
    carol = client_for("carol")
    shown = page_tickets(carol)
    assert shown == [f"The Mint with {UNNAMED}", UNHEARD]
    vote = [label for __, label in options(form_of(carol, Order.Kind.VOTE), "ticket")]
    assert vote == shown
    support = form_of(carol, Order.Kind.SUPPORT).context["form"].fields["support"].choices
    # Each of her departments on the board (the Temple, the Seminary, the Thieves' Guild)
    # may support either ticket.
    assert len(support) == 3
    assert all([label for __, label in group] == shown for __, group in support)


def test_carols_vote_and_support_for_a_ticket_she_does_not_know_are_judged_at_the_turn(
    nominated: Campaign, client_for: ClientFor
) -> None:
    carol = client_for("carol")
    vote = value_of(form_of(carol, Order.Kind.VOTE), "ticket", UNHEARD)
    assert post(carol, Order.Kind.VOTE, {"ticket": vote}).status_code == 302
    support = [
        v
        for v, label in options(form_of(carol, Order.Kind.SUPPORT), "support")
        if label == UNHEARD
        and v.startswith(node_key(nominated.boards.get(slug="city").pk, "temple"))
    ]
    assert post(carol, Order.Kind.SUPPORT, {"support": support[0]}).status_code == 302
    carols = Order.objects.filter(player=member(nominated, "carol")).order_by("pk")
    assert [(o.kind, o.payload) for o in carols] == [
        (Order.Kind.VOTE, {"ticket": "guild-hall"}),
        (Order.Kind.SUPPORT, {"department": "temple", "ticket": "guild-hall"}),
    ]
    # Only the offered reference names it: a slug posted to the form is not a choice, and a
    # department she has never heard of that is no ticket gets the refusal of one that does
    # not exist (R50: no probing which hidden slugs exist).
    assert post(carol, Order.Kind.SUPPORT, {"support": "seminary|guild-hall|0"}).status_code == 200
    for ticket in ("dock-workers", "no-such-department"):
        with pytest.raises(OrderRefused, match="details you cannot see"):
            submit(nominated, "carol", Order.Kind.VOTE, {"ticket": ticket})
    assert Order.objects.filter(player=member(nominated, "carol")).count() == 2
    # The engine accepts both at the turn: her vote and her Temple count for bob's ticket.
    assert turn_process(campaign_id=nominated.pk, number=2) is not None
    for order in carols:
        order.refresh_from_db()
        assert order.status == Order.Status.SUCCEEDED, order.result
    record = TurnRecord.objects.get(turn__campaign=nominated, turn__number=2, board__slug="city")
    tickets = record.report["election"]["tickets"]
    assert "temple" in tickets["guild-hall"]["supporters"]


def test_the_form_of_a_ticket_she_does_not_know_shows_nothing_hidden(
    nominated: Campaign, client_for: ClientFor
) -> None:
    """Neither the Guild Hall's name, slug, map key nor stats (a sentinel Impress, the fog
    audit's sentinels) reach carol's forms; nor the Treasury's, of which she has not heard."""
    sentinelize(nominated)
    Department.objects.filter(board__campaign=nominated, slug="guild-hall").update(impress=IMPRESS)
    city = nominated.boards.get(slug="city").pk
    carol = client_for("carol")
    for kind in (Order.Kind.VOTE, Order.Kind.SUPPORT):
        response = form_of(carol, kind)
        text = response.content.decode()
        assert UNHEARD in html.unescape(text)  # the ticket is offered ...
        assert leaks(text, demo_levels()["carol"], private_markers(nominated)) == []
        for slug in ("guild-hall", "treasury"):  # ... by nothing she may not know
            assert not shows(node_key(city, slug), text), (kind, slug)
        assert not shows(str(IMPRESS), text)


def test_editing_her_support_for_a_ticket_she_does_not_know_shows_it_selected(
    nominated: Campaign, client_for: ClientFor
) -> None:
    (order,) = queue_election(
        nominated, [("carol", "support", {"department": "temple", "ticket": "guild-hall"})]
    )
    carol = client_for("carol")
    response = carol.get(reverse("order_edit", args=[SLUG, order.pk]))
    temple = node_key(nominated.boards.get(slug="city").pk, "temple")
    (wanted,) = [v for v, lb in options(response, "support") if lb == UNHEARD and temple in v]
    assert response.context["form"].initial["support"] == wanted
    text = response.content.decode()
    assert re.search(rf'value="{re.escape(wanted)}"[^>]*checked', text)
    assert not shows("guild-hall", text)

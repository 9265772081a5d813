"""A group given on a classic board (RULES R97) needs its receiver's accept in the same turn:
the receiver's orders page lists it with the one button that queues that accept, and nobody
else's does; once accepted it is no longer offered. The turn report then tells each reader
the gifts made to them, amount and all, what their standing defence spent, and names each
order's kind; a third player reads none of another's gift (R99)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign, ClassicBoard, Order
from campaigns.services.demo import demo_create
from campaigns.services.demo_classic import classic_demo_create
from campaigns.services.orders import orders_submit
from campaigns.services.turns import turn_process
from tests.support.demo import member
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db

Kind = Order.Kind


@pytest.fixture
def underside(db: None) -> Campaign:
    demo_create()  # the users
    return classic_demo_create()


def queued(campaign: Campaign, username: str, kind: str, payload: dict[str, Any]) -> Order:
    turn = campaign.turns.get(number=1)
    board = campaign.boards.get(slug="underside")
    player = member(campaign, username)
    return orders_submit(player=player, turn=turn, board=board, kind=kind, payload=payload)


def orders_page(client: Any, campaign: Campaign) -> Any:
    page = client.get(reverse("orders", args=[campaign.slug]))
    assert page.status_code == 200
    return page


def test_the_receiver_accepts_a_given_group_with_one_button(
    underside: Campaign, client_for: Any
) -> None:
    bob = member(underside, "bob")
    queued(underside, "carol", Kind.CLASSIC_GIVE,
           {"group": "night-market-hawkers", "to_player": bob.player_id})  # fmt: skip
    offers = orders_page(client_for("bob"), underside).context["group_offers"]
    assert [(o.group, o.giver) for o in offers] == [
        ("Night Market Hawkers", member(underside, "carol").display_name)
    ]
    # Where it may hang: bob's groups with a free arrow, his Illuminati first.
    assert offers[0].parents[0] == (
        "night-market-hawkers|order-of-lantern", "The Order of the Lantern"
    )  # fmt: skip
    for other in ("alice", "carol"):
        assert orders_page(client_for(other), underside).context["group_offers"] == []
        assert "Groups offered to you" not in text_of(orders_page(client_for(other), underside))

    client = client_for("bob")
    url = reverse("classic_order", args=[underside.slug, "underside", "group_accept"])
    done = client.post(url, {"choice": offers[0].parents[0][0], "client_token": offers[0].token,
                             "turn": "1", "submit": "1"})  # fmt: skip
    assert done.status_code == 302, text_of(done)
    accept = Order.objects.get(player=bob, kind=Kind.CLASSIC_ACCEPT)
    assert accept.payload == {"group": "night-market-hawkers", "parent": "order-of-lantern"}
    assert orders_page(client, underside).context["group_offers"] == []

    turn_process(campaign_id=underside.pk, number=1)
    state = ClassicBoard.objects.get(board__campaign=underside).state
    hawkers = next(g for g in state["groups"] if g["slug"] == "night-market-hawkers")
    assert (hawkers["controller"], hawkers["parent"]) == (bob.player_id, "order-of-lantern")


def test_the_report_names_kinds_gifts_to_the_reader_and_what_a_defence_spent(
    underside: Campaign, client_for: Any
) -> None:
    alice = member(underside, "alice")
    queued(underside, "carol", Kind.CLASSIC_GIFT, {"to_player": alice.player_id, "amount": 3})
    queued(underside, "bob", Kind.CLASSIC_DEFEND, {"group": "lamplighters-guild", "spend": 1})
    queued(underside, "alice", Kind.CLASSIC_TRANSFER,
           {"from": "grey-chancery", "to": "salt-tax-office", "amount": 2})  # fmt: skip
    turn_process(campaign_id=underside.pk, number=1)
    url = reverse("turn_report", args=[underside.slug, 1])

    alice_reads = text_of(client_for("alice").get(url))
    assert "Gift of megabucks · to Alice Ambergris" in alice_reads
    assert "; 3 MB" in alice_reads  # the gift's amount, to its receiver
    assert "Transfer of megabucks · from The Grey Chancery to Salt Tax Office; 2 MB" in (
        alice_reads
    )
    assert "Lamplighters' Guild" not in alice_reads  # bob's defence is his (R99)

    bob_reads = text_of(client_for("bob").get(url))
    assert "Gift of megabucks" not in bob_reads  # carol's gift to alice is not his
    assert "Standing defence of a group · Lamplighters' Guild; 1 MB from the group" in bob_reads
    # Nobody attacked the guild: the defence spent nothing, and says why.
    assert "no attack it applies to came this turn: nothing was spent" in bob_reads


def test_a_group_given_without_the_receivers_accept_stays_and_the_giver_reads_who(
    underside: Campaign, client_for: Any
) -> None:
    bob = member(underside, "bob")
    give = queued(underside, "carol", Kind.CLASSIC_GIVE,
                  {"group": "night-market-hawkers", "to_player": bob.player_id})  # fmt: skip
    turn_process(campaign_id=underside.pk, number=1)
    give.refresh_from_db()
    assert give.status == Order.Status.REJECTED
    words = text_of(client_for("carol").get(reverse("turn_report", args=[underside.slug, 1])))
    assert f"{bob.display_name} did not accept this group on a free arrow (R97)" in words
    assert f"{bob.player_id} did not accept" not in words

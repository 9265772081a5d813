"""Orders across two boards (RULES R2, R60): a player holding a cross_board shtick is offered
links and linking attempts from one board's departments to the other board's, named
"<board>/<slug>" in the order (the convention the turn job reads); a player without one is
not; the board pages list the links that cross, to who knows both ends (R50)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.intrigue.services.characters import shtick_grant
from campaigns.models import Campaign, Link, Order
from campaigns.services.turns import turn_process
from tests.support.demo import member, open_turn
from tests.support.handmade import ClientFor
from tests.support.order_posts import choices, post

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def cross_shtick(campaign: Campaign, name: str = "alice") -> None:
    shtick_grant(member=member(campaign, name), actor=member(campaign, "gm").user,
                 data={"kind": "cross_board", "boards": ["city", "harbour"]})  # fmt: skip


def test_a_player_without_the_shtick_is_offered_nothing_across_boards(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    assert not [v for v in choices(alice, "add_link", "link") if "/" in v]


def test_the_shtick_offers_a_link_to_the_other_board_and_the_turn_makes_it_r60(
    demo: Campaign, client_for: ClientFor
) -> None:
    cross_shtick(demo)
    alice = client_for("alice")
    links = choices(alice, "add_link", "link")
    assert links["city-watch|harbour/spice-house"] == (
        "The City Watch → The Spice House (The Merchant Harbour)"
    )
    assert post(alice, "add_link", {"link": "city-watch|harbour/spice-house"}).status_code == 302
    order = Order.objects.get(kind="add_link")
    assert order.payload == {"from": "city-watch", "to": "harbour/spice-house"}
    page = alice.get(reverse("orders", args=[SLUG])).content.decode()
    assert "The City Watch → The Spice House (The Merchant Harbour)" in page
    turn_process(campaign_id=demo.pk, number=open_turn(demo).number)
    assert Link.objects.filter(supplier__slug="city-watch", consumer__slug="spice-house").exists()
    for board in ("city", "harbour"):
        text = alice.get(reverse("board", args=[SLUG, board])).content.decode()
        assert 'id="cross-links"' in text
        assert "The City Watch (The City of Tourmaline) → The Spice House (The Merchant" in text
    # Carol knows neither end's card: nothing crosses for her.
    carols = client_for("carol").get(reverse("board", args=[SLUG, "harbour"])).content.decode()
    assert 'id="cross-links"' not in carols


def test_the_shtick_offers_an_attempt_on_a_known_department_of_the_other_board(
    demo: Campaign, client_for: ClientFor
) -> None:
    from campaigns.models import Department, Knowledge

    cross_shtick(demo)
    alice = client_for("alice")
    url = reverse("order_new", args=[SLUG, "city", "attempt"])
    assert "harbour/harbour-master" not in dict(
        alice.get(url).context["form"].fields["target"].choices
    )
    # Once she knows the Harbour Master's card (it consumes People, which her City Watch
    # produces), it is a target (R43, R50).
    Knowledge.objects.create(player=member(demo, "alice"), level=2,
                             department=Department.objects.get(slug="harbour-master"))  # fmt: skip
    targets = dict(alice.get(url).context["form"].fields["target"].choices)
    assert targets["harbour/harbour-master"] == "The Harbour Master (The Merchant Harbour)"
    preview = alice.post(url, {"attacker": "city-watch", "target": "harbour/harbour-master",
                               "preview": "1"})  # fmt: skip
    assert preview.status_code == 200 and preview.context["preview"] is not None
    queued = post(alice, "attempt", {"attacker": "city-watch", "target": "harbour/harbour-master"})
    assert queued.status_code == 302
    order = Order.objects.get(kind="attempt")
    assert order.payload["target"] == "harbour/harbour-master"

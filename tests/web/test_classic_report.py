"""A classic board's turn report (classic/selectors/report.py, RULES R93-R99): the seat
order, every attack in the order resolved with its 2d6 verifiable on Verify the dice, the
figures and megabucks of an order only for its own player (they tell what secret treasuries
spent), income only of the reader's own groups, and the same page for every reader asking a
fixed number of queries."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.engine.dice import roll_faces
from campaigns.models import Campaign, Order
from campaigns.services.demo_classic import classic_demo_create
from campaigns.services.turns import turn_process
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db


def attack_queued(client: Any, campaign: Campaign, spend: int) -> Order:
    """The first attack the player's form offers, spending `spend` MB of the group."""
    url = reverse("classic_order", args=[campaign.slug, "underside", "attack"])
    form = client.get(url).context["form"]
    choice = next(value for value, _ in form.fields["choice"].choices if value)
    done = client.post(url, {"choice": choice, "spend": str(spend), "submit": "1"})
    assert done.status_code == 302, text_of(done)
    return Order.objects.filter(board__slug="underside").latest("pk")


@pytest.fixture
def played(db: None, client_for: Any) -> tuple[Campaign, Order]:
    from campaigns.services.demo import demo_create

    demo_create()  # the users
    campaign = classic_demo_create()
    order = attack_queued(client_for("alice"), campaign, spend=2)
    turn_process(campaign_id=campaign.pk, number=1)
    order.refresh_from_db()
    return campaign, order


def report_of(client: Any, campaign: Campaign) -> str:
    page = client.get(reverse("turn_report", args=[campaign.slug, 1]))
    assert page.status_code == 200
    return text_of(page)


def test_the_attacker_reads_seat_order_figures_and_her_megabucks(
    played: tuple[Campaign, Order], client_for: Any
) -> None:
    campaign, order = played
    words = report_of(client_for("alice"), campaign)
    assert "Seat order this turn" in words
    assert order.status in ("succeeded", "failed")
    result = order.result
    assert (
        f"Attack {result['attack']} against defence {result['defence']}: "
        f"needed {result['need']} or less" in words
    )
    assert "2 MB from the group" in words
    assert "Income paid into your treasuries" in words


def test_another_player_reads_the_attack_but_not_its_figures_or_money(
    played: tuple[Campaign, Order], client_for: Any
) -> None:
    campaign, order = played
    words = report_of(client_for("bob"), campaign)
    assert "attacks" in words and "Alice Ambergris" in words
    assert "against defence" not in words
    assert "MB from the group" not in words
    # Bob's own income only: the Grey Chancery is alice's.
    assert "The Grey Chancery: +" not in words
    assert "The Order of the Lantern: +8 MB" in words


def test_the_attack_roll_is_verified_as_2d6(
    played: tuple[Campaign, Order], client_for: Any
) -> None:
    campaign, order = played
    client = client_for("bob")
    html = client.get(reverse("turn_report", args=[campaign.slug, 1])).content.decode()
    link = re.search(r'href="([^"]*verify/\?[^"]*sides=6)"', html)
    assert link, "no verify link with sides=6"
    page = client.get(link.group(1).replace("&amp;", "&"))
    faces = roll_faces(campaign.turns.get(number=1).seed, f"1:{order.pk}:attack", 2, 6)
    assert faces == order.result["rolls"][0]["faces"]
    assert page.context["faces"] == faces and page.context["matches"]


def test_the_report_asks_as_many_queries_for_three_attacks_as_for_one(
    played: tuple[Campaign, Order], client_for: Any
) -> None:
    campaign, _ = played
    for name in ("alice", "bob", "carol"):  # turn 2: an attack from every player
        attack_queued(client_for(name), campaign, spend=0)
    turn_process(campaign_id=campaign.pk, number=2)
    assert Order.objects.filter(turn__number=2, kind="attack").count() == 3
    for name in ("bob", "gm"):
        client = client_for(name)
        counts = []
        for number in (1, 2):
            url = reverse("turn_report", args=[campaign.slug, number])
            client.get(url)  # the session warmed, and the page cache (if on) filled
            with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as seen:
                assert client.get(url).status_code == 200
            counts.append(len(seen))
        assert counts[0] == counts[1], (name, counts)

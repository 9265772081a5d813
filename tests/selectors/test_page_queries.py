"""The orders page and the turn report are each built by one selector whose query count does
not grow with the number of departments, orders or turns (no query inside a loop)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Department, Knowledge, Order, Turn
from campaigns.services.demo import demo_create
from tests.support.demo import Played, member, play_turn_one

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def grow(campaign: Campaign, turn: Turn, *, extra: int) -> None:
    """`extra` more departments on the city board (known to alice), `extra` more orders of
    alice's in `turn` (queued, cancelled and resolved with a reason), `extra` attempts of bob
    on alice's departments, and `extra` past turns."""
    city = campaign.boards.get(slug="city")
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    first = Department.objects.filter(board=city, slug__startswith="extra-").count()
    added = Department.objects.bulk_create(
        Department(board=city, slug=f"extra-{first + i}", name=f"Extra Office {first + i}",
                   consumes_type="money", consumes_amount=1, produces_type="people",
                   produces_amount=1)
        for i in range(extra)
    )  # fmt: skip
    Knowledge.objects.bulk_create(Knowledge(player=alice, department=d, level=2) for d in added)
    mint = {"department": "mint", "function": "coinage", "stat": "effect"}
    statuses = [Order.Status.QUEUED, Order.Status.CANCELLED, Order.Status.REJECTED]
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=alice, kind=Order.Kind.FUNCTION, payload=mint,
              seq=100 + i, status=statuses[i % 3],
              result={"reason": "mint already made a function roll this turn (R45)"})
        for i in range(extra)
    )  # fmt: skip
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=bob, kind=Order.Kind.ATTEMPT, seq=200 + i,
              payload={"attacker": "guild-hall", "target": "city-watch"})
        for i in range(extra)
    )  # fmt: skip
    last = campaign.turns.order_by("-number").first()
    assert last is not None
    Turn.objects.bulk_create(
        Turn(campaign=campaign, number=last.number + 1 + i, status=Turn.Status.PROCESSED,
             opened_at=timezone.now(), deadline=timezone.now() - dt.timedelta(days=1),
             seed="0" * 64, commitment="")
        for i in range(extra)
    )  # fmt: skip


def queries_for(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def test_the_orders_page_costs_the_same_queries_at_any_size(client_for) -> None:
    small = demo_create()
    small_turn = small.turns.get(number=1)
    grow(small, small_turn, extra=1)
    url = reverse("orders", args=[SLUG])
    alice = client_for("alice")
    before = queries_for(alice, url)
    grow(small, small_turn, extra=30)
    after = queries_for(alice, url)
    page = alice.get(url).content.decode()
    assert page.count("Extra Office") == 0  # none of them is named by alice's orders
    assert page.count("tries to link The City Watch") == 31  # every attack shown
    assert before == after, (before, after)


def test_the_turn_report_costs_the_same_queries_at_any_size(client_for) -> None:
    played: Played = play_turn_one()
    url = reverse("turn_report", args=[SLUG, 1])
    users = ("alice", "bob", "gm")
    before = {u: queries_for(client_for(u), url) for u in users}
    grow(played.campaign, played.turn, extra=30)
    after = {u: queries_for(client_for(u), url) for u in users}
    gm_page = client_for("gm").get(url).content.decode()
    # every order, twice: in the numbered account of the turn and in the table of attempts
    assert gm_page.count("The Guild Hall tries to link The City Watch") == 2 * 30
    assert before == after, (before, after)

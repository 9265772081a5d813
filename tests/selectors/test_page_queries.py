"""The orders page and the turn report are each built by one selector whose query count does
not grow with the number of departments, orders or turns (no query inside a loop)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.services.demo import demo_create
from tests.support.demo import Played, play_turn_one
from tests.support.growth import grow

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


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

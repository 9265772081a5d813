"""The GM's pages: department cards name their controller (the GM sees everything, so a
"controlled" level badge read as ownership); the orders page sends the GM and observers to
the campaign page with a message instead of a 403; the campaign page gives the GM a roster
of the players, built in a fixed number of queries."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Membership, Order, PlayerTurn, Profile, Turn
from tests.support.browser import BROWSER_MARKS, PHONE, log_in, shot
from tests.support.handmade import ClientFor

SLUG = "tourmaline"


def card(html: str, slug: str) -> str:
    return html.split(f'id="dept-{slug}"')[1].split("</article>")[0]


def badge(html: str, slug: str) -> str:
    return card(html, slug).split('<span class="badge')[1].split("</span>")[0]


def test_the_gm_sees_each_cards_controller_not_a_level(
    demo: Campaign, client_for: ClientFor
) -> None:
    html = client_for("gm").get(reverse("board", args=[SLUG, "city"])).content.decode()
    assert "alice" in badge(html, "mint").lower() or "Alice" in badge(html, "mint")
    assert "controlled" not in badge(html, "mint")
    uncontrolled = demo.boards.get(slug="city").departments.filter(structure__isnull=True)
    slug = uncontrolled.values_list("slug", flat=True).first()
    assert slug is not None
    assert "uncontrolled" in badge(html, slug)
    # A player still sees her level badges as today.
    mine = client_for("alice").get(reverse("board", args=[SLUG, "city"])).content.decode()
    assert "yours" in badge(mine, "mint")


def add_observer(campaign: Campaign) -> None:
    user = get_user_model().objects.create_user("olga", password="x")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.OBSERVER)


def test_the_gm_and_observers_are_sent_to_the_campaign_page_with_a_message(
    demo: Campaign, client_for: ClientFor
) -> None:
    add_observer(demo)
    url = reverse("orders", args=[SLUG])
    for username, says in [
        ("gm", "The GM does not queue orders"),
        ("olga", "Observers do not queue orders"),
    ]:
        response = client_for(username).get(url, follow=True)
        assert response.status_code == 200
        assert response.redirect_chain[-1][0] == reverse("campaign", args=[SLUG])
        assert says in response.content.decode()
    gm_page = client_for("gm").get(url, follow=True).content.decode()
    assert "roster below" in gm_page
    # Queueing is still refused outright (403), not redirected.
    new = reverse("order_new", args=[SLUG, "city", "function"])
    assert client_for("gm").get(new).status_code == 403


def test_the_gm_roster_shows_players_characters_readiness_orders_and_last_seen(
    demo: Campaign, client_for: ClientFor
) -> None:
    turn = demo.turns.get(status=Turn.Status.OPEN)
    alice = demo.memberships.get(user__username="alice")
    city = demo.boards.get(slug="city")
    payload = {"department": "mint", "function": "coinage", "stat": "effect"}
    for seq in (1, 2):
        Order.objects.create(turn=turn, board=city, player=alice, kind="function", seq=seq,
                             payload=payload)  # fmt: skip
    Order.objects.create(turn=turn, board=city, player=alice, kind="function", seq=3,
                         payload=payload, status=Order.Status.CANCELLED)  # fmt: skip
    PlayerTurn.objects.create(turn=turn, player=alice, ready_at=timezone.now())
    seen = dt.datetime(
        2026, 3, 4, 5, 6, tzinfo=dt.UTC
    )  # her last visit (tests/web/test_last_seen.py)
    Profile.objects.update_or_create(user=alice.user, defaults={"last_seen": seen})
    Profile.objects.filter(user__username="bob").delete()
    html = client_for("gm").get(reverse("campaign", args=[SLUG])).content.decode()
    roster = html.split('id="roster"')[1].split("</section>")[0]
    row = roster.split('data-player="alice"')[1].split("</li>")[0]
    assert "ready" in row.lower() and ">2<" in row
    assert 'datetime="2026-03-04T05:06:00+00:00"' in row
    bob = roster.split('data-player="bob"')[1].split("</li>")[0]
    assert "not ready" in bob.lower() and ">0<" in bob and "never" in bob
    assert "gm" not in [p.split('"')[0] for p in roster.split('data-player="')[1:]]
    # Players see no roster: what they see of the others stays as it was (R50).
    alice = client_for("alice").get(reverse("campaign", args=[SLUG])).content.decode()
    assert 'id="roster"' not in alice


def add_players(campaign: Campaign, turn: Turn, n: int) -> None:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"extra{campaign.memberships.count()}-{i}") for i in range(n)
    )
    members = Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, character_name=f"C{u.pk}") for u in users
    )
    city = campaign.boards.get(slug="city")
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=m, kind="function", seq=1, payload={}) for m in members
    )
    PlayerTurn.objects.bulk_create(PlayerTurn(turn=turn, player=m, ready_at=timezone.now())
                                   for m in members)  # fmt: skip


def gm_page_queries(client: Any) -> int:
    """The queries of the campaign page rendered (not a page cache hit: issue 28)."""
    with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("campaign", args=[SLUG]))
    assert response.status_code == 200
    return len(queries)


def test_the_roster_costs_the_same_queries_at_3_and_30_players(
    demo: Campaign, client_for: ClientFor
) -> None:
    turn = demo.turns.get(status=Turn.Status.OPEN)
    gm = client_for("gm")
    at_three = gm_page_queries(gm)
    add_players(demo, turn, 27)
    assert demo.memberships.filter(role=Membership.Role.PLAYER).count() == 30
    html = gm.get(reverse("campaign", args=[SLUG])).content.decode()
    assert html.split('id="roster"')[1].count("data-player=") == 30
    assert gm_page_queries(gm) == at_three


@pytest.mark.browser
@BROWSER_MARKS[1]
def test_the_gm_reads_the_roster_on_a_phone(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    from campaigns.services.demo import demo_create

    campaign = demo_create()
    page = log_in(browser, live_server.url, "gm", PHONE)
    page.goto(f"{live_server.url}{reverse('orders', args=[campaign.slug])}")
    expect(page.locator(".alert")).to_contain_text("The GM does not queue orders")
    expect(page.locator("#roster")).to_contain_text("alice")
    shot(page, "roster-gm-phone")
    page.goto(f"{live_server.url}{reverse('board', args=[campaign.slug, 'city'])}")
    expect(page.locator("#dept-mint .card-header")).not_to_contain_text("controlled")
    shot(page, "board-city-gm-phone")

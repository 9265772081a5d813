"""An action (cancel an order, mark ready, log out, remove a shtick...) takes a POST; a GET of
its address (a bookmark, a link from a mail, a reload) is sent on to the page the action
belongs to instead of a blank 405 (web/post_only.py), and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from campaigns.models import Order
from tests.support.crawl import GM, SLUG, World, crawl_world
from tests.support.crawl_pages import NO_GET, NO_GET_OWNED, PAGES
from tests.support.demo import member


def views_by_name() -> dict[str, object]:
    """URL name -> its view, for every named URL of the site."""
    found: dict[str, object] = {}

    def walk(patterns: list[Any]) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if entry.namespace is None:  # the admin's names are its own ("admin:logout")
                    walk(entry.url_patterns)
            elif isinstance(entry, URLPattern) and entry.name:
                found.setdefault(entry.name, entry.callback)  # the first wins, as in reverse()

    walk(get_resolver().url_patterns)
    return found


# Action name -> the page it belongs to (web/post_only.py marks its views).
ACTIONS: dict[str, str] = {
    name: page
    for name, view in views_by_name().items()
    if (page := getattr(view, "post_only_page", None)) is not None
}
WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture
def world(db: None) -> World:
    return crawl_world()


def logged_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    # The first visit stamps "last seen" (a write of its own, not the action's).
    client.get(reverse("home"))
    return client


def test_the_crawl_expects_a_redirect_from_every_action_and_only_from_actions() -> None:
    assert {"logout", "order_cancel", "turn_ready", "notices_read", "set_language"} <= set(ACTIONS)
    redirected = {name for name, page in PAGES.items() if page.get in (NO_GET, NO_GET_OWNED)}
    # Two pages that are no actions redirect every GET too: the icon and the reset link.
    assert redirected - set(ACTIONS) == {"favicon", "password_reset_confirm"}
    assert set(ACTIONS) <= redirected


@pytest.mark.parametrize("username", [GM, "alice"])
def test_a_get_of_every_action_goes_to_a_page_and_writes_nothing(
    world: World, username: str
) -> None:
    client = logged_in(username)
    wrong = []
    for name in ACTIONS:
        for url, _owner in PAGES[name].urls(world, name):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
            if response.status_code != 302 or writes:
                wrong.append(f"{url}: {response.status_code} {writes}")
                continue
            page = resolve(response["Location"]).url_name
            # The action's own page, of the same campaign.
            elsewhere = f"/c/{SLUG}/" in url and f"/c/{SLUG}/" not in response["Location"]
            if page != ACTIONS[name] or elsewhere:
                wrong.append(f"{url} -> {response['Location']} ({page})")
    assert not wrong, "\n".join(wrong)


def test_a_get_of_cancel_keeps_the_order_and_leads_to_the_orders(world: World) -> None:
    alice = member(world.campaign, "alice")
    order = Order.objects.filter(player=alice, turn=world.turn).first()
    assert order is not None
    client = logged_in("alice")
    response = client.get(reverse("order_cancel", args=[SLUG, order.pk]), follow=True)
    assert response.redirect_chain == [(reverse("orders", args=[SLUG]), 302)]
    assert response.status_code == 200
    assert Order.objects.filter(pk=order.pk).exists()


@pytest.mark.django_db
def test_a_get_of_log_out_goes_home_and_leaves_the_user_logged_in() -> None:
    user = get_user_model().objects.create_user("nadia", password="a-long-pass-phrase-9")
    client = Client()
    client.force_login(user)
    response = client.get(reverse("logout"))
    assert (response.status_code, response["Location"]) == (302, reverse("home"))
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_other_methods_are_still_refused(world: World) -> None:
    client = logged_in(GM)
    assert client.put(reverse("campaign_pause", args=[SLUG])).status_code == 405
    assert client.delete(reverse("turn_ready", args=[SLUG])).status_code == 405

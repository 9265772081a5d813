"""Who may open the press pages (RULES R50: what one may not read does not exist for them).
A member of another campaign (its GM too) and a logged-in outsider get 404 on every press
page of the campaign; a visitor is sent to log in; a player or observer not in a private
conversation gets 404 for it, its new messages and its messages; the GM's press pages are
403 for players. Nothing is stored by any refused request."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Conversation, Membership, Message
from tests.factories import MembershipFactory
from tests.support.handmade import ClientFor
from tests.support.press import talk

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def press_urls(secret: Conversation) -> dict[str, str]:
    message = secret.messages.get()
    return {
        "press": reverse("press", args=[SLUG]),
        "press_new": reverse("press_new", args=[SLUG]),
        "press_conversation": reverse("press_conversation", args=[SLUG, secret.pk]),
        "press_poll": reverse("press_poll", args=[SLUG, secret.pk]) + "?after=0",
        "press_quote": reverse("press_quote", args=[SLUG, "city", "move"]),
        "press_rules": reverse("press_rules", args=[SLUG]),
        "press_hide": reverse("press_hide", args=[SLUG, message.pk]),
        "announcement_new": reverse("announcement_new", args=[SLUG]),
    }


# The methods each page answers (any other is a 405 before anyone is asked who they are).
SHOW_ONLY = {"press", "press_poll"}
POST_ONLY = {"press_quote", "press_hide"}


def tries(client: Client, name: str, url: str) -> list[Any]:
    """A GET and a POST where the page takes them."""
    data = {"text": "Let me in", "rules": "none", "recipients": [1, 2]}
    responses = [] if name in POST_ONLY else [client.get(url)]
    return responses + ([] if name in SHOW_ONLY else [client.post(url, data)])


@pytest.fixture
def secret(demo: Campaign) -> Conversation:
    return talk(demo, "alice", ["bob"], "Just between us")


def unchanged(demo: Campaign) -> None:
    assert Message.objects.count() == 1
    assert demo.announcements.count() == 0
    demo.refresh_from_db()
    assert (demo.press_rules, demo.gm_reads_press) == ("full", False)


def test_a_member_of_another_campaign_and_an_outsider_get_404_everywhere(
    demo: Campaign, secret: Conversation, client_for: ClientFor
) -> None:
    other = Campaign.objects.create(name="Other", slug="other")
    MembershipFactory(campaign=other, user__username="zed", role=Membership.Role.GM)
    get_user_model().objects.create_user("nobody", password="x")
    urls = press_urls(secret)
    assert set(urls) == {
        "press", "press_new", "press_conversation", "press_poll", "press_quote", "press_rules",
        "press_hide", "announcement_new",
    }  # fmt: skip
    for username in ("zed", "nobody"):
        client = client_for(username)
        for name, url in urls.items():
            for response in tries(client, name, url):
                assert response.status_code == 404, (username, name, response.status_code)
    unchanged(demo)


def test_a_visitor_is_sent_to_log_in(demo: Campaign, secret: Conversation) -> None:
    client = Client()
    for name, url in press_urls(secret).items():
        for response in tries(client, name, url):
            assert response.status_code == 302, name
            assert response["Location"].startswith("/accounts/login/"), name
    for url in (reverse("press_overview"), reverse("profile")):
        assert client.get(url)["Location"].startswith("/accounts/login/")
    unchanged(demo)


@pytest.mark.parametrize("username", ["carol", "olga", "gm"])
def test_a_member_not_in_a_conversation_cannot_read_it(
    demo: Campaign, secret: Conversation, client_for: ClientFor, username: str
) -> None:
    """Carol (a player), Olga (an observer) and the GM (the campaign does not let the GM
    read press) are not in Alice and Bob's conversation."""
    MembershipFactory(campaign=demo, user__username="olga", role=Membership.Role.OBSERVER)
    client = client_for(username)
    urls = press_urls(secret)
    for name in ("press_conversation", "press_poll"):
        for response in tries(client, name, urls[name]):
            assert response.status_code == 404, (username, name)
    hide = client.post(urls["press_hide"])
    assert hide.status_code == (404 if username == "gm" else 403)
    assert "Just between us" not in client.get(urls["press"]).content.decode()
    assert "Just between us" not in client.get(reverse("press_overview")).content.decode()
    unchanged(demo)


def test_players_get_403_on_the_gms_press_pages(
    demo: Campaign, secret: Conversation, client_for: ClientFor
) -> None:
    urls = press_urls(secret)
    alice = client_for("alice")
    for name in ("press_rules", "announcement_new", "press_hide"):
        for response in tries(alice, name, urls[name]):
            assert response.status_code == 403, name
    unchanged(demo)
    assert Message.objects.get().hidden_at is None

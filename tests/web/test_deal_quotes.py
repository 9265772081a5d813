"""Quoting a deal in a message (press, RULES R62): a gift or a hand-over quoted from its
order form reaches the reader as a link to the form they would answer it with, prefilled
for them: a gift back to the sender's giving department, or their accept of the hand-over.
A field naming a department the reader does not know is left out, as for every quote; under
grey press the accept's link does not say who quoted (R62)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Message
from campaigns.press.services.press import press_rules_set
from tests.support.conversation_pages import conversation_url, start
from tests.support.demo import member
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def quote_and_send(client: Client, kind: str, fields: dict[str, str], to: str) -> None:
    url = reverse("press_quote", args=[SLUG, "city", kind])
    assert client.post(url, {**fields, "client_token": "x", "turn": "1"}).status_code == 302
    start(client, [to], "A deal?", "Deal", attach_quote="on")


def reader_link(client: Client) -> str:
    page = client.get(conversation_url(Message.objects.get().conversation_id)).content.decode()
    found = re.search(r'<a class="icon-link" href="([^"]+)">Order form: ', page)
    assert found is not None
    return html.unescape(found.group(1))


def test_a_quoted_gift_opens_the_readers_gift_form_back_to_the_senders_department(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice, bob = client_for("alice"), client_for("bob")
    quote_and_send(alice, "gift", {"giver": "mint", "receiver": "guild-hall",
                                   "tokens_money": "2"}, "bob")  # fmt: skip
    link = reader_link(bob)
    assert link.startswith(reverse("order_new", args=[SLUG, "city", "gift"]))
    form = bob.get(link).context["form"]
    assert form["receiver"].value() == "mint"  # bob knows the Mint's card (the demo)
    # Carol has only heard of the Mint: her link leaves it out.
    message = Message.objects.get()
    carol_view = reverse("order_new", args=[SLUG, "city", "gift"])
    assert message.quote["fields"]["giver"] == ["mint"]
    from campaigns.press.selectors.press_quotes import quote_view, quotes_for

    carols = quote_view(message.quote, quotes_for(member(demo, "carol")))
    assert carols is not None and carols.url == f"{carol_view}?"


def test_a_quoted_hand_over_opens_the_receivers_accept_form_with_the_offer_chosen(
    demo: Campaign, client_for: ClientFor
) -> None:
    from tests.support.order_posts import post

    alice, bob = client_for("alice"), client_for("bob")
    bob_id, alice_id = member(demo, "bob").player_id, member(demo, "alice").player_id
    post(alice, "handover", {"department": "city-watch", "receiver": bob_id})
    quote_and_send(alice, "handover", {"department": "city-watch", "receiver": bob_id}, "bob")
    link = reader_link(bob)
    assert link.startswith(reverse("order_new", args=[SLUG, "city", "accept"]))
    form = bob.get(link).context["form"]
    watch = demo.boards.get(slug="city").departments.get(slug="city-watch")
    assert form["offer"].value() == f"{watch.pk}|{alice_id}"
    assert "city-watch" not in link  # rumoured to bob: its id, never its slug (R50)


def test_under_grey_press_the_accept_link_does_not_say_who_quoted(
    demo: Campaign, client_for: ClientFor
) -> None:
    press_rules_set(campaign=demo, actor=member(demo, "gm").user, rules="grey", gm_reads=False)
    alice, bob = client_for("alice"), client_for("bob")
    bob_id, alice_id = member(demo, "bob").player_id, member(demo, "alice").player_id
    quote_and_send(alice, "handover", {"department": "city-watch", "receiver": bob_id}, "bob")
    link = reader_link(bob)
    assert link.startswith(reverse("order_new", args=[SLUG, "city", "accept"]))
    assert alice_id not in link

"""R46 on the site: the attack notice promises a reinforcement only when the defender has one,
else says why in words, and the reinforcement form offers every route the engine accepts, or
says the same reason (never an empty list whose post answers "This field is required").
Demo campaign (services/demo.py): bob defends."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Notice, Order
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.reinforcement import reinforcement
from campaigns.templatetags.rules import rule_links
from tests.support.demo import ATTACK, member, open_turn, submit
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
K = Order.Kind
SLUG = "tourmaline"
PROMISE = "You may queue one free reinforcement move that ends at it."
NONE_NOW = "No reinforcement is possible now."
NO_LINK = "No link from your departments reaches the target (R42, R46)."
NOTHING_UNMOVED = (
    "None of your departments whose links reach the target holds tokens that have not moved "
    "this turn (R42, R46)."
)


def bobs_notice(demo: Campaign) -> str:
    return Notice.objects.get(player=member(demo, "bob")).text


def form_url(attempt: Order) -> str:
    return reverse("order_reinforce", args=[SLUG, attempt.pk])


def page_text(response: Any) -> str:
    assert response.status_code == 200
    return response.content.decode()


def assert_form_says_why(client: Any, attempt: Order, reason: str) -> None:
    """The orders page offers no *Reinforce* button for the attack and says why; the form
    page (reached from the notice) says why too; a post gets the same words and stores
    nothing."""
    reason = rule_links(reason)  # the page links the rule ids to How to play
    orders = page_text(client.get(reverse("orders", args=[SLUG])))
    attack = orders.split(f'data-attack="{attempt.pk}"', 1)[1].split("</li>", 1)[0]
    assert f"{NONE_NOW} {reason}" in attack and form_url(attempt) not in attack
    shown = page_text(client.get(form_url(attempt)))
    assert NONE_NOW in shown and reason in shown and 'id="id_route"' not in shown
    posted = page_text(client.post(form_url(attempt), {"client_token": "", "tokens_people": 1}))
    assert reason in posted and "This field is required" not in posted
    assert not Order.objects.filter(kind=K.REINFORCE).exists()


def test_a_defender_with_a_route_is_promised_one_and_offered_the_routes(
    demo: Campaign, client_for: ClientFor
) -> None:
    attempt = submit(demo, "alice", K.ATTEMPT, ATTACK)  # on bob's Guild Hall
    assert PROMISE in bobs_notice(demo) and NONE_NOW not in bobs_notice(demo)
    ctx = OrderContext.build(member(demo, "bob"), open_turn(demo), attempt.board)
    offer = reinforcement(ctx, "guild-hall")
    assert offer.why_not is None
    assert [(m.start, m.path) for m in offer.routes] == [("dock-workers", ("guild-hall",))]
    form = page_text(client_for("bob").get(form_url(attempt)))
    assert 'value="dock-workers,guild-hall"' in form and NONE_NOW not in form
    orders = page_text(client_for("bob").get(reverse("orders", args=[SLUG])))
    assert f'href="{form_url(attempt)}"' in orders and NONE_NOW not in orders


def test_no_link_reaches_the_target_so_no_promise_and_the_form_says_why(
    demo: Campaign, client_for: ClientFor
) -> None:
    # The harbour: nothing links to bob's Shipwright.
    harbour = demo.boards.get(slug="harbour")
    attack = {"attacker": "spice-house", "target": "shipwright"}
    attempt = submit(demo, "alice", K.ATTEMPT, attack, board=harbour)
    notice = bobs_notice(demo)
    assert PROMISE not in notice and f"{NONE_NOW} {NO_LINK}" in notice
    assert_form_says_why(client_for("bob"), attempt, NO_LINK)


def test_nothing_unmoved_to_send_so_no_promise_and_the_form_says_why(
    demo: Campaign, client_for: ClientFor
) -> None:
    # The Dock Workers, the only department whose link reaches the Guild Hall, send all
    # three of their People on first (one dropped at the Guild Hall, two at the Press).
    move = {"from": "dock-workers", "path": ["guild-hall", "printing-press"]}
    submit(demo, "bob", K.MOVE, {**move, "tokens": {"people": 3}})
    attempt = submit(demo, "alice", K.ATTEMPT, ATTACK)
    notice = bobs_notice(demo)
    assert PROMISE not in notice and f"{NONE_NOW} {NOTHING_UNMOVED}" in notice
    assert_form_says_why(client_for("bob"), attempt, NOTHING_UNMOVED)

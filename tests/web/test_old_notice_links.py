"""A notice's link outlives its target: the attack notice's *Open* (R46: reinforce) read in
an old turn report or an old mail leads to that turn's report, where the notice stands; a
withdrawn attack leads to the orders page saying so. Never a 404 for a link the player was
sent. Demo campaign (services/demo.py): alice attacks bob's Guild Hall."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Notice, Order
from campaigns.services.orders import order_cancel
from campaigns.services.turns import turn_process
from tests.support.demo import ATTACK, member, submit
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def bobs_link(demo: Campaign) -> str:
    (notice,) = Notice.objects.filter(player=member(demo, "bob"))
    assert notice.url
    return notice.url


def test_the_link_of_a_past_turn_leads_to_that_turns_report(
    demo: Campaign, client_for: ClientFor
) -> None:
    submit(demo, "alice", Order.Kind.ATTEMPT, ATTACK)
    link = bobs_link(demo)
    turn_process(campaign_id=demo.pk, number=1)
    bob = client_for("bob")
    response = bob.get(link)
    report = reverse("turn_report", args=[SLUG, 1])
    assert (response.status_code, response["Location"]) == (302, f"{report}#turn-notices")
    page = bob.get(report).content.decode()
    assert 'id="turn-notices"' in page and f'href="{link}"' in page


def test_the_link_of_a_withdrawn_attack_says_so_on_the_orders_page(
    demo: Campaign, client_for: ClientFor
) -> None:
    attempt = submit(demo, "alice", Order.Kind.ATTEMPT, ATTACK)
    link = bobs_link(demo)
    order_cancel(player=member(demo, "alice"), order=attempt)
    response = client_for("bob").get(link, follow=True)
    assert response.redirect_chain == [(reverse("orders", args=[SLUG]), 302)]
    assert "That attack is no longer queued against you" in response.content.decode()


def test_a_link_the_player_was_never_sent_is_still_a_404(
    demo: Campaign, client_for: ClientFor
) -> None:
    attempt = submit(demo, "alice", Order.Kind.ATTEMPT, ATTACK)
    turn_process(campaign_id=demo.pk, number=1)
    # Carol was told nothing of it: the attempt does not exist for her.
    url = reverse("order_reinforce", args=[SLUG, attempt.pk])
    assert client_for("carol").get(url).status_code == 404
    assert (
        client_for("carol").get(reverse("order_reinforce", args=[SLUG, 999999])).status_code == 404
    )

"""Issue 24, item 6: 25 identical hand-over posts by one player queued 25 orders and sent the
receiver 25 notices and 25 mails. One pending hand-over per department and receiver (R62,
intrigue/selectors/handover_offers.py); the receiver's notices about one hand-over merge into one
(intrigue/services/deal_notices.py). On the demo (alice, bob, carol), through the real views."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Notice, Order
from campaigns.selectors.order_checks import OrderRefused
from campaigns.services.orders import order_edit, orders_submit
from tests.support.demo import member, open_turn
from tests.support.handmade import ClientFor
from tests.support.order_posts import new_url

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
ALREADY = "You already offer The City Watch to Bob Brackwater, Guildmaster this turn"


def post(client: Client, data: dict[str, Any]) -> Any:
    """The hand-over form as a browser posts it: a fresh form (and one-time token) each time."""
    form = client.get(new_url("handover")).context["form"]
    body = {"client_token": form.fields["client_token"].initial, **data}
    return client.post(new_url("handover"), body)


def departments(client: Client) -> set[str]:
    form = client.get(new_url("handover")).context["form"]
    return {str(value) for value, _ in form.fields["department"].choices}


def test_25_identical_hand_over_posts_queue_one_order_one_notice_one_mail(
    demo: Campaign, client_for: ClientFor, django_capture_on_commit_callbacks: Any
) -> None:
    alice, bob = client_for("alice"), member(demo, "bob")
    data = {"department": "city-watch", "receiver": bob.player_id}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        responses = [post(alice, data) for _ in range(25)]
    assert responses[0].status_code == 302
    for response in responses[1:]:
        assert response.status_code == 200  # the form again, with the reason
        assert ALREADY in response.content.decode()
    assert Order.objects.filter(kind="handover", status="queued").count() == 1
    assert Notice.objects.filter(player=bob).count() == 1
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_queuing_again_after_a_withdrawal_merges_into_the_one_notice_and_mails_once_unread(
    demo: Campaign, client_for: ClientFor, django_capture_on_commit_callbacks: Any
) -> None:
    alice, carol = client_for("alice"), member(demo, "carol")
    data = {"department": "city-watch", "receiver": carol.player_id}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):  # queue, withdraw; carol has not looked at her notices
            assert post(alice, data).status_code == 302
            order = Order.objects.get(kind="handover", status="queued")
            alice.post(reverse("order_cancel", args=[SLUG, order.pk]))
        assert post(alice, data).status_code == 302
    notice = Notice.objects.get(player=carol)
    assert "offers to hand The City Watch" in notice.text and notice.read_at is None
    assert len(mail.outbox) == 1
    # Once she has read it, the next change is news again: one mail, the notice unread.
    client_for("carol").post(reverse("notices_read", args=[SLUG]))
    assert Notice.objects.get(player=carol).read_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        order = Order.objects.get(kind="handover", status="queued")
        alice.post(reverse("order_cancel", args=[SLUG, order.pk]))
    notice = Notice.objects.get(player=carol)
    assert "no longer offers you The City Watch" in notice.text and notice.read_at is None
    assert len(mail.outbox) == 2


def test_a_department_offered_to_every_other_player_leaves_the_select_and_is_refused_in_words(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    bob, carol = member(demo, "bob"), member(demo, "carol")
    assert post(alice, {"department": "city-watch", "receiver": bob.player_id}).status_code == 302
    assert "city-watch" in departments(alice)  # carol may still be offered it (R62)
    assert post(alice, {"department": "city-watch", "receiver": carol.player_id}).status_code == 302
    assert "city-watch" not in departments(alice)
    # Posted anyway (an old page): the reason, not "Select a valid choice".
    again = post(alice, {"department": "city-watch", "receiver": bob.player_id})
    assert ALREADY in again.content.decode()
    assert "Select a valid choice" not in again.content.decode()
    assert Order.objects.filter(kind="handover").count() == 2


def test_the_orders_page_says_why_when_every_department_is_offered_to_everyone(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    page = alice.get(reverse("orders", args=[SLUG])).content.decode()
    assert new_url("handover") in page
    for department in departments(alice):
        for receiver in ("bob", "carol"):
            data = {"department": department, "receiver": member(demo, receiver).player_id}
            assert post(alice, data).status_code == 302
    page = alice.get(reverse("orders", args=[SLUG])).content.decode()
    assert new_url("handover") not in page
    assert "You already offer each of your departments to every other player" in page


def test_the_service_refuses_a_second_hand_over_of_a_department_to_the_same_player(
    demo: Campaign,
) -> None:
    """Under the turn lock, whatever posts it (two tabs, a script): the form is not the guard."""
    alice, bob, carol = (member(demo, name) for name in ("alice", "bob", "carol"))
    turn, board = open_turn(demo), demo.boards.get(slug="city")

    def queue(payload: dict[str, Any]) -> Order:
        return orders_submit(player=alice, turn=turn, board=board, kind="handover", payload=payload)

    first = queue({"department": "city-watch", "to": bob.player_id})
    with pytest.raises(OrderRefused, match=ALREADY):
        queue({"department": "city-watch", "to": bob.player_id})
    other = queue({"department": "city-watch", "to": carol.player_id})  # allowed (ENGINE.md)
    with pytest.raises(OrderRefused, match=ALREADY):
        order_edit(player=alice, order=other, payload={"department": "city-watch",
                                                       "to": bob.player_id})  # fmt: skip
    order_edit(player=alice, order=first, payload=dict(first.payload))  # itself: no conflict
    assert Order.objects.filter(kind="handover", status="queued").count() == 2

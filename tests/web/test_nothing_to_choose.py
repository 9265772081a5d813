"""An order form whose kind has no legal choice now says why in words, offers nothing to
queue, and answers a post with the same words, storing nothing: opened from a bookmark or an
older page after the GM emptied the stashes, or when editing a queued gift whose tokens are
gone. Never empty lists whose post says "This field is required". Demo campaign: alice."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Department, Order
from tests.support.demo import submit
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
CANNOT = "You cannot give this order on this board now."
NO_TOKENS = "None of your departments holds tokens that have not moved this turn"
GIFT = {"from": "mint", "to": "guild-hall", "tokens": {"money": 1}}


def text(response: object) -> str:
    content = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", content)))


def empty_alices_stashes(demo: Campaign) -> None:
    """The GM's editor sets every stash of alice's to nothing (R36 allows it mid-week)."""
    Department.objects.filter(board__campaign=demo, structure__player__user__username="alice")\
        .update(money=0, people=0, authority=0)  # fmt: skip


@pytest.mark.parametrize("kind", [Order.Kind.GIFT, Order.Kind.MOVE])
def test_a_new_order_with_nothing_to_give_says_why_and_stores_nothing(
    demo: Campaign, client_for: ClientFor, kind: str
) -> None:
    empty_alices_stashes(demo)
    alice = client_for("alice")
    url = reverse("order_new", args=[SLUG, "city", kind])
    page = alice.get(url)
    assert page.status_code == 200
    shown = text(page)
    assert f"{CANNOT} {NO_TOKENS}" in shown
    assert 'id="order-form"' not in page.content.decode() and "Queue order" not in shown
    posted = text(alice.post(url, {"from": "mint", "to": "guild-hall", "tokens_money": "1"}))
    assert NO_TOKENS in posted and "This field is required" not in posted
    assert not Order.objects.filter(kind=kind).exists()


def test_editing_a_gift_whose_tokens_are_gone_says_why_and_changes_nothing(
    demo: Campaign, client_for: ClientFor
) -> None:
    gift = submit(demo, "alice", Order.Kind.GIFT, GIFT)
    empty_alices_stashes(demo)
    alice = client_for("alice")
    url = reverse("order_edit", args=[SLUG, gift.pk])
    assert f"{CANNOT} {NO_TOKENS}" in text(alice.get(url))
    posted = text(alice.post(url, {"from": "mint", "to": "guild-hall", "tokens_money": "1"}))
    assert NO_TOKENS in posted and "This field is required" not in posted
    gift.refresh_from_db()
    assert gift.payload == GIFT


def test_with_tokens_the_gift_form_is_the_form(demo: Campaign, client_for: ClientFor) -> None:
    page = client_for("alice").get(reverse("order_new", args=[SLUG, "city", Order.Kind.GIFT]))
    assert 'id="order-form"' in page.content.decode() and CANNOT not in text(page)

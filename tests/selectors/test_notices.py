"""A notice belongs to its turn (R46): it leaves the current list when the turn is processed
and stays readable in that turn's report."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Order
from campaigns.selectors.orders import notices_unread
from campaigns.services.orders import orders_submit
from campaigns.services.turns import turn_process
from campaigns.templatetags.rules import rule_links

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def test_an_attack_notice_leaves_the_list_with_its_turn_and_stays_in_the_report(
    demo: Campaign, client_for
) -> None:
    alice = demo.memberships.get(user__username="alice")
    bob = demo.memberships.get(user__username="bob")
    turn = demo.turns.get(number=1)
    orders_submit(
        player=alice, turn=turn, board=demo.boards.get(slug="city"), kind=Order.Kind.ATTEMPT,
        payload={"attacker": "city-watch", "target": "guild-hall"},
    )  # fmt: skip
    [notice] = notices_unread(bob)
    assert "The Guild Hall is the target" in notice.text
    assert "The Guild Hall is the target" in client_for("bob").get(f"/c/{SLUG}/").content.decode()

    turn_process(campaign_id=demo.pk, number=1)

    # (Turn 2 opens with the demo's election: bob is told of it, R80, a notice of turn 2.)
    assert [n for n in notices_unread(bob) if n.turn.number == 1] == []
    assert "is the target" not in client_for("bob").get(f"/c/{SLUG}/").content.decode()
    report = client_for("bob").get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    # The page links the notice's rule id to the rules page.
    assert 'id="turn-notices"' in report and rule_links(notice.text) in report
    other = client_for("carol").get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    assert 'id="turn-notices"' not in other

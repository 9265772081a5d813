"""A link across two boards (a cross_board shtick, RULES R60: the `crossed` fixture) breaks
no page: each board's pages, history, maps and the turn report answer as before and show
neither the stub of the other board's department nor its "<board>/<slug>" name (how to show
such a link is the pages' business, issue 12)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from tests.support.demo import member
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def pages(campaign: Campaign) -> list[str]:
    alice = member(campaign, "alice").pk
    found = [reverse("turn_report", args=[SLUG, 1]), reverse("history_export", args=[SLUG]),
             reverse("orders", args=[SLUG])]  # fmt: skip
    for board, dept in (("city", "city-watch"), ("harbour", "spice-house")):
        found += [
            reverse("board", args=[SLUG, board]),
            reverse("board", args=[SLUG, board]) + "?turn=1",
            reverse("board_history", args=[SLUG, board]),
            reverse("board_map_layout", args=[SLUG, board]),
            reverse("compare_turns", args=[SLUG, board]) + "?a=0&b=1",
            reverse("department_history", args=[SLUG, board, dept]),
            reverse("structure_history", args=[SLUG, board, alice]),
        ]
    return found


@pytest.mark.parametrize("user", ["alice", "bob", "gm"])
def test_every_board_page_answers_with_a_link_across_boards(
    crossed: Campaign,
    client_for: ClientFor,
    user: str,  # noqa: F811
) -> None:
    client = client_for(user)
    # A player who does not know a department or a structure gets the page's 404 (R50).
    allowed = (200, 302) if user == "gm" else (200, 302, 404)
    for url in pages(crossed):
        response = client.get(url)
        assert response.status_code in allowed, url
        assert b"harbour/spice-house" not in response.content, url

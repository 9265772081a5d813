"""The board page's query count does not grow with the board (no query per department)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Board, Membership
from campaigns.selectors.pages import board_view
from tests.support.big_boards import board_of
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db


def page_queries(client_for: ClientFor, username: str, board: Board) -> int:
    client = client_for(username)
    url = reverse("board", args=[board.campaign.slug, board.slug])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("who", ["alice", "gm"])
def test_board_page_queries_are_the_same_for_10_and_200_departments(
    client_for: ClientFor, who: str
) -> None:
    small, large = board_of(10), board_of(200)
    counts = (
        page_queries(client_for, f"{who}10", small),
        page_queries(client_for, f"{who}200", large),
    )
    print(f"board page queries for {who}: 10 departments {counts[0]}, 200 {counts[1]}")
    assert counts[0] == counts[1]


def test_board_view_is_two_queries_for_a_player_and_for_the_gm(
    django_assert_num_queries: Any,
) -> None:
    board = board_of(200)
    # As the pages load a viewer: with the campaign, whose `opened` flag (R51) counts.
    members = Membership.objects.select_related("campaign")
    alice = members.get(user__username="alice200")
    gm = members.get(user__username="gm200")
    # Departments with her Knowledge rows, and links (selectors/board_live_rows.py).
    with django_assert_num_queries(2):
        view = board_view(board, alice)
    # Hers, what she knows or has heard of (level i % 3 of 1 or 2), and the far ends of her
    # departments' links, d(i-1) -> d(i) -> d(i+1), named (R50).
    shown = {i for i in range(200) if i % 4 == 0 or i % 3 > 0}
    far_ends = {j for i in range(0, 200, 4) for j in (i - 1, i + 1) if 0 <= j < 200}
    assert len(view.departments) == len(shown | far_ends)
    assert far_ends - shown, "the chain gives her far ends she has not heard of otherwise"
    with django_assert_num_queries(2):
        assert len(board_view(board, gm).departments) == 200

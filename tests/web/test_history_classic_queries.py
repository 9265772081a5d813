"""A classic board's history pages (RULES R51, R90) run a fixed number of queries whatever
the number of turns or groups: the overview, the comparison and the CSV read the records in
one query, never one per turn or group."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Board, Campaign
from tests.support.classic_files import classic_board_in
from tests.support.classic_history import classic_records_written, turns_processed
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

TURNS, GROUPS = 30, 60


def pages(board: Board, last: int) -> dict[str, str]:
    slug = board.campaign.slug
    compare = reverse("compare_turns", args=[slug, board.slug])
    return {
        "overview": reverse("board_history", args=[slug, board.slug]),
        "compare the last two": compare,
        "compare the first and last": f"{compare}?first=0&second={last}",
        "CSV": f"{reverse('history_export', args=[slug])}?board={board.slug}",
    }


def counts(client_for: ClientFor, board: Board, last: int) -> dict[tuple[str, str], int]:
    found = {}
    for user in ("alice", "gm"):
        client = client_for(user)
        for name, url in pages(board, last).items():
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            found[(user, name)] = len(queries)
    return found


def test_classic_history_pages_cost_the_same_for_2_turns_of_4_groups_and_30_of_60(
    demo: Campaign, client_for: ClientFor
) -> None:
    turns_processed(demo, TURNS)
    small, large = classic_board_in(demo, "small"), classic_board_in(demo, "large")
    classic_records_written(small, 2, 4)
    classic_records_written(large, TURNS, GROUPS)
    assert large.records.count() == TURNS and small.records.count() == 2
    few, many = counts(client_for, small, 1), counts(client_for, large, TURNS - 1)
    print(few, many)
    assert len(few) == 8
    assert many == few

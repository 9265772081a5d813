"""Every page of the GM's editor, and a save, costs the same number of queries for a board of
10 departments as for one of 200 (no query per department)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Board, Department, Membership
from tests.support.big_boards import board_of
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db


def alice(board: Board) -> Membership:
    return board.campaign.memberships.get(user__username__startswith="alice")


# name -> the URL's arguments after the campaign slug
PAGES: dict[str, Callable[[Board], list[Any]]] = {
    "board_new": lambda b: [],
    "board_edit": lambda b: [b.slug],
    "board_delete": lambda b: [b.slug],
    "department_new": lambda b: [b.slug],
    "department_edit": lambda b: [b.slug, "d1"],
    "department_delete": lambda b: [b.slug, "d1"],
    "board_structures": lambda b: [b.slug],
    "board_knowledge": lambda b: [b.slug],
    "member_edit": lambda b: [alice(b).pk],
    "member_remove": lambda b: [alice(b).pk],
}


def queries(client_for: ClientFor, board: Board, name: str, size: int) -> int:
    url = reverse(name, args=[board.campaign.slug, *PAGES[name](board)])
    client = client_for(f"gm{size}")
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_costs_the_same_queries_for_10_and_200_departments(
    client_for: ClientFor, name: str
) -> None:
    small, large = board_of(10), board_of(200)
    counts = queries(client_for, small, name, 10), queries(client_for, large, name, 200)
    print(f"{name}: 10 departments {counts[0]} queries, 200 departments {counts[1]}")
    assert counts[0] == counts[1]


def save_queries(client_for: ClientFor, board: Board, size: int) -> int:
    """The GM renames department d1 (the engine reviews the whole board)."""
    dept = Department.objects.get(board=board, slug="d1")
    post = {
        "name": "Renamed", "description": "", "effect": "1", "obstruct": "1", "impress": "1",
        "consumes_type": "money", "consumes_amount": "1", "produces_type": "money",
        "produces_amount": "2", "alignments": ["Straight"], "flaws": "", "money": "0",
        "people": "0", "authority": "0", "controller": str(dept.structure.player_id),
        "functions-TOTAL_FORMS": "1", "functions-INITIAL_FORMS": "0",
        "functions-0-name": "paperwork", "functions-0-skill": "1",
    }  # fmt: skip
    url = reverse("department_edit", args=[board.campaign.slug, board.slug, "d1"])
    client = client_for(f"gm{size}")
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, post)
    assert response.status_code == 302
    assert Department.objects.get(pk=dept.pk).name == "Renamed"
    return len(captured)


def test_a_department_save_costs_the_same_queries_at_any_size(client_for: ClientFor) -> None:
    small, large = board_of(10), board_of(200)
    counts = save_queries(client_for, small, 10), save_queries(client_for, large, 200)
    print(f"department save: 10 departments {counts[0]} queries, 200 departments {counts[1]}")
    assert counts[0] == counts[1]


def test_revealing_a_board_costs_the_same_queries_at_any_size(client_for: ClientFor) -> None:
    counts = []
    for size in (10, 200):
        board = board_of(size)
        url = reverse("board_knowledge_bulk", args=[board.campaign.slug, board.slug])
        data = {"member": "", "department": "", "level": "1", "how": "raise"}
        with CaptureQueriesContext(connection) as captured:
            assert client_for(f"gm{size}").post(url, data).status_code == 302
        counts.append(len(captured))
    assert counts[0] == counts[1], counts

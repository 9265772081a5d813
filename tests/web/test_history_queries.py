"""The history pages and the board map at any turn run a fixed number of queries, whatever
the number of turns or departments (issue 11): history is read from the turn records, never
recomputed, and never one query per turn, department or order."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.management.commands.bench_history import history_pages, played_campaign
from campaigns.models import Campaign, Department, Membership, Order, Turn, TurnRecord

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def query_counts(campaign: Campaign, turns: int) -> dict[tuple[str, str], int]:
    """(role, page) -> the queries of one GET of each history page."""
    counts = {}
    for role in (Membership.Role.PLAYER, Membership.Role.GM):
        # A player who still holds a department after the played turns (the dice may leave
        # one with none, and then no department history of theirs to open).
        members = campaign.memberships.filter(role=role).select_related("user").order_by("pk")
        viewer = next(
            m
            for m in members
            if role == Membership.Role.GM or Department.objects.filter(structure__player=m).exists()
        )
        client = Client()
        client.force_login(viewer.user)
        pages = history_pages(campaign, viewer, turns)
        for name, url in pages.items():
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            counts[(role, name)] = len(queries)
    return counts


def test_history_pages_cost_the_same_queries_for_3_turns_of_8_and_9_turns_of_40() -> None:
    small = query_counts(played_campaign(slug="q-small", departments=8, turns=3), 3)
    large = query_counts(played_campaign(slug="q-large", departments=40, turns=9), 9)
    print({page: (small.get(page), count) for page, count in large.items()})
    assert len(large) >= 15  # every page of issue 11, for a player and for the GM
    shared = set(small) & set(large)
    assert {"board after the middle turn", "map layout", "structure history"} <= {
        name for _, name in shared
    }
    assert {page: small[page] for page in shared} == {page: large[page] for page in shared}


# The pages issue 11 names: each must cost the same queries on a long and on a wide campaign.
NAMED = {
    "structure history", "department history", "compare first and last",
    "board after the middle turn", "CSV export",
}  # fmt: skip


def lengthened(campaign: Campaign, turns: int) -> None:
    """Turns 4 to `turns` as copies of the last processed one (its turn row, its records and
    its orders), written in bulk through the ORM rather than by running the turn job; the
    open turn becomes `turns` + 1."""
    last = campaign.turns.filter(status=Turn.Status.PROCESSED).order_by("-number")[0]
    Turn.objects.filter(campaign=campaign, status=Turn.Status.OPEN).update(number=turns + 1)
    week = dt.timedelta(days=7)
    copies = Turn.objects.bulk_create(
        Turn(campaign=campaign, number=n, status=Turn.Status.PROCESSED, seed=last.seed,
             commitment=last.commitment, opened_at=last.opened_at + (n - last.number) * week,
             deadline=last.deadline + (n - last.number) * week,
             processed_at=last.deadline + (n - last.number) * week)
        for n in range(last.number + 1, turns + 1)
    )  # fmt: skip
    records = list(TurnRecord.objects.filter(turn=last))
    orders = list(Order.objects.filter(turn=last))
    TurnRecord.objects.bulk_create(
        TurnRecord(turn=turn, board_id=r.board_id, state=r.state, report=r.report,
                   before=r.before, knowledge=r.knowledge, knowledge_before=r.knowledge_before)
        for turn in copies
        for r in records
    )  # fmt: skip
    Order.objects.bulk_create(
        Order(turn=turn, board_id=o.board_id, player_id=o.player_id, kind=o.kind,
              payload=o.payload, seq=o.seq, status=o.status, result=o.result)
        for turn in copies
        for o in orders
    )  # fmt: skip
    assert campaign.turns.filter(status=Turn.Status.PROCESSED).count() == turns + 1  # and 0


def test_history_pages_cost_the_same_queries_for_100_turns_and_for_320_departments() -> None:
    """Structure and department history, compare, the map after a turn and the CSV, for a
    player and for the GM: 8 departments and 3 turns against 8 departments and 100 turns
    (copied records), and against 320 departments and 3 turns (played)."""
    small = query_counts(played_campaign(slug="q-small", departments=8, turns=3), 3)
    long = played_campaign(slug="q-long", departments=8, turns=3)
    lengthened(long, 100)
    longer = query_counts(long, 100)
    wide = query_counts(played_campaign(slug="q-wide", departments=320, turns=3), 3)
    named = {page for page in small if page[1] in NAMED}
    assert {name for _, name in named} == NAMED
    assert len(named) == 9  # the structure history is a player's only
    for other in (longer, wide):
        assert {page: other[page] for page in named} == {page: small[page] for page in named}

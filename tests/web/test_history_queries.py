"""The history pages and the board map at any turn run a fixed number of queries, whatever
the number of turns or departments (issue 11): history is read from the turn records, never
recomputed, and never one query per turn, department or order."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.management.commands.bench_history import history_pages, played_campaign
from campaigns.models import Campaign, Membership

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def query_counts(campaign: Campaign, turns: int) -> dict[tuple[str, str], int]:
    """(role, page) -> the queries of one GET of each history page."""
    counts = {}
    for role in (Membership.Role.PLAYER, Membership.Role.GM):
        viewer = campaign.memberships.filter(role=role).select_related("user").first()
        assert viewer is not None
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

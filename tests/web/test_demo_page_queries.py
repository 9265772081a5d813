"""The demo's pages, as `manage.py bench_demo_pages` measures them (alice, turn 1 processed),
make exactly the queries issue 28 brought them down to, each at most 12: a page that asks
one more fails here, and one that asks fewer says so, so the figure is lowered with it.
(That the counts do not grow with the campaign is test_every_page_queries.py's.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.management.commands.bench_demo_pages import MAX_QUERIES
from campaigns.services.demo import demo_create
from campaigns.services.turns import turn_process

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
# page -> (URL name, arguments, its queries: session, user, membership, the page's own
# reads, and the navbar's unread counts)
PAGES: dict[str, tuple[str, list[object], int]] = {
    "campaign": ("campaign", [SLUG], 12),
    "board": ("board", [SLUG, "city"], 10),
    "orders": ("orders", [SLUG], 12),
    "report": ("turn_report", [SLUG, 1], 12),
}


@pytest.mark.parametrize("page", PAGES)
def test_each_demo_page_makes_its_counted_queries(client_for, page: str) -> None:
    campaign = demo_create()
    turn_process(campaign_id=campaign.pk, number=1)
    url_name, arguments, expected = PAGES[page]
    alice = client_for("alice")
    url = reverse(url_name, args=arguments)
    # The page rendered (issue 28's page cache off: a hit costs its own few queries,
    # tests/web/test_page_cache.py).
    with override_settings(PAGE_CACHE=False):
        alice.get(url)  # the first request of a session may warm caches; count the second
        with CaptureQueriesContext(connection) as queries:
            response = alice.get(url)
    assert response.status_code == 200
    assert expected <= MAX_QUERIES
    sql = "\n".join(q["sql"][:160] for q in queries.captured_queries)
    assert len(queries) == expected, f"{page}: {len(queries)} queries, not {expected}:\n{sql}"

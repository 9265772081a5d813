"""`manage.py bench_demo_pages`: what each demo page costs in one process, uncached.

Renders the log-in page (anonymous) and the demo's campaign, board, orders and turn-1 report
pages (as alice, turn 1 processed) through the Django test client, --requests times each,
and prints the median and 95th percentile in milliseconds, the page's size and its SQL
queries, beside the targets: at most 12 queries per page, and medians at or under
the figures measured before parts 7-9 (campaign 12 ms, board 11, orders 22, report 18, log-in
4) on this 2-core machine. No server and no load generator: this is the CPU and the queries
of one request; `bench_pages` measures a running server under load.

    DATABASE_URL=sqlite:////tmp/bench.sqlite3 manage.py migrate
    DATABASE_URL=sqlite:////tmp/bench.sqlite3 manage.py bench_demo_pages
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test import Client, override_settings
from django.urls import reverse

from campaigns.management.benching import (
    campaign_remove,
    page_figures,
    plain_static,
    vacuum_note,
)
from campaigns.management.commands.bench_pages import PLAYER, SLUG, demo_after_one_turn
from campaigns.services.demo import demo_exists

MAX_QUERIES = 12
# page -> (URL name, arguments, viewer, target median in ms)
PAGES: dict[str, tuple[str, list[Any], str | None, float]] = {
    "login": ("login", [], None, 4),
    "campaign": ("campaign", [SLUG], PLAYER, 12),
    "board": ("board", [SLUG, "city"], PLAYER, 11),
    "orders": ("orders", [SLUG], PLAYER, 22),
    "report": ("turn_report", [SLUG, 1], PLAYER, 18),
}


class Command(BaseCommand):
    help = "Median ms and SQL queries of the demo's pages in one process, against targets."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--requests", type=int, default=50, help="GETs per page")

    def handle(self, *args: Any, **options: Any) -> None:
        users = set(get_user_model().objects.values_list("pk", flat=True))
        made_demo = not demo_exists()
        campaign = demo_after_one_turn()
        self.stdout.write(f"Demo pages, {options['requests']} requests each ({vacuum_note()}):")
        try:
            # Uncached: each GET renders the page (the page cache would answer all but
            # the first; bench_pages measures it under load).
            with plain_static(), override_settings(PAGE_CACHE=False):
                for name, (url_name, arguments, viewer, target_ms) in PAGES.items():
                    client = Client(HTTP_HOST="localhost")
                    if viewer:
                        client.force_login(get_user_model().objects.get(username=viewer))
                    url = reverse(url_name, args=arguments)
                    figures = page_figures(client, url, options["requests"])
                    client.logout()  # its session row goes: nothing left behind
                    few = "" if figures.queries <= MAX_QUERIES else f"  (> {MAX_QUERIES} queries)"
                    self.stdout.write(figures.line(name, target_ms) + few)
        finally:
            if made_demo:
                campaign_remove(campaign)
                get_user_model().objects.exclude(pk__in=users).delete()

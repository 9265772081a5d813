"""`manage.py bench_big_pages`: the board page and the turn report on big boards,
through the whole request (middleware, view, template), in the database.

Builds a throw-away campaign of --boards random boards of --departments departments
(bench_turns.bench_campaign, default 5 x 1,000 with 2,000 queued orders), a GM, and a player
(alice) who controls a fifth of each board and knows a third of the rest; processes turn 1.
Then it GETs each page --requests times through the Django test client and prints the
median, the 95th percentile, the size and the SQL queries: the GM's and the player's board
page (first page, and a search), and the turn report a page at a time. Targets: the board
page <= 120 ms and <= 300 KB, each page of the report <= 250 ms. Run it with DEBUG off (the
default) on PostgreSQL. The campaign is deleted afterwards unless --keep.
"""

from __future__ import annotations

import os
import random
import time
import warnings
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from campaigns.management.benching import (
    campaign_remove,
    page_figures,
    plain_static,
    vacuum,
    vacuum_note,
)
from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import Campaign, Department, Knowledge, Membership
from campaigns.services.turns import turn_process

BOARD_MS, BOARD_KB, REPORT_MS = 120, 300, 250


def big_campaign(*, slug: str, boards: int, departments: int, orders: int) -> Campaign:
    """bench_campaign's campaign with a GM, alice knowing a third of every board she does not
    control (at random levels), and turn 1 processed."""
    campaign = bench_campaign(slug=slug, boards=boards, departments=departments, orders=orders)
    user_model = campaign.memberships.get(user__username=f"{slug}-alice").user.__class__
    gm = user_model.objects.create(username=f"{slug}-gm")
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    alice = campaign.memberships.get(user__username=f"{slug}-alice")
    rng = random.Random(1)
    others = list(
        Department.objects.filter(board__campaign=campaign)
        .exclude(structure__player=alice)
        .values_list("pk", flat=True)
    )
    Knowledge.objects.bulk_create(
        Knowledge(player=alice, department_id=pk, level=rng.choice([1, 2]))
        for pk in rng.sample(others, len(others) // 3)
    )
    turn_process(campaign_id=campaign.pk, number=1)
    return campaign


def big_pages(campaign: Campaign, viewer: Membership) -> dict[str, tuple[str, float, float | None]]:
    """name -> (URL, target in ms, target in KB or None) of the pages measured for `viewer`."""
    slug = campaign.slug
    boards = list(campaign.boards.order_by("name").values_list("slug", flat=True))
    board = reverse("board", args=[slug, boards[0]])
    report = reverse("turn_report", args=[slug, 1])
    return {
        "board page": (board, BOARD_MS, BOARD_KB),
        "board page 3": (f"{board}?page=3", BOARD_MS, BOARD_KB),
        "board page, a search": (f"{board}?q=department+12", BOARD_MS, BOARD_KB),
        "board page after turn 1": (f"{board}?turn=1", BOARD_MS, BOARD_KB),
        "board map (JSON, fetched by the page)": (
            reverse("board_map_data", args=[slug, boards[0]]),
            BOARD_MS,
            None,
        ),
        "turn report, first board": (report, REPORT_MS, None),
        "turn report, last board, page 2": (f"{report}?board={boards[-1]}&page=2", REPORT_MS, None),
    }


class Command(BaseCommand):
    help = "Time the board page and the turn report on 5 boards of 1,000 departments."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--boards", type=int, default=5)
        parser.add_argument("--departments", type=int, default=1_000, help="per board")
        parser.add_argument("--orders", type=int, default=2_000, help="in total")
        parser.add_argument("--requests", type=int, default=20, help="per page")
        parser.add_argument("--keep", action="store_true", help="keep the campaign afterwards")

    def handle(self, *args: Any, **options: Any) -> None:
        # WhiteNoise says once that there is no collectstatic folder: not this benchmark's.
        warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
        boards, size = options["boards"], options["departments"]
        slug = f"bench-big-{timezone.now():%Y%m%d%H%M%S%f}"
        started = time.perf_counter()
        campaign = big_campaign(
            slug=slug, boards=boards, departments=size, orders=options["orders"]
        )
        try:
            vacuum()
            self.stdout.write(
                f"{boards} boards x {size} departments, turn 1 processed ({connection.vendor}; "
                f"built in {time.perf_counter() - started:.1f} s; {vacuum_note()}; load "
                f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs); "
                f"{options['requests']} requests per page"
            )
            # Uncached, as bench_demo_pages: with the page cache every GET after the first
            # would be a hit (3 queries, a few ms), not the page's rendering.
            with plain_static(), override_settings(PAGE_CACHE=False):
                self.time_pages(campaign, options["requests"])
        finally:
            if not options["keep"]:
                campaign_remove(campaign)

    def time_pages(self, campaign: Campaign, requests: int) -> None:
        members = campaign.memberships.select_related("user")
        for viewer in (
            members.get(role=Membership.Role.GM),
            members.get(user__username__endswith="-alice"),
        ):
            client = Client(HTTP_HOST="localhost")
            client.force_login(viewer.user)
            self.stdout.write(f"{viewer.get_role_display()}:")
            for name, (url, target_ms, target_kb) in big_pages(campaign, viewer).items():
                figures = page_figures(client, url, requests)
                self.stdout.write(figures.line(name, target_ms, target_kb))
            client.logout()  # its session row goes too

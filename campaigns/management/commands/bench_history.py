"""`manage.py bench_history`: time the history pages and the board map on a long
campaign and on a big board, in the database, through the whole request (middleware,
views, templates).

Builds two throw-away campaigns from the engine's random boards (bench_turns.bench_campaign):
a board of 14 departments played for 100 turns and a board of 1,000 departments played for
a few turns, each turn with random orders (some captures, many rejections) and every player
knowing a third of the board. Then it prints, for a player and for the GM, the best of a few
runs of each page and its SQL queries. Targets: under 150 ms on the 14-department board with
100 turns, under 1 s on the 1,000-department board. The campaigns are deleted afterwards
unless --keep.
"""

from __future__ import annotations

import os
import random
import time
import warnings
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.engine.bench import random_orders
from campaigns.management.benching import campaign_remove, plain_static, vacuum, vacuum_note
from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import Campaign, Knowledge, Membership, Order, Turn
from campaigns.models.campaign import membership_pk_of
from campaigns.selectors.state import board_state
from campaigns.services.turns import turn_process
from campaigns.words.labels import count


def played_campaign(*, slug: str, departments: int, turns: int, seed: int = 1) -> Campaign:
    """A campaign of one random board of `departments` departments with `turns` turns
    processed, each with random orders (a tenth of the board's size, at least 5), four
    players each knowing a third of the board at random levels, and a GM."""
    campaign = bench_campaign(slug=slug, boards=1, departments=departments, orders=0, seed=seed)
    board = campaign.boards.get()
    players = list(campaign.memberships.all())
    rng = random.Random(seed)
    depts = list(board.departments.all())
    Knowledge.objects.bulk_create(
        Knowledge(player=player, department=dept, level=rng.choice([1, 2]))
        for player in players
        for dept in rng.sample(depts, len(depts) // 3)
    )
    gm_user = players[0].user.__class__.objects.get_or_create(username=f"{slug}-gm")[0]
    Membership.objects.create(campaign=campaign, user=gm_user, role=Membership.Role.GM)
    count = max(5, departments // 10)
    fallback = players[0].pk
    for number in range(1, turns + 1):
        turn = Turn.objects.get(campaign=campaign, number=number)
        state = board_state(board)
        Order.objects.bulk_create(
            Order(
                turn=turn,
                board=board,
                player_id=membership_pk_of(order["player"]) or fallback,
                kind=order["kind"],
                payload={k: v for k, v in order.items() if k not in ("id", "player", "kind")},
                seq=seq,
            )
            for seq, order in enumerate(
                random_orders(rng, state["departments"], state["links"], count)
            )
        )
        turn_process(campaign_id=campaign.pk, number=number)
    return campaign


def history_pages(campaign: Campaign, viewer: Membership, turns: int) -> dict[str, str]:
    """name -> URL of every history page for `viewer` on the campaign's one board."""
    slug, board = campaign.slug, campaign.boards.get()
    middle = turns // 2
    # A department the viewer may open: one of theirs (every one is the GM's).
    depts = board.departments.order_by("slug")
    if viewer.role == Membership.Role.PLAYER:
        depts = depts.filter(structure__player=viewer)
    dept = depts.first()
    args = [slug, board.slug]
    pages = {
        "board now": reverse("board", args=args),
        "board after the middle turn": f"{reverse('board', args=args)}?turn={middle}",
        "map layout": reverse("board_map_layout", args=args),
        "history index": reverse("board_history", args=args),
        "compare first and last": f"{reverse('compare_turns', args=args)}?first=0&second={turns}",
        "middle turn's report": reverse("turn_report", args=[slug, middle]),
        "CSV export": f"{reverse('history_export', args=[slug])}?board={board.slug}",
    }
    if viewer.role == Membership.Role.PLAYER:
        pages["structure history"] = reverse("structure_history", args=[*args, viewer.pk])
    if dept is not None:
        pages["department history"] = reverse("department_history", args=[*args, dept.slug])
    return pages


class Command(BaseCommand):
    help = "Time the history pages and the board map on 14 x 100 turns and on 1,000 departments."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--turns", type=int, default=100, help="of the 14-department board")
        parser.add_argument("--big", type=int, default=1_000, help="departments of the big board")
        parser.add_argument("--big-turns", type=int, default=5, help="turns of the big board")
        parser.add_argument("--runs", type=int, default=3, help="best of this many runs")
        parser.add_argument("--keep", action="store_true", help="keep the campaigns afterwards")

    def handle(self, *args: Any, **options: Any) -> None:
        # WhiteNoise says once that there is no collectstatic folder: not this benchmark's.
        warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
        stamp = f"{timezone.now():%Y%m%d%H%M%S%f}"
        cases = [
            (f"bench-history-{stamp}", 14, options["turns"], 0.150),
            (f"bench-big-{stamp}", options["big"], options["big_turns"], 1.0),
        ]
        made = []
        try:
            for slug, size, turns, target in cases:
                started = time.perf_counter()
                campaign = played_campaign(slug=slug, departments=size, turns=turns)
                made.append(campaign)
                built = time.perf_counter() - started
                vacuum()
                self.stdout.write(
                    f"\n{size} departments, {count(turns, 'turn')} ({connection.vendor}; built in "
                    f"{built:.1f} s; {vacuum_note()}; load average {os.getloadavg()[0]:.1f} on "
                    f"{os.cpu_count()} CPUs). Target: every page under {target * 1000:.0f} ms."
                )
                with plain_static():
                    self.time_pages(campaign, turns, target, options["runs"])
        finally:
            if not options["keep"]:
                for campaign in made:
                    campaign_remove(campaign)

    def time_pages(self, campaign: Campaign, turns: int, target: float, runs: int) -> None:
        members = campaign.memberships.select_related("user").order_by("role", "pk")
        viewers = [members.filter(role=Membership.Role.PLAYER).first(), members.get(role="gm")]
        slowest = 0.0
        for viewer in viewers:
            assert viewer is not None
            client = Client(HTTP_HOST="localhost")
            client.force_login(viewer.user)
            for name, url in history_pages(campaign, viewer, turns).items():
                wall, cpu, queries = self.best(client, url, runs)
                slowest = max(slowest, wall)
                self.stdout.write(
                    f"  {viewer.get_role_display():<11} {name:<28} {wall * 1000:7.1f} ms"
                    f"  (CPU {cpu * 1000:6.1f} ms)  {queries:3d} queries"
                )
            client.logout()  # its session row goes too
        verdict = "OK" if slowest < target else "SLOW"
        self.stdout.write(f"{verdict}: slowest {slowest * 1000:.1f} ms")
        if os.getloadavg()[0] > (os.cpu_count() or 1):
            self.stdout.write(
                "  (the machine is busier than its CPUs: wall-clock times include waiting for "
                "one; the CPU column is this process's own time, the database's not included)"
            )

    def best(self, client: Client, url: str, runs: int) -> tuple[float, float, int]:
        """The fastest of `runs` GETs of `url`: wall-clock and CPU seconds, and queries."""
        wall, cpu, queries = float("inf"), float("inf"), 0
        for _ in range(runs):
            with CaptureQueriesContext(connection) as captured:
                started, began = time.perf_counter(), time.process_time()
                response = client.get(url, secure=True)
                wall = min(wall, time.perf_counter() - started)
                cpu = min(cpu, time.process_time() - began)
            if response.status_code != 200:
                raise AssertionError(f"{url}: {response.status_code}")
            queries = len(captured)
        return wall, cpu, queries

"""`manage.py bench_order_check`: how long checking one order takes (RULES R40), on a board
of 1,000 departments (--departments).

Builds a throw-away campaign of one random board (as bench_turns does), then times
`order_check` (what submitting or editing an order runs before storing it) for random
orders of every kind by each player (who knows every card), with a few of that player's
orders already queued, and
prints the median, 95th percentile and worst in milliseconds, and how many were refused.
Target: 5 ms. Then it times what the player waits for around that check: the
order form of each kind of RULES part 4 (GET, through Django's test client: the board, the
player's level of each department, the engine's legal choices, the page), which its POST
builds again before the check. The campaign is deleted afterwards.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from campaigns.engine.bench import random_orders
from campaigns.management.benching import (
    campaign_remove,
    page_figures,
    plain_static,
    vacuum,
    vacuum_note,
)
from campaigns.management.commands.bench_turns import ORDER_FIELDS, bench_campaign
from campaigns.models import Knowledge, Membership, Order
from campaigns.selectors.order_checks import OrderRefused, order_check
from campaigns.selectors.state import board_state

# The order kinds of RULES part 4, whose forms every campaign offers.
FORM_KINDS = ("add_link", "break_link", "priority", "move", "attempt", "function")


class Command(BaseCommand):
    help = "Time checking one order on a board of 1,000 departments."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--departments", type=int, default=1_000)
        parser.add_argument("--checks", type=int, default=200)
        parser.add_argument("--queued", type=int, default=5, help="orders already queued")

    def handle(self, *args: Any, **options: Any) -> None:
        size = options["departments"]
        slug = f"check-{timezone.now():%Y%m%d%H%M%S%f}"
        campaign = bench_campaign(slug=slug, boards=1, departments=size, orders=0)
        try:
            self.measure(campaign, options["checks"], options["queued"])
        finally:
            campaign_remove(campaign)

    def measure(self, campaign: Any, checks: int, queued: int) -> None:
        board = campaign.boards.get()
        turn = campaign.turns.get(number=1)
        state = board_state(board)
        members = {m.player_id: m for m in Membership.objects.filter(campaign=campaign)}
        # Every player knows every card (R50), so each check gets past the visibility test
        # to the engine, the part that grows with the board.
        Knowledge.objects.bulk_create(
            Knowledge(player=member, department_id=pk, level=Knowledge.Level.KNOWN)
            for member in members.values()
            for pk in board.departments.values_list("pk", flat=True)
        )
        vacuum()
        rng = random.Random(1)
        orders = random_orders(rng, state["departments"], state["links"], checks + queued * 4)
        by_player: dict[str, list[dict[str, Any]]] = {}
        for order in orders:
            by_player.setdefault(order["player"], []).append(order)
        seconds: list[float] = []
        refused = 0
        for player, mine in sorted(by_player.items()):
            member = members.get(player)
            if member is None:
                continue
            with transaction.atomic():
                for seq, order in enumerate(mine[:queued]):
                    Order.objects.create(
                        turn=turn, board=board, player=member, kind=order["kind"], seq=seq,
                        payload={k: v for k, v in order.items() if k not in ORDER_FIELDS},
                    )  # fmt: skip
                for order in mine[queued:]:
                    payload = {k: v for k, v in order.items() if k not in ORDER_FIELDS}
                    started = time.perf_counter()
                    try:
                        order_check(
                            player=member, turn=turn, board=board, kind=order["kind"],
                            payload=payload, seq=queued,
                        )  # fmt: skip
                    except OrderRefused:
                        refused += 1
                    seconds.append(time.perf_counter() - started)
                transaction.set_rollback(True)
        ms = sorted(s * 1000 for s in seconds)
        p95 = ms[int(len(ms) * 0.95) - 1]
        self.stdout.write(
            f"order check on {len(state['departments'])} departments, {len(ms)} orders "
            f"({refused} refused), {queued} queued before each: median "
            f"{statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, worst {ms[-1]:.1f} ms "
            f"({vacuum_note()})"
        )
        verdict = "OK" if statistics.median(ms) <= 5 else "SLOW"
        self.stdout.write(f"{verdict}: target 5 ms per check")
        self.form_pages(campaign, board, members)

    def form_pages(self, campaign: Any, board: Any, members: dict[str, Membership]) -> None:
        """The order form of each kind, as the first player opens it: median of 5 (ms)."""
        client = Client()
        client.force_login(next(iter(members.values())).user)
        figures = []
        try:
            with override_settings(ALLOWED_HOSTS=["testserver"]), plain_static():
                for kind in FORM_KINDS:
                    url = reverse("order_new", args=[campaign.slug, board.slug, kind])
                    figures.append(f"{kind} {page_figures(client, url, 5).median_ms:.0f}")
        finally:
            client.logout()  # its session row goes with it
        self.stdout.write(
            f"order form pages (GET, median of 5, ms) on {board.departments.count()} "
            f"departments: {', '.join(figures)}"
        )

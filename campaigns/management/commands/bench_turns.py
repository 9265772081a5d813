"""`manage.py bench_turns`: time the turn job (RULES R31) on a big campaign, in the database.

Builds a throw-away campaign (default: 5 boards of 1,000 departments, 2,000 queued orders)
from the engine's random boards (campaigns/engine/bench.py), loaded with bulk_create, starts
it, then runs the turn job once and prints the seconds and the SQL queries, in total and per
board. Target: under 5 s on PostgreSQL. The campaign is deleted afterwards unless --keep.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from campaigns.engine.bench import PLAYERS, random_state
from campaigns.models import (
    Board,
    Campaign,
    Department,
    Link,
    Membership,
    Order,
    Structure,
    Turn,
)
from campaigns.services import turns
from campaigns.services.campaigns import alignments_create_default
from campaigns.services.turns import campaign_start, turn_process

ORDER_FIELDS = ("id", "player", "kind", "seq")


def department_row(board: Board, data: dict[str, Any], structures: dict[str, Structure]) -> Any:
    consumes = data.get("consumes") or {"type": "", "amount": 0}
    produces = data.get("produces") or {"type": "", "amount": 0}
    return Department(
        board=board,
        slug=data["slug"],
        name=data["name"],
        effect=data["effect"],
        obstruct=data["obstruct"],
        impress=data["impress"],
        consumes_type=consumes["type"],
        consumes_amount=consumes["amount"],
        produces_type=produces["type"],
        produces_amount=produces["amount"],
        functions=data.get("functions", {}),
        alignments=data.get("alignments", []),
        structure=structures[data["structure"]] if data.get("structure") else None,
        home=data.get("home", False),
        defence=data.get("defence", {}),
        capacity=data.get("capacity"),
        **data["stash"],
    )


def bench_campaign(
    *, slug: str, boards: int, departments: int, orders: int, seed: int = 1
) -> Campaign:
    """A started campaign (turn 1 open) of `boards` random boards of `departments`
    departments each, with `orders` queued orders on turn 1 spread over the boards.
    Everything is loaded in bulk; the same `seed` gives the same campaign."""
    with transaction.atomic():
        campaign = Campaign.objects.create(name=f"Bench {slug}", slug=slug)
        alignments_create_default(campaign=campaign)
        users = get_user_model().objects
        members = {}
        for name in PLAYERS:
            user, _ = users.get_or_create(username=f"{slug}-{name}")
            members[name] = Membership.objects.create(campaign=campaign, user=user)
        states = []
        for index in range(boards):
            count = orders // boards + (1 if index < orders % boards else 0)
            state = random_state(departments, orders=count, seed=seed + index)
            board = Board.objects.create(campaign=campaign, name=f"Board {index}", slug=f"b{index}")
            structures = {
                name: Structure.objects.create(board=board, player=member)
                for name, member in members.items()
            }
            made = {
                d.slug: d
                for d in Department.objects.bulk_create(
                    department_row(board, data, structures) for data in state["departments"]
                )
            }
            Link.objects.bulk_create(link_rows(board, made, state["links"]))
            states.append((board, state))
    turn = campaign_start(campaign=campaign)
    Order.objects.bulk_create(
        Order(
            turn=turn,
            board=board,
            player=members.get(order["player"], members[PLAYERS[0]]),
            kind=order["kind"],
            payload={k: v for k, v in order.items() if k not in ORDER_FIELDS},
            seq=seq,
        )
        for board, state in states
        for seq, order in enumerate(state["orders"])
    )
    return campaign


def link_rows(board: Board, made: dict[str, Department], links: list[dict[str, str]]) -> list[Link]:
    """Links ranked 0, 1, ... per supplier in the order listed (R12)."""
    ranks: dict[str, int] = {}
    rows = []
    for link in links:
        rank = ranks[link["from"]] = ranks.get(link["from"], -1) + 1
        rows.append(
            Link(board=board, supplier=made[link["from"]], consumer=made[link["to"]], priority=rank)
        )
    return rows


class QueryCounter:
    """Counts the SQL statements sent on `connection` (cheap: no SQL text is kept)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ):
        self.count += 1
        return execute(sql, params, many, context)


@contextmanager
def per_board_figures(counter: QueryCounter) -> Iterator[list[tuple[str, float, int]]]:
    """(board, seconds, queries) for each call of the turn job's per-board step."""
    figures: list[tuple[str, float, int]] = []
    real = turns.resolve_board

    def timed(board: Board, *args: Any, **kwargs: Any) -> Any:
        started, queries = time.perf_counter(), counter.count
        record = real(board, *args, **kwargs)
        figures.append((board.slug, time.perf_counter() - started, counter.count - queries))
        return record

    with mock.patch.object(turns, "resolve_board", timed):
        yield figures


class Command(BaseCommand):
    help = "Time the turn job on a big random campaign (5 boards x 1,000 departments)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--boards", type=int, default=5)
        parser.add_argument("--departments", type=int, default=1_000, help="per board")
        parser.add_argument("--orders", type=int, default=2_000, help="in total")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the campaign afterwards")

    def handle(self, *args: Any, **options: Any) -> None:
        boards, size, orders = options["boards"], options["departments"], options["orders"]
        slug = f"bench-{timezone.now():%Y%m%d%H%M%S%f}"
        vendor = connection.vendor
        self.stdout.write(
            f"Building {boards} boards x {size} departments, {orders} orders ({vendor})"
        )
        started = time.perf_counter()
        campaign = bench_campaign(
            slug=slug, boards=boards, departments=size, orders=orders, seed=options["seed"]
        )
        self.stdout.write(f"  built and started in {time.perf_counter() - started:.2f} s")
        counter = QueryCounter()
        try:
            with connection.execute_wrapper(counter), per_board_figures(counter) as figures:
                started = time.perf_counter()
                opened = turn_process(campaign_id=campaign.pk, number=1)
                seconds = time.perf_counter() - started
            assert opened is not None, "turn 1 was not open"
            statuses = dict(
                Order.objects.filter(turn__campaign=campaign, turn__number=1)
                .values_list("status")
                .annotate(n=Count("pk"))
            )
            self.stdout.write(
                f"turn job: {seconds:.3f} s total, {seconds / boards:.3f} s per board"
            )
            self.stdout.write(
                f"SQL queries: {counter.count} total, {counter.count / boards:.1f} per board"
            )
            for board, board_seconds, queries in figures:
                self.stdout.write(f"  board {board}: {board_seconds:.3f} s, {queries} queries")
            self.stdout.write(f"orders: {statuses}")
            verdict = "OK" if seconds < 5 else "SLOW"
            self.stdout.write(f"{verdict}: target under 5 s on PostgreSQL")
        finally:
            if not options["keep"]:
                Turn.objects.filter(campaign=campaign).delete()
                campaign.delete()

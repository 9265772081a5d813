"""`manage.py bench_turns`: time the turn job (RULES R31) on a big campaign, in the database.

Builds a throw-away campaign (default: 5 boards of 1,000 departments, 2,000 queued orders)
from the engine's random boards (campaigns/engine/bench.py), loaded with bulk_create, starts
it, then runs the turn job once and prints the seconds, how long the campaign row lock was
held, the SQL queries, and the database's write floor measured in the same run: the COPY of
the department rows the job changed into a temporary table and one UPDATE from it, in plain
SQL. Target: the job within 3x that floor. It also prints the part of the job
that does the floor's work (writing the boards' changes and the orders' outcomes) against
the same floor. The tables are vacuumed first. The
campaign is deleted afterwards unless --keep.
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
from django.utils import timezone

from campaigns.engine.bench import PLAYERS, random_state
from campaigns.jsoncodec import dumps_compact
from campaigns.management.benching import (
    campaign_remove,
    order_statuses,
    vacuum,
    vacuum_note,
)
from campaigns.models import (
    Board,
    Campaign,
    Department,
    Link,
    Membership,
    Order,
    Structure,
)
from campaigns.selectors.state import WRITTEN
from campaigns.services import turns
from campaigns.services.campaigns import alignments_create_default
from campaigns.services.turns import campaign_start, turn_run

ORDER_FIELDS = ("id", "player", "kind", "seq")
# The department columns the turn job writes (selectors/state.py), as columns.
COLUMNS = tuple(f"{name}_id" if name == "structure" else name for name in WRITTEN)


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
    """(what, seconds, queries) of the turn job's read-and-resolve step: every board of the
    campaign in one engine call (services/turn_plans.py)."""
    figures: list[tuple[str, float, int]] = []
    real = turns.resolve_boards

    def timed(campaign: Campaign, *args: Any, **kwargs: Any) -> Any:
        started, queries = time.perf_counter(), counter.count
        resolved = real(campaign, *args, **kwargs)
        figures.append(("every board", time.perf_counter() - started, counter.count - queries))
        return resolved

    with mock.patch.object(turns, "resolve_boards", timed):
        yield figures


def written_rows(campaign: Campaign) -> dict[int, tuple[Any, ...]]:
    """Department pk -> the columns the turn job writes, as stored now."""
    rows = Department.objects.filter(board__campaign=campaign).values_list("pk", *COLUMNS)
    return {pk: tuple(values) for pk, *values in rows}


def copy_floor(rows: list[tuple[Any, ...]]) -> float:
    """The database's write floor for `rows` (pk, *COLUMNS values): the seconds to COPY them
    into a temporary table and apply them with one UPDATE, committed. Written here in plain
    SQL, independent of the turn job's own code. PostgreSQL only. The values are the ones
    already stored, so the campaign is left as it was."""
    qn = connection.ops.quote_name
    table = qn(Department._meta.db_table)
    columns = ", ".join(qn(c) for c in COLUMNS)
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE floor_rows ON COMMIT DROP AS SELECT id, {columns} "
            f"FROM {table} WITH NO DATA"
        )
        with cursor.cursor.copy(f"COPY floor_rows (id, {columns}) FROM STDIN") as copy:
            for pk, *values in rows:
                copy.write_row([pk, *(dumps_compact(v) if isinstance(v, dict) else v
                                      for v in values)])  # fmt: skip
        assignments = ", ".join(f"{qn(c)} = floor_rows.{qn(c)}" for c in COLUMNS)
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM floor_rows WHERE {table}.id = floor_rows.id"
        )
    return time.perf_counter() - started


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
        self.stdout.write(
            f"  built and started in {time.perf_counter() - started:.2f} s; {vacuum_note()}"
        )
        try:
            self.measure(campaign, boards)
        finally:
            if not options["keep"]:
                campaign_remove(campaign)

    def measure(self, campaign: Campaign, boards: int) -> None:
        vacuum()
        before = written_rows(campaign)
        counter = QueryCounter()
        with connection.execute_wrapper(counter), per_board_figures(counter) as figures:
            started = time.perf_counter()
            run = turn_run(campaign_id=campaign.pk, number=1)
            seconds = time.perf_counter() - started
        assert run.opened is not None, "turn 1 was not open"
        statuses = order_statuses(campaign, 1)
        out = self.stdout.write
        out(f"turn job: {seconds:.3f} s total, {seconds / boards:.3f} s per board")
        out(
            f"  {'read and resolved in a snapshot' if run.in_snapshot else 'checked'} before "
            f"taking the lock: {run.unlocked_seconds:.3f} s; "
            f"campaign row lock held {run.locked_seconds:.3f} s"
            + (" (input changed: resolved again under the lock)" if run.resolved_again else "")
        )
        out(f"SQL queries: {counter.count} total, {counter.count / boards:.1f} per board")
        for board, board_seconds, queries in figures:
            out(f"  {board}: {board_seconds:.3f} s reading and resolving, {queries} queries")
        out(f"orders: {statuses}")
        after = written_rows(campaign)
        changed = [(pk, *values) for pk, values in after.items() if before.get(pk) != values]
        if connection.vendor != "postgresql":
            out(f"{len(changed)} department rows changed; the COPY floor needs PostgreSQL")
            return
        floor = sorted(copy_floor(changed) for _ in range(3))[1]
        out(
            f"COPY floor: {floor:.3f} s (COPY of the {len(changed)} changed department rows "
            "into a temporary table and one UPDATE, median of 3)"
        )
        ratio = seconds / floor
        verdict = "OK" if ratio <= 3 else "SLOW"
        out(f"{verdict}: the turn job took {ratio:.1f}x the COPY floor (target <= 3x)")
        written = run.boards_written_seconds
        out(
            f"  of which writing the boards' changes (departments, links) and the orders' "
            f"outcomes: {written:.3f} s, {written / floor:.1f}x the floor; the rest is reading, "
            "the engine and the turn's history records"
        )

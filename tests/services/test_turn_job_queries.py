"""The turn job's SQL does not grow with the board (campaigns/services/state.py): a board
of 200 departments costs the same number of queries as a board of 10, with no orders or
with the same number of orders. The boards are the engine's random ones, loaded as
`manage.py bench_turns` loads them."""

from __future__ import annotations

import pytest
from django.db import DataError, connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import Department, Order
from campaigns.services.bulk import bulk_set
from campaigns.services.turns import turn_process

pytestmark = pytest.mark.django_db


def queries_of_the_turn_job(*, boards: int, departments: int, orders: int) -> int:
    slug = f"q-{boards}-{departments}-{orders}"
    campaign = bench_campaign(slug=slug, boards=boards, departments=departments, orders=orders)
    with CaptureQueriesContext(connection) as captured:
        assert turn_process(campaign_id=campaign.pk, number=1) is not None
    assert not Order.objects.filter(turn__campaign=campaign, status=Order.Status.QUEUED).exists()
    return len(captured.captured_queries)


@pytest.mark.parametrize("orders", [0, 30])
def test_a_board_of_200_departments_takes_as_many_queries_as_one_of_10(orders: int) -> None:
    small = queries_of_the_turn_job(boards=1, departments=10, orders=orders)
    large = queries_of_the_turn_job(boards=1, departments=200, orders=orders)
    assert large == small


def test_each_board_adds_the_same_few_queries() -> None:
    one = queries_of_the_turn_job(boards=1, departments=50, orders=20)
    three = queries_of_the_turn_job(boards=3, departments=50, orders=20)
    per_board = (three - one) / 2
    assert per_board == int(per_board)
    assert per_board <= 12, f"{per_board} queries per board"
    # Outside the boards: the lock, the turns, the orders, the two knowledge snapshots kept
    # for history (R51), one write of every board's changed departments, of the links gone,
    # new and re-ranked, of the orders' outcomes and of the records (on PostgreSQL an
    # update is three statements: a temporary table, its COPY, one UPDATE).
    assert one - per_board <= 20, f"{one - per_board} queries outside the boards"


def test_the_bulk_write_keeps_the_columns_own_checks(postgres: None) -> None:
    """bulk_set casts each value to its column's type without the size: a status longer
    than varchar(16) is an error, as with Django's own update, never cut short."""
    campaign = bench_campaign(slug="checks", boards=1, departments=10, orders=0)
    department = Department.objects.filter(board__campaign=campaign).first()
    department.status = "x" * 17
    with pytest.raises(DataError), transaction.atomic():
        bulk_set([department], ["status"])
    department.status = "funded"
    department.money = 7
    bulk_set([department], ["status", "money"])
    department.refresh_from_db()
    assert (department.status, department.money) == ("funded", 7)

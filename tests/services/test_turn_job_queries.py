"""The turn job's SQL does not grow with the board (campaigns/services/state.py): a board
of 200 departments costs the same number of queries as a board of 10, with no orders or
with the same number of orders. The boards are the engine's random ones, loaded as
`manage.py bench_turns` loads them."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import DataError, connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import (
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Election,
    Goal,
    IntelEnvelope,
    Knowledge,
    Office,
    Order,
    Shtick,
)
from campaigns.services.bulk_writes import bulk_set
from campaigns.services.turns import turn_process

pytestmark = pytest.mark.django_db


def statements_of_the_turn_job(*, boards: int, departments: int, orders: int) -> list[str]:
    slug = f"q-{boards}-{departments}-{orders}"
    campaign = bench_campaign(slug=slug, boards=boards, departments=departments, orders=orders)
    with CaptureQueriesContext(connection) as captured:
        assert turn_process(campaign_id=campaign.pk, number=1) is not None
    assert not Order.objects.filter(turn__campaign=campaign, status=Order.Status.QUEUED).exists()
    return [query["sql"] for query in captured.captured_queries]


def queries_of_the_turn_job(*, boards: int, departments: int, orders: int) -> int:
    return len(statements_of_the_turn_job(boards=boards, departments=departments, orders=orders))


def shape(sql: str) -> str:
    """A statement without its values: ids, numbers, quoted text, savepoint names."""
    sql = re.sub(r"'[^']*'|\"s\d+_x\d+\"", "?", sql)
    return re.sub(r"\(\d+(, \d+)*\)|\b\d+\b", "N", sql)


@pytest.mark.parametrize("orders", [0, 30])
def test_a_board_of_200_departments_takes_as_many_queries_as_one_of_10(orders: int) -> None:
    """Every statement is made as often on 200 departments as on 10. A write of nothing is
    skipped (links re-ranked only where a priority or a link changed), so the random orders
    may add or drop such a write once: one statement, never one per row."""
    small = Counter(map(shape, statements_of_the_turn_job(boards=1, departments=10, orders=orders)))
    large = Counter(
        map(shape, statements_of_the_turn_job(boards=1, departments=200, orders=orders))
    )
    grown = {sql: (small[sql], n) for sql, n in large.items() if n > max(small[sql], 1)}
    assert grown == {}
    assert {sql: n for sql, n in (small - large).items() if n > 1} == {}
    assert abs(large.total() - small.total()) <= 2


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


def queries_with_parts_7_to_9(many: int) -> int:
    """The turn job on two boards with `many` of each row of RULES parts 7-9: shticks, intel
    envelopes and the perception checks that open them, goals of both kinds that count,
    contingency envelopes that open, and an office per board with an election."""
    campaign = bench_campaign(slug=f"parts-{many}", boards=2, departments=40, orders=10)
    players = list(campaign.memberships.order_by("pk"))
    departments = list(Department.objects.filter(board__campaign=campaign).order_by("pk"))
    turn = campaign.turns.get(number=1)
    for i in range(many):
        player, dept = players[i % len(players)], departments[i]
        Shtick.objects.create(member=player, kind="perception",
                              data={"kind": "perception", "amount": 1})  # fmt: skip
        IntelEnvelope.objects.create(department=dept, text=f"secret {i}", target=3,
                                     grants=Knowledge.Level.RUMOURED)  # fmt: skip
        Goal.objects.create(member=player, kind="control", data={"n": 5})
        Goal.objects.create(member=player, kind="attempts_won", data={"n": 5})
        ContingencyEnvelope.objects.create(member=player, text=f"sealed {i}", condition="turn",
                                           turn_number=1)  # fmt: skip
        Order.objects.create(turn=turn, board=dept.board, player=player, kind="perceive",
                             payload={"department": dept.slug}, seq=1000 + i)  # fmt: skip
    for board in campaign.boards.all():
        holder = board.departments.order_by("pk").first()
        Office.objects.create(board=board, name=f"Mayor of {board.slug}",
                              alignment="Government", holder=holder)  # fmt: skip
    Election.objects.create(campaign=campaign, office=Office.objects.filter(
        board__campaign=campaign).first(), number=1)  # fmt: skip
    with CaptureQueriesContext(connection) as captured:
        assert turn_process(campaign_id=campaign.pk, number=1) is not None
    assert DossierEntry.objects.filter(turn=turn).count() >= many // 2
    assert ContingencyEnvelope.objects.filter(opened_turn=turn).count() == many
    return len(captured.captured_queries)


def test_the_rows_of_parts_7_to_9_take_the_same_queries_however_many_there_are() -> None:
    assert queries_with_parts_7_to_9(20) == queries_with_parts_7_to_9(3)

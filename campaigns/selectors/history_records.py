"""Reading a board's history from what the turn job recorded (RULES R51-R53), never by
recomputing it: the TurnRecord of each processed turn and the orders given in it. Each
reader is one query, whatever the number of turns or departments."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import F, QuerySet

from campaigns.models import Board, Campaign, Order, Turn, TurnRecord


def records_of(board: Board) -> QuerySet[TurnRecord]:
    """The records of `board`'s processed turns, each with its turn's `number`."""
    return (
        TurnRecord.objects.filter(board=board, turn__status=Turn.Status.PROCESSED)
        .annotate(number=F("turn__number"))
        .order_by("turn__number")
    )


def board_records(board: Board) -> list[TurnRecord]:
    """Every record of `board`, turn 0 (the start) first. One query."""
    return list(records_of(board))


def board_record(board: Board, number: int) -> TurnRecord | None:
    """The record of turn `number` on `board`, if that turn was processed. One query."""
    return records_of(board).filter(turn__number=number).first()


def turn_numbers(board: Board) -> list[int]:
    """The processed turns `board` has a record of, in order. One query."""
    return list(records_of(board).values_list("turn__number", flat=True))


def turn_records(campaign: Campaign, number: int) -> list[TurnRecord]:
    """Every board's record of turn `number` (a turn report's boards). One query."""
    return list(
        TurnRecord.objects.filter(
            turn__campaign=campaign, turn__number=number, turn__status=Turn.Status.PROCESSED
        )
        .annotate(number=F("turn__number"))
        .select_related("board")
        .order_by("board__name")
    )


# Orders that were resolved: what a turn's report and history speak of (R40).
RESOLVED = [Order.Status.SUCCEEDED, Order.Status.FAILED, Order.Status.REJECTED]


def resolved_orders(**filters: object) -> dict[tuple[int, int], list[Order]]:
    """(board id, turn number) -> the orders resolved there, in each player's sequence. One
    query; `filters` narrow it (board=..., turn__number=...)."""
    rows = (
        Order.objects.filter(status__in=RESOLVED, **filters)
        .annotate(number=F("turn__number"))
        .order_by("turn__number", "seq", "pk")
    )
    grouped: defaultdict[tuple[int, int], list[Order]] = defaultdict(list)
    for order in rows:
        grouped[(order.board_id, order.number)].append(order)
    return grouped

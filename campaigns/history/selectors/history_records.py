"""Reading a board's history from what the turn job recorded (RULES R51-R53), never by
recomputing it: the TurnRecord of each processed turn and the orders given in it. Each
reader is one query, whatever the number of turns or departments.

A record is read as a `Recorded`: only the parts the history shows (the departments and
links of the board before and after the turn, the spawn-consume figures, the levels), cut
out by the database (`state -> 'departments'`, ...), so a hundred turns do not mean parsing
a hundred copies of each turn's orders, rolls, settings and alignment catalogue.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import F
from django.db.models.fields.json import KeyTransform

from campaigns.models import Board, Campaign, Order, Turn, TurnRecord
from campaigns.selectors.state import own_board


@dataclass(frozen=True)
class Recorded:
    """The parts of one TurnRecord the history reads: `state` and `before` hold the
    departments and links (ENGINE.md), `report` the spawn-consume `departments` figures."""

    board_id: int
    board_slug: str
    number: int
    state: dict[str, Any]
    before: dict[str, Any]
    report: dict[str, Any]
    knowledge: dict[str, dict[str, int]]
    knowledge_before: dict[str, dict[str, int]]


AFTER = {
    "state_departments": KeyTransform("departments", "state"),
    "state_links": KeyTransform("links", "state"),
    "figures": KeyTransform("departments", "report"),
    "state_offices": KeyTransform("offices", "state"),
}
BEFORE = {
    "before_departments": KeyTransform("departments", "before"),
    "before_links": KeyTransform("links", "before"),
    "before_offices": KeyTransform("offices", "before"),
}


def board_part(row: dict[str, Any], name: str) -> dict[str, Any]:
    """A record's `state` or `before`, departments and links only ([] where missing), of
    the board's own departments (selectors/state.py `own_board`), and its offices where it
    has any (RULES R80: who held them, for the board's pages and history)."""
    part = own_board(
        {
            "departments": row.get(f"{name}_departments") or [],
            "links": row.get(f"{name}_links") or [],
        }
    )
    if row.get(f"{name}_offices"):
        part = {**part, "offices": row[f"{name}_offices"]}
    return part


def recorded(*, before: bool = False, **filters: Any) -> list[Recorded]:
    """The processed turns' records matching `filters`, by turn then board. One query.
    The board before each turn (and the levels then) only if asked: most pages show the
    boards after the turns, and that halves what is read."""
    fields = ["board_id", "knowledge", *(["knowledge_before"] if before else [])]
    parts = {**AFTER, **(BEFORE if before else {})}
    rows = (
        TurnRecord.objects.filter(turn__status=Turn.Status.PROCESSED, **filters)
        .order_by("turn__number", "board__slug")
        .values(*fields, number=F("turn__number"), board_slug=F("board__slug"), **parts)
    )
    return [
        Recorded(
            board_id=row["board_id"],
            board_slug=row["board_slug"],
            number=row["number"],
            state=board_part(row, "state"),
            before=board_part(row, "before"),
            report={"departments": row["figures"] or {}},
            knowledge=row["knowledge"] or {},
            knowledge_before=row.get("knowledge_before") or {},
        )
        for row in rows
    ]


def board_records(board: Board, *, before: bool = False) -> list[Recorded]:
    """Every record of `board`, turn 0 (the start) first. One query."""
    return recorded(board=board, before=before)


def board_record(board: Board, number: int) -> Recorded | None:
    """The record of turn `number` on `board` (with the board before it, whose links the
    turn's marks compare with), if that turn was processed. One query."""
    found = recorded(board=board, turn__number=number, before=True)
    return found[0] if found else None


def records_at(board: Board, numbers: list[int]) -> dict[int, Recorded]:
    """Turn number -> the record of each of `numbers` on `board` that exists. One query."""
    return {r.number: r for r in recorded(board=board, turn__number__in=numbers)}


def turn_records(campaign: Campaign, number: int, **filters: object) -> list[Recorded]:
    """Every board's record of turn `number` (a turn report's boards; `filters` narrow
    them). One query."""
    return recorded(turn__campaign=campaign, turn__number=number, before=True, **filters)


def campaign_records(campaign: Campaign, board: Board | None = None) -> list[Recorded]:
    """Every record of `campaign` (of `board` only, if given). One query."""
    if board is not None:
        return recorded(turn__campaign=campaign, board=board)
    return recorded(turn__campaign=campaign)


# Written as SQL: every board page asks (its turn scrubber), and the ORM took longer to
# build the join than the database to answer it.
TURN_NUMBERS = """
SELECT t.number FROM {turnrecord} r JOIN {turn} t ON t.id = r.turn_id
WHERE r.board_id = %s AND t.status = %s ORDER BY t.number
"""


def turn_numbers(board: Board) -> list[int]:
    """The processed turns `board` has a record of, in order. One query."""
    sql = TURN_NUMBERS.format(turnrecord=TurnRecord._meta.db_table, turn=Turn._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(sql, [board.pk, Turn.Status.PROCESSED.value])
        return [number for (number,) in cursor]


# Orders that were resolved (R40), of the kinds the history tells of: linking attempts (made,
# suffered, captures: R43-R44), added links (made and perhaps gone again within the turn:
# R41), and hand-overs. Moves, rolls and priorities change no structure or link.
RESOLVED = [Order.Status.SUCCEEDED, Order.Status.FAILED, Order.Status.REJECTED]
TOLD = [Order.Kind.ATTEMPT, Order.Kind.ADD_LINK, "handover"]


def resolved_orders(**filters: object) -> dict[tuple[int, int], list[Order]]:
    """(board id, turn number) -> the resolved orders the history tells of, in each
    player's sequence, with what it reads of them (not their rolls). One query; `filters`
    narrow it."""
    rows = (
        Order.objects.filter(status__in=RESOLVED, kind__in=TOLD, **filters)
        .only("id", "turn_id", "board_id", "player_id", "kind", "payload", "status", "seq")
        .annotate(number=F("turn__number"))
        .order_by("turn__number", "seq", "pk")
    )
    grouped: defaultdict[tuple[int, int], list[Order]] = defaultdict(list)
    for order in rows:
        grouped[(order.board_id, order.number)].append(order)
    return grouped

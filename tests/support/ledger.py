"""The ledger the fault matrix checks after each fault (RULES R31): every due turn processed
exactly once, no order lost or duplicated, no half-written turn.

`foresee(campaign, number)` asks the engine, before the fault, what turn `number` must record on
each board: the turn's seed is fixed when it opens (R23) and its orders are queued, so the
outcome is known in advance. `ledger_problems` then compares the database with it and lists
every difference in words; a test asserts the list is empty, so a failure says what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from campaigns import engine
from campaigns.models import Board, Campaign, Order, Turn, TurnRecord
from campaigns.selectors.state import board_state
from campaigns.services.turn_plans import boards_resolve

# What a department's row must hold after a turn: the fields of the engine's state the turn
# job writes back (services/state.py).
WRITTEN = ("stash", "structure", "home", "capacity")


@dataclass
class Foreseen:
    """What turn `number` must record: per board id, the state after it and each order's
    outcome (by order id)."""

    number: int
    states: dict[int, dict[str, Any]]
    outcomes: dict[int, dict[str, Any]]


def boards_of(campaign: Campaign) -> list[Board]:
    return list(Board.objects.filter(campaign=campaign).order_by("pk"))


def turn_of(campaign: Campaign, number: int) -> Turn:
    return Turn.objects.get(campaign=campaign, number=number)


def foresee(campaign: Campaign, number: int) -> Foreseen:
    """Turn `number` resolved by the engine as the turn job resolves it (every board in one
    engine call, services/turn_plans.py), from the rows as they are now, without writing
    anything."""
    turn = turn_of(campaign, number)
    queued: dict[int, list[Order]] = {}
    for order in turn.orders.filter(status=Order.Status.QUEUED).order_by("seq", "pk"):
        queued.setdefault(order.board_id, []).append(order)
    plans, _ = boards_resolve(
        campaign, list(campaign.boards.all()), turn, queued, engine.resolve_then_spawn, turn
    )
    states = {plan.record.board_id: plan.record.state for plan in plans}
    outcomes = {order.pk: order.result for orders in queued.values() for order in orders}
    return Foreseen(number, states, outcomes)


def ledger_problems(
    campaign: Campaign,
    *,
    open_turn: int,
    foreseen: Sequence[Foreseen] = (),
    failures: dict[int, int] | None = None,
) -> list[str]:
    """Everything wrong with the campaign's turns once turn `open_turn` should be the open
    one: turns 0..open_turn-1 processed once each, in order, each with one record per board
    and no order left queued; `open_turn` open with no record; the boards' rows as the last
    record left them; and each `foreseen` turn recorded exactly as the engine foresaw.
    `failures`: turn number -> failed runs the fault may have counted (default none)."""
    problems: list[str] = []
    turns = list(Turn.objects.filter(campaign=campaign).order_by("number"))
    numbers = [t.number for t in turns]
    if numbers != list(range(open_turn + 1)):
        problems.append(f"turns {numbers}, expected 0..{open_turn}")
    for turn in turns:
        expected = Turn.Status.OPEN if turn.number == open_turn else Turn.Status.PROCESSED
        if turn.status != expected:
            problems.append(f"turn {turn.number} is {turn.status}, expected {expected}")
        allowed = (failures or {}).get(turn.number, 0)
        if turn.failures != allowed:
            problems.append(
                f"turn {turn.number} counted {turn.failures} failures, expected {allowed}: "
                f"{turn.last_error!r}"
            )
        problems += records_problems(campaign, turn, want=0 if turn.number == open_turn else 1)
        queued = turn.orders.filter(status=Order.Status.QUEUED).count()
        if turn.status == Turn.Status.PROCESSED and queued:
            problems.append(f"turn {turn.number} is processed with {queued} orders still queued")
    done = [t for t in turns if t.processed_at is not None and t.number > 0]
    if [t.number for t in sorted(done, key=lambda t: t.processed_at)] != [t.number for t in done]:
        problems.append("turns were not processed in order")
    for seen in foreseen:
        problems += foreseen_problems(campaign, seen)
    problems += rows_problems(campaign, open_turn - 1)
    return problems


def records_problems(campaign: Campaign, turn: Turn, *, want: int) -> list[str]:
    problems = []
    for board in boards_of(campaign):
        count = TurnRecord.objects.filter(turn=turn, board=board).count()
        if count != want:
            problems.append(f"turn {turn.number} has {count} records of {board.slug}, not {want}")
    return problems


def foreseen_problems(campaign: Campaign, seen: Foreseen) -> list[str]:
    problems = []
    turn = turn_of(campaign, seen.number)
    for board in boards_of(campaign):
        record = TurnRecord.objects.filter(turn=turn, board=board).first()
        if record is not None and record.state != seen.states[board.pk]:
            problems.append(f"turn {seen.number} on {board.slug} recorded another outcome")
    orders = {o.pk: o for o in Order.objects.filter(pk__in=seen.outcomes)}
    if set(orders) != set(seen.outcomes):
        problems.append(f"orders lost: {sorted(set(seen.outcomes) - set(orders))}")
    for pk, outcome in seen.outcomes.items():
        order = orders.get(pk)
        if order is not None and (order.turn_id, order.result) != (turn.pk, outcome):
            problems.append(
                f"order {pk} ({order.kind}) resolved as {order.status} in turn "
                f"{order.turn.number}, foreseen {outcome['status']} in turn {seen.number}"
            )
    return problems


def rows_problems(campaign: Campaign, last: int) -> list[str]:
    """The departments as turn `last` recorded them: a second run, or half of one, after
    the record would have changed them again."""
    problems = []
    turn = turn_of(campaign, last)
    for board in boards_of(campaign):
        record = TurnRecord.objects.filter(turn=turn, board=board).first()
        if record is None:
            continue
        recorded = {d["slug"]: d for d in record.state["departments"]}
        now = board_state(board)
        if links_of(now) != links_of(record.state):
            problems.append(f"{board.slug}: the links are not those turn {last} recorded")
        for dept in now["departments"]:
            for field in WRITTEN:
                if dept.get(field) != recorded[dept["slug"]].get(field):
                    problems.append(
                        f"{board.slug}/{dept['slug']} {field} is {dept.get(field)!r}, turn "
                        f"{last} recorded {recorded[dept['slug']].get(field)!r}"
                    )
    return problems


def links_of(state: dict[str, Any]) -> list[tuple[str, str, int]]:
    return sorted((link["from"], link["to"], link["priority"]) for link in state["links"])

"""The turn job (RULES R31): resolve a turn's orders, spawn and consume, open the next turn.

The database decides whether a turn has run: `turn_process` locks the campaign row and
returns at once if the turn is no longer open, so a second beat, a redelivered task or a GM
pressing the button twice does nothing. Everything happens in one transaction; messages are
sent only after it commits.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns import engine
from campaigns.engine.dice import commitment
from campaigns.models import Board, Campaign, Order, Turn, TurnRecord
from campaigns.selectors.state import BoardRows, board_rows, board_state
from campaigns.selectors.turns import scheduled_turn_is_due

from .notifications import notify_gms, notify_turn_processed
from .schedule import next_deadline
from .state import board_apply, bulk_set

log = logging.getLogger(__name__)

MAX_FAILURES = 3
# A turn processed this long after its deadline was missed (the service was down).
LATE_AFTER = dt.timedelta(hours=1)


def fresh_turn(campaign: Campaign, number: int, *, now: dt.datetime, after: dt.datetime) -> Turn:
    """R23: a new turn with a secret seed and its public commitment."""
    seed = secrets.token_hex(32)
    return Turn.objects.create(
        campaign=campaign,
        number=number,
        opened_at=now,
        deadline=next_deadline(campaign, after),
        seed=seed,
        commitment=commitment(seed),
    )


def campaign_start(*, campaign: Campaign, now: dt.datetime | None = None) -> Turn:
    """R31: the campaign's first job: spawn and consume on every board, then turn 1 opens.
    The start is kept as turn 0 (processed) so history shows the opening state."""
    now = now or timezone.now()
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if campaign.turns.exists():
            raise ValueError(f"{campaign} has already started")
        setup = fresh_turn(campaign, 0, now=now, after=now)
        setup.deadline = now
        setup.status = Turn.Status.PROCESSED
        setup.processed_at = now
        setup.save()
        for board in campaign.boards.all():
            rows = board_rows(board)
            open_board(board, setup, board_state(board, rows=rows), rows)
        turn = fresh_turn(campaign, 1, now=now, after=now)
        campaign.status = Campaign.Status.RUNNING
        campaign.save(update_fields=["status"])
    return turn


def turn_process(
    *, campaign_id: int, number: int, now: dt.datetime | None = None, running_only: bool = False
) -> Turn | None:
    """Process turn `number` once; return the newly opened turn, or None if there was
    nothing to do (already processed, failed, or no such turn; with `running_only`, as the
    tick asks, also a turn that is not due: its campaign paused meanwhile, or its deadline
    extended).

    Takes the campaign row lock (select_for_update) for the whole job, so concurrent calls
    queue behind it and then see the turn processed.
    """
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        now = now or timezone.now()  # after the lock: we may have waited for it
        turn = Turn.objects.filter(campaign=campaign, number=number).first()
        if turn is None or turn.status != Turn.Status.OPEN:
            return None
        # Decided under the lock: the tick found the turn due, but its message may have
        # waited in the queue (workers down) while the GM paused the campaign or extended
        # the deadline (R30).
        if running_only and not scheduled_turn_is_due(campaign, turn, now):
            return None
        queued: defaultdict[int, list[Order]] = defaultdict(list)
        orders = list(turn.orders.filter(status=Order.Status.QUEUED).order_by("seq", "pk"))
        for order in orders:
            queued[order.board_id].append(order)
        for board in campaign.boards.all():
            resolve_board(board, turn, queued[board.pk])
        bulk_set(orders, ["status", "result"])
        turn.status = Turn.Status.PROCESSED
        turn.processed_at = now
        turn.save(update_fields=["status", "processed_at"])
        # The next deadline is the next weekly slot after this turn's deadline, however
        # early or late it ran: missed weeks are each processed in turn, and a turn
        # processed early (the GM, or every player ready) does not cut the next one short.
        following = fresh_turn(campaign, number + 1, now=now, after=turn.deadline)
        late = now - turn.deadline > LATE_AFTER
        transaction.on_commit(lambda: after_turn(campaign, turn, late))
    return following


def resolve_board(board: Board, turn: Turn, orders: list[Order]) -> None:
    """R31 step 2 for one board: resolve its orders, then open it for the next turn."""
    rows = board_rows(board)
    resolved = engine.resolve(board_state(board, turn=turn, orders=orders, rows=rows))
    resolve_report = resolved.pop("report")
    for order in orders:
        outcome = resolve_report["orders"][order.engine_id]
        order.status = outcome["status"]
        order.result = outcome
    open_board(board, turn, resolved, rows, resolve_report)


def open_board(
    board: Board,
    turn: Turn,
    state: dict[str, Any],
    rows: BoardRows,
    resolve_report: dict[str, Any] | None = None,
) -> None:
    """R31 steps 3-4 for one board: spawn and consume on `state`, write the result back into
    `rows` and record it as `turn`'s TurnRecord (with the resolution report, if any)."""
    opened = engine.spawn_consume(state)
    spawn_report = opened.pop("report")
    board_apply(board, opened, spawn_report, rows)
    TurnRecord.objects.create(
        turn=turn, board=board, state=opened, report={**(resolve_report or {}), **spawn_report}
    )


def after_turn(campaign: Campaign, turn: Turn, late: bool) -> None:
    """After commit: the turn is done whatever happens here, so a mail server that is down
    is logged, not raised (raising would make the task look failed and retry for nothing)."""
    try:
        notify_after_turn(campaign, turn, late)
    except Exception:
        log.exception("could not send the messages of %s", turn)


def notify_after_turn(campaign: Campaign, turn: Turn, late: bool) -> None:
    notify_turn_processed(campaign, turn.number)
    if late:
        notify_gms(
            campaign,
            f"Turn {turn.number} was processed late",
            f"The deadline of turn {turn.number} was {turn.deadline:%Y-%m-%d %H:%M} UTC; "
            f"the turn job ran at {turn.processed_at:%Y-%m-%d %H:%M} UTC (the service was "
            "down or paused). Missed turns are processed in order, once each.",
        )


def turn_record_failure(*, campaign_id: int, number: int, error: BaseException) -> Turn | None:
    """Count a failed run in its own transaction; the third failure marks the turn failed
    and tells the GM instead of retrying forever.

    Takes the campaign row lock first, like every other writer of a campaign's turns: a
    failure counted while another worker runs the same turn waits for it, then finds the
    turn processed and counts nothing. (Locking the turn and campaign rows in one
    SELECT ... FOR UPDATE took the turn row first and deadlocked with that worker.)"""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
        if campaign is None:
            return None
        turn = campaign.turns.filter(number=number, status=Turn.Status.OPEN).first()
        if turn is None:
            return None
        turn.failures += 1
        turn.last_error = f"{type(error).__name__}: {error}"[:2000]
        if turn.failures >= MAX_FAILURES:
            turn.status = Turn.Status.FAILED
            transaction.on_commit(
                lambda: notify_gms(
                    campaign,
                    f"Turn {number} failed",
                    f"The turn job failed {MAX_FAILURES} times and has stopped retrying.\n"
                    f"Last error: {turn.last_error}\nFix the cause, then reopen the turn in "
                    "the admin (status open, failures 0).",
                ),
                robust=True,  # the failure is recorded whether or not the mail goes out
            )
        turn.save(update_fields=["failures", "last_error", "status"])
    return turn


def turn_process_safely(*, campaign_id: int, number: int) -> Turn | None:
    """The turn job as the tick runs it: only while the campaign runs (see turn_process),
    and a failure is counted, logged and left for the next tick (the transaction has rolled
    back, so nothing was half-applied)."""
    try:
        return turn_process(campaign_id=campaign_id, number=number, running_only=True)
    except Exception as error:
        log.exception("turn %s of campaign %s failed", number, campaign_id)
        turn_record_failure(campaign_id=campaign_id, number=number, error=error)
        return None


def campaign_set_status(*, campaign: Campaign, status: str, now: dt.datetime | None = None) -> None:
    """Pause or resume (R30). On resume, an open turn whose deadline passed during the pause
    gets the next weekly slot instead of being processed at once with no time for orders."""
    now = now or timezone.now()
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        campaign.status = status
        campaign.save(update_fields=["status"])
        if status == Campaign.Status.RUNNING:
            turn = campaign.turns.filter(status=Turn.Status.OPEN).first()
            if turn and turn.deadline <= now:
                turn.deadline = next_deadline(campaign, now)
                turn.save(update_fields=["deadline"])

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
from campaigns.models import Board, Campaign, Department, Knowledge, Order, Turn, TurnRecord
from campaigns.models.campaign import membership_pk_of
from campaigns.selectors.state import BoardRows, board_rows, board_state
from campaigns.selectors.turns import scheduled_turn_is_due
from campaigns.selectors.visibility import knowledge_snapshot

from .notifications import notify_gms, notify_turn_processed
from .schedule import next_deadline
from .state import board_apply, bulk_set

log = logging.getLogger(__name__)

MAX_FAILURES = 3
KNOWN = Knowledge.Level.KNOWN
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
        knowledge = knowledge_snapshot(campaign.pk)
        records = []
        for board in campaign.boards.all():
            rows = board_rows(board)
            state = board_state(board, rows=rows)
            records.append(open_board(board, setup, state, rows, before=state))
        records_save(campaign, records, knowledge)
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
        knowledge = knowledge_snapshot(campaign.pk)
        records = [resolve_board(board, turn, queued[board.pk]) for board in campaign.boards.all()]
        records_save(campaign, records, knowledge)
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


def resolve_board(board: Board, turn: Turn, orders: list[Order]) -> TurnRecord:
    """R31 step 2 for one board: resolve its orders, then open it for the next turn.
    Returns the turn's record of the board, not yet saved (see records_save)."""
    rows = board_rows(board)
    state = board_state(board, turn=turn, orders=orders, rows=rows)
    resolved = engine.resolve(state)
    resolve_report = resolved.pop("report")
    for order in orders:
        outcome = resolve_report["orders"][order.engine_id]
        order.status = outcome["status"]
        order.result = outcome
    before = {k: v for k, v in state.items() if k not in ("orders", "seed", "turn")}
    return open_board(board, turn, resolved, rows, before=before, resolve_report=resolve_report)


def open_board(
    board: Board,
    turn: Turn,
    state: dict[str, Any],
    rows: BoardRows,
    *,
    before: dict[str, Any],
    resolve_report: dict[str, Any] | None = None,
) -> TurnRecord:
    """R31 steps 3-4 for one board: spawn and consume on `state`, write the result back into
    `rows`, and return `turn`'s TurnRecord of it (with the resolution report, if any, and
    `before`: the board as the job read it), not yet saved."""
    opened = engine.spawn_consume(state)
    spawn_report = opened.pop("report")
    board_apply(board, opened, spawn_report, rows)
    # The orders came back with the state; they are kept in their own rows, not twice.
    opened.pop("orders", None)
    return TurnRecord(
        turn=turn,
        board=board,
        state=opened,
        before=before,
        report={**(resolve_report or {}), **spawn_report},
    )


def records_save(
    campaign: Campaign, records: list[TurnRecord], knowledge_before: dict[int, dict[str, Any]]
) -> None:
    """R51: save the turn's records with every member's levels before and after the turn,
    after first letting each player who lost a department this turn keep its card
    (knowledge_after_control)."""
    knowledge_after_control(records)
    knowledge = knowledge_snapshot(campaign.pk)
    for record in records:
        record.knowledge_before = knowledge_before.get(record.board_id, {})
        record.knowledge = knowledge.get(record.board_id, {})
    TurnRecord.objects.bulk_create(records)


def knowledge_after_control(records: list[TurnRecord]) -> None:
    """R50: a player who controlled a department before the turn and does not after it (a
    capture, R44, or it left the structure, R13) still knows its card: their stored level
    is raised to `known`, so it does not vanish from their view (control itself follows the
    structure and is never stored). Two queries whatever the number of changes."""
    lost: set[tuple[int, int, str]] = set()  # (membership, board, slug)
    for record in records:
        after = {d["slug"]: d.get("structure") for d in record.state["departments"]}
        for dept in record.before.get("departments", []):
            owner = membership_pk_of(dept.get("structure"))
            if owner is not None and after.get(dept["slug"]) != dept["structure"]:
                lost.add((owner, record.board_id, dept["slug"]))
    if not lost:
        return
    ids = {
        (board_id, slug): pk
        for pk, board_id, slug in Department.objects.filter(
            board_id__in={b for _, b, _ in lost}, slug__in={s for _, _, s in lost}
        ).values_list("pk", "board_id", "slug")
    }
    wanted = {(member, ids[(board_id, slug)]) for member, board_id, slug in lost}
    # Never lower a stored level (a `controlled` row stays as it is).
    known_already = set(
        Knowledge.objects.filter(
            player_id__in={m for m, _ in wanted},
            department_id__in={d for _, d in wanted},
            level__gte=KNOWN,
        ).values_list("player_id", "department_id")
    )
    Knowledge.objects.bulk_create(
        [
            Knowledge(player_id=member, department_id=dept, level=KNOWN)
            for member, dept in sorted(wanted - known_already)
        ],
        update_conflicts=True,
        unique_fields=["player", "department"],
        update_fields=["level"],
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

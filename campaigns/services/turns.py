"""The turn job (RULES R31): resolve a turn's orders, spawn and consume, open the next turn.

The database decides whether a turn has run: the job takes the campaign row lock and does
nothing if the turn is no longer open, so a second beat, a redelivered task or a GM pressing
the button twice does nothing. Every write happens in one transaction; the mail is sent by
its own task after it commits (services/turn_mail.py).

On PostgreSQL, for a campaign of SNAPSHOT_FROM departments or more, the lock is held only
while the job writes. The job first reads the campaign in
a REPEATABLE READ snapshot and resolves it without any lock (the slow part: the engine), with
a fingerprint of every row it read (selectors/turns.py). Then it takes the lock and compares
the fingerprint: unchanged, it writes what it resolved; changed (an order was submitted
meanwhile, a GM edited a board), it resolves again under the lock. Either way the result is
the one of a job that ran entirely under the lock. Elsewhere (SQLite, or inside a caller's
transaction) everything runs under the lock, as one transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import engine
from campaigns.elections.services.election_notices import election_announce
from campaigns.engine.dice import commitment
from campaigns.intrigue.services.turn_envelopes import contingencies_open, envelope_notices
from campaigns.models import Campaign, Department, Knowledge, Order, Turn, TurnRecord
from campaigns.models.campaign import membership_pk_of
from campaigns.selectors.turns import scheduled_turn_is_due, turn_inputs_fingerprint
from campaigns.selectors.visibility import knowledge_snapshot
from campaigns.services.bulk_writes import rows_insert, rows_update
from campaigns.services.notifications import notify_gms
from campaigns.services.schedule import first_deadline_after, following_deadline, next_deadline
from campaigns.services.state import changes_write, classic_states_write
from campaigns.services.turn_effects import effects_write, knowledge_raise_many
from campaigns.services.turn_mail import turn_mail_later
from campaigns.services.turn_plans import BoardPlan, Resolved, boards_resolve

log = logging.getLogger(__name__)

MAX_FAILURES = 3
KNOWN = Knowledge.Level.KNOWN


def fresh_turn(campaign: Campaign, number: int, *, now: dt.datetime, deadline: dt.datetime) -> Turn:
    """R23: a new turn with a secret seed and its public commitment, due at `deadline`."""
    seed = secrets.token_hex(32)
    return Turn.objects.create(
        campaign=campaign,
        number=number,
        opened_at=now,
        deadline=deadline,
        seed=seed,
        commitment=commitment(seed),
    )


@dataclass
class TurnPlan:
    """Everything the job will write for one turn, computed from one consistent read."""

    turn: Turn
    boards: list[BoardPlan]
    orders: list[Order]
    knowledge_before: dict[int, dict[str, Any]]
    resolved: Resolved


def campaign_start(*, campaign: Campaign, now: dt.datetime | None = None) -> Turn:
    """R31: the campaign's first job: spawn and consume on every board, then turn 1 opens.
    The start is kept as turn 0 (processed) so history shows the opening state."""
    now = now or timezone.now()
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if campaign.turns.exists():
            raise ValueError(_("%(campaign)s has already started.") % {"campaign": campaign})
        setup = fresh_turn(campaign, 0, now=now, deadline=now)
        setup.status = Turn.Status.PROCESSED
        setup.processed_at = now
        setup.save()
        boards = list(campaign.boards.all())
        plans, resolved = boards_resolve(campaign, boards, None, {}, engine.spawn_consume, setup)
        plan_write(
            campaign, TurnPlan(setup, plans, [], knowledge_snapshot(campaign.pk), resolved), now=now
        )
        first = next_deadline(campaign, first_deadline_after(campaign, now))
        turn = fresh_turn(campaign, 1, now=now, deadline=first)
        election_announce(turn)
        campaign.status = Campaign.Status.RUNNING
        campaign.save(update_fields=["status"])
    return turn


@dataclass(frozen=True)
class TurnRun:
    """What one call of the job did: the turn it opened (None: nothing to do), whether it
    resolved the turn in a snapshot before taking the campaign lock, the seconds spent before
    taking the lock, the seconds the lock was held, whether the job had to resolve again
    under the lock because its input changed meanwhile, and of the locked seconds those spent
    writing the boards' changes and the orders' outcomes (bench_turns sets them against the
    database's write floor; the rest of the lock writes the history records)."""

    opened: Turn | None
    in_snapshot: bool = False
    unlocked_seconds: float = 0.0
    locked_seconds: float = 0.0
    resolved_again: bool = False
    boards_written_seconds: float = 0.0


# Called under the campaign lock, in the job's transaction, once the turn is processed:
# (the locked campaign, the processed turn, the turn that opens). The GM's "process now"
# writes its audit entry (R53) with it.
Then = Callable[[Campaign, Turn, Turn], None]


def turn_process(
    *,
    campaign_id: int,
    number: int,
    now: dt.datetime | None = None,
    running_only: bool = False,
    then: Then | None = None,
) -> Turn | None:
    """Process turn `number` once; return the newly opened turn, or None if there was
    nothing to do (already processed, failed, or no such turn; with `running_only`, as the
    tick asks, also a turn that is not due: its campaign paused meanwhile, or its deadline
    extended). See turn_run."""
    return turn_run(
        campaign_id=campaign_id, number=number, now=now, running_only=running_only, then=then
    ).opened


def turn_run(
    *,
    campaign_id: int,
    number: int,
    now: dt.datetime | None = None,
    running_only: bool = False,
    then: Then | None = None,
) -> TurnRun:
    """The job, with its timings (bench_turns prints them). Concurrent calls queue behind
    the campaign row lock and then see the turn processed. `then`: see Then."""
    started = time.perf_counter()
    early: tuple[str, TurnPlan] | None = None
    if snapshot_worth_it(campaign_id):
        early = plan_in_snapshot(campaign_id, number, now=now, running_only=running_only)
        if early is None:
            return TurnRun(None, True, time.perf_counter() - started)
    unlocked = time.perf_counter() - started
    released: list[float] = []  # when the COMMIT (or ROLLBACK) let the lock go
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        locked_at = time.perf_counter()
        # First of the on-commit hooks, so the mail's queueing is not counted as locked.
        transaction.on_commit(lambda: released.append(time.perf_counter()))
        now = now or timezone.now()  # after the lock: we may have waited for it
        turn = due_turn(campaign, number, now=now, running_only=running_only)
        if turn is None:
            return TurnRun(None, early is not None, unlocked, time.perf_counter() - locked_at)
        if early is not None and early[0] == turn_inputs_fingerprint(campaign.pk, turn.pk):
            plan, again = early[1], False
        else:
            plan, again = turn_plan(campaign, turn), early is not None
        written = plan_write(campaign, plan, now=now)
        turn.status = Turn.Status.PROCESSED
        turn.processed_at = now
        turn.mail_owed = True  # the mail task claims it (turn_mail.py)
        if turn.failures:
            # The GM's pages and the archive show the count and error of a turn still
            # failing; this one is done. The failures' tracebacks stay in the log (logged
            # by turn_process_safely as each happened).
            log.info(
                "turn %s of campaign %s processed after %s failed run(s), the last: %s",
                number, campaign_id, turn.failures, turn.last_error,
            )  # fmt: skip
        turn.failures, turn.last_error = 0, ""
        turn.save(update_fields=["status", "processed_at", "mail_owed", "failures", "last_error"])
        # R30: processed on time or late, the next turn is due a week on (missed weeks are
        # each processed in turn); processed early (the GM, or every player ready), at the
        # first weekly slot at least the campaign's minimum turn length away.
        following = fresh_turn(
            campaign, number + 1, now=now, deadline=following_deadline(campaign, turn.deadline, now)
        )
        election_announce(following)  # R80: players are told when a turn with one opens
        if then is not None:
            then(campaign, turn, following)
        transaction.on_commit(lambda: turn_mail_later(turn.pk), robust=True)
    if again:
        log.info("turn %s of campaign %s: input changed, resolved again", number, campaign_id)
    # Inside a caller's transaction the lock outlives this call: counted up to here.
    locked = (released or [time.perf_counter()])[0] - locked_at
    return TurnRun(following, early is not None, unlocked, locked, again, written)


# Below this many departments the job is over in a few milliseconds: resolving it first in a
# snapshot would cost more round trips (the snapshot, two fingerprints) than the lock saves.
SNAPSHOT_FROM = 300


def snapshot_worth_it(campaign_id: int) -> bool:
    """Resolve before taking the lock? Only on PostgreSQL, outside a caller's transaction
    (whose locks and snapshot would be ours), and for a campaign big enough to matter."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return False
    departments = Department.objects.filter(board__campaign_id=campaign_id)
    return departments[SNAPSHOT_FROM - 1 : SNAPSHOT_FROM].exists()


def due_turn(
    campaign: Campaign, number: int, *, now: dt.datetime, running_only: bool
) -> Turn | None:
    """Turn `number` if the job should process it now: it is open and, for the tick
    (`running_only`), still due. The tick found it due, but its message may have waited in
    the queue (workers down) while the GM paused the campaign or extended the deadline (R30)."""
    turn = Turn.objects.filter(campaign=campaign, number=number).first()
    if turn is None or turn.status != Turn.Status.OPEN:
        return None
    if running_only and not scheduled_turn_is_due(campaign, turn, now):
        return None
    return turn


def plan_in_snapshot(
    campaign_id: int, number: int, *, now: dt.datetime | None, running_only: bool
) -> tuple[str, TurnPlan] | None:
    """PostgreSQL: read and resolve the turn in one REPEATABLE READ snapshot, without any
    lock; return the fingerprint of what was read with the plan, or None if the turn is not
    there to process."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        campaign = Campaign.objects.get(pk=campaign_id)
        turn = due_turn(campaign, number, now=now or timezone.now(), running_only=running_only)
        if turn is None:
            return None
        return turn_inputs_fingerprint(campaign.pk, turn.pk), turn_plan(campaign, turn)


def turn_plan(campaign: Campaign, turn: Turn) -> TurnPlan:
    """R31 steps 2-3 for every board (services/turn_plans.py), computed and not written."""
    queued: defaultdict[int, list[Order]] = defaultdict(list)
    orders = list(turn.orders.filter(status=Order.Status.QUEUED).order_by("seq", "pk"))
    for order in orders:
        queued[order.board_id].append(order)
    knowledge = knowledge_snapshot(campaign.pk)
    plans, resolved = resolve_boards(campaign, turn, queued)
    return TurnPlan(turn, plans, orders, knowledge, resolved)


def resolve_boards(
    campaign: Campaign, turn: Turn, queued: dict[int, list[Order]]
) -> tuple[list[BoardPlan], Resolved]:
    """R31 steps 2-3 on every board of the campaign in one engine call (one per campaign
    of one board): reads only; the orders' status and result are set on `queued`."""
    boards = list(campaign.boards.all())
    return boards_resolve(campaign, boards, turn, queued, engine.resolve_then_spawn, turn)


def plan_write(campaign: Campaign, plan: TurnPlan, *, now: dt.datetime) -> float:
    """Write a plan: the changed departments and links (a classic board's new state),
    the orders' outcomes, what the turn
    did beside the boards (goals, offices, the election, dossiers and knowledge: RULES R60-R80,
    services/turn_effects.py), the records, and the contingency envelopes the turn opened
    (R72). Call holding the campaign row lock. Returns the seconds spent on the first two
    (TurnRun.boards_written_seconds)."""
    started = time.perf_counter()
    changes_write([b.changes for b in plan.boards])
    classic_states_write(
        {b.record.board_id: b.classic for b in plan.boards if b.classic is not None}, now=now
    )
    rows_update(Order, ["status", "result"], [(o.pk, o.status, o.result) for o in plan.orders])
    written = time.perf_counter() - started
    effects = effects_write(plan.turn, plan.resolved)
    records_save(campaign, plan.boards, plan.knowledge_before, now=now)
    opened = contingencies_open(campaign, plan.turn, plan.resolved, now=now)
    envelope_notices(campaign, plan.turn, effects.dossier, opened)
    return written


def records_save(
    campaign: Campaign,
    boards: list[BoardPlan],
    knowledge_before: dict[int, dict[str, Any]],
    *,
    now: dt.datetime,
) -> None:
    """R51: save the turn's records with every member's levels before and after the turn,
    after first letting each player who lost a department this turn keep its card
    (knowledge_after_control)."""
    knowledge_after_control(boards)
    knowledge = knowledge_snapshot(campaign.pk)
    fields = ["turn", "board", "state", "report", "before", "knowledge", "knowledge_before"]
    rows_insert(
        TurnRecord,
        [*fields, "created_at"],
        [
            (r.turn_id, r.board_id, r.state, r.report, r.before,
             knowledge.get(r.board_id, {}), knowledge_before.get(r.board_id, {}), now)
            for r in (b.record for b in boards)
        ],
    )  # fmt: skip


def knowledge_after_control(boards: list[BoardPlan]) -> None:
    """R50: a player who controlled a department before the turn and does not after it (a
    capture, R44, or it left the structure, R13) still knows its card: their stored level
    is raised to `known`, so it does not vanish from their view (control itself follows the
    structure and is never stored). Two queries at most, whatever the number of changes."""
    wanted: dict[tuple[int, int], int] = {}  # (membership, department) -> level
    for plan in boards:
        if plan.classic is not None:  # R99: a classic board keeps no knowledge
            continue
        record = plan.record
        after = {d["slug"]: d.get("structure") for d in record.state["departments"]}
        for dept in record.before.get("departments", []):
            if "board" in dept:  # a stub: its own board's record tells of it
                continue
            owner = membership_pk_of(dept.get("structure"))
            if owner is not None and after.get(dept["slug"]) != dept["structure"]:
                wanted[(owner, plan.rows.ids[dept["slug"]])] = KNOWN
    knowledge_raise_many(wanted)


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
                lambda: notify_gms(campaign, lambda: failed_words(number, turn.last_error)),
                robust=True,  # the failure is recorded whether or not the mail goes out
            )
        turn.save(update_fields=["failures", "last_error", "status"])
    return turn


def failed_words(number: int, error: str) -> tuple[str, str]:
    """The GMs' notice of a turn the job gave up on, in the active language."""
    subject = _("Turn %(n)s failed") % {"n": number}
    body = _(
        "The turn job failed %(times)s times and has stopped retrying.\nLast error: %(error)s\n"
        "Fix the cause, then reopen the turn in the admin (status open, failures 0)."
    ) % {"times": MAX_FAILURES, "error": error}
    return subject, body


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

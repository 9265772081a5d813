"""RULES R31 under concurrency, on PostgreSQL: two workers (or a worker and a GM's click)
running the same turn at the same moment. The campaign row lock makes one of them do the
job and the other find it done: one record per board, one turn N+1, no error anywhere."""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from typing import Any

import pytest
from django.utils import timezone

from campaigns.models import Order, Turn, TurnRecord
from campaigns.services import turns
from campaigns.services.turns import turn_process, turn_process_safely
from tests.support.race import race
from tests.support.turn_job import make_due, started_campaign

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SLOW_BOARD = 0.25  # seconds each board takes, so the calls surely overlap


@pytest.fixture
def slow_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    real = turns.resolve_boards

    def slow(*args: Any) -> Any:
        record = real(*args)
        time.sleep(SLOW_BOARD)
        return record

    monkeypatch.setattr(turns, "resolve_boards", slow)


def test_two_concurrent_runs_of_a_turn_process_it_once(postgres: None, slow_boards: None) -> None:
    game = started_campaign(boards=2)
    game.order(
        game.alice, "move", **{"from": "treasury", "path": ["mint"], "tokens": {"authority": 1}}
    )

    results = race(2, lambda: turn_process(campaign_id=game.campaign.pk, number=1))

    opened = [(turn, at) for turn, at in results if turn is not None]
    assert len(opened) == 1, results
    (winner, _), (loser, waited) = opened[0], next(r for r in results if r[0] is None)
    assert winner.number == 2 and loser is None
    assert waited >= SLOW_BOARD  # it queued behind the first's lock, then did nothing
    turn_1 = game.turn(1)
    assert turn_1.status == Turn.Status.PROCESSED
    for board in game.boards:
        assert TurnRecord.objects.filter(turn=turn_1, board=board).count() == 1
    assert Turn.objects.filter(campaign=game.campaign, number=2).count() == 1
    assert Turn.objects.filter(campaign=game.campaign, number=3).count() == 0
    assert Order.objects.get().status == Order.Status.SUCCEEDED


@pytest.mark.parametrize("snapshot", [False, True], ids=["under-the-lock", "snapshot-first"])
def test_many_ticks_racing_count_no_failure(
    postgres: None,
    slow_boards: None,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    snapshot: bool,
) -> None:
    """Four ticks race for each turn. The losers wait for the winner's lock and find the turn
    done: no error at all. (Without the lock, the losers' records collide with the winner's
    on the unique constraint: the ledger would still be right, but each loser logs a failed
    run; this test counts those.) Both ways the job runs: resolved under the lock (a small
    campaign), and resolved first in a snapshot, the lock taken only to write (a big one,
    services/turns.py SNAPSHOT_FROM): there every racer resolves the turn, and the lock
    alone decides which one writes it."""
    if snapshot:
        monkeypatch.setattr(turns, "SNAPSHOT_FROM", 1)
    game = started_campaign(boards=2)
    caplog.set_level(logging.ERROR, logger="campaigns")

    for number in (1, 2):
        make_due(game, number, timezone.now() - dt.timedelta(minutes=1))
        results = race(
            4, lambda n=number: turn_process_safely(campaign_id=game.campaign.pk, number=n)
        )
        assert sorted(t.number for t, _ in results if t is not None) == [number + 1]

    assert [(t.number, t.status, t.failures) for t in game.campaign.turns.order_by("number")] == [
        (0, Turn.Status.PROCESSED, 0),
        (1, Turn.Status.PROCESSED, 0),
        (2, Turn.Status.PROCESSED, 0),
        (3, Turn.Status.OPEN, 0),
    ]
    assert TurnRecord.objects.filter(turn__number__in=[1, 2]).count() == 4
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_a_failure_counted_while_another_worker_runs_the_turn_waits_for_it(
    postgres: None, slow_boards: None
) -> None:
    """Worker A's run of turn 1 failed and is being counted while worker B is processing
    turn 1. Counting takes the campaign lock first, as the job does: it waits for B, finds
    the turn processed and counts nothing. (Locking the turn row first deadlocked: B needs
    that row at its end, A needed B's campaign row.) B holds the lock while it writes (it
    resolves before taking it, services/turns.py), so that is when A counts."""
    game = started_campaign(boards=2)
    started = threading.Event()
    real = turns.plan_write

    def signalling(*args: Any, **kwargs: Any) -> Any:
        started.set()  # B holds the campaign lock now
        time.sleep(SLOW_BOARD)  # and keeps it long enough for A to queue behind it
        return real(*args, **kwargs)

    turns.plan_write = signalling
    try:

        def job() -> Turn | None:
            if threading.current_thread().name == "counting":
                assert started.wait(10)
                return turns.turn_record_failure(
                    campaign_id=game.campaign.pk, number=1, error=RuntimeError("A failed")
                )
            return turn_process(campaign_id=game.campaign.pk, number=1)

        results = race(2, job, names=["processing", "counting"])
    finally:
        turns.plan_write = real

    assert sorted(str(turn) for turn, _ in results) == sorted([str(game.turn(2)), "None"])
    turn_1 = game.turn(1)
    assert (turn_1.status, turn_1.failures, turn_1.last_error) == (Turn.Status.PROCESSED, 0, "")


MOVE = {"from": "treasury", "path": ["mint"], "tokens": {"authority": 1}}


@pytest.fixture
def snapshot_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resolve in a snapshot first whatever the size (services/turns.py SNAPSHOT_FROM)."""
    monkeypatch.setattr(turns, "SNAPSHOT_FROM", 1)


def test_the_job_resolves_without_the_lock_and_writes_what_it_resolved(
    postgres: None, snapshot_always: None
) -> None:
    """Nothing changed between the job's snapshot and its lock: it writes what it resolved
    in the snapshot, and holds the lock only for that."""
    game = started_campaign(boards=2)
    order = game.order(game.alice, "move", **MOVE)

    run = turns.turn_run(campaign_id=game.campaign.pk, number=1)

    assert run.opened is not None and run.in_snapshot and not run.resolved_again
    assert run.unlocked_seconds > 0 and run.locked_seconds > 0
    order.refresh_from_db()
    assert order.status == Order.Status.SUCCEEDED


def test_a_small_campaign_is_resolved_under_the_lock_at_once(postgres: None) -> None:
    """Below SNAPSHOT_FROM departments the snapshot would cost more than it saves."""
    game = started_campaign(boards=2)

    run = turns.turn_run(campaign_id=game.campaign.pk, number=1)

    assert run.opened is not None and not run.in_snapshot


def test_an_order_queued_while_the_job_resolves_is_resolved_with_the_turn(
    postgres: None, snapshot_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An order stored after the job's snapshot and before its lock (a submission that was
    not kept waiting) changes the fingerprint: the job resolves again under the lock, so the
    order is part of the turn as if the job had held the lock throughout."""
    game = started_campaign(boards=1)
    real = turns.plan_in_snapshot
    late: list[Order] = []

    def then_an_order_arrives(*args: Any, **kwargs: Any) -> Any:
        planned = real(*args, **kwargs)
        late.append(game.order(game.alice, "move", **MOVE))
        return planned

    monkeypatch.setattr(turns, "plan_in_snapshot", then_an_order_arrives)

    run = turns.turn_run(campaign_id=game.campaign.pk, number=1)

    assert run.opened is not None and run.resolved_again
    (order,) = late
    order.refresh_from_db()
    assert order.status == Order.Status.SUCCEEDED
    record = TurnRecord.objects.get(turn=game.turn(1))
    assert str(order.pk) in record.report["orders"]

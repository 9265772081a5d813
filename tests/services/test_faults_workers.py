"""The fault matrix, rows 1, 2 and 5 (issue 9): real Celery workers (`python -m celery`) on
the real Redis broker and PostgreSQL, a fault injected into them mid-turn, then the ledger
(tests/support/ledger.py): every due turn processed exactly once, as the engine foresaw
before the fault, no order lost or duplicated, no half-written turn.

Rows 3, 4 and 6 (beat, a broker restart, an outage) are in test_faults_beat.py, row 7 (orders
racing the deadline) in test_faults_deadline.py. `./test -m "not faults"` skips them all.

How a fault is struck at a known moment: tests/services/celery_test_app.py holds the turn
job after its first board, inside its transaction (TEST_FAULT_HOLD), or slows each board
down (TEST_FAULT_SLOW_BOARD). Nothing is mocked: the workers run the project's code and
configuration (acks late, reject on worker lost, prefetch 1) against the test database.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from django.db import connection

from campaigns.models import Turn
from campaigns.tasks import process_due_turns
from tests.support.ledger import foresee, ledger_problems
from tests.support.processes import Cluster, task_results
from tests.support.turn_job import due_campaign, rows, rows_changed

pytestmark = [
    pytest.mark.faults,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

# Redis hands a message no worker acknowledged to another after this long (an hour in
# production, where the next tick comes sooner anyway).
VISIBILITY = "4"
# Each board of the job takes this much longer, so two runs of one turn surely overlap.
SLOW_BOARD = "1.5"


def held(folder: Path, cluster: Cluster) -> dict[str, int]:
    """Wait until a worker holds the turn job after its first board (celery_test_app.py);
    returns its process id and its database backend's."""
    marker = folder / "held"
    cluster.wait_until(lambda: marker.exists() and marker.read_text() != "", "a job held")
    data: dict[str, int] = json.loads(marker.read_text())
    return data


@pytest.mark.parametrize("killed", ["worker", "pool process"])
def test_row1_a_worker_killed_mid_turn_hands_it_to_another(
    cluster: Cluster, tmp_path: Path, killed: str
) -> None:
    """SIGKILL in the middle of a turn, after the first board was written in the job's
    transaction. `worker`: the whole worker with its session (the machine lost it); Redis
    hands the unacknowledged message (acks late) to a second worker once the visibility
    timeout passes. `pool process`: only the prefork child running the job (the OOM killer);
    the worker rejects the message back to the queue (reject on worker lost) and runs it
    again. Either way the turn is processed once, exactly as foreseen."""
    game = due_campaign()
    foreseen = foresee(game.campaign, 1)
    before = rows()
    hold = tmp_path / "hold"
    hold.mkdir()
    # Prefork, as `celery worker` runs by default: with the solo pool the job would run
    # inside the worker's event loop, which then sends no acknowledgement until the job
    # returns, so an early ack would never be tried.
    first = cluster.worker(
        "first", pool="prefork", TEST_FAULT_HOLD=str(hold), TEST_VISIBILITY_TIMEOUT=VISIBILITY
    )
    cluster.wait_ready(first)

    process_due_turns.apply_async(queue=cluster.queue)
    job = held(hold, cluster)
    assert job["pid"] != first.popen.pid  # the job runs in the pool's child
    if killed == "worker":
        first.kill()
        # The half-written turn died with its transaction.
        assert rows_changed(before, rows()) == []
        second = cluster.worker("second", TEST_VISIBILITY_TIMEOUT=VISIBILITY)
    else:
        os.kill(job["pid"], signal.SIGKILL)
        second = first

    cluster.wait_until(lambda: game.turn(1).status != Turn.Status.OPEN, "turn 1 redelivered")
    cluster.wait_until(lambda: cluster.settled(), "every task finished")
    assert ledger_problems(game.campaign, open_turn=2, foreseen=[foreseen]) == []
    assert task_results(second, "campaigns.tasks.process_turn") == ["True"]
    if killed == "pool process":
        assert "WorkerLostError" in first.output()  # the child was lost, the message kept


def test_row2_two_workers_and_a_tick_sent_twice_process_the_turn_once(cluster: Cluster) -> None:
    """Two workers consume one queue; the tick is sent twice, so each queues the turn job
    and both workers run it at the same moment (each board is slow, so they overlap). The
    campaign row lock makes one do it and the other find it done: one True, one False, no
    error logged, the ledger as foreseen."""
    game = due_campaign()
    foreseen = foresee(game.campaign, 1)
    workers = [cluster.worker(name, TEST_FAULT_SLOW_BOARD=SLOW_BOARD) for name in ("a", "b")]
    cluster.wait_ready(*workers)

    process_due_turns.apply_async(queue=cluster.queue)
    process_due_turns.apply_async(queue=cluster.queue)

    cluster.wait_until(lambda: game.turn(1).status != Turn.Status.OPEN, "turn 1 processed")
    cluster.wait_until(lambda: cluster.settled(), "every task finished")
    assert ledger_problems(game.campaign, open_turn=2, foreseen=[foreseen]) == []
    results = {w.name: task_results(w, "campaigns.tasks.process_turn") for w in workers}
    assert sorted(r for rs in results.values() for r in rs) == ["False", "True"], results
    assert all(results.values()), f"one worker ran both jobs, nothing overlapped: {results}"
    assert (errors := cluster.errors()) == [], "\n".join(errors)


def test_row5_a_connection_cut_mid_turn_fails_cleanly_and_the_next_tick_finishes(
    cluster: Cluster, tmp_path: Path
) -> None:
    """pg_terminate_backend on the job's own connection after its first board was written:
    the job fails, nothing of it stays (every row as before, but the failure counted), and
    the worker, on a fresh connection, finishes the turn at the next tick."""
    game = due_campaign()
    foreseen = foresee(game.campaign, 1)
    before = rows()
    hold = tmp_path / "hold"
    hold.mkdir()
    worker = cluster.worker("worker", TEST_FAULT_HOLD=str(hold))
    cluster.wait_ready(worker)

    process_due_turns.apply_async(queue=cluster.queue)
    job = held(hold, cluster)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [job["backend"]])
        assert cursor.fetchone() == (True,)
    (hold / "release").touch()

    cluster.wait_until(lambda: cluster.settled(), "the failed job's task finished")
    turn_1 = game.turn(1)
    after = rows()
    for row in after["Turn"]:
        if row["id"] == turn_1.pk:
            row.update(failures=0, last_error="")
    assert rows_changed(before, after) == []  # nothing half-written: at most the count changed
    assert (turn_1.status, turn_1.failures) == (Turn.Status.OPEN, 1)
    assert "terminating connection due to administrator command" in turn_1.last_error

    process_due_turns.apply_async(queue=cluster.queue)  # the next tick

    cluster.wait_until(lambda: game.turn(1).status != Turn.Status.OPEN, "turn 1 processed")
    cluster.wait_until(lambda: cluster.settled(), "every task finished")
    # Processed, the turn shows no failure any more (the failure stays in the log only).
    assert ledger_problems(game.campaign, open_turn=2, foreseen=[foreseen]) == []
    assert game.turn(1).last_error == ""
    assert task_results(worker, "campaigns.tasks.process_turn") == ["False", "True"]

"""The project's Celery app for workers and beats started by a test (tests/support/processes.py).

Its default queue is TEST_CELERY_QUEUE, a name unique to that test run, so the worker takes
only the messages the test sends, and the tasks those tasks queue (process_turn.delay) land
in the same queue: a developer's worker on the same Redis never sees them, and this worker
never takes theirs. Everything else is illumineaucracy/celery.py and the settings.

    TEST_CELERY_QUEUE=q celery -A tests.services.celery_test_app worker --pool=solo

The fault matrix (tests/services/test_faults_*.py) switches on, per process, hooks that let
it strike at a known moment; each is off unless its variable is set:

- TEST_FAULT_SLOW_BOARD=S: each turn job's writing takes S seconds longer (under the
  campaign lock), so that jobs surely overlap.
- TEST_FAULT_HOLD=FOLDER: the first turn job (of all processes sharing FOLDER) stops after
  it has written the changed departments and links, before the orders' outcomes and the
  records, inside its transaction, writes FOLDER/held (this process id
  and its database backend's) and waits until FOLDER/release exists. The test kills the
  process or cuts its connection meanwhile: a half-written turn, on purpose.
- TEST_BEAT_INTERVAL=S: the project's beat schedule (settings.CELERY_BEAT_SCHEDULE) with
  every entry every S seconds instead of minutes; the scheduler is still the project's.
- TEST_VISIBILITY_TIMEOUT=S: Redis hands an unacknowledged message to another worker after
  S seconds instead of an hour, and workers look for such messages every second.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from celery.signals import worker_init
from django.conf import settings

from illumineaucracy.celery import app

app.conf.task_default_queue = os.environ["TEST_CELERY_QUEUE"]

if interval := os.environ.get("TEST_BEAT_INTERVAL"):
    app.conf.beat_schedule = {
        name: {**entry, "schedule": int(interval)}
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
    }

if timeout := os.environ.get("TEST_VISIBILITY_TIMEOUT"):
    app.conf.broker_transport_options = {
        **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
        "visibility_timeout": int(timeout),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    }

HOLD_LIMIT = 300  # seconds a held job waits for the test at most


def held_first_board(folder: Path) -> None:
    """Once across processes (the file is created exclusively): report, then wait."""
    from django.db import connection

    try:
        marker = os.open(folder / "held", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()
    os.write(marker, json.dumps({"pid": os.getpid(), "backend": backend}).encode())
    os.close(marker)
    limit = time.monotonic() + HOLD_LIMIT
    while not (folder / "release").exists() and time.monotonic() < limit:
        time.sleep(0.1)


@worker_init.connect
def install_fault_hooks(**_: Any) -> None:
    """In the worker's main process, before its pool forks (the children inherit it)."""
    import django

    django.setup()
    slow = float(os.environ.get("TEST_FAULT_SLOW_BOARD") or 0)
    hold = os.environ.get("TEST_FAULT_HOLD")
    if not slow and not hold:
        return
    from campaigns.services import turns

    real = turns.changes_write

    def changes_write(*args: Any) -> None:
        # The turn job writes the changed departments and links first, then the orders'
        # outcomes and the records: stopping here leaves a half-written turn.
        real(*args)
        if hold:
            held_first_board(Path(hold))
        time.sleep(slow)

    turns.changes_write = changes_write


__all__ = ["app"]

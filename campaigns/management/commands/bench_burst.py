"""`manage.py bench_burst`: the weekly burst. Many campaigns due at the same minute, processed
by real Celery worker processes through the real broker, exactly once each.

Builds --campaigns campaigns of one random board of --departments departments each (as
bench_turns builds them, with a few queued orders), then for each worker count in --workers:
makes every campaign's open turn due, starts that many worker processes (`celery worker
--pool=solo`, on a queue of this run's own, CELERY_QUEUE), sends one beat tick and waits
until every turn is processed (the workers' output goes to a file in the temporary folder).
Prints seconds and campaigns per second per worker count,
and checks the ledger: one record per campaign for the turn, one new turn each, no failure.
Needs CELERY_BROKER_URL=redis://... and PostgreSQL. Target: 1,000 campaigns of 20
departments in under 30 s with two workers. The campaigns are deleted afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from campaigns.management.benching import vacuum
from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import Campaign, Turn, TurnRecord
from campaigns.tasks import process_due_turns
from illumineaucracy.celery import app

WAIT = 600  # seconds: a bound on one burst, not a pause


def worker_processes(count: int, queue: str, log: Path) -> list[subprocess.Popen[bytes]]:
    """`count` workers on `queue`, their output appended to `log`."""
    env = {**os.environ, "CELERY_QUEUE": queue, "PYTHONUNBUFFERED": "1"}
    out = log.open("ab")
    return [
        subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "illumineaucracy", "worker"),
                *("--pool=solo", "--loglevel=WARNING", f"--hostname=burst{n}-{queue}@%h"),
                *("--without-heartbeat", "--without-gossip", "--without-mingle"),
            ],
            cwd=Path(settings.BASE_DIR),
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        for n in range(count)
    ]


def stop(workers: list[subprocess.Popen[bytes]]) -> None:
    for worker in workers:
        worker.terminate()
    for worker in workers:
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()


class Command(BaseCommand):
    help = "Time 1,000 campaigns due at once through real Celery workers."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--campaigns", type=int, default=1_000)
        parser.add_argument("--departments", type=int, default=20)
        parser.add_argument("--orders", type=int, default=5, help="queued per campaign")
        parser.add_argument("--workers", default="1,2", help="worker counts, in turn")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.CELERY_BROKER_URL.startswith("redis://"):
            raise CommandError("needs CELERY_BROKER_URL=redis://...")
        if connection.vendor != "postgresql":
            raise CommandError("needs DATABASE_URL=postgres://... (workers are processes)")
        prefix = f"burst-{timezone.now():%Y%m%d%H%M%S}"
        count = options["campaigns"]
        started = time.perf_counter()
        ids = [
            bench_campaign(
                slug=f"{prefix}-{n}", boards=1, departments=options["departments"],
                orders=options["orders"], seed=n,
            ).pk
            for n in range(count)
        ]  # fmt: skip
        self.stdout.write(
            f"built {count} campaigns of {options['departments']} departments in "
            f"{time.perf_counter() - started:.1f} s"
        )
        try:
            for workers in (int(n) for n in options["workers"].split(",")):
                self.burst(ids, workers)
        finally:
            Turn.objects.filter(campaign_id__in=ids).delete()
            Campaign.objects.filter(pk__in=ids).delete()
            get_user_model().objects.filter(username__startswith=f"{prefix}-").delete()

    def burst(self, ids: list[int], workers: int) -> None:
        open_turns = Turn.objects.filter(campaign_id__in=ids, status=Turn.Status.OPEN)
        number = open_turns.values_list("number", flat=True).distinct().get()
        vacuum()
        open_turns.update(deadline=timezone.now() - timezone.timedelta(minutes=1))
        queue = f"burst-{uuid.uuid4().hex[:10]}"
        log = Path(tempfile.gettempdir()) / f"{queue}.log"
        processes = worker_processes(workers, queue, log)
        try:
            time.sleep(3)  # let them connect: start-up is not the burst
            started = time.perf_counter()
            process_due_turns.apply_async(queue=queue)
            done = Turn.objects.filter(
                campaign_id__in=ids, number=number, status=Turn.Status.PROCESSED
            )
            while done.count() < len(ids):
                if time.perf_counter() - started > WAIT:
                    raise CommandError(f"only {done.count()} of {len(ids)} after {WAIT} s")
                if any(p.poll() is not None for p in processes):
                    raise CommandError(f"a worker exited (its output: {log})")
                time.sleep(0.1)
            seconds = time.perf_counter() - started
        finally:
            stop(processes)
            app.connection_for_write().default_channel.client.delete(queue)
        self.ledger(ids, number)
        verdict = "OK" if seconds < 30 else "SLOW"
        self.stdout.write(
            f"{workers} worker(s): {len(ids)} campaigns' turn {number} in {seconds:.1f} s, "
            f"{len(ids) / seconds:.1f} campaigns/s, each exactly once  {verdict} (< 30 s)"
        )

    def ledger(self, ids: list[int], number: int) -> None:
        """Exactly once: one record per campaign for the turn, one turn after it, no failure."""
        records = TurnRecord.objects.filter(turn__campaign_id__in=ids, turn__number=number)
        per_campaign = records.values("turn__campaign_id").annotate(n=Count("pk"))
        if records.count() != len(ids) or any(row["n"] != 1 for row in per_campaign):
            raise CommandError(f"turn {number}: records are not one per campaign")
        following = Turn.objects.filter(campaign_id__in=ids, number=number + 1)
        if following.count() != len(ids):
            raise CommandError(f"turn {number + 1} was not opened exactly once per campaign")
        if Turn.objects.filter(campaign_id__in=ids, failures__gt=0).exists():
            raise CommandError("a turn job failed")

"""The turn job through a real Celery worker and the real Redis broker (RULES R31): the beat
tick finds the due turn, queues process_turn, a worker process picks it up and processes it
in the test database. Nothing eager, nothing mocked.

Needs PostgreSQL (the worker is another process and must reach the test database, which it
can only on a server) and CELERY_BROKER_URL=redis://... (CI sets both). The worker listens
on a queue unique to this run (tests/services/celery_test_app.py), so it never takes
another worker's messages and no other worker takes its own."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from campaigns.models import Turn, TurnRecord
from campaigns.tasks import process_due_turns, process_turn
from illumineaucracy.celery import app
from tests.support.turn_job import GM_EMAIL, started_campaign

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(settings.BASE_DIR)
WAIT = 60  # seconds: a bound, not a pause; the turns are usually done in well under one


@dataclass
class Worker:
    queue: str
    log: Path
    mail: Path
    process: subprocess.Popen[bytes]

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def sent(self) -> str:
        """Every mail the worker has sent so far (one file per connection)."""
        return "".join(p.read_text(errors="replace") for p in sorted(self.mail.glob("*")))


def database_url() -> str:
    """pytest-django's test database (test_<name>), as a URL for the worker's settings."""
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{quote(db['USER'] or '', safe='')}{password}@{host}{port}/{db['NAME']}"


def forget_queue(queue: str) -> None:
    """Remove what kombu keeps in Redis for the queue (messages, its binding)."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5)
    client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    client.close()


def start_worker(queue: str, folder: Path, name: str) -> Worker:
    """A worker process on `queue`, its log in `folder`/`name`.log, its mail in
    `folder`/mail (shared by the workers of one folder)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "illumineaucracy.settings",
        "SECRET_KEY": "tests-only-not-a-secret",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "TEST_CELERY_QUEUE": queue,
        # django-environ drops the first slash of the path: four in all for an absolute one.
        "EMAIL_URL": f"filemail:///{folder / 'mail'}",
        "PYTHONUNBUFFERED": "1",
    }
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "tests.services.celery_test_app"),
                *("worker", "--pool=solo", "--loglevel=INFO", f"--hostname={name}-{queue}@%h"),
                *("--without-heartbeat", "--without-gossip", "--without-mingle"),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Worker(queue=queue, log=log, mail=folder / "mail", process=process)


def stop_worker(worker: Worker) -> None:
    worker.process.terminate()  # warm shutdown: finishes (or gives back) the current task
    try:
        worker.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.process.kill()
        worker.process.wait(timeout=10)


@contextmanager
def workers_on_one_queue(
    count: int, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Worker]]:
    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip(
            f"needs CELERY_BROKER_URL=redis://... (CI sets it), not {settings.CELERY_BROKER_URL}"
        )
    # The test settings run queued tasks eagerly; these tests' calls go to the real broker.
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    queue = f"test-turns-{uuid.uuid4().hex[:12]}"
    folder = tmp_path_factory.mktemp("worker")
    workers = [start_worker(queue, folder, f"w{n}") for n in range(count)]
    try:
        yield workers
    finally:
        app.conf.task_always_eager = eager
        for worker in workers:
            stop_worker(worker)
        forget_queue(queue)


@pytest.fixture(scope="module")
def worker(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    with workers_on_one_queue(1, tmp_path_factory) as (one,):
        yield one


@pytest.fixture(scope="module")
def two_workers(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Worker]]:
    with workers_on_one_queue(2, tmp_path_factory) as both:
        yield both


def wait_for(worker: Worker, done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():
        if worker.process.poll() is not None:
            pytest.fail(f"the worker exited ({worker.process.returncode}):\n{worker.output()}")
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {WAIT} s. Worker log:\n{worker.output()}")
        time.sleep(0.2)


def test_a_worker_processes_the_turn_the_tick_finds_due(worker: Worker) -> None:
    game = started_campaign(boards=2)
    Turn.objects.filter(campaign=game.campaign, number=1).update(
        deadline=timezone.now() - dt.timedelta(minutes=1)
    )

    process_due_turns.apply_async(queue=worker.queue)

    wait_for(worker, lambda: game.turn(1).status != Turn.Status.OPEN, "turn 1 being processed")
    turn_1 = game.turn(1)
    assert (turn_1.status, turn_1.failures, turn_1.last_error) == (Turn.Status.PROCESSED, 0, "")
    assert TurnRecord.objects.filter(turn=turn_1).count() == 2
    turn_2 = game.turn(2)
    assert turn_2.status == Turn.Status.OPEN and turn_2.deadline > timezone.now()
    # The worker ran both tasks, and after commit told the players.
    log = worker.output()
    assert "campaigns.tasks.process_due_turns[" in log
    assert "campaigns.tasks.process_turn[" in log
    wait_for(worker, lambda: "[Reliable] Turn 1 processed" in worker.sent(), "the mail")


def test_a_worker_catches_up_two_missed_turns_in_order(worker: Worker) -> None:
    """The service was down for two deadlines (10 and 3 days ago): the tick queues turn 1,
    whose task queues turn 2 (now already due); turn 3 is open until 4 days from now."""
    now = timezone.now().replace(second=0, microsecond=0)
    first = now - dt.timedelta(days=10)
    game = started_campaign(
        boards=1, time_zone="UTC", weekday=first.weekday(), at=first.time(), slug="catch-up"
    )
    Turn.objects.filter(campaign=game.campaign, number=1).update(deadline=first)

    process_due_turns.apply_async(queue=worker.queue)

    wait_for(worker, lambda: game.campaign.turns.filter(number=3).exists(), "turn 3 opening")
    turns = {t.number: t for t in game.campaign.turns.all()}
    assert sorted(turns) == [0, 1, 2, 3]
    assert turns[1].deadline == first and turns[2].deadline == first + dt.timedelta(days=7)
    assert turns[1].status == turns[2].status == Turn.Status.PROCESSED
    assert turns[1].processed_at <= turns[2].processed_at
    assert (turns[3].status, turns[3].deadline) == (
        Turn.Status.OPEN,
        first + dt.timedelta(days=14),
    )
    records = TurnRecord.objects.filter(turn__number__in=[1, 2]).order_by("pk")
    assert [r.turn.number for r in records] == [1, 2]
    for number in (1, 2):
        late = f"[Catch-Up] Turn {number} was processed late"
        wait_for(worker, lambda late=late: late in worker.sent(), late)
    assert f"To: {GM_EMAIL}" in worker.sent()


def test_two_worker_processes_never_process_one_turn_twice(two_workers: list[Worker]) -> None:
    """Two worker processes take the same queue. Six campaigns are due; two ticks run at once
    and every turn's job is queued three more times (as redeliveries would): the workers race
    for each turn, and each turn is still processed once, recorded once, mailed once."""
    games = [started_campaign(boards=2, slug=f"pair-{n}") for n in range(6)]
    for game in games:
        Turn.objects.filter(campaign=game.campaign, number=1).update(
            deadline=timezone.now() - dt.timedelta(minutes=1)
        )
    for worker in two_workers:
        wait_for(worker, lambda w=worker: " ready." in w.output(), "the worker starting")
    queue = two_workers[0].queue

    for _ in range(2):
        process_due_turns.apply_async(queue=queue)
    for game in games:
        for _ in range(3):
            process_turn.apply_async((game.campaign.pk, 1), queue=queue)

    runs = 2 * len(games) + 3 * len(games)  # the ticks' and the extra queueings

    def finished() -> int:
        return sum(w.output().count("campaigns.tasks.process_turn[") for w in two_workers) // 2

    wait_for(two_workers[0], lambda: finished() >= runs, f"{runs} runs of the turn job")
    assert all("campaigns.tasks.process_turn[" in w.output() for w in two_workers)
    for game in games:
        turns = list(game.campaign.turns.order_by("number"))
        assert [(t.number, t.status, t.failures) for t in turns] == [
            (0, Turn.Status.PROCESSED, 0),
            (1, Turn.Status.PROCESSED, 0),
            (2, Turn.Status.OPEN, 0),
        ]
        assert TurnRecord.objects.filter(turn=turns[1]).count() == 2
    subject = "Turn 1 processed"
    wait_for(
        two_workers[0],
        lambda: two_workers[0].sent().count(subject) >= len(games) * 3,
        "the turns' mail",
    )
    sent = two_workers[0].sent()
    for game in games:
        # The GM, alice and bob: each told once.
        assert sent.count(f"[{game.campaign.name}] {subject}") == 3, game.campaign.name

"""The turn job through a real Celery worker and the real Redis broker (RULES R31): the beat
tick finds the due turn, queues process_turn, a worker process picks it up and processes it
in the test database. Nothing eager, nothing mocked.

Needs PostgreSQL (the worker is another process and must reach the test database, which it
can only on a server) and CELERY_BROKER_URL=redis://... (CI sets both). The worker listens
on a queue unique to this run (tests/support/processes.py), so it never takes
another worker's messages and no other worker takes its own."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest
from django.utils import timezone

from campaigns.models import Turn, TurnRecord
from campaigns.tasks import process_due_turns, process_turn
from tests.support.processes import Cluster, Process, require_real_services
from tests.support.turn_job import GM_EMAIL, started_campaign

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def cluster(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """One worker for the module's tests, on a queue of its own."""
    require_real_services()
    cluster = Cluster(folder=tmp_path_factory.mktemp("worker"))
    try:
        cluster.wait_ready(cluster.worker("worker"))
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def worker(cluster: Cluster) -> Process:
    return cluster.processes[0]


def wait_for(cluster: Cluster, done: Callable[[], bool], what: str) -> None:
    cluster.wait_until(done, what, timeout=60)


def test_a_worker_processes_the_turn_the_tick_finds_due(cluster: Cluster, worker: Process) -> None:
    game = started_campaign(boards=2)
    Turn.objects.filter(campaign=game.campaign, number=1).update(
        deadline=timezone.now() - dt.timedelta(minutes=1)
    )

    process_due_turns.apply_async(queue=cluster.queue)

    wait_for(cluster, lambda: game.turn(1).status != Turn.Status.OPEN, "turn 1 being processed")
    turn_1 = game.turn(1)
    assert (turn_1.status, turn_1.failures, turn_1.last_error) == (Turn.Status.PROCESSED, 0, "")
    assert TurnRecord.objects.filter(turn=turn_1).count() == 2
    turn_2 = game.turn(2)
    assert turn_2.status == Turn.Status.OPEN and turn_2.deadline > timezone.now()
    # The worker ran both tasks, and after commit told the players.
    log = worker.output()
    assert "campaigns.tasks.process_due_turns[" in log
    assert "campaigns.tasks.process_turn[" in log
    wait_for(cluster, lambda: "[Reliable] Turn 1 processed" in cluster.sent(), "the mail")


def test_a_worker_catches_up_two_missed_turns_in_order(cluster: Cluster) -> None:
    """The service was down for two deadlines (10 and 3 days ago): the tick queues turn 1,
    whose task queues turn 2 (now already due); turn 3 is open until 4 days from now."""
    now = timezone.now().replace(second=0, microsecond=0)
    first = now - dt.timedelta(days=10)
    game = started_campaign(
        boards=1, time_zone="UTC", weekday=first.weekday(), at=first.time(), slug="catch-up"
    )
    Turn.objects.filter(campaign=game.campaign, number=1).update(deadline=first)

    process_due_turns.apply_async(queue=cluster.queue)

    wait_for(cluster, lambda: game.campaign.turns.filter(number=3).exists(), "turn 3 opening")
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
        wait_for(cluster, lambda late=late: late in cluster.sent(), late)
    assert f"To: {GM_EMAIL}" in cluster.sent()


def test_two_worker_processes_never_process_one_turn_twice(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Two worker processes take the same queue. Six campaigns are due; two ticks run at once
    and every turn's job is queued three more times (as redeliveries would): the workers race
    for each turn, and each turn is still processed once, recorded once, mailed once."""
    require_real_services()
    games = [started_campaign(boards=2, slug=f"pair-{n}") for n in range(6)]
    for game in games:
        Turn.objects.filter(campaign=game.campaign, number=1).update(
            deadline=timezone.now() - dt.timedelta(minutes=1)
        )
    pair = Cluster(folder=tmp_path_factory.mktemp("two-workers"))
    try:
        workers = [pair.worker(name) for name in ("w0", "w1")]
        for one in workers:
            pair.wait_ready(one)
        for _ in range(2):
            process_due_turns.apply_async(queue=pair.queue)
        for game in games:
            for _ in range(3):
                process_turn.apply_async((game.campaign.pk, 1), queue=pair.queue)
        runs = 2 * len(games) + 3 * len(games)  # the ticks' and the extra queueings

        def finished() -> int:
            return sum(w.output().count("campaigns.tasks.process_turn[") for w in workers) // 2

        pair.wait_until(lambda: finished() >= runs, f"{runs} runs of the turn job", timeout=90)
        assert all("campaigns.tasks.process_turn[" in w.output() for w in workers)
        for game in games:
            turns = list(game.campaign.turns.order_by("number"))
            assert [(t.number, t.status, t.failures) for t in turns] == [
                (0, Turn.Status.PROCESSED, 0),
                (1, Turn.Status.PROCESSED, 0),
                (2, Turn.Status.OPEN, 0),
            ]
            assert TurnRecord.objects.filter(turn=turns[1]).count() == 2
        subject = "Turn 1 processed"
        pair.wait_until(
            lambda: pair.sent().count(subject) >= len(games) * 3, "the turns' mail", timeout=90
        )
        sent = pair.sent()
        for game in games:
            # The GM, alice and bob: each told once.
            assert sent.count(f"[{game.campaign.name}] {subject}") == 3, game.campaign.name
    finally:
        pair.stop()

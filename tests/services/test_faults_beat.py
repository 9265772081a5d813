"""The fault matrix, rows 3, 4 and 6 (issue 9): the beat clock itself, not a tick sent by hand.
Beat runs with the project's scheduler and schedule (settings.CELERY_BEAT_SCHEDULER, the
database scheduler of django-celery-beat, and CELERY_BEAT_SCHEDULE), only with every entry
every TICK seconds instead of every five minutes (TEST_BEAT_INTERVAL,
tests/services/celery_test_app.py). After each fault, the ledger (tests/support/ledger.py).

Rows 1, 2 and 5 are in test_faults_workers.py, row 7 in test_faults_deadline.py.
"""

from __future__ import annotations

import datetime as dt
import email
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from campaigns.models import Turn
from tests.support.ledger import foresee, ledger_problems
from tests.support.processes import UUID, Cluster, Process, RedisServer, task_results
from tests.support.turn_job import GM_EMAIL, Game, due_campaign

pytestmark = [
    pytest.mark.faults,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

TICK = "1"  # seconds between two ticks of each beat
SCHEDULER = "django_celery_beat.schedulers.DatabaseScheduler"
TICKS_SENT = "Sending due task process-due-turns (campaigns.tasks.process_due_turns)"
RECEIVED = re.compile(rf"campaigns\.tasks\.process_turn\[({UUID})\] received")


def ticks(process: Process) -> int:
    return process.output().count(TICKS_SENT)


def processed(*games: Game, number: int = 1) -> bool:
    return all(game.turn(number).status != Turn.Status.OPEN for game in games)


def test_row3_two_beats_at_once_process_every_due_turn_once(cluster: Cluster) -> None:
    """Two beat clocks at once, as when `worker -B` is started twice or beside a separate
    `celery beat`: both tick every second with the project's database scheduler, two
    workers take the ticks and the jobs. Each due turn is processed once, as foreseen, and
    nothing is logged as an error."""
    games = [due_campaign(slug=f"beat-{n}") for n in range(2)]
    foreseen = [foresee(game.campaign, 1) for game in games]

    clock = cluster.worker("worker-with-beat", beat=True, TEST_BEAT_INTERVAL=TICK)
    other = cluster.worker("worker", TEST_FAULT_SLOW_BOARD="0.5")
    beat = cluster.beat("beat", TEST_BEAT_INTERVAL=TICK)

    cluster.wait_until(lambda: processed(*games), "every due turn processed")
    # Both clocks kept ticking while the turns ran and after: each found nothing more.
    cluster.wait_until(lambda: ticks(clock) >= 3 and ticks(beat) >= 3, "both beats ticking")
    cluster.wait_until(cluster.settled, "every task finished")
    for game, seen in zip(games, foreseen, strict=True):
        assert ledger_problems(game.campaign, open_turn=2, foreseen=[seen]) == [], (
            game.campaign.slug
        )
    runs = [r for w in (clock, other) for r in task_results(w, "campaigns.tasks.process_turn")]
    assert runs.count("True") == len(games)
    # The project's scheduler: both clocks ran the schedule they keep in the database.
    assert f"scheduler -> {SCHEDULER}" in beat.output()
    assert "DatabaseScheduler: Schedule changed" in clock.output()
    entry = PeriodicTask.objects.get(name="process-due-turns")
    assert (entry.task, entry.interval.every, entry.interval.period) == (
        "campaigns.tasks.process_due_turns",
        int(TICK),
        "seconds",
    )
    assert (errors := cluster.errors()) == [], "\n".join(errors)


def test_row4_the_broker_restarted_during_a_tick_loses_no_turn(
    cluster: Cluster, redis_server: RedisServer
) -> None:
    """A redis-server of the test's own is killed while the tick's jobs run (no persistence:
    every message in it is lost, the queued jobs and the running one's acknowledgement),
    then started again on the same port. Worker and beat reconnect by themselves; the next
    ticks find the turns still due in the database and every one is processed once.

    The job under way when the broker went down finishes and commits (settings:
    CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS, off): cancelled, it would
    leave its turn to a later tick. The worker runs the prefork pool, as in production: under
    the solo pool the job blocks the consumer, which sees the connection gone only after the
    job returned, so the setting would never be tried."""
    cluster.broker = redis_server.url
    games = [due_campaign(slug=f"broker-{n}") for n in range(3)]
    foreseen = [foresee(game.campaign, 1) for game in games]
    worker = cluster.worker("worker", pool="prefork", TEST_FAULT_SLOW_BOARD="1")
    beat = cluster.beat("beat", TEST_BEAT_INTERVAL=TICK)

    cluster.wait_until(lambda: RECEIVED.search(worker.output()) is not None, "a job under way")
    under_way = RECEIVED.findall(worker.output())[0]
    redis_server.kill()
    down = (worker.output(), beat.output())
    cluster.wait_until(
        lambda: worker.output() != down[0] and beat.output() != down[1],
        "worker and beat noticing the broker gone",
    )
    redis_server.start()

    cluster.wait_until(lambda: processed(*games), "every due turn processed", timeout=120)
    finished = re.search(
        rf"process_turn\[{under_way}\] succeeded in [\d.]+s: (\w+)", worker.output()
    )
    assert finished is not None and finished[1] == "True", (
        f"the turn job under way when the broker went down did not finish: {under_way}\n"
        + "\n".join(line for line in worker.output().splitlines() if under_way in line)
    )
    ticked = ticks(beat)
    cluster.wait_until(lambda: ticks(beat) > ticked, "beat ticking again")
    cluster.wait_until(cluster.settled, "every task finished")
    for game, seen in zip(games, foreseen, strict=True):
        assert ledger_problems(game.campaign, open_turn=2, foreseen=[seen]) == [], (
            game.campaign.slug
        )
    assert worker.alive() and beat.alive()
    assert [line for line in cluster.errors() if "campaigns" in line] == []


def test_row6_a_two_week_outage_runs_both_missed_turns_in_order_and_tells_the_gm(
    cluster: Cluster,
) -> None:
    """Beat and workers were down across two deadlines (10 and 3 days ago). Started again,
    the clock finds turn 1 due; its job opens turn 2, already due, which runs next: both in
    order, once each (the first as foreseen), turn 3 due a week after turn 2's deadline, and
    the GM told of each late turn once."""
    first = timezone.now().replace(second=0, microsecond=0) - dt.timedelta(days=10)
    game = due_campaign(
        slug="outage", deadline=first, time_zone="UTC", weekday=first.weekday(), at=first.time()
    )
    foreseen = foresee(game.campaign, 1)

    cluster.worker("worker-with-beat", beat=True, TEST_BEAT_INTERVAL=TICK)

    cluster.wait_until(lambda: game.campaign.turns.filter(number=2).exists(), "turn 2 open")
    # Turn 2 takes the weekly slot after turn 1's deadline (3 days ago), not a week from
    # now: it is due at once and runs next; a later slot would skip a missed week.
    assert game.turn(2).deadline == first + dt.timedelta(days=7), game.turn(2).deadline
    cluster.wait_until(lambda: game.campaign.turns.filter(number=3).exists(), "turn 3 open")
    cluster.wait_until(cluster.settled, "every task finished")
    assert ledger_problems(game.campaign, open_turn=3, foreseen=[foreseen]) == []
    deadlines = {t.number: t.deadline for t in game.campaign.turns.filter(number__gte=1)}
    assert deadlines == {n: first + dt.timedelta(days=7 * (n - 1)) for n in (1, 2, 3)}
    assert deadlines[3] > timezone.now()
    late = [f"Turn {n} was processed late" for n in (1, 2)]
    cluster.wait_until(lambda: all(s in cluster.sent() for s in late), "the GM told")
    mails = mail_subjects(cluster.sent())
    assert [to for to, subject in mails if "late" in subject] == [GM_EMAIL, GM_EMAIL]
    assert sorted(s for _, s in mails if "late" in s) == [f"[Outage] {s}" for s in late]
    for number in (1, 2):  # each member told once that the turn was processed
        told = sorted(to for to, s in mails if s == f"[Outage] Turn {number} processed")
        assert told == sorted([GM_EMAIL, "outage-alice@example.com", "outage-bob@example.com"])
    assert (errors := cluster.errors()) == [], "\n".join(errors)


def mail_subjects(sent: str) -> list[tuple[str, str]]:
    """(recipient, subject) of every mail the file backend wrote (Django's filebased backend
    ends each with a line of 79 dashes)."""
    messages = [email.message_from_string(m.strip()) for m in sent.split("-" * 79)]
    return [(str(m["To"]), str(m["Subject"])) for m in messages if m["To"]]


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder=folder)
    server.start()
    try:
        yield server
    finally:
        if server.process is not None:
            server.process.kill()

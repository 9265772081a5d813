"""The fault matrix, row 7 (issue 9): 200 order submissions from 50 players in the last
seconds before the deadline while the tick fires (RULES R31, R40).

The players post the real order form (order_new, through the test client in threads, each
form opened for turn 1 as a player's browser would hold it); the real beat ticks every second
and a real worker runs the turn job against the same PostgreSQL database. Every submission
must either be stored in turn 1 (and resolved with it) or be refused with a message that
says nothing was stored; none is lost, none is stored twice, none lands in turn 2.

Rows 1-6 are in test_faults_workers.py and test_faults_beat.py.
"""

from __future__ import annotations

import datetime as dt
import html
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Board, Campaign, Membership, Order, Turn
from campaigns.services.turns import campaign_start
from campaigns.tasks import process_due_turns
from tests.factories import (
    BoardFactory,
    CampaignFactory,
    DepartmentFactory,
    MembershipFactory,
    StructureFactory,
)
from tests.support.ledger import ledger_problems
from tests.support.processes import Cluster

pytestmark = [
    pytest.mark.faults,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

SLUG = "crowd"
BOARDS, PLAYERS_PER_BOARD, ORDERS_EACH = 5, 10, 4  # 50 players, 200 submissions
THREADS = 10  # at once (each its own database connection; the server is shared)
PACE = 0.025  # seconds between two submissions' release
BEFORE = 100  # submissions released before the deadline
# The refusals a late submission may get; each says that nothing was stored.
REFUSALS = (
    "This form was opened for turn 1, which is over",  # the page saw turn 2 open
    "The deadline of turn 1 has passed",  # turn 1 open, but too late (R40)
    "Turn 1 is processed: it takes no more orders",  # waited for the job's lock (R31)
)


@dataclass
class Player:
    member: Membership
    board: Board
    client: Client = field(default_factory=Client)


@dataclass
class Submission:
    player: Player
    department: str
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    started: dt.datetime | None = None
    status: int = 0
    refusal: str | None = None


def crowded_campaign() -> tuple[Campaign, list[Player]]:
    """50 players on 5 boards, 4 home departments each, every one with a function to roll
    (R45: one roll per department per turn, so each player has 4 orders to give)."""
    campaign = CampaignFactory(name="Crowd", slug=SLUG)
    MembershipFactory(campaign=campaign, role=Membership.Role.GM, user__username="crowd-gm")
    players = []
    for b in range(BOARDS):
        board = BoardFactory(campaign=campaign, name=f"Board {b}", slug=f"board-{b}")
        for p in range(PLAYERS_PER_BOARD):
            member = MembershipFactory(campaign=campaign, user__username=f"crowd-{b}-{p}")
            structure = StructureFactory(board=board, player=member)
            for d in range(ORDERS_EACH):
                DepartmentFactory(board=board, slug=f"p{p}-d{d}", structure=structure, home=True)
            players.append(Player(member, board))
    campaign_start(campaign=campaign)
    for player in players:
        player.client.force_login(player.member.user)
    return campaign, players


def submit(submission: Submission) -> None:
    """Post the function-roll form as it was rendered for turn 1."""
    player = submission.player
    url = reverse("order_new", args=[SLUG, player.board.slug, Order.Kind.FUNCTION])
    data = {
        "function": f"{submission.department}|paperwork",
        "stat": "effect",
        "intent": f"Order {submission.token}",
        "client_token": submission.token,
        "turn": "1",
    }
    submission.started = timezone.now()
    response = player.client.post(url, data)
    submission.status = response.status_code
    if response.status_code == 200:  # the form again, with the refusal
        page = html.unescape(response.content.decode())
        submission.refusal = next((r for r in REFUSALS if r in page), page[-3000:])


def race(submissions: list[Submission], start: float, at: dt.datetime, fire: Any) -> None:
    """Release submission k at `start` + k * PACE (or as soon after as a thread is free),
    in THREADS threads, each on its own database connection; call `fire` at `at`."""
    errors: list[BaseException] = []

    def run(lane: list[Submission]) -> None:
        try:
            for submission in lane:
                release = start + submissions.index(submission) * PACE
                time.sleep(max(0.0, release - time.monotonic()))
                submit(submission)
        except BaseException as error:  # reported in the test's thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(submissions[n::THREADS],)) for n in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, (at - timezone.now()).total_seconds()))
    try:
        fire()
    finally:
        for thread in threads:
            thread.join(timeout=240)
    assert not any(thread.is_alive() for thread in threads), "a submission never finished"
    assert errors == []


def gm_processes_now() -> None:
    """The GM presses *Process turn now* (the real view, in this process like a web worker)."""
    gm = Client()
    gm.force_login(Membership.objects.get(campaign__slug=SLUG, role=Membership.Role.GM).user)
    try:
        response = gm.post(reverse("turn_process", args=[SLUG]), {"number": 1, "confirm": "on"})
        assert response.status_code == 302, response.status_code
    finally:
        connections.close_all()


@pytest.mark.parametrize("trigger", ["deadline", "gm"])
def test_row7_orders_racing_the_turn_job_are_stored_in_their_turn_or_refused(
    cluster: Cluster, trigger: str
) -> None:
    """`deadline`: turn 1 falls due while the submissions stream in and the tick fires at
    that moment (beat ticks every second besides). `gm`: the deadline is an hour off and the
    GM presses *Process turn now* in mid-stream: then nothing but the campaign lock keeps a
    submission from slipping in beside the job. Either way each submission is stored in
    turn 1 and resolved with it, or refused saying nothing was stored."""
    campaign, players = crowded_campaign()
    submissions = [
        Submission(player, f"p{n % PLAYERS_PER_BOARD}-d{d}")
        for d in range(ORDERS_EACH)
        for n, player in enumerate(players)
    ]
    worker = cluster.worker("worker", TEST_FAULT_SLOW_BOARD="0.3")
    cluster.beat("beat", TEST_BEAT_INTERVAL="1")
    cluster.wait_ready(worker)

    start = time.monotonic()
    moment = timezone.now() + dt.timedelta(seconds=BEFORE * PACE)
    if trigger == "deadline":
        deadline = moment
        fire = lambda: process_due_turns.apply_async(queue=cluster.queue)  # noqa: E731
    else:
        deadline = moment + dt.timedelta(hours=1)
        fire = gm_processes_now
    Turn.objects.filter(campaign=campaign, number=1).update(deadline=deadline)
    race(submissions, start, moment, fire)

    turn_1 = Turn.objects.get(campaign=campaign, number=1)
    cluster.wait_until(
        lambda: not Turn.objects.filter(pk=turn_1.pk, status=Turn.Status.OPEN).exists(),
        "turn 1 processed",
    )
    cluster.wait_until(cluster.settled, "every task finished")
    stored = [s for s in submissions if s.status == 302]
    refused = [s for s in submissions if s.status == 200]
    assert len(stored) + len(refused) == len(submissions), {s.status for s in submissions}
    assert stored and refused, "the submissions did not straddle the turn job"
    assert [s.refusal for s in refused if s.refusal not in REFUSALS] == []
    # R40: stored only if sent before the deadline, and before the job began.
    turn_1.refresh_from_db()
    closed = min(deadline, turn_1.processed_at)
    late = [
        f"order {s.token} sent at {s.started} was stored; turn 1 closed at {closed}"
        for s in stored
        if s.started is None or s.started >= closed
    ]
    assert late == [], "\n".join(late)
    orders = {o.client_token: o for o in Order.objects.filter(turn__campaign=campaign)}
    assert len(orders) == Order.objects.filter(turn__campaign=campaign).count()  # no twins
    assert sorted(orders) == sorted(s.token for s in stored)  # none lost, none refused kept
    # Each stored order in turn 1 and resolved with it: none left waiting, none in turn 2.
    resolved = {Order.Status.SUCCEEDED, Order.Status.FAILED, Order.Status.REJECTED}
    where = {
        (o.turn.number, o.status in resolved, o.result.get("status") == o.status)
        for o in orders.values()
    }
    assert where == {(1, True, True)}
    assert ledger_problems(campaign, open_turn=2) == []
    assert (errors := cluster.errors()) == [], "\n".join(errors)

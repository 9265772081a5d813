"""RULES R31: the turn job is idempotent. Run twice for the same turn (a second beat, a
redelivered task, a GM pressing the button twice), it does nothing the second time."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns.models import Campaign, Order, Turn, TurnRecord
from campaigns.services.turns import campaign_set_status, turn_process, turn_process_safely
from tests.support.turn_job import UTC, make_due, rows, started_campaign

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # a Monday; turn 1 is due Friday
AFTER_DEADLINE = dt.datetime(2026, 1, 9, 17, 5, tzinfo=UTC)  # Friday 18:05 in Berlin


def queue_some_orders(game) -> None:
    game.order(
        game.alice, "move", **{"from": "treasury", "path": ["mint"], "tokens": {"authority": 1}}
    )
    game.order(game.bob, "break_link", **{"from": "mint", "to": "treasury"})
    game.order(game.alice, "function", department="mint", function="paperwork", stat="effect")


def test_it_processes_a_turn_once() -> None:
    game = started_campaign(start=START)
    queue_some_orders(game)

    opened = turn_process(campaign_id=game.campaign.pk, number=1, now=AFTER_DEADLINE)
    assert opened is not None and opened.number == 2
    after_first = rows()

    assert turn_process(campaign_id=game.campaign.pk, number=1, now=AFTER_DEADLINE) is None
    assert rows() == after_first
    assert turn_process(campaign_id=game.campaign.pk, number=1) is None  # later, real clock
    assert rows() == after_first

    assert TurnRecord.objects.filter(turn=game.turn(1)).count() == len(game.boards)
    assert Turn.objects.filter(campaign=game.campaign, number=2).count() == 1
    assert not Order.objects.filter(status=Order.Status.QUEUED).exists()


def test_the_tick_running_an_already_processed_turn_counts_no_failure() -> None:
    game = started_campaign(start=START)
    make_due(game, 1, START)
    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is not None
    before = rows()

    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None

    assert rows() == before
    assert game.turn(1).failures == 0


def test_a_turn_that_does_not_exist_is_nothing_to_do() -> None:
    game = started_campaign(start=START)
    before = rows()
    assert turn_process(campaign_id=game.campaign.pk, number=7, now=AFTER_DEADLINE) is None
    assert rows() == before


def test_it_does_not_process_the_next_turn_early_by_itself() -> None:
    """The job for turn 1 opens turn 2 and stops; it never runs turn 2 in the same call."""
    game = started_campaign(start=START)
    turn_process(campaign_id=game.campaign.pk, number=1, now=AFTER_DEADLINE)
    turn_2 = game.turn(2)
    assert turn_2.status == Turn.Status.OPEN
    assert turn_2.deadline == dt.datetime(2026, 1, 16, 17, 0, tzinfo=UTC)
    assert not TurnRecord.objects.filter(turn=turn_2).exists()


def test_a_queued_tick_does_not_run_a_turn_of_a_campaign_paused_meanwhile() -> None:
    """R30: the tick queued process_turn while the turn was due; before a worker took the
    message (workers down), the GM paused the campaign. The message must not process the
    turn anyway. A GM's own "process now" still does (turn_process)."""
    game = started_campaign(start=START)
    make_due(game, 1, dt.datetime.now(UTC) - dt.timedelta(minutes=5))
    campaign_set_status(campaign=game.campaign, status=Campaign.Status.PAUSED)
    before = rows()

    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None
    assert rows() == before

    assert turn_process(campaign_id=game.campaign.pk, number=1) is not None  # the GM's button

"""RULES R31: the turn job runs in one transaction. A crash half-way (after the boards
were written) leaves no trace; the tick counts the failure and the next tick completes the
turn. Three failures in a row stop the retries and tell the GM.

These tests commit for real (transaction=True): the rollback under test is the job's own
transaction, not a savepoint inside the test's, and mail is sent after commit as in life."""

from __future__ import annotations

import logging

import pytest
from django.core import mail

from campaigns.models import Turn, TurnRecord
from campaigns.selectors.turns import turns_due
from campaigns.services import turns
from campaigns.services.turns import MAX_FAILURES, turn_process, turn_process_safely
from tests.support.turn_job import GM_EMAIL, due_campaign, rows

pytestmark = pytest.mark.django_db(transaction=True)


class PowerCut(Exception):
    pass


@pytest.fixture
def crash_half_way(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the job die half-way: after every board's departments and links and the orders'
    outcomes have been written (and the goals, offices and dossiers beside them), before the
    records, in every turn after the start. Returns the numbers of the turns that got that
    far."""
    real = turns.effects_write
    reached: list[int] = []

    def crashing(turn, resolved):  # type: ignore[no-untyped-def]
        effects = real(turn, resolved)
        if turn.number == 0:  # the campaign's start is not under test
            return effects
        reached.append(turn.number)
        raise PowerCut(f"power cut after the boards of turn {turn.number}")

    monkeypatch.setattr(turns, "effects_write", crashing)
    return reached


def test_a_crash_half_way_leaves_every_row_as_it_was(crash_half_way: list[int]) -> None:
    game = due_campaign()
    mail.outbox.clear()
    before = rows()

    with pytest.raises(PowerCut):
        turn_process(campaign_id=game.campaign.pk, number=1)

    assert crash_half_way == [1]  # it did get that far
    assert rows() == before
    assert mail.outbox == []


def test_the_tick_counts_a_crash_and_the_next_tick_completes_the_turn(
    crash_half_way: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = due_campaign()
    before = rows()

    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None

    turn_1 = game.turn(1)
    assert (turn_1.status, turn_1.failures) == (Turn.Status.OPEN, 1)
    assert turn_1.last_error == "PowerCut: power cut after the boards of turn 1"
    after = rows()
    for row in after["Turn"]:
        if row["id"] == turn_1.pk:
            row.update(failures=0, last_error="")
    assert after == before  # nothing but the count changed
    assert turns_due() == [(game.campaign.pk, 1)]

    monkeypatch.undo()  # the cause is fixed
    opened = turn_process_safely(campaign_id=game.campaign.pk, number=1)

    assert opened is not None and opened.number == 2
    assert game.turn(1).status == Turn.Status.PROCESSED
    assert TurnRecord.objects.filter(turn=turn_1).count() == 2
    assert Turn.objects.filter(campaign=game.campaign).count() == 3  # 0 (start), 1, 2
    assert turns_due() == []


def test_three_failures_mark_the_turn_failed_and_tell_the_gm(
    crash_half_way: list[int],
) -> None:
    game = due_campaign()
    mail.outbox.clear()

    for _ in range(MAX_FAILURES):
        assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None

    turn_1 = game.turn(1)
    assert (turn_1.status, turn_1.failures) == (Turn.Status.FAILED, MAX_FAILURES)
    (message,) = mail.outbox
    assert message.to == [GM_EMAIL]
    assert message.subject == f"[{game.campaign.name}] Turn 1 failed"
    assert "PowerCut: power cut after the boards of turn 1" in message.body
    assert turns_due() == []
    assert not TurnRecord.objects.filter(turn=turn_1).exists()
    # The tick may still hold a message for it: it does nothing, and counts nothing.
    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None
    assert game.turn(1).failures == MAX_FAILURES
    assert len(mail.outbox) == 1


def test_a_turn_processed_after_a_failure_shows_no_failure_and_the_log_keeps_it(
    crash_half_way: list[int], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 24: once the turn is processed, its count of failures and its last error are
    cleared (the GM's pages and the archive show them); the failure is in the log."""
    game = due_campaign()
    with caplog.at_level(logging.INFO, logger="campaigns.services.turns"):
        assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None
        assert (game.turn(1).failures, game.turn(1).status) == (1, Turn.Status.OPEN)

        monkeypatch.undo()  # the cause is fixed
        assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is not None

    turn_1 = game.turn(1)
    assert turn_1.status == Turn.Status.PROCESSED
    assert (turn_1.failures, turn_1.last_error) == (0, "")
    failed = [r for r in caplog.records if r.exc_info and r.levelno == logging.ERROR]
    assert [str(r.exc_info[1]) for r in failed] == ["power cut after the boards of turn 1"]
    assert any("after 1 failed run(s)" in r.getMessage() for r in caplog.records)

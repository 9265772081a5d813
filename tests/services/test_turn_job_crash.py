"""RULES R31: the turn job runs in one transaction. A crash half-way (after the first board
was written) leaves no trace; the tick counts the failure and the next tick completes the
turn. Three failures in a row stop the retries and tell the GM.

These tests commit for real (transaction=True): the rollback under test is the job's own
transaction, not a savepoint inside the test's, and mail is sent after commit as in life."""

from __future__ import annotations

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
def crash_after_first_board(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the job die right after the first board (departments, links, record) has been
    written. Returns the ids of the boards that were written before each crash."""
    real = turns.resolve_board
    written: list[int] = []

    def crashing(board, turn, orders):  # type: ignore[no-untyped-def]
        real(board, turn, orders)
        written.append(board.pk)
        raise PowerCut(f"power cut after board {board.slug}")

    monkeypatch.setattr(turns, "resolve_board", crashing)
    return written


def test_a_crash_after_the_first_board_leaves_every_row_as_it_was(
    crash_after_first_board: list[int],
) -> None:
    game = due_campaign()
    mail.outbox.clear()
    before = rows()

    with pytest.raises(PowerCut):
        turn_process(campaign_id=game.campaign.pk, number=1)

    assert crash_after_first_board == [game.boards[0].pk]  # it did get that far
    assert rows() == before
    assert mail.outbox == []


def test_the_tick_counts_a_crash_and_the_next_tick_completes_the_turn(
    crash_after_first_board: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = due_campaign()
    before = rows()

    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None

    turn_1 = game.turn(1)
    assert (turn_1.status, turn_1.failures) == (Turn.Status.OPEN, 1)
    assert turn_1.last_error == "PowerCut: power cut after board board-0"
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
    crash_after_first_board: list[int],
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
    assert "PowerCut: power cut after board board-0" in message.body
    assert turns_due() == []
    assert not TurnRecord.objects.filter(turn=turn_1).exists()
    # The tick may still hold a message for it: it does nothing, and counts nothing.
    assert turn_process_safely(campaign_id=game.campaign.pk, number=1) is None
    assert game.turn(1).failures == MAX_FAILURES
    assert len(mail.outbox) == 1

"""`manage.py process_turn SLUG [--turn N]` (RULES R30-R31).

Without --turn the command does what the tick does: it processes the open turn only if it
is due (deadline passed, or every player ready for the grace period), so running it again,
or twice at once, never processes the following turn days before its deadline. Processing a
turn early takes its number (--turn N), the way a GM means it.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections

from campaigns.models import Campaign, Turn, TurnRecord
from campaigns.services import turns
from campaigns.services.schedule import next_deadline
from tests.support.turn_job import Game, make_due, started_campaign

SLUG = "tourmaline"


def due_game() -> Game:
    """A running campaign (UTC deadlines, so no daylight-saving shift) whose turn 1 deadline
    is the last weekly slot before now: past, while turn 2's, a week later, is still ahead."""
    game = started_campaign(slug=SLUG, time_zone="UTC", boards=2)
    week_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=7)
    make_due(game, 1, next_deadline(game.campaign, week_ago))
    return game


def run(*args: str) -> str:
    out = StringIO()
    call_command("process_turn", SLUG, *args, stdout=out)
    return out.getvalue()


def processed(game: Game) -> list[int]:
    return sorted(
        game.campaign.turns.filter(status=Turn.Status.PROCESSED).values_list("number", flat=True)
    )


@pytest.mark.django_db
def test_twice_in_a_row_processes_the_due_turn_once() -> None:
    game = due_game()

    first = run()
    second = run()

    assert "turn 1 processed" in first
    assert processed(game) == [0, 1]
    assert game.turn(2).status == Turn.Status.OPEN
    assert not Turn.objects.filter(campaign=game.campaign, number=3).exists()
    deadline = f"{game.turn(2).deadline:%Y-%m-%d %H:%M} UTC"
    assert second.strip() == (
        f"turn 2 of {SLUG} is not due until {deadline}; nothing processed. "
        "To process it now: --turn 2"
    )


@pytest.mark.django_db
def test_a_turn_not_yet_due_is_processed_only_with_its_number() -> None:
    game = started_campaign(slug=SLUG, time_zone="UTC", boards=1)

    assert "nothing processed. To process it now: --turn 1" in run()
    assert processed(game) == [0]

    assert "turn 1 processed" in run("--turn", "1")
    assert processed(game) == [0, 1]
    assert run("--turn", "1").startswith("turn 1 was already processed")


@pytest.mark.django_db
def test_a_paused_campaign_is_not_processed_without_the_turn_number() -> None:
    game = due_game()
    Campaign.objects.filter(pk=game.campaign.pk).update(status=Campaign.Status.PAUSED)

    out = run()

    assert out.strip() == (f"{SLUG} is paused; nothing processed. To process turn 1 now: --turn 1")
    assert processed(game) == [0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_overlapping_runs_process_exactly_one_turn(
    postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five runs, started 0.2 s apart while the first one's job takes over half a second
    (two slow boards): the early ones queue behind its lock, the late ones start after it
    committed. Whatever each saw, only the due turn is processed."""
    game = due_game()
    real = turns.resolve_boards

    def slow(*args: Any) -> Any:
        record = real(*args)
        time.sleep(0.3)
        return record

    monkeypatch.setattr(turns, "resolve_boards", slow)
    outputs: list[str] = []
    errors: list[BaseException] = []

    def caller(delay: float) -> None:
        try:
            time.sleep(delay)
            outputs.append(run())
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=caller, args=(n * 0.2,)) for n in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    assert len(outputs) == 5
    assert sum("processed; turn" in out for out in outputs) == 1, outputs
    assert processed(game) == [0, 1]
    assert TurnRecord.objects.filter(turn=game.turn(1)).count() == 2
    assert game.turn(2).status == Turn.Status.OPEN
    assert not Turn.objects.filter(campaign=game.campaign, number=3).exists()

"""Celery wiring: the beat schedule points at a task that exists and runs."""

import pytest
from django.conf import settings

from campaigns.tasks import process_due_turns
from illumineaucracy.celery import app


def test_beat_ticks_process_due_turns_every_five_minutes() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["process-due-turns"]
    assert entry["task"] == "campaigns.tasks.process_due_turns"
    assert entry["schedule"] == 5 * 60
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks


@pytest.mark.django_db
def test_the_tick_queues_nothing_when_no_campaign_is_due() -> None:
    assert process_due_turns() == 0

"""The models as Django checks them: every change has its migration, and the system check is
silent whatever the time of day (a command run near 18:00 once printed a warning)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import checks
from django.core.management import call_command
from django.db.models import fields

from campaigns.models import Campaign


def test_every_model_change_has_its_migration(db: None) -> None:
    # Exits with status 1 (SystemExit) when a migration is missing.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.parametrize("clock", ["17:59:55", "18:00:00", "18:00:09", "03:00:00"])
def test_the_system_check_is_silent_at_any_time_of_day(
    monkeypatch: pytest.MonkeyPatch, clock: str
) -> None:
    """Django warns of a date or time field whose default is a fixed value within ten seconds
    of now (W161): the deadline's 18:00 did so for twenty seconds a day."""
    now = dt.datetime.combine(dt.date.today(), dt.time.fromisoformat(clock))
    monkeypatch.setattr(fields, "_get_naive_now", lambda: now)
    field = Campaign._meta.get_field("deadline_time")
    assert field.check() == []
    assert [m for m in checks.run_checks() if m.level >= checks.WARNING] == []

"""The production install works (issue 24): a fresh virtualenv with requirements.txt alone,
`celery -A illumineaucracy worker -B` with the production settings against the real Redis,
and beat's tick processes a due turn. scripts/check_production_install.sh does the work; this
test runs it on the same PostgreSQL server and Redis as the suite.

Before requirements.txt pinned `packaging` the worker died at start with
"ModuleNotFoundError: No module named 'packaging'" (kombu's Redis transport needs it, and only
requirements-dev.txt brought it in), and this test failed with that log.

It installs from the package index (about a minute with pip's cache) and needs a server
database, so it runs where the suite runs on real services: CI, or DATABASE_URL and
CELERY_BROKER_URL set by hand."""

from __future__ import annotations

import subprocess

import pytest
from django.conf import settings
from django.db import connection

from tests.support.processes import BASE_DIR, database_url, require_real_services

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SCRIPT = BASE_DIR / "scripts" / "check_production_install.sh"


@pytest.mark.django_db
def test_requirements_txt_alone_runs_a_worker_with_beat_that_processes_a_due_turn() -> None:
    require_real_services()
    # The script makes (and drops) a database of its own on the suite's server.
    server = database_url().rsplit("/", 1)[0]
    assert connection.vendor == "postgresql"
    result = subprocess.run(
        ["bash", str(SCRIPT), server, settings.CELERY_BROKER_URL],
        capture_output=True,
        text=True,
        timeout=15 * 60,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "ok: the worker and beat from requirements.txt alone processed the due turn 1" in (
        result.stdout
    )

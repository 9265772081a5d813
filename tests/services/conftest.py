"""Fixtures for the turn-job tests (RULES R30-R31): see tests/services/builders.py."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.fixture
def postgres() -> None:
    """Skip unless the tests run on PostgreSQL (DATABASE_URL=postgres://...): row locks,
    concurrent connections and other processes sharing the test database need it."""
    if connection.vendor != "postgresql":
        pytest.skip(f"needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")

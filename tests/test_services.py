"""CI runs against the real PostgreSQL and Redis: prove it, so that a broken .ci/run can never
quietly fall back to SQLite and the file broker. .ci/run sets REQUIRE_REAL_SERVICES=1."""

import os

import pytest
import redis
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.skipif(
    os.environ.get("REQUIRE_REAL_SERVICES") != "1",
    reason="REQUIRE_REAL_SERVICES=1 is set only by .ci/run",
)


@pytest.mark.django_db
def test_the_database_is_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_the_celery_broker_is_a_redis_that_answers() -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5)
    assert client.ping() is True

"""A turn's records are written with lz4 on PostgreSQL (migration 0012): pglz took a third
longer to write them while the turn job held the campaign lock (issue 15)."""

from __future__ import annotations

import pytest
from django.db import connection

from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import TurnRecord
from campaigns.services.turns import turn_process

pytestmark = pytest.mark.django_db


def test_a_turns_big_records_are_stored_lz4_compressed(postgres: None) -> None:
    campaign = bench_campaign(slug="lz4", boards=1, departments=300, orders=0)
    assert turn_process(campaign_id=campaign.pk, number=1) is not None
    record = TurnRecord.objects.get(turn__campaign=campaign, turn__number=1)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(state), pg_column_compression(report), "
            "pg_column_compression(before) FROM campaigns_turnrecord WHERE id = %s",
            [record.pk],
        )
        assert cursor.fetchone() == ("lz4", "lz4", "lz4")
    assert len(record.state["departments"]) == 300  # and it reads back whole

"""`present()` asks, before every order check, what a campaign has of RULES parts 7-9. Its
envelope question reads IntelEnvelope.campaign (migration 0013), which save() fills from the
envelope's department: through the department, PostgreSQL could walk every department of the
campaign to answer it (issue 15)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.intrigue.services.envelopes import envelope_create, envelope_remove
from campaigns.models import Campaign, Department, IntelEnvelope
from campaigns.selectors.state_beyond_boards import present
from tests.factories import CampaignFactory
from tests.support.demo import intrigue_cleared, member

pytestmark = pytest.mark.django_db


def temple_of(campaign: Campaign) -> Department:
    return Department.objects.get(board__campaign=campaign, slug="temple")


def test_an_envelope_knows_its_campaign_and_present_finds_it_there_only(demo: Campaign) -> None:
    intrigue_cleared(demo)
    other = CampaignFactory()
    assert not present(demo.pk).envelopes
    envelope = envelope_create(department=temple_of(demo), actor=member(demo, "gm").user,
                               text="x", target=3)  # fmt: skip
    assert IntelEnvelope.objects.get(pk=envelope.pk).campaign_id == demo.pk
    assert present(demo.pk).envelopes and not present(other.pk).envelopes
    envelope_remove(envelope=envelope, actor=member(demo, "gm").user)
    assert not present(demo.pk).envelopes


def test_the_migration_fills_each_envelopes_campaign_from_its_department(demo: Campaign) -> None:
    other = CampaignFactory()
    envelope = IntelEnvelope.objects.create(department=temple_of(demo), text="x", target=3)
    IntelEnvelope.objects.filter(pk=envelope.pk).update(campaign=other)  # as if never filled
    migration = importlib.import_module("campaigns.migrations.0013_envelope_campaign")
    migration.fill(apps, None)
    assert IntelEnvelope.objects.get(pk=envelope.pk).campaign_id == demo.pk


def test_present_asks_for_envelopes_without_reading_departments(
    postgres: None, demo: Campaign
) -> None:
    with CaptureQueriesContext(connection) as queries:
        present(demo.pk)
    (query,) = queries.captured_queries
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {query['sql']}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "campaigns_intelenvelope" in plan
    assert "campaigns_department" not in plan

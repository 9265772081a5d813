"""Issue 28: the page cache (web/page_cache.py) and the campaign versions it is keyed by
(models/changes.py, selectors/page_versions.py, services/page_versions.py)."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, CampaignChange, Department
from campaigns.models.changes import CAMPAIGN_OF, NOT_SHOWN, triggers_sql
from campaigns.selectors.page_versions import page_version
from campaigns.services.demo import demo_create
from campaigns.services.page_versions import campaign_changes_prune
from tests.support.demo import member


@pytest.fixture
def demo(db: None) -> Campaign:
    caches["pages"].clear()
    return demo_create()


def client_of(demo: Campaign, username: str) -> Client:
    client = Client()
    client.force_login(member(demo, username).user)
    return client


def version(demo: Campaign, username: str = "alice") -> str | None:
    return page_version(user_id=member(demo, username).user_id, slug=demo.slug)


def test_every_table_of_the_app_is_watched_or_said_to_show_nowhere() -> None:
    tables = {m._meta.db_table for m in apps.get_app_config("campaigns").get_models()}
    tables |= {
        f.remote_field.through._meta.db_table
        for m in apps.get_app_config("campaigns").get_models()
        for f in m._meta.local_many_to_many
    }
    assert tables - CAMPAIGN_OF.keys() - NOT_SHOWN.keys() == set()


def test_a_bulk_update_the_orm_sends_no_signal_for_still_moves_the_version(demo: Campaign) -> None:
    before = version(demo)
    Department.objects.filter(board__campaign=demo).update(name="Renamed")
    after = version(demo)
    assert before != after


def test_a_write_to_another_campaign_moves_nothing_here(demo: Campaign) -> None:
    before = version(demo)
    CampaignChange.objects.create(campaign_id=demo.pk + 1000)
    assert version(demo) == before


def test_a_non_member_has_no_version_so_no_cached_page(demo: Campaign) -> None:
    stranger = get_user_model().objects.create_user("stranger", password="x")
    assert page_version(user_id=stranger.pk, slug=demo.slug) is None
    assert version(demo, "alice") is not None


def test_pruning_leaves_one_row_and_a_version_never_seen_before(demo: Campaign) -> None:
    CampaignChange.objects.bulk_create(CampaignChange(campaign_id=demo.pk) for _ in range(5))
    before = version(demo)
    assert campaign_changes_prune(over=3) == 1
    assert CampaignChange.objects.filter(campaign_id=demo.pk).count() == 1
    after = version(demo)
    assert after != before
    top_before = int(str(before).split(".")[2])
    assert int(str(after).split(".")[2]) > top_before


@override_settings(PAGE_CACHE=True)
def test_a_hit_costs_at_most_four_queries_and_is_the_same_page(demo: Campaign) -> None:
    client = client_of(demo, "alice")
    url = reverse("campaign", args=[demo.slug])
    first = client.get(url)
    assert first.status_code == 200 and not getattr(first, "page_cache_hit", False)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)
    assert getattr(second, "page_cache_hit", False)
    assert len(queries) <= 4, [q["sql"] for q in queries]
    token = re.compile(rb"[A-Za-z0-9]{64}")
    assert token.sub(b"T", second.content) == token.sub(b"T", first.content)


@override_settings(PAGE_CACHE=True)
def test_a_form_on_a_cached_page_carries_the_readers_own_csrf_token(demo: Campaign) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member(demo, "alice").user)
    url = reverse("orders", args=[demo.slug])
    client.get(url)
    cached = client.get(url)
    assert getattr(cached, "page_cache_hit", False)
    assert b"\x00" not in cached.content
    token = re.search(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"', cached.content)
    assert token is not None
    ready = client.post(
        reverse("turn_ready", args=[demo.slug]),
        {"csrfmiddlewaretoken": token.group(1).decode(), "ready": "1"},
    )
    assert ready.status_code == 302


@override_settings(PAGE_CACHE=True)
def test_a_page_is_never_served_to_another_viewer(demo: Campaign) -> None:
    url = reverse("orders", args=[demo.slug])
    alice, bob = client_of(demo, "alice"), client_of(demo, "bob")
    alice.get(url)
    alice_again = alice.get(url)
    assert getattr(alice_again, "page_cache_hit", False)
    seen_by_bob = bob.get(url)
    assert not getattr(seen_by_bob, "page_cache_hit", False)
    assert seen_by_bob.wsgi_request.user.username == "bob"
    assert seen_by_bob.context is not None  # rendered for bob, not copied from alice's page


@override_settings(PAGE_CACHE=True)
def test_a_waiting_message_is_shown_not_swallowed_by_a_hit(demo: Campaign) -> None:
    client = client_of(demo, "alice")
    url = reverse("orders", args=[demo.slug])
    client.get(url)
    client.post(reverse("turn_ready", args=[demo.slug]), {"ready": "1"})
    shown = client.get(url)
    assert not getattr(shown, "page_cache_hit", False)
    assert [str(m) for m in shown.context["messages"]]


@override_settings(PAGE_CACHE=False)
def test_page_cache_false_switches_it_off(demo: Campaign) -> None:
    client = client_of(demo, "alice")
    url = reverse("campaign", args=[demo.slug])
    client.get(url)
    assert not getattr(client.get(url), "page_cache_hit", False)


@override_settings(
    PAGE_CACHE=True,
    CACHES={
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        # Nothing listens there: every read and write of the page cache fails.
        "pages": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    },
)
def test_a_page_cache_that_cannot_be_reached_serves_the_page_uncached(demo: Campaign) -> None:
    client = client_of(demo, "alice")
    response = client.get(reverse("campaign", args=[demo.slug]))
    assert response.status_code == 200
    assert not getattr(response, "page_cache_hit", False)


def test_every_watched_table_has_its_triggers_after_every_migration(db: None) -> None:
    """A migration that rebuilds a table on SQLite (AlterField does) drops its triggers, and
    the pages of every campaign would then be served stale (seen: 0021 before it made them
    again). The migrated test database must hold every trigger triggers_sql makes."""
    if connection.vendor == "postgresql":
        sql = "SELECT trigger_name FROM information_schema.triggers"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        present = {name for (name,) in cursor.fetchall()}
    made = triggers_sql(connection.vendor)
    wanted = {re.search(r"CREATE TRIGGER (\w+)", s).group(1) for s in made if "CREATE TRIGGER" in s}
    assert len(wanted) == 4 * len(CAMPAIGN_OF)
    assert wanted - present == set()

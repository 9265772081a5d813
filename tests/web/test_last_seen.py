"""Issue 25, the roster: *last seen* is the member's last visit to the site, stamped at most
once every few minutes (one UPDATE, none on most pages), not their last log-in."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.accounts.services.profile import LAST_SEEN_EVERY
from campaigns.models import Campaign, Profile
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def last_seen(username: str) -> dt.datetime | None:
    profile = Profile.objects.filter(user__username=username).first()
    return profile.last_seen if profile is not None else None


def profile_writes(client: Client, url: str) -> list[str]:
    """The statements one GET sends that write a profile."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [
        q["sql"]
        for q in queries.captured_queries
        if "campaigns_profile" in q["sql"]
        and q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT"))
    ]


def test_a_visit_stamps_the_last_visit(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")  # logging in made her profile row (and stamped it)
    Profile.objects.filter(user__username="alice").update(
        last_seen=timezone.now() - dt.timedelta(hours=3)
    )
    before = timezone.now()
    writes = profile_writes(alice, reverse("campaign", args=[SLUG]))
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("UPDATE")
    seen = last_seen("alice")
    assert seen is not None and seen >= before


def test_a_second_visit_within_five_minutes_writes_nothing(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    Profile.objects.filter(user__username="alice").update(
        last_seen=timezone.now() - LAST_SEEN_EVERY - dt.timedelta(seconds=5)
    )
    url = reverse("campaign", args=[SLUG])
    assert len(profile_writes(alice, url)) == 1
    stamped = last_seen("alice")
    assert profile_writes(alice, url) == []
    assert profile_writes(alice, reverse("home")) == []
    assert last_seen("alice") == stamped


def test_a_user_without_a_profile_gets_one_on_their_first_visit(demo: Campaign) -> None:
    user = get_user_model().objects.get(username="bob")
    Profile.objects.filter(user=user).delete()
    client = Client()
    client.force_login(user)  # a log-in is a visit too
    assert last_seen("bob") is not None
    Profile.objects.filter(user=user).delete()
    writes = profile_writes(client, reverse("home"))
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("INSERT")
    assert last_seen("bob") is not None


def test_logging_in_stamps_the_last_visit(demo: Campaign) -> None:
    user = get_user_model().objects.get(username="bob")
    user.set_password("a long enough password")
    user.save()
    Profile.objects.filter(user=user).update(last_seen=None)
    client = Client()
    response = client.post(
        reverse("login"), {"username": "bob", "password": "a long enough password"}
    )
    assert response.status_code == 302
    assert last_seen("bob") is not None


def test_the_roster_shows_the_last_visit_not_the_last_log_in(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    login = dt.datetime(2026, 3, 1, 8, 0, tzinfo=dt.UTC)
    visit = dt.datetime(2026, 3, 4, 5, 6, tzinfo=dt.UTC)
    get_user_model().objects.filter(username="alice").update(last_login=login)
    alice = get_user_model().objects.get(username="alice")
    Profile.objects.update_or_create(user=alice, defaults={"last_seen": visit})
    html = gm.get(reverse("campaign", args=[SLUG])).content.decode()
    row = html.split('id="roster"')[1].split('data-player="alice"')[1].split("</li>")[0]
    assert 'datetime="2026-03-04T05:06:00+00:00"' in row
    assert "2026-03-01T08:00" not in row
    assert "06:06" in row  # 05:06 UTC in the campaign's zone (Berlin), as other times

"""GM controls on the campaign page (R30, R31): start, pause, resume, process now.
Only the GM; POST only; a player's POST is refused with 403 and changes nothing."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership, Profile, Turn
from tests.factories import (
    BoardFactory,
    CampaignFactory,
    DepartmentFactory,
    MembershipFactory,
    StructureFactory,
)
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

GM_POSTS = ["campaign_start", "campaign_pause", "campaign_resume", "turn_process"]


def snapshot(campaign: Campaign) -> tuple[str, list[tuple[int, str]]]:
    campaign.refresh_from_db()
    return campaign.status, list(campaign.turns.values_list("number", "status"))


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.mark.parametrize("name", GM_POSTS)
@pytest.mark.parametrize("username", ["alice", "bob"])
def test_a_player_gets_403_and_nothing_changes(
    demo: Campaign, client_for: ClientFor, name: str, username: str
) -> None:
    before = snapshot(demo)
    data = {"number": 1, "confirm": "on"}
    response = client_for(username).post(reverse(name, args=[demo.slug]), data)
    assert response.status_code == 403
    assert snapshot(demo) == before


def test_an_observer_gets_403_too(demo: Campaign, client_for: ClientFor) -> None:
    MembershipFactory(campaign=demo, user__username="olga", role=Membership.Role.OBSERVER)
    before = snapshot(demo)
    response = client_for("olga").post(reverse("campaign_pause", args=[demo.slug]))
    assert response.status_code == 403
    assert snapshot(demo) == before


def test_a_player_cannot_even_see_the_confirmation_page(
    demo: Campaign, client_for: ClientFor
) -> None:
    assert client_for("alice").get(reverse("turn_process", args=[demo.slug])).status_code == 403


@pytest.mark.parametrize("name", GM_POSTS)
def test_a_gm_of_another_campaign_gets_404(demo: Campaign, client: Client, name: str) -> None:
    other = MembershipFactory(role=Membership.Role.GM)
    client.force_login(other.user)
    before = snapshot(demo)
    assert client.post(reverse(name, args=[demo.slug])).status_code == 404
    assert snapshot(demo) == before


@pytest.mark.parametrize("name", ["campaign_start", "campaign_pause", "campaign_resume"])
def test_gm_actions_answer_get_with_the_campaign_page(
    demo: Campaign, client_for: ClientFor, name: str
) -> None:
    demo.refresh_from_db()
    status = demo.status
    response = client_for("gm").get(reverse(name, args=[demo.slug]))
    assert (response.status_code, response["Location"]) == (302, demo.get_absolute_url())
    demo.refresh_from_db()
    assert demo.status == status


def test_gm_actions_need_the_csrf_token(demo: Campaign) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(Membership.objects.get(campaign=demo, role="gm").user)
    before = snapshot(demo)
    assert client.post(reverse("campaign_pause", args=[demo.slug])).status_code == 403
    assert snapshot(demo) == before


def test_r31_the_gm_starts_a_draft_campaign(client: Client) -> None:
    gm = MembershipFactory(role=Membership.Role.GM, campaign=CampaignFactory(slug="fresh"))
    # What a campaign needs to start (tests/web/test_start_checks.py): a board, and a player
    # holding a department on it.
    structure = StructureFactory(board=BoardFactory(campaign=gm.campaign))
    DepartmentFactory(board=structure.board, structure=structure, home=True)
    client.force_login(gm.user)
    response = client.post(reverse("campaign_start", args=["fresh"]), follow=True)
    assert messages_of(response) == ["The campaign has started."]
    status, turns = snapshot(gm.campaign)
    assert status == Campaign.Status.RUNNING
    assert turns == [(0, Turn.Status.PROCESSED), (1, Turn.Status.OPEN)]

    again = client.post(reverse("campaign_start", args=["fresh"]), follow=True)
    assert "already started" in messages_of(again)[0]
    assert snapshot(gm.campaign) == (status, turns)


def test_r30_the_gm_pauses_and_resumes(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    response = gm.post(reverse("campaign_pause", args=[demo.slug]), follow=True)
    assert messages_of(response) == ["Campaign paused."]
    assert snapshot(demo)[0] == Campaign.Status.PAUSED
    assert reverse("campaign_resume", args=[demo.slug]) in response.content.decode()

    twice = gm.post(reverse("campaign_pause", args=[demo.slug]), follow=True)
    assert "not running" in messages_of(twice)[0]

    response = gm.post(reverse("campaign_resume", args=[demo.slug]), follow=True)
    assert messages_of(response) == ["Campaign resumed."]
    assert snapshot(demo)[0] == Campaign.Status.RUNNING


def test_r31_processing_needs_the_confirmation(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    url = reverse("turn_process", args=[demo.slug])
    page = gm.get(url)
    assert page.status_code == 200
    assert b'name="confirm"' in page.content and b"required" in page.content
    before = snapshot(demo)

    unconfirmed = gm.post(url, {"number": 1})
    assert unconfirmed.status_code == 200
    assert b"Tick the box to confirm." in unconfirmed.content
    assert snapshot(demo) == before


def test_r31_the_gm_processes_the_turn_now(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    url = reverse("turn_process", args=[demo.slug])
    response = gm.post(url, {"number": 1, "confirm": "on"}, follow=True)
    assert messages_of(response) == ["Turn 1 processed; turn 2 is open."]
    assert snapshot(demo)[1][-2:] == [(1, Turn.Status.PROCESSED), (2, Turn.Status.OPEN)]


def test_r31_a_stale_confirmation_processes_nothing_twice(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    url = reverse("turn_process", args=[demo.slug])
    gm.post(url, {"number": 1, "confirm": "on"}, follow=True)
    before = snapshot(demo)
    response = gm.post(url, {"number": 1, "confirm": "on"}, follow=True)
    assert "Turn 1 is not open" in messages_of(response)[0]
    assert snapshot(demo) == before


@pytest.mark.parametrize("number", ["abc", "-1", ""])
def test_bad_turn_numbers_are_form_errors_not_500s(
    demo: Campaign, client_for: ClientFor, number: str
) -> None:
    before = snapshot(demo)
    response = client_for("gm").post(
        reverse("turn_process", args=[demo.slug]), {"number": number, "confirm": "on"}
    )
    assert response.status_code == 200
    assert snapshot(demo) == before


def test_processing_a_draft_campaign_is_refused_politely(client: Client) -> None:
    gm = MembershipFactory(role=Membership.Role.GM, campaign=CampaignFactory(slug="draft"))
    client.force_login(gm.user)
    response = client.get(reverse("turn_process", args=["draft"]), follow=True)
    assert messages_of(response) == ["There is no open turn to process."]


def test_r31_a_crash_while_the_gm_processes_is_a_message_not_a_500(
    demo: Campaign, client_for: ClientFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the engine fell over")

    monkeypatch.setattr("campaigns.services.turns.resolve_boards", crash)
    before = snapshot(demo)
    response = client_for("gm").post(
        reverse("turn_process", args=[demo.slug]), {"number": 1, "confirm": "on"}, follow=True
    )
    assert response.status_code == 200
    assert any("could not be processed and nothing was changed" in m for m in messages_of(response))
    assert "the engine fell over" not in response.content.decode()
    assert snapshot(demo) == before


def test_r30_the_confirmation_shows_when_the_next_turn_is_due_and_that_undo_exists(
    demo: Campaign, client_for: ClientFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25. Tourmaline's deadlines are Fridays 18:00 in Berlin; turn 1 is due Friday
    4 December 2026 (17:00 UTC) and the GM, reading in New York, looks on Tuesday the 1st.
    Processed now, turn 2 is due at the first Friday at least 72 hours away: the 4th itself,
    shown in the GM's zone (12:00 EST), not a week after turn 1's deadline. The page says
    how to undo the turn instead of that it cannot be undone; the job then sets the date the
    page showed."""
    deadline, now = (
        dt.datetime(2026, 12, 4, 17, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC),
    )
    demo.turns.filter(number=1).update(deadline=deadline)
    gm = client_for("gm")
    user = Membership.objects.get(campaign=demo, role=Membership.Role.GM).user
    Profile.objects.update_or_create(user=user, defaults={"time_zone": "America/New_York"})
    monkeypatch.setattr("django.utils.timezone.now", lambda: now)

    page = gm.get(reverse("turn_process", args=[demo.slug])).content.decode()
    shown = re.search(
        r"<strong data-next-due><time datetime=\"([^\"]+)\"[^>]*>([^<]+)</time>", page
    )
    assert shown is not None, page
    assert shown.groups() == ("2026-12-04T17:00:00+00:00", "Fri 4 Dec 2026, 12:00 EST")
    assert "at least 72 hours later (the campaign's minimum turn length" in html.unescape(page)
    assert "cannot be undone" not in page
    assert "you can undo it afterwards with <em>Undo turn 1</em>" in page
    assert "turn 1 opens again with new dice" in page

    gm.post(reverse("turn_process", args=[demo.slug]), {"number": 1, "confirm": "on"})
    assert demo.turns.get(number=2).deadline == deadline

"""Invitation links: the GM makes one (single use or for N people, expiry, player or
observer), and people join through it, with a new account or their own. A closed link says
why; an unknown one is a 404 like any other."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import AuditEntry, Campaign, Invitation, Membership
from campaigns.services.players import InvitationClosed, invitation_accept, invitation_create
from tests.support.handmade import ClientFor

SLUG = "tourmaline"
SIGN_UP = {
    "username": "erin",
    "email": "erin@example.com",
    "password1": "a-long-enough-passphrase",
    "password2": "a-long-enough-passphrase",
}


def invite(campaign: Campaign, *, role: str = "player", uses: int = 1, days: int = 14):
    gm = campaign.memberships.get(role=Membership.Role.GM).user
    return invitation_create(campaign=campaign, actor=gm, role=role, uses=uses, days=days)


@pytest.mark.django_db
def test_the_gm_makes_a_link_and_sees_it_on_the_players_page(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    url = reverse("players", args=[SLUG])
    response = gm.post(url, {"role": "observer", "uses": "3", "days": "7"}, follow=True)
    invitation = Invitation.objects.get()
    assert (invitation.role, invitation.uses, invitation.used) == ("observer", 3, 0)
    assert (
        dt.timedelta(days=6, hours=23)
        < invitation.expires_at - timezone.now()
        <= dt.timedelta(days=7)
    )
    page = response.content.decode()
    assert f"http://testserver/join/{invitation.token}/" in page
    assert "Observer · 0 of 3 used" in page
    assert AuditEntry.objects.filter(action="members").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"role": "gm", "uses": "1", "days": "7"}, "Select a valid choice."),
        ({"role": "player", "uses": "0", "days": "7"}, "greater than or equal to 1"),
        ({"role": "player", "uses": "1", "days": "61"}, "less than or equal to 60"),
    ],
)
def test_a_bad_invitation_is_refused_with_a_message(
    demo: Campaign, client_for: ClientFor, data: dict[str, str], message: str
) -> None:
    response = client_for("gm").post(reverse("players", args=[SLUG]), data)
    assert response.status_code == 200 and message in response.content.decode()
    assert not Invitation.objects.exists()


@pytest.mark.django_db
def test_someone_new_signs_up_through_the_link_and_is_a_player(demo: Campaign) -> None:
    invitation = invite(demo)
    client = Client()
    page = " ".join(client.get(invitation.get_absolute_url()).content.decode().split())
    assert "invites you to <strong>Tourmaline</strong>" in page and "Make my account" in page
    response = client.post(invitation.get_absolute_url(), SIGN_UP)
    assert response.status_code == 302 and response["Location"] == demo.get_absolute_url()
    member = Membership.objects.get(campaign=demo, user__username="erin")
    assert member.role == Membership.Role.PLAYER and member.user.email == "erin@example.com"
    assert (
        "Welcome to Tourmaline: you joined as a player."
        in client.get(demo.get_absolute_url()).content.decode()
    )
    invitation.refresh_from_db()
    assert invitation.used == 1


@pytest.mark.django_db
def test_an_existing_user_joins_with_one_click(demo: Campaign) -> None:
    user = get_user_model().objects.create_user("dave", "dave@example.com", "x")
    client = Client()
    client.force_login(user)
    invitation = invite(demo, role="observer")
    assert "Join as dave" in client.get(invitation.get_absolute_url()).content.decode()
    client.post(invitation.get_absolute_url())
    assert Membership.objects.get(user=user).role == Membership.Role.OBSERVER


@pytest.mark.django_db
def test_a_member_following_the_link_again_keeps_their_role_and_uses_nothing(
    demo: Campaign, client_for: ClientFor
) -> None:
    invitation = invite(demo, role="observer")
    response = client_for("alice").post(invitation.get_absolute_url(), follow=True)
    assert "You are already in Tourmaline." in response.content.decode()
    assert Membership.objects.get(campaign=demo, user__username="alice").role == "player"
    invitation.refresh_from_db()
    assert invitation.used == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ({"revoked": True}, "The GM has withdrawn this invitation."),
        ({"used": 1}, "This invitation has been used as often as the GM allowed."),
        ({"expires_at": timezone.now() - dt.timedelta(minutes=1)}, "This invitation has expired."),
    ],
)
def test_a_closed_link_says_why_and_lets_nobody_in(
    demo: Campaign, spoil: dict[str, object], message: str
) -> None:
    invitation = invite(demo)
    Invitation.objects.filter(pk=invitation.pk).update(**spoil)
    client = Client()
    page = client.get(invitation.get_absolute_url())
    assert page.status_code == 410 and message in page.content.decode()
    assert "Make my account" not in page.content.decode()
    response = client.post(invitation.get_absolute_url(), SIGN_UP)
    assert response.status_code == 410
    assert not get_user_model().objects.filter(username="erin").exists()


@pytest.mark.django_db
def test_a_bad_sign_up_says_what_is_wrong_and_creates_nothing(demo: Campaign) -> None:
    invitation = invite(demo)
    data = {**SIGN_UP, "username": "alice", "password2": "something else"}
    response = Client().post(invitation.get_absolute_url(), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "A user with that username already exists." in page
    assert "The two password fields" in page
    assert Membership.objects.filter(campaign=demo).count() == 4
    assert not Invitation.objects.filter(used__gt=0).exists()


@pytest.mark.django_db
def test_an_unknown_link_is_not_found() -> None:
    assert Client().get(reverse("invitation_join", args=["no-such-token"])).status_code == 404


@pytest.mark.django_db
def test_the_gm_withdraws_a_link(demo: Campaign, client_for: ClientFor) -> None:
    invitation = invite(demo)
    url = reverse("invitation_withdraw", args=[SLUG, invitation.pk])
    assert client_for("alice").post(url).status_code == 403
    assert client_for("gm").post(url).status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked


@pytest.mark.django_db
def test_only_the_gm_reaches_the_players_page(demo: Campaign, client_for: ClientFor) -> None:
    url = reverse("players", args=[SLUG])
    assert client_for("gm").get(url).status_code == 200
    assert client_for("alice").get(url).status_code == 403
    assert (
        client_for("alice").post(url, {"role": "player", "uses": 1, "days": 1}).status_code == 403
    )
    assert not Invitation.objects.exists()


@pytest.mark.django_db
def test_the_players_page_costs_the_same_queries_however_many_people(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm, url = client_for("gm"), reverse("players", args=[SLUG])
    invite(demo)
    gm.get(url)
    with CaptureQueriesContext(connection) as few:
        gm.get(url)
    users = get_user_model().objects
    for i in range(20):
        Membership.objects.create(campaign=demo, user=users.create_user(f"p{i}"))
        invite(demo)
    with CaptureQueriesContext(connection) as many:
        gm.get(url)
    assert len(many) == len(few)


def test_two_people_racing_for_a_single_use_links_last_place_get_one_place(
    postgres: None, transactional_db: None
) -> None:
    """The invitation row is locked: of two people joining at once through a link with one
    place left, one joins and the other is told the link is used up."""
    from campaigns.services.demo import demo_create

    campaign = demo_create()
    invitation = invite(campaign)
    users = [get_user_model().objects.create_user(name) for name in ("x1", "x2")]
    start, results = threading.Barrier(2), []

    def join(user) -> None:  # type: ignore[no-untyped-def]
        try:
            start.wait()
            results.append(invitation_accept(invitation=invitation, user=user)[1])
        except InvitationClosed as error:
            results.append(str(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=join, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(map(str, results)) == sorted(
        ["True", "This invitation has been used as often as the GM allowed."]
    )
    assert Membership.objects.filter(campaign=campaign, user__in=users).count() == 1

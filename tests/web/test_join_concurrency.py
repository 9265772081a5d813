"""Eight people sign up through a single-use invitation link at the same moment, on
PostgreSQL, each as a real request from their own thread, connection and address. The link's
row is locked and checked before an account is made: one account and one membership, and
the seven others are told the link is used up and get no account."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from campaigns.models import Invitation, Membership
from campaigns.services.demo import demo_create
from campaigns.services.players import invitation_create
from tests.support.race import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PEOPLE = [f"racer{n}" for n in range(8)]
USED_UP = "This invitation has been used as often as the GM allowed."


def test_eight_sign_ups_on_a_single_use_link_make_one_account(postgres: None) -> None:
    cache.clear()
    campaign = demo_create()
    gm = campaign.memberships.get(role=Membership.Role.GM).user
    link = invitation_create(campaign=campaign, actor=gm, role="player", uses=1, days=7)
    password = "a-long-pass-phrase-9"

    def sign_up() -> tuple[int, bool]:
        name = threading.current_thread().name
        data = {"username": name, "email": f"{name}@example.org"}
        data |= {"password1": password, "password2": password}
        address = f"198.51.100.{PEOPLE.index(name) + 1}"  # each their own: no throttle
        response = Client().post(link.get_absolute_url(), data, REMOTE_ADDR=address)
        return response.status_code, USED_UP in response.content.decode()

    results = sorted(result for result, _ in race(len(PEOPLE), sign_up, names=PEOPLE))

    assert results == [(302, False)] + [(410, True)] * (len(PEOPLE) - 1)
    made = get_user_model().objects.filter(username__in=PEOPLE)
    assert made.count() == 1
    assert Membership.objects.filter(campaign=campaign, user__in=made).count() == 1
    assert Invitation.objects.get(pk=link.pk).used == 1

"""Mail links are absolute: the worker sends mail with no request to take a host from."""

from typing import Any

import pytest

from campaigns.models import Membership
from campaigns.services.notifications import notify_turn_processed
from tests.factories import MembershipFactory


@pytest.mark.django_db
def test_the_turn_mail_links_to_the_campaign_on_site_url(settings: Any, mailoutbox: list) -> None:
    settings.SITE_URL = "https://illumineaucracy.example.org"
    alice = MembershipFactory(campaign__slug="tourmaline", role=Membership.Role.PLAYER)

    notify_turn_processed(alice.campaign, 3)

    assert len(mailoutbox) == 1
    assert "https://illumineaucracy.example.org/c/tourmaline/" in mailoutbox[0].body

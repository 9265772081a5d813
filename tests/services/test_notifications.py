"""Mail links are absolute: the worker sends mail with no request to take a host from."""

from typing import Any

import pytest

from campaigns.models import Membership, NotificationSettings
from campaigns.services.notifications import notify_turn_processed
from tests.factories import MembershipFactory


@pytest.mark.django_db
def test_the_turn_mail_links_to_the_campaign_on_site_url(settings: Any, mailoutbox: list) -> None:
    settings.SITE_URL = "https://illumineaucracy.example.org"
    alice = MembershipFactory(campaign__slug="tourmaline", role=Membership.Role.PLAYER)

    notify_turn_processed(alice.campaign, 3)

    assert len(mailoutbox) == 1
    assert "https://illumineaucracy.example.org/c/tourmaline/" in mailoutbox[0].body


@pytest.mark.django_db
def test_the_turn_mail_reads_every_opt_out_in_one_query(
    django_assert_num_queries: Any, mailoutbox: list
) -> None:
    """The members and their mail settings come in one query, however many there are, who
    had an envelope opened (R71, R72) in one more, and the election of the turn that opens
    (R80) in a third, the turn's wins of classic boards (R98) in a fourth; the opt-outs
    still hold (a user with no settings row gets everything)."""
    alice = MembershipFactory(role=Membership.Role.PLAYER, user__email="alice@example.com")
    campaign = alice.campaign
    players = [MembershipFactory(campaign=campaign, role=Membership.Role.PLAYER) for _ in range(6)]
    quiet = players[0].user
    NotificationSettings.objects.create(user=quiet, turn_processed=False)

    with django_assert_num_queries(4):
        sent = notify_turn_processed(campaign, 1)

    assert sent == 6
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        m.user.email for m in [alice, *players[1:]]
    )

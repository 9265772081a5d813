"""Press under load, on PostgreSQL: fifty players post to the public channel at the same
moment, each from their own thread and connection. Every message is stored, numbered 1 to 50
without a gap or a twin (the conversation's row lock hands out the numbers)."""

from __future__ import annotations

import threading

import pytest

from campaigns.models import Campaign, Membership, Message
from campaigns.press.selectors.press import conversation_for
from campaigns.press.services.press import channel_ensure, message_send
from tests.factories import CampaignFactory, MembershipFactory
from tests.support.race import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PLAYERS = 50


def test_fifty_players_posting_at_once_lose_no_message(postgres: None) -> None:
    campaign: Campaign = CampaignFactory()
    players = {
        f"p{n}": MembershipFactory(campaign=campaign, role=Membership.Role.PLAYER)
        for n in range(PLAYERS)
    }
    channel = channel_ensure(campaign=campaign)

    def post() -> int:
        writer = Membership.objects.select_related("campaign", "user").get(
            pk=players[threading.current_thread().name].pk
        )
        found = conversation_for(writer, channel.pk)
        assert found is not None
        return message_send(member=writer, conversation=found, text=f"from {writer.pk}").seq

    results = race(PLAYERS, post, names=list(players))

    seqs = sorted(seq for seq, _ in results)
    assert seqs == list(range(1, PLAYERS + 1))
    stored = Message.objects.filter(conversation=channel)
    assert stored.count() == PLAYERS
    assert sorted(stored.values_list("text", flat=True)) == sorted(
        f"from {m.pk}" for m in players.values()
    )
    channel.refresh_from_db()
    assert channel.last_seq == PLAYERS

"""Press in tests: conversations and messages through the real services, and a long
conversation made in one go for the paging and query-count tests."""

from __future__ import annotations

from django.utils import timezone

from campaigns.models import Campaign, Conversation, Message
from campaigns.press.selectors.press import conversation_for
from campaigns.press.services.press import conversation_start, message_send
from tests.support.demo import member


def talk(
    campaign: Campaign, sender: str, to: list[str], text: str, subject: str = ""
) -> Conversation:
    """`sender` starts a private conversation with `to` (usernames), saying `text`."""
    return conversation_start(
        member=member(campaign, sender),
        recipients=[member(campaign, name) for name in to],
        subject=subject,
        text=text,
    )


def say(campaign: Campaign, sender: str, conversation: Conversation, text: str) -> Message:
    """`sender` writes `text` in a conversation they may read."""
    writer = member(campaign, sender)
    found = conversation_for(writer, conversation.pk)
    assert found is not None, f"{sender} cannot read conversation {conversation.pk}"
    return message_send(member=writer, conversation=found, text=text)


def grow(conversation: Conversation, sender: str, count: int) -> None:
    """`count` more messages by `sender`, numbered on from the conversation's last one."""
    writer = member(conversation.campaign, sender)
    conversation.refresh_from_db(fields=["last_seq"])
    first = conversation.last_seq + 1
    Message.objects.bulk_create(
        Message(conversation=conversation, seq=first + i, sender=writer, text=f"Note {first + i}")
        for i in range(count)
    )
    last = first + count - 1
    Conversation.objects.filter(pk=conversation.pk).update(
        last_seq=last, last_message_at=timezone.now()
    )
    conversation.last_seq = last

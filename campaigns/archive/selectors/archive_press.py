"""The press in a campaign archive (docs/campaign-archive.md): conversations with their
messages and read marks, and the GM's announcements (RULES R62: deals are made here, so they
are part of the story). archive/services/archive.py reads them back.

The full archive (`manage.py export_campaign`, for moving a campaign between servers) holds
every conversation. The GM's archive (the download on the site) holds what the press pages
show that GM, no more: the conversations they may read (press/selectors/press.py), and of the
others not even their subject or who is in them, since on the site they do not exist for
the GM. Under grey press the GM sees who wrote and who is in a conversation, so those stay.
Other members' read marks are shown to nobody, so the GM's archive keeps only the GM's own;
the importer takes a participant without marks as having read, and been mailed, everything
(so the copy tells nobody of old messages, neither as unread nor by mail)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from campaigns.archive.selectors.archive_ids import ArchiveIds, plain
from campaigns.models import Announcement, Campaign, Conversation, Membership, Message, Participant
from campaigns.press.selectors.press import readable_conversations

CONVERSATION_FIELDS = ("is_public", "subject", "created_at", "last_seq", "last_message_at")
MESSAGE_FIELDS = ("seq", "text", "quote", "created_at", "hidden_at")


def press_entries(
    campaign: Campaign, ids: ArchiveIds, reader: Membership | None = None
) -> dict[str, Any]:
    """The archive's `press`: everything (`reader` None), or what the GM `reader` may read.
    Four queries whatever the number of conversations or messages."""
    rows: QuerySet[Conversation] = (
        campaign.conversations.all() if reader is None else readable_conversations(reader)
    )
    conversations = list(rows.order_by("pk").prefetch_related("participants"))
    messages: dict[int, list[dict[str, Any]]] = {c.pk: [] for c in conversations}
    found = Message.objects.filter(conversation__in=rows).select_related("hidden_by")
    for message in found.order_by("conversation_id", "seq"):
        messages[message.conversation_id].append(
            {**plain(message, MESSAGE_FIELDS),
             "sender": ids.member_name[message.sender_id],
             "hidden_by": message.hidden_by.get_username() if message.hidden_by else None}
        )  # fmt: skip
    return {
        "conversations": [
            {**plain(c, CONVERSATION_FIELDS),
             "started_by": ids.member_name.get(c.started_by_id) if c.started_by_id else None,
             "participants": participant_entries(c, ids, reader),
             "messages": messages[c.pk]}
            for c in conversations
        ],
        "announcements": [
            {**plain(a, ("text", "created_at")), "author": ids.member_name[a.author_id]}
            for a in Announcement.objects.filter(campaign=campaign).order_by("pk")
        ],
    }  # fmt: skip


def participant_entries(
    conversation: Conversation, ids: ArchiveIds, reader: Membership | None
) -> list[dict[str, Any]]:
    """Who is in the conversation, with their read marks: all of them in the full archive;
    in the GM's, the GM's own marks only. Everyone is in the channel, where a row is only a
    reader's marks (made when they first read, or by the digest job): the GM's archive
    lists every member there, so none of them finds the copy's channel unread."""
    rows = sorted(conversation.participants.all(), key=lambda p: p.pk)
    if reader is None:
        return [marked(p, ids) for p in rows]
    if conversation.is_public:
        # No row of the GM's own: they have read nothing there yet, as the site counts it.
        mine = next((p for p in rows if p.member_id == reader.pk), Participant(member=reader))
        return [
            marked(mine, ids) if pk == reader.pk else {"member": name}
            for pk, name in ids.member_name.items()
        ]
    return [
        marked(p, ids) if p.member_id == reader.pk else {"member": ids.member_name[p.member_id]}
        for p in rows
    ]


def marked(participant: Participant, ids: ArchiveIds) -> dict[str, Any]:
    return {
        "member": ids.member_name[participant.member_id],
        "last_read_seq": participant.last_read_seq,
        "mailed_seq": participant.mailed_seq,
    }

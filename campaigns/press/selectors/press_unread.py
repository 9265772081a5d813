"""Unread press: the counts in the navbar and on the messages overview, and what each
user's mail digest would tell them. A member has read a conversation up to their
Participant row's `last_read_seq` (none: nothing); their own messages and hidden ones never
count as unread. Each function is one or two queries, however many messages."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from functools import reduce
from operator import or_

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import BooleanField, Count, F, IntegerField, Prefetch, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import Greatest
from django.urls import reverse

from campaigns.models import Campaign, Conversation, Membership, Message, Participant
from campaigns.press.selectors.press import (
    MEMBER_RELATED,
    SENDER_RELATED,
    conversation_title,
    sender_label,
)
from campaigns.selectors.row_flags import column, table

MAX_LINES = 10  # messages quoted per conversation in one digest; the rest are counted


# The user's read mark of a conversation row (their Participant row, through their
# membership), for unread_counts: SQL written once, as row_flags.py explains (this query
# runs for the navbar of every page), the same the ORM's Subquery and Exists wrote.
READ_MARK = (
    f"FROM {table(Participant)} p JOIN {table(Membership)} m"
    f" ON p.{column(Participant, 'member')} = m.{column(Membership, 'id')}"
    f" WHERE p.{column(Participant, 'conversation')}"
    f" = {table(Conversation)}.{column(Conversation, 'id')}"
    f" AND m.{column(Membership, 'user')} = %s"
)
LAST_READ_SQL = (
    f"COALESCE((SELECT p.{column(Participant, 'last_read_seq')} {READ_MARK} LIMIT 1), 0)"
)
TAKES_PART_SQL = f"EXISTS (SELECT 1 {READ_MARK})"


def unread_counts(user: AbstractBaseUser | AnonymousUser) -> dict[int, int]:
    """Campaign id -> messages the user has not read in the conversations they are in and
    the public channels of their campaigns. One query."""
    if not user.is_authenticated:
        return {}
    takes_part = RawSQL(TAKES_PART_SQL, (user.pk,), output_field=BooleanField())
    last_read = RawSQL(LAST_READ_SQL, (user.pk,), output_field=IntegerField())
    news = Q(messages__seq__gt=F("last_read"), messages__hidden_at__isnull=True) & ~Q(
        messages__sender__user=user
    )
    rows = (
        Conversation.objects.filter(campaign__memberships__user=user)
        .filter(Q(is_public=True) | Q(takes_part))
        .annotate(last_read=last_read)
        .filter(last_seq__gt=F("last_read"))
        .values("campaign_id")
        .annotate(unread=Count("messages", filter=news))
        .order_by()
    )
    return {row["campaign_id"]: row["unread"] for row in rows if row["unread"]}


@dataclass(frozen=True)
class CampaignUnread:
    name: str
    slug: str
    unread: int


def unread_by_campaign(user: AbstractBaseUser) -> list[CampaignUnread]:
    """Every campaign of the user with its unread messages: two queries."""
    counts = unread_counts(user)
    rows = Campaign.objects.filter(memberships__user=user).order_by("name", "pk")
    return [CampaignUnread(c.name, c.slug, counts.get(c.pk, 0)) for c in rows]


# --- The mail digest -----------------------------------------------------------------------


@dataclass
class DigestEntry:
    """One conversation in one user's digest: what they have neither read nor been mailed.
    The words (names, titles) are made by `lines` and `title`, in the reader's language."""

    reader: Participant
    people: list[Membership]
    messages: list[Message] = field(default_factory=list)

    @property
    def through(self) -> int:
        return max(m.seq for m in self.messages)

    @property
    def path(self) -> str:
        conversation = self.reader.conversation
        return reverse("press_conversation", args=[conversation.campaign.slug, conversation.pk])

    def title(self) -> str:
        conversation, viewer = self.reader.conversation, self.reader.member
        anonymous = conversation.campaign.press_rules == Campaign.PressRules.GREY
        return f"{conversation.campaign.name}: " + conversation_title(
            viewer, conversation, self.people, anonymous
        )

    def lines(self) -> list[tuple[str, str]]:
        """(sender as the reader may know them, text) of the first MAX_LINES messages."""
        viewer = self.reader.member
        anonymous = self.reader.conversation.campaign.press_rules == Campaign.PressRules.GREY
        return [
            (sender_label(m.sender, viewer, anonymous), m.text) for m in self.messages[:MAX_LINES]
        ]


def digest_readers() -> QuerySet[Participant]:
    """Read marks with messages newer than both what was read and what was mailed, of users
    with an address who left the digest switched on."""
    wants = Q(member__user__notification_settings__isnull=True) | Q(
        member__user__notification_settings__press_digest=True
    )
    return (
        Participant.objects.filter(wants)
        .exclude(member__user__email="")
        .filter(conversation__last_seq__gt=Greatest(F("last_read_seq"), F("mailed_seq")))
        .select_related(
            "conversation__campaign", *MEMBER_RELATED, "member__user__notification_settings"
        )
    )


def digest_entries(now: dt.datetime, grace: dt.timedelta) -> dict[int, list[DigestEntry]]:
    """User id -> their digest: every conversation with messages older than `grace` (so a
    conversation going on right now is not mailed about) that they have neither read nor
    been mailed, and not their own or hidden. Three queries."""
    people = Participant.objects.select_related(*MEMBER_RELATED).order_by("pk")
    readers = list(
        digest_readers().prefetch_related(
            Prefetch("conversation__participants", queryset=people, to_attr="people")
        )
    )
    if not readers:
        return {}
    news = reduce(
        or_,
        (
            Q(conversation_id=r.conversation_id, seq__gt=max(r.last_read_seq, r.mailed_seq))
            for r in readers
        ),
    )
    rows = (
        Message.objects.filter(news, hidden_at__isnull=True, created_at__lte=now - grace)
        .select_related(*SENDER_RELATED)
        .order_by("conversation_id", "seq")
    )
    by_conversation: dict[int, list[Message]] = defaultdict(list)
    for message in rows:
        by_conversation[message.conversation_id].append(message)
    digests: dict[int, list[DigestEntry]] = defaultdict(list)
    for reader in readers:
        since = max(reader.last_read_seq, reader.mailed_seq)
        unread = [
            m
            for m in by_conversation[reader.conversation_id]
            if m.seq > since and m.sender_id != reader.member_id
        ]
        if unread:
            members = [p.member for p in reader.conversation.people]
            entry = DigestEntry(reader=reader, people=members, messages=unread)
            digests[reader.member.user_id].append(entry)
    return dict(digests)

"""Every read the press pages need (RULES R62: deals are made by talking), as view-models.

Who may read what: a private conversation exists only for its participants (and for the GM
when the campaign lets the GM read press); the public channel for every member; nothing for
anyone else (the pages answer 404). R50: a message is shown exactly as its sender typed it;
the site adds nothing to it (no department cards, no links to departments): the only link
the site builds is a quoted order's, to the reader's own order form. Grey press hides the
sender from everyone but the sender and the GM.

Every function issues a fixed number of queries, however many messages or members."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from campaigns.accounts.selectors.profile import MEMBER_NAME_RELATED, member_name
from campaigns.models import (
    Announcement,
    Campaign,
    Conversation,
    Membership,
    Message,
    Participant,
)
from campaigns.press.selectors.press_quotes import QuoteView, quote_view, quotes_for
from campaigns.selectors.visibility import is_gm

Rules = Campaign.PressRules
PAGE_SIZE = 50  # messages per page of a conversation
MEMBER_RELATED = tuple(f"member__{name}" for name in MEMBER_NAME_RELATED)
SENDER_RELATED = tuple(f"sender__{name}" for name in MEMBER_NAME_RELATED)


# --- The rules that apply ----------------------------------------------------------------


@dataclass(frozen=True)
class RulesView:
    """What the campaign's press rules mean for one viewer, said before they write."""

    rules: str
    label: str
    lines: list[str]
    anonymous: bool  # grey press: receivers do not see who wrote
    gm_reads: bool
    may_start_private: bool


def rules_view(viewer: Membership) -> RulesView:
    campaign = viewer.campaign
    rules = campaign.press_rules
    gm = is_gm(viewer)
    lines = [
        {
            Rules.FULL: _("Players may write to each other privately and in the public channel."),
            Rules.PUBLIC: _(
                "Players may write only in the public channel, which every member reads."
            ),
            Rules.NONE: _(
                "Players may not write to each other; the GM's announcements still come."
            ),
            Rules.GREY: _(
                "Grey press: nobody sees who wrote a message but its sender and the GM. "
                "Who is in a conversation is shown only to the one who started it."
            ),
        }[Rules(rules)]
    ]
    if campaign.gm_reads_press:
        lines.append(_("The GM can read every conversation, private ones too."))
    else:
        lines.append(_("A private conversation is read only by the members in it."))
    lines.append(_("Messages cannot be changed or deleted after sending; the GM can hide one."))
    return RulesView(
        rules=rules,
        label=Rules(rules).label,
        lines=lines,
        anonymous=rules == Rules.GREY,
        gm_reads=campaign.gm_reads_press,
        may_start_private=gm or rules in (Rules.FULL, Rules.GREY),
    )


def why_not_write(viewer: Membership, conversation: Conversation, participant: bool) -> str:
    """Why the viewer may not write here, or "" if they may. The GM writes in the channel and
    in their own conversations whatever the rules; reading others' does not let them write."""
    rules = viewer.campaign.press_rules
    if not conversation.is_public and not participant:
        return _("You can read this conversation as the GM, but you are not in it.")
    if is_gm(viewer):
        return ""
    if rules == Rules.NONE:
        return _("The GM has switched press off in this campaign: nobody can write now.")
    if not conversation.is_public and rules == Rules.PUBLIC:
        return _("The GM allows only the public channel now: this conversation is closed.")
    return ""


# --- Names ---------------------------------------------------------------------------------


def sender_label(sender: Membership, viewer: Membership, anonymous: bool) -> str:
    """Who wrote, as `viewer` may know it: themselves, the GM, a name, or nobody (grey)."""
    if sender.pk == viewer.pk:
        return _("You")
    if is_gm(sender):
        return _("%(name)s (GM)") % {"name": member_name(sender)}
    if anonymous and not is_gm(viewer):
        return _("Anonymous")
    return member_name(sender)


def shows_participants(viewer: Membership, conversation: Conversation, anonymous: bool) -> bool:
    """Under grey press the list would name the sender by elimination: only the one who
    started the conversation (who chose whom to write to) and the GM see it."""
    return not anonymous or is_gm(viewer) or conversation.started_by_id == viewer.pk


# --- Access --------------------------------------------------------------------------------


def participant_of(viewer: Membership) -> QuerySet[Participant]:
    """The viewer's row in the outer conversation (for Exists and Subquery)."""
    return Participant.objects.filter(conversation=OuterRef("pk"), member=viewer)


def conversation_for(viewer: Membership, pk: int) -> Conversation | None:
    """The conversation, if `viewer` may read it; None otherwise (a 404: a conversation one
    may not read does not exist for them). One query; `is_participant` is annotated."""
    found = (
        Conversation.objects.filter(pk=pk, campaign=viewer.campaign)
        .annotate(is_participant=Exists(participant_of(viewer)))
        .first()
    )
    if found is None:
        return None
    readable = found.is_public or found.is_participant
    if readable or (is_gm(viewer) and viewer.campaign.gm_reads_press):
        found.campaign = viewer.campaign
        return found
    return None


def message_for(viewer: Membership, pk: int) -> Message | None:
    """A message in a conversation the viewer may read, or None. Two queries."""
    row = Message.objects.filter(pk=pk, conversation__campaign=viewer.campaign).first()
    if row is None or conversation_for(viewer, row.conversation_id) is None:
        return None
    return row


# --- Messages ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MessageView:
    pk: int
    seq: int
    sender: str
    mine: bool
    text: str  # empty when hidden, except for the GM
    hidden: bool
    created_at: dt.datetime
    quote: QuoteView | None


def message_views(rows: list[Message], viewer: Membership) -> list[MessageView]:
    """Three more queries when a message quotes an order (press_quotes.quotes_for)."""
    quotes = quotes_for(viewer) if any(r.quote for r in rows) else None
    anonymous = viewer.campaign.press_rules == Rules.GREY
    gm = is_gm(viewer)
    views = []
    for row in rows:
        hidden = row.hidden_at is not None
        views.append(
            MessageView(
                pk=row.pk,
                seq=row.seq,
                sender=sender_label(row.sender, viewer, anonymous),
                mine=row.sender_id == viewer.pk,
                text=row.text if gm or not hidden else "",
                hidden=hidden,
                created_at=row.created_at,
                quote=quote_view(row.quote, quotes) if quotes and (gm or not hidden) else None,
            )
        )
    return views


def message_rows(conversation: Conversation) -> QuerySet[Message]:
    return Message.objects.filter(conversation=conversation).select_related(*SENDER_RELATED)


@dataclass(frozen=True)
class ConversationPage:
    pk: int
    title: str
    is_public: bool
    participants: list[str] | None  # None: hidden from this viewer (grey press)
    messages: list[MessageView]
    older: int | None  # ?before= for the page of older messages, None: this is the first
    last_seq: int | None  # the newest message shown, for polling; None on older pages
    why_not_write: str
    rules: RulesView
    is_gm: bool


def conversation_page(
    viewer: Membership, conversation: Conversation, before: int | None = None
) -> ConversationPage:
    """One page of a conversation (the newest PAGE_SIZE messages, or those before `before`):
    four queries, however long the conversation."""
    rows = message_rows(conversation).order_by("-seq")
    if before is not None:
        rows = rows.filter(seq__lt=before)
    page = list(rows[: PAGE_SIZE + 1])
    older = page[PAGE_SIZE - 1].seq if len(page) > PAGE_SIZE else None
    page = list(reversed(page[:PAGE_SIZE]))
    rules = rules_view(viewer)
    people = participant_rows(conversation)
    return ConversationPage(
        pk=conversation.pk,
        title=conversation_title(viewer, conversation, people, rules.anonymous),
        is_public=conversation.is_public,
        participants=names_shown(viewer, conversation, people, rules.anonymous),
        messages=message_views(page, viewer),
        older=older,
        last_seq=max([m.seq for m in page], default=0) if before is None else None,
        why_not_write=why_not_write(viewer, conversation, conversation.is_participant),
        rules=rules,
        is_gm=is_gm(viewer),
    )


def messages_after(viewer: Membership, conversation: Conversation, after: int) -> list[MessageView]:
    """The messages after `after` (polling): at most a page of them, oldest first."""
    rows = list(message_rows(conversation).filter(seq__gt=after).order_by("seq")[:PAGE_SIZE])
    return message_views(rows, viewer)


# --- Conversations -------------------------------------------------------------------------


def participant_rows(conversation: Conversation) -> list[Membership]:
    """The members of a private conversation (none for the channel: everyone is in it)."""
    if conversation.is_public:
        return []
    rows = conversation.participants.select_related(*MEMBER_RELATED).order_by("pk")
    return [p.member for p in rows]


def names_shown(
    viewer: Membership, conversation: Conversation, people: list[Membership], anonymous: bool
) -> list[str] | None:
    if not shows_participants(viewer, conversation, anonymous):
        return None
    return [sender_label(m, viewer, anonymous=False) for m in people]


def conversation_title(
    viewer: Membership, conversation: Conversation, people: list[Membership], anonymous: bool
) -> str:
    if conversation.is_public:
        return _("Everyone: the campaign's public channel")
    if conversation.subject:
        return conversation.subject
    if not shows_participants(viewer, conversation, anonymous):
        return _("An anonymous conversation")
    others = [member_name(m) for m in people if m.pk != viewer.pk]
    return _("With %(names)s") % {"names": ", ".join(others)}


@dataclass(frozen=True)
class ConversationLine:
    pk: int
    title: str
    is_public: bool
    unread: int | None  # None: the GM reading a conversation they are not in
    messages: int
    last_message_at: dt.datetime | None


def readable_conversations(viewer: Membership) -> QuerySet[Conversation]:
    """The conversations `viewer` may read: the channel and their own, and every one for the
    GM when the campaign lets the GM read press. The others do not exist for them: not on
    the press pages, not in the GM's campaign archive (archive/selectors/archive_press.py)."""
    campaign = viewer.campaign
    rows = Conversation.objects.filter(campaign=campaign)
    if is_gm(viewer) and campaign.gm_reads_press:
        return rows
    return rows.filter(Q(is_public=True) | Q(Exists(participant_of(viewer))))


def conversation_lines(viewer: Membership) -> list[ConversationLine]:
    """Every conversation the viewer may read, newest activity first, with their unread
    counts: two queries however many conversations or messages."""
    campaign = viewer.campaign
    mine = participant_of(viewer)
    rows = readable_conversations(viewer)
    unread = Q(messages__seq__gt=F("last_read"), messages__hidden_at__isnull=True) & ~Q(
        messages__sender=viewer
    )
    people = Participant.objects.select_related(*MEMBER_RELATED).order_by("pk")
    rows = (
        rows.annotate(
            is_participant=Exists(mine),
            last_read=Coalesce(Subquery(mine.values("last_read_seq")[:1]), 0),
            unread=Count("messages", filter=unread),
        )
        .prefetch_related(Prefetch("participants", queryset=people))
        .order_by("-is_public", F("last_message_at").desc(nulls_last=True), "-pk")
    )
    anonymous = campaign.press_rules == Rules.GREY
    lines = []
    for row in rows:
        members = [] if row.is_public else [p.member for p in row.participants.all()]
        lines.append(
            ConversationLine(
                pk=row.pk,
                title=conversation_title(viewer, row, members, anonymous),
                is_public=row.is_public,
                unread=row.unread if row.is_public or row.is_participant else None,
                messages=row.last_seq,
                last_message_at=row.last_message_at,
            )
        )
    return lines


def members_to_address(viewer: Membership) -> list[tuple[int, str]]:
    """(membership id, name) of every other member of the campaign: one query."""
    rows = (
        Membership.objects.filter(campaign=viewer.campaign)
        .exclude(pk=viewer.pk)
        .select_related(*MEMBER_NAME_RELATED)
    )
    named = [(m.pk, sender_label(m, viewer, anonymous=False)) for m in rows]
    return sorted(named, key=lambda pair: pair[1].casefold())


def members_by_pk(viewer: Membership, pks: list[int]) -> list[Membership]:
    return list(
        Membership.objects.filter(campaign=viewer.campaign, pk__in=pks).exclude(pk=viewer.pk)
    )


# --- Announcements -------------------------------------------------------------------------


@dataclass(frozen=True)
class AnnouncementView:
    author: str
    text: str
    created_at: dt.datetime


def announcements(campaign: Campaign, limit: int | None = None) -> list[AnnouncementView]:
    """The GM's announcements, newest first: one query."""
    rows = Announcement.objects.filter(campaign=campaign).select_related(
        *(f"author__{name}" for name in MEMBER_NAME_RELATED)
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        AnnouncementView(author=member_name(a.author), text=a.text, created_at=a.created_at)
        for a in rows
    ]

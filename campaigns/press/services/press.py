"""Press writes (RULES R62: deals are made by talking): conversations, messages, read marks,
the GM's hiding of a message (kept in the audit log, R53), announcements and press rules.

Errors are PressRefused with a sentence fit to show the writer; nothing is stored then.
Messages sent at the same moment to one conversation each get the next number under the
conversation's row lock, so none is lost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import (
    AuditEntry,
    Campaign,
    Conversation,
    Membership,
    Message,
    Participant,
)
from campaigns.models.press import MAX_MESSAGE_CHARS, MAX_SUBJECT_CHARS
from campaigns.press.selectors.press import conversation_for, rules_view, why_not_write
from campaigns.selectors.visibility import is_gm
from campaigns.services.audit import audit_record


class PressRefused(ValueError):
    pass


def text_checked(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    text = text.strip()
    if not text:
        raise PressRefused(_("Write something first: the message is empty."))
    if len(text) > limit:
        raise PressRefused(
            _("A message holds at most %(limit)d characters; this one has %(count)d.")
            % {"limit": limit, "count": len(text)}
        )
    return text


def channel_ensure(*, campaign: Campaign) -> Conversation:
    """The campaign's public channel, made the first time it is needed (the unique
    constraint keeps it to one when two requests make it at once)."""
    channel, _created = Conversation.objects.get_or_create(campaign=campaign, is_public=True)
    return channel


def conversation_start(
    *,
    member: Membership,
    recipients: Sequence[Membership],
    subject: str,
    text: str,
    quote: dict[str, Any] | None = None,
) -> Conversation:
    """A private conversation between `member` and `recipients` (other members of the same
    campaign), with its first message. Refused under press rules without private press."""
    if not rules_view(member).may_start_private:
        raise PressRefused(_("The GM allows no private conversations in this campaign now."))
    others = {m.pk: m for m in recipients if m.pk != member.pk}
    if not others:
        raise PressRefused(_("Choose at least one other member to write to."))
    if any(m.campaign_id != member.campaign_id for m in others.values()):
        raise PressRefused(_("Everyone in a conversation must be in this campaign."))
    text = text_checked(text)
    with transaction.atomic():
        conversation = Conversation.objects.create(
            campaign=member.campaign, subject=subject.strip()[:MAX_SUBJECT_CHARS], started_by=member
        )
        Participant.objects.bulk_create(
            Participant(conversation=conversation, member_id=pk) for pk in [member.pk, *others]
        )
        conversation.is_participant = True
        message_send(member=member, conversation=conversation, text=text, quote=quote)
    return conversation


def message_send(
    *,
    member: Membership,
    conversation: Conversation,
    text: str,
    quote: dict[str, Any] | None = None,
) -> Message:
    """Append a message (numbered under the conversation's row lock: concurrent senders
    queue, none is lost). `conversation` comes from selectors.press.conversation_for, with
    `is_participant`. The sender has read their own message."""
    text = text_checked(text)
    reason = why_not_write(member, conversation, conversation.is_participant)
    if reason:
        raise PressRefused(reason)
    with transaction.atomic():
        locked = Conversation.objects.select_for_update().get(pk=conversation.pk)
        seq = locked.last_seq + 1
        message = Message.objects.create(
            conversation=locked, seq=seq, sender=member, text=text, quote=quote or {}
        )
        Conversation.objects.filter(pk=locked.pk).update(
            last_seq=seq, last_message_at=message.created_at
        )
        conversation_read(member=member, conversation=locked, seq=seq)
    return message


def conversation_read(*, member: Membership, conversation: Conversation, seq: int) -> None:
    """`member` has read `conversation` up to `seq` (never lowered). In the public channel
    the read mark is made the first time; in a private conversation only participants have
    one (a GM reading others' conversations leaves no trace)."""
    mine = Participant.objects.filter(conversation=conversation, member=member)
    raised = Greatest(F("last_read_seq"), seq)
    if mine.update(last_read_seq=raised) or not conversation.is_public:
        return
    Participant.objects.bulk_create(
        [Participant(conversation=conversation, member=member, last_read_seq=seq)],
        ignore_conflicts=True,
    )
    mine.update(last_read_seq=raised)  # made by a request at the same moment: raise it too


def message_hide(*, gm: Membership, message_pk: int) -> bool:
    """The GM hides a message from the players; the text stays in the audit log (R53).
    Returns whether it was hidden now (False: it was already)."""
    if not is_gm(gm):
        raise PressRefused(_("Only the GM hides messages."))
    message = Message.objects.select_related("sender__user").filter(pk=message_pk).first()
    if message is None or conversation_for(gm, message.conversation_id) is None:
        raise PressRefused(_("There is no such message."))
    with transaction.atomic():
        hidden = Message.objects.filter(pk=message.pk, hidden_at__isnull=True).update(
            hidden_at=timezone.now(), hidden_by=gm.user
        )
        if hidden:
            audit_record(
                campaign=gm.campaign,
                actor=gm.user,
                action=AuditEntry.Action.PRESS,
                target=f"message {message.seq} of conversation #{message.conversation_id}",
                before={"sender": message.sender.user.get_username(), "text": message.text},
                after={"hidden": True},
            )
    return bool(hidden)


def press_rules_set(
    *, campaign: Campaign, actor: AbstractBaseUser, rules: str, gm_reads: bool
) -> bool:
    """The GM chooses the press rules and whether the GM reads every conversation; the
    change is audited (R53). Returns whether anything changed."""
    if rules not in Campaign.PressRules.values:
        raise PressRefused(_("Choose one of the press rules offered."))
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        before = {"press_rules": locked.press_rules, "gm_reads_press": locked.gm_reads_press}
        after = {"press_rules": rules, "gm_reads_press": gm_reads}
        if before == after:
            return False
        Campaign.objects.filter(pk=locked.pk).update(press_rules=rules, gm_reads_press=gm_reads)
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.PRESS,
            target="press rules",
            before=before,
            after=after,
        )
    return True

"""Press (RULES R62: deals are made by talking): private conversations between members of a
campaign, the campaign's one public channel, the GM's announcements, and the clock of each
user's mail digest. Messages and announcements are never edited or deleted once sent; the
GM may hide a message (press/services/press.py, which keeps it in the audit log, R53)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .campaign import Campaign, Membership
from .fields import JSONField

# A message is a note to other players, not a document: long enough for a deal and its
# conditions, short enough to read on a phone.
MAX_MESSAGE_CHARS = 2000
MAX_ANNOUNCEMENT_CHARS = 4000
MAX_SUBJECT_CHARS = 120


class SentOnce(models.Model):
    """Rows that are written once: a second save() of the same row, or a delete() through
    the instance, is refused. (The GM's hiding of a message is a conditional UPDATE in
    press/services/press.py, recorded in the audit log.)"""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError(_("A message is never edited after it is sent."))
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError(_("A message is never deleted after it is sent."))


class Conversation(models.Model):
    """A private conversation between two or more members, or (is_public) the campaign's
    channel, which every member reads. `last_seq` numbers its messages: a sender takes the
    next number under this row's lock, so messages sent at the same moment all get one."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="conversations")
    is_public = models.BooleanField(default=False)
    subject = models.CharField(max_length=MAX_SUBJECT_CHARS, blank=True)
    started_by = models.ForeignKey(
        Membership, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_seq = models.PositiveIntegerField(default=0)
    last_message_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(is_public=True), name="one_public_channel"
            )
        ]

    def __str__(self) -> str:
        return f"conversation #{self.pk} in {self.campaign_id}"


class Participant(models.Model):
    """One member's place in a conversation. In a private conversation the rows say who is
    in it; in the public channel everyone is, and a row only holds a reader's marks (made
    the first time one is needed). `last_read_seq`: read up to there; `mailed_seq`: the
    mail digest has told them up to there."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="participants"
    )
    member = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="+")
    last_read_seq = models.PositiveIntegerField(default=0)
    mailed_seq = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["conversation", "member"], name="one_participant")
        ]

    def __str__(self) -> str:
        return f"member {self.member_id} in conversation {self.conversation_id}"


class Message(SentOnce):
    """One message: plain text (shown escaped, with http(s) links), and optionally a quoted
    order (`quote`: board, kind and form fields; shown as a link to the order form
    prefilled, nothing more)."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    seq = models.PositiveIntegerField()
    sender = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=MAX_MESSAGE_CHARS)
    quote = JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["conversation", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "seq"], name="one_message_per_seq")
        ]

    def __str__(self) -> str:
        return f"message {self.seq} of conversation {self.conversation_id}"


class Announcement(SentOnce):
    """The GM's word to every member: on the campaign page, and mailed."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=MAX_ANNOUNCEMENT_CHARS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"announcement #{self.pk} in {self.campaign_id}"


class DigestClock(models.Model):
    """When a user was last sent a digest of unread messages: at most one an hour. The
    digest job claims a user by a conditional UPDATE of this row, so two jobs running at
    once send one mail."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digest_clock"
    )
    sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"press digest of user {self.user_id}"

"""What surrounds the orders of a week: the order log, readiness and reminders, notices in
the app, and each user's choice of mail."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .campaign import Membership
from .fields import JSONField
from .turn import Order, Turn


class OrderLog(models.Model):
    """Append-only: every submission, edit, reorder and cancellation, with its time. Rows
    are only ever created (services/orders.py); nothing updates or deletes them."""

    class Action(models.TextChoices):
        SUBMITTED = "submitted", _("Submitted")
        EDITED = "edited", _("Edited")
        REORDERED = "reordered", _("Reordered")
        CANCELLED = "cancelled", _("Cancelled")

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="order_log")
    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="order_log")
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="log")
    action = models.CharField(max_length=10, choices=Action.choices)
    kind = models.CharField(max_length=12)
    payload = JSONField(default=dict)
    seq = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} order {self.order_id}"


class PlayerTurn(models.Model):
    """One player's week: ready or not, and which deadline they were last reminded of (so a
    moved deadline re-arms exactly one reminder)."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="player_turns")
    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="player_turns")
    ready_at = models.DateTimeField(null=True, blank=True)
    reminded_for = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "player"], name="one_player_turn")]

    def __str__(self) -> str:
        return f"{self.player.display_name}, {self.turn}"


class Notice(models.Model):
    """A message in the app (the bell), e.g. R46: your department is targeted. `kind`
    `envelope`: the turn job opened a sealed envelope for the player (R71, R72); undoing that
    turn (R52) removes it with the opening.

    `code` and `params` are what it says, put into words when read (campaigns/words/notices.py),
    so each reader reads it in their language and its times in their zone; `text` is the same
    in English, as written, for a notice whose code is unknown or that has none (older rows)."""

    class Kind(models.TextChoices):
        OTHER = "", _("Notice")
        ENVELOPE = "envelope", _("Envelope opened")

    player = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="notices")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="notices")
    text = models.TextField(max_length=1000)
    url = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # A default in the database too: the release before still inserts notices while the
    # migration runs.
    kind = models.CharField(
        max_length=10, choices=Kind.choices, blank=True, default=Kind.OTHER, db_default=""
    )
    code = models.CharField(max_length=40, blank=True, default="", db_default="")
    # The code's values: names as the reader was allowed to see them when it was written
    # (R50), times as ISO 8601 UTC. Null for a notice with no code.
    params = JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.text[:60]


class NotificationSettings(models.Model):
    """Which mail a user wants. Missing row: everything on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    turn_processed = models.BooleanField(default=True)
    reminders = models.BooleanField(default=True)
    attack_notices = models.BooleanField(default=True)
    # Press: the GM's announcements, and at most one mail an hour about unread messages.
    announcements = models.BooleanField(default=True)
    press_digest = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"mail settings of {self.user}"

"""RULES R53: the GM's changes, in an append-only log (who, when, what, before and after)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .campaign import Campaign
from .fields import JSONField


class AuditEntry(models.Model):
    """One change a GM made. Never updated or deleted through the ORM's instance methods,
    and on PostgreSQL a trigger refuses any UPDATE (migration 0011); an archive import (or a
    test) may set `at` when creating one."""

    class Action(models.TextChoices):
        SETTINGS = "settings", _("Settings")
        ALIGNMENTS = "alignments", _("Alignment catalogue")
        BOARD = "board", _("Board")
        MEMBERS = "members", _("Players and invitations")
        ROLLBACK = "rollback", _("Turn undone")
        CAMPAIGN = "campaign", _("Campaign ended or opened")
        DEPARTMENT = "department", _("Department")
        LINK = "link", _("Link")
        STRUCTURE = "structure", _("Structures")
        KNOWLEDGE = "knowledge", _("Knowledge")
        PRESS = "press", _("Press rules and hidden messages")
        SHTICKS = "shticks", _("Shticks")
        ENVELOPES = "envelopes", _("Envelopes")
        GOALS = "goals", _("Secret goals")
        OFFICES = "offices", _("Offices and elections")
        # The running campaign's clock (start, pause, resume, a deadline extended,
        # a turn processed now) and the GM's announcements.
        SCHEDULE = "schedule", _("Start, pause, deadlines and processing")
        ANNOUNCEMENT = "announcement", _("Announcements")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit")
    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    target = models.CharField(max_length=200)
    before = JSONField(default=dict, blank=True)
    after = JSONField(default=dict, blank=True)
    # What the entry is about, for the log's filters: the board's slug and the slugs of the
    # departments it touched, each between spaces (" mint treasury "), so one LIKE finds a
    # department on SQLite and PostgreSQL alike. Slugs never change, and outlive a removal.
    board = models.CharField(max_length=50, blank=True)
    departments = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["campaign", "action", "-at"]),
            models.Index(fields=["campaign", "board", "-at"]),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}: {self.target}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError(_("The audit log is append-only (R53): an entry cannot change."))
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError(_("The audit log is append-only (R53): an entry cannot be deleted."))

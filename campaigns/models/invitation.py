"""Invitation links: how a GM brings players and observers into a campaign."""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .campaign import Campaign, Membership


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A link for `uses` people (1: single use) to join as `role`, until `expires_at`."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    role = models.CharField(
        max_length=10,
        choices=[(Membership.Role.PLAYER, _("Player")), (Membership.Role.OBSERVER, _("Observer"))],
        default=Membership.Role.PLAYER,
    )
    uses = models.PositiveSmallIntegerField(default=1)
    used = models.PositiveSmallIntegerField(default=0)
    expires_at = models.DateTimeField()
    revoked = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} invitation to {self.campaign}"

    def get_absolute_url(self) -> str:
        return reverse("invitation_join", args=[self.token])

    def why_closed(self, now: dt.datetime) -> str:
        """Why nobody can join with it any more, or "" while it is open."""
        if self.revoked:
            return str(_("The GM has withdrawn this invitation."))
        if self.used >= self.uses:
            return str(_("This invitation has been used as often as the GM allowed."))
        if now >= self.expires_at:
            return str(_("This invitation has expired."))
        return ""

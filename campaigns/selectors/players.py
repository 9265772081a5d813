"""Reads for the GM's players page and the invitation link's page."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from campaigns.models import Campaign, Invitation, Membership


@dataclass(frozen=True)
class InvitationLine:
    invitation: Invitation
    closed: str  # why nobody can join with it any more, "" while open


@dataclass(frozen=True)
class PlayersPage:
    members: list[Membership]
    invitations: list[InvitationLine]


def players_page(campaign: Campaign, now: dt.datetime) -> PlayersPage:
    """The campaign's members and its invitations: 2 queries however many."""
    members = list(campaign.memberships.select_related("user").order_by("role", "user__username"))
    invitations = [
        InvitationLine(i, i.why_closed(now)) for i in campaign.invitations.order_by("-pk")
    ]
    return PlayersPage(members, invitations)


def invitation_for(token: str) -> Invitation | None:
    return Invitation.objects.select_related("campaign").filter(token=token).first()


def gm_names(campaign: Campaign) -> list[str]:
    gms = campaign.memberships.filter(role=Membership.Role.GM).select_related("user")
    return [m.display_name for m in gms]

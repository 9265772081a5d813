"""Reads for the GM's players page and the invitation link's page."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext as _

from campaigns.models import Campaign, Department, Invitation, Membership, Order, Turn


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


# --- One member, as the GM manages them (RULES R13, R70) ----------------------------------------


def member_for(campaign: Campaign, pk: int) -> Membership | None:
    """A player or observer of `campaign` (not its GM, not a removed member), or None."""
    return (
        campaign.memberships.filter(
            pk=pk, role__in=[Membership.Role.PLAYER, Membership.Role.OBSERVER]
        )
        .select_related("user")
        .first()
    )


@dataclass(frozen=True)
class HeldBoard:
    board: str
    departments: list[str]  # names; home ones marked


@dataclass(frozen=True)
class MemberPage:
    member: Membership
    held: list[HeldBoard]
    queued: int  # orders queued for the open turn (cancelled if replaced or removed)
    successors: list[Membership]  # the other players, who could take over


def member_page(member: Membership) -> MemberPage:
    """What the member holds, per board, and who could take over: 3 queries."""
    rows = (
        Department.objects.filter(structure__player=member)
        .select_related("board")
        .order_by("board__name", "name")
    )
    held: dict[str, list[str]] = {}
    for dept in rows:
        held.setdefault(dept.board.name, []).append(
            _("%(name)s (home)") % {"name": dept.name} if dept.home else dept.name
        )
    queued = Order.objects.filter(
        player=member, status=Order.Status.QUEUED, turn__status=Turn.Status.OPEN
    ).count()
    others = member.campaign.memberships.filter(role=Membership.Role.PLAYER).exclude(pk=member.pk)
    successors = sorted(others.select_related("user"), key=lambda m: m.display_name.casefold())
    return MemberPage(
        member, [HeldBoard(b, names) for b, names in held.items()], queued, successors
    )

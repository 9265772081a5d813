"""Bringing people into a campaign: the GM's invitation links, and joining through one.

Errors are InvitationClosed with a message fit to show the person holding the link."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import AuditEntry, Campaign, Invitation, Membership
from campaigns.services.audit import audit_record

MAX_USES = 50
MAX_DAYS = 60


class InvitationClosed(ValueError):
    pass


def invitation_create(
    *, campaign: Campaign, actor: AbstractBaseUser, role: str, uses: int, days: int
) -> Invitation:
    """A link for `uses` people to join as `role` within `days` days."""
    if role not in (Membership.Role.PLAYER, Membership.Role.OBSERVER):
        raise ValueError(
            _("An invitation is for a player or an observer, not %(role)s.") % {"role": repr(role)}
        )
    if not (1 <= uses <= MAX_USES and 1 <= days <= MAX_DAYS):
        raise ValueError(
            _("1 to %(uses)s people, for 1 to %(days)s days.")
            % {"uses": MAX_USES, "days": MAX_DAYS}
        )
    with transaction.atomic():
        invitation = Invitation.objects.create(
            campaign=campaign,
            role=role,
            uses=uses,
            expires_at=timezone.now() + dt.timedelta(days=days),
            created_by=actor,
        )
        audit_record(
            campaign=campaign,
            actor=actor,
            action=AuditEntry.Action.MEMBERS,
            target=f"invitation #{invitation.pk}",
            before={},
            after={"role": role, "uses": uses, "expires_at": invitation.expires_at.isoformat()},
        )
    return invitation


def invitation_revoke(*, invitation: Invitation, actor: AbstractBaseUser) -> None:
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if locked.revoked:
            return
        locked.revoked = True
        locked.save(update_fields=["revoked"])
        audit_record(
            campaign=locked.campaign,
            actor=actor,
            action=AuditEntry.Action.MEMBERS,
            target=f"invitation #{locked.pk}",
            before={"revoked": False},
            after={"revoked": True},
        )


def invitation_accept(
    *, invitation: Invitation, user: AbstractBaseUser, now: dt.datetime | None = None
) -> tuple[Membership, bool]:
    """`user` joins the campaign through the link: (their membership, whether it is new).
    Someone already in the campaign keeps their role and uses nothing up; someone the GM
    removed comes back in their old membership (their history stays theirs). The invitation row
    is locked, so two people cannot both take a single-use link's last place."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(invitation)
        existing = Membership.objects.filter(campaign=locked.campaign, user=user).first()
        if existing is not None and existing.role != Membership.Role.REMOVED:
            return existing, False
        _refuse_if_closed(locked, now)
        return _admit(locked, user, existing), True


def invitation_sign_up(
    *,
    invitation: Invitation,
    make_account: Callable[[], AbstractBaseUser],
    now: dt.datetime | None = None,
) -> Membership:
    """Someone new makes their account through the link (`make_account` saves it) and joins.
    One transaction: the invitation row is locked and checked before the account is made, so
    a closed link makes no account (InvitationClosed), and people racing for a link's last
    place make one account between them, not one each with a single membership."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(invitation)
        _refuse_if_closed(locked, now)
        return _admit(locked, make_account(), None)


def _locked(invitation: Invitation) -> Invitation:
    """The invitation's row, locked until the transaction ends (on SQLite the IMMEDIATE
    transaction already holds the database's write lock, settings.py)."""
    return Invitation.objects.select_for_update().select_related("campaign").get(pk=invitation.pk)


def _refuse_if_closed(locked: Invitation, now: dt.datetime) -> None:
    closed = locked.why_closed(now)
    if closed:
        raise InvitationClosed(closed)


def _admit(locked: Invitation, user: AbstractBaseUser, existing: Membership | None) -> Membership:
    """Call holding the lock on an open invitation: `user` gets its role, its use is counted."""
    if existing is not None:  # removed by the GM, invited back: the same membership
        membership = existing
        membership.role = locked.role
        membership.save(update_fields=["role"])
    else:
        membership = Membership.objects.create(
            campaign=locked.campaign, user=user, role=locked.role
        )
    locked.used += 1
    locked.save(update_fields=["used"])
    audit_record(
        campaign=locked.campaign,
        actor=user,
        action=AuditEntry.Action.MEMBERS,
        target=f"{user.get_username()} joined",
        before={},
        after={"role": locked.role, "invitation": locked.pk},
    )
    return membership

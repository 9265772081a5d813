"""The GM's sealed envelopes (RULES R71, R72): intel attached to a department, which a
perception check opens, and contingency envelopes to one player, which the turn job opens
once their condition is true (services/turn_effects.py).

Each is checked by the engine's own parser (engine/envelopes.py, engine/contingency.py), holds
the campaign row lock and is in the audit log (R53); the audit keeps what the envelope is
about, never its text (the log is the GM's, but a text can be long). Errors are SetupRefused
with messages fit to show the GM."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext as _

from campaigns.engine.contingency import parse_condition
from campaigns.engine.envelopes import parse_envelopes
from campaigns.intrigue.services.characters import campaign_checked, engine_checked, player_of
from campaigns.models import (
    AuditEntry,
    ContingencyEnvelope,
    Department,
    IntelEnvelope,
    Membership,
)
from campaigns.models.envelopes import GRANTS
from campaigns.services.audit import audit_record
from campaigns.services.setup import SetupRefused

MAX_TEXT = 4000
Condition = ContingencyEnvelope.Condition


def envelope_text(text: str) -> str:
    text = (text or "").strip()
    if not text or len(text) > MAX_TEXT:
        raise SetupRefused(
            [_("An envelope holds 1 to %(n)s characters of text.") % {"n": MAX_TEXT}]
        )
    return text


def audience_checked(department: Department, audience: list[Membership] | None) -> list[int]:
    """R71: the named players (None: everyone), each a player of the department's campaign."""
    if audience is None:
        return []
    players = set(
        Membership.objects.filter(
            campaign_id=department.board.campaign_id, role=Membership.Role.PLAYER
        ).values_list("pk", flat=True)
    )
    wanted = sorted({m.pk for m in audience})
    if not set(wanted) <= players:
        raise SetupRefused([_("An envelope is addressed to players of this campaign.")])
    return wanted


def envelope_create(
    *,
    department: Department,
    actor: AbstractBaseUser,
    text: str,
    target: int,
    audience: list[Membership] | None = None,
    grants: int | None = None,
) -> IntelEnvelope:
    """R71: attach an intel envelope to `department`: its text, the perception total that
    opens it, who may open it (None: everyone; a list, possibly empty: those players) and the
    knowledge level of the department it grants (rumoured, known, or None)."""
    text = envelope_text(text)
    if grants is not None and grants not in dict(GRANTS):
        raise SetupRefused([_("An envelope grants `rumoured`, `known` or nothing.")])
    with campaign_checked(department.board.campaign) as campaign:
        department = Department.objects.select_related("board").get(pk=department.pk)
        members = audience_checked(department, audience)
        engine_checked(
            parse_envelopes,
            [{"id": "e", "department": department.slug, "target": target,
              "audience": None if audience is None else [f"p{m}" for m in members]}],
        )  # fmt: skip
        envelope = IntelEnvelope.objects.create(
            department=department, text=text, target=target, everyone=audience is None,
            grants=grants,
        )  # fmt: skip
        envelope.audience.set(members)
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.ENVELOPES,
            target=f"{department.board.name}: {department.name}", before={},
            after={"envelope": envelope.pk, "target": target, "audience": members,
                   "grants": grants},
        )  # fmt: skip
    return envelope


def envelope_remove(*, envelope: IntelEnvelope, actor: AbstractBaseUser) -> None:
    """R71: take an envelope away, with every dossier entry of it."""
    department = envelope.department
    with campaign_checked(department.board.campaign) as campaign:
        envelope = IntelEnvelope.objects.select_related("department__board").get(pk=envelope.pk)
        where = f"{envelope.department.board.name}: {envelope.department.name}"
        pk = envelope.pk
        envelope.delete()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.ENVELOPES,
            target=where, before={"envelope": pk}, after={},
        )  # fmt: skip


# --- R72: contingency envelopes -------------------------------------------------------------


def contingency_create(
    *,
    member: Membership,
    actor: AbstractBaseUser,
    text: str,
    condition: str,
    turn_number: int | None = None,
    date: dt.datetime | None = None,
    department: Department | None = None,
    level: int | None = None,
) -> ContingencyEnvelope:
    """R72: a sealed message to a player, opened by the first processed turn after which
    `condition` is true (ContingencyEnvelope): `turn_number` for `turn`, `date` (aware) for
    `date`, `department` (of the campaign) for the others, and `level` (1-3) for
    `knowledge`."""
    text = envelope_text(text)
    with campaign_checked(member.campaign) as campaign:
        member = player_of(member)
        if department is not None and department.board.campaign_id != campaign.pk:
            raise SetupRefused([_("That department is not in this campaign.")])
        if date is not None and date.tzinfo is None:
            raise SetupRefused([_("A date needs its time zone.")])
        engine_checked(
            parse_condition,
            {"id": _("new envelope"), "player": member.player_id, "kind": condition,
             "turn": turn_number, "date": date.isoformat() if date else None,
             "department": department.slug if department else None, "level": level},
        )  # fmt: skip
        fields: dict[str, Any] = {"condition": condition}
        if condition == Condition.TURN:
            fields["turn_number"] = turn_number
        elif condition == Condition.DATE:
            fields["date"] = date
        else:
            fields["department"] = department
            fields["level"] = level if condition == Condition.KNOWLEDGE else None
        envelope = ContingencyEnvelope.objects.create(member=member, text=text, **fields)
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.ENVELOPES,
            target=member.user.get_username(), before={},
            after={"contingency": envelope.pk, "condition": condition,
                   "turn": turn_number, "date": date.isoformat() if date else None,
                   "department": department.slug if department else None, "level": level},
        )  # fmt: skip
    return envelope


def contingency_remove(*, envelope: ContingencyEnvelope, actor: AbstractBaseUser) -> None:
    """R72: take a sealed envelope back before it opens (an opened one is part of the
    player's history, and stays)."""
    with campaign_checked(envelope.member.campaign) as campaign:
        envelope = ContingencyEnvelope.objects.select_related("member__user").get(pk=envelope.pk)
        if envelope.opened_turn_id is not None:
            raise SetupRefused([_("That envelope has opened: it stays in the player's dossier.")])
        pk = envelope.pk
        envelope.delete()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.ENVELOPES,
            target=envelope.member.user.get_username(), before={"contingency": pk}, after={},
        )  # fmt: skip

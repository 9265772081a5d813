"""RULES R53: every change a GM makes is recorded in the append-only audit log."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from campaigns.models import AuditEntry, Campaign


def audit_record(
    *,
    campaign: Campaign,
    actor: AbstractBaseUser | None,
    action: str,
    target: str,
    before: dict[str, Any],
    after: dict[str, Any],
) -> AuditEntry:
    return AuditEntry.objects.create(
        campaign=campaign, actor=actor, action=action, target=target, before=before, after=after
    )

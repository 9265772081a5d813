"""RULES R53: every change a GM makes is recorded in the append-only audit log."""

from __future__ import annotations

from collections.abc import Iterable
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
    board: str = "",
    departments: Iterable[str] = (),
) -> AuditEntry:
    """`board` and `departments`: the slugs of the board and the departments the change is
    about, if it is about any (the log's filters find it by them)."""
    return AuditEntry.objects.create(
        campaign=campaign, actor=actor, action=action, target=target, before=before,
        after=after, board=board, departments=departments_text(departments),
    )  # fmt: skip


def departments_text(slugs: Iterable[str]) -> str:
    """ " mint treasury ": each slug between spaces, so `contains=" mint "` finds one."""
    unique = sorted(set(slugs))
    return f" {' '.join(unique)} " if unique else ""

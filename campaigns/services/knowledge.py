"""Raising what a player knows (RULES R50), as orders tell them things at once: the defender
of a linking attempt learns the attacker's name (R46), the receiver of a hand-over the
department offered (R62)."""

from __future__ import annotations

from campaigns.models import Department, Knowledge, Membership


def knowledge_raise(*, player: Membership, department: Department, level: int) -> None:
    """R50: raise what `player` knows of `department` to at least `level` (never lower it)."""
    row, created = Knowledge.objects.get_or_create(
        player=player, department=department, defaults={"level": level}
    )
    if not created and row.level < level:
        Knowledge.objects.filter(pk=row.pk, level__lt=level).update(level=level)

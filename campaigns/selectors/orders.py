"""Reads for the weekly orders pages (RULES R40-R47): the player's notices."""

from __future__ import annotations

from campaigns.models import Membership, Notice


def notices_unread(player: Membership) -> list[Notice]:
    return list(Notice.objects.filter(player=player, read_at__isnull=True)[:20])

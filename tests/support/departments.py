"""Departments in tests: one of a campaign's, by its slug."""

from __future__ import annotations

from campaigns.models import Campaign, Department


def dept(campaign: Campaign, slug: str) -> Department:
    return Department.objects.get(board__campaign=campaign, slug=slug)

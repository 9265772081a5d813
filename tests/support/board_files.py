"""Board files in tests: a fresh campaign to import into, uploading a file, and the counts of rows
an import writes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaigns.models import AuditEntry, Board, Campaign, Department, Link, Membership
from campaigns.services.setup import campaign_create


def fresh_campaign(name: str = "Copy") -> Campaign:
    """A new campaign whose players are the demo's (same user names), and its GM."""
    users = get_user_model().objects
    campaign = campaign_create(user=users.get(username="gm"), values={"name": name})
    for username in ["alice", "bob", "carol"]:
        Membership.objects.create(campaign=campaign, user=users.get(username=username))
    return campaign


def upload(client: Client, campaign: Campaign, filename: str, content: str, **fields: str) -> Any:
    url = reverse("board_import", args=[campaign.slug])
    file = SimpleUploadedFile(filename, content.encode(), content_type="application/octet-stream")
    return client.post(url, {"file": file, **fields})


def counts() -> tuple[int, int, int, int]:
    return (
        Board.objects.count(),
        Department.objects.count(),
        Link.objects.count(),
        AuditEntry.objects.count(),
    )

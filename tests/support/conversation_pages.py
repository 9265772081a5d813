"""The press pages in tests: a conversation's URL and starting a conversation through the page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import Campaign
from tests.support.demo import member

SLUG = "tourmaline"  # the demo campaign


def conversation_url(pk: int) -> str:
    return reverse("press_conversation", args=[SLUG, pk])


def start(client: Any, to: list[str], text: str, subject: str = "", **more: str) -> Any:
    campaign = Campaign.objects.get(slug=SLUG)
    pks = [member(campaign, name).pk for name in to]
    data = {"recipients": pks, "subject": subject, "text": text, **more}
    return client.post(reverse("press_new", args=[SLUG]), data)

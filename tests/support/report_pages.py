"""The report pages in tests: a turn report's URL and a page's text."""

from __future__ import annotations

import html

from django.test import Client
from django.urls import reverse

from tests.support.demo import Played


def report_url(played: Played, number: int = 1) -> str:
    return reverse("turn_report", args=[played.campaign.slug, number])


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())

"""Every instant a page shows goes through templates/campaigns/_instant.html: a <time> with
the UTC instant in `datetime`, `data-local-time` for deadline.js (which rewrites it in the
reader's zone), and the campaign's own zone on hover (`title`); every page loads deadline.js.
The browser side (New York reader, Berlin campaign) is in test_times_browser.py."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from campaigns.models import Notice, Turn
from tests.support.demo import Played, play_turn_one
from tests.support.handmade import ClientFor

SLUG = "tourmaline"
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$")


class Times(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.times: list[dict[str, str | None]] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "time":
            self.times.append(dict(attrs))
        if tag == "script":
            self.scripts.append(dict(attrs).get("src") or "")


@pytest.fixture
def played(db: None) -> Played:
    return play_turn_one()


def pages(played: Played, client_for: ClientFor) -> dict[str, str]:
    """The pages that show an instant: deadlines, processed times, notices."""
    turn = played.campaign.turns.get(status=Turn.Status.OPEN)
    Notice.objects.create(player=played.members["alice"], turn=turn, text="You were told.")
    urls = {
        "alice": [
            reverse("home"),
            reverse("campaign", args=[SLUG]),
            reverse("orders", args=[SLUG]),
            reverse("turn_report", args=[SLUG, 1]),
        ],
        "gm": [reverse("campaign", args=[SLUG]), reverse("extend_deadline", args=[SLUG])],
    }
    found = {}
    for username, paths in urls.items():
        client = client_for(username)
        for url in paths:
            response = client.get(url)
            assert response.status_code == 200, url
            found[f"{username} {url}"] = response.content.decode()
    return found


def test_every_time_on_every_page_is_an_instant_the_reader_sees_in_their_zone(
    played: Played, client_for: ClientFor
) -> None:
    shown = pages(played, client_for)
    assert len(shown) > 3
    for name, html in shown.items():
        parsed = Times()
        parsed.feed(html)
        assert parsed.times, f"{name} shows a time"
        for time in parsed.times:
            assert "data-local-time" in time, name
            assert ISO_UTC.match(time.get("datetime") or ""), (name, time)
            assert "Europe/Berlin" in (time.get("title") or ""), (name, time)
        assert any(s.endswith("campaigns/deadline.js") for s in parsed.scripts), name


def test_the_orders_page_shows_a_notice_with_its_time(
    played: Played, client_for: ClientFor
) -> None:
    turn = played.campaign.turns.get(status=Turn.Status.OPEN)
    at = dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.UTC)
    notice = Notice.objects.create(player=played.members["alice"], turn=turn, text="Told.")
    Notice.objects.filter(pk=notice.pk).update(created_at=at)
    for url in (reverse("orders", args=[SLUG]), reverse("campaign", args=[SLUG])):
        html = client_for("alice").get(url).content.decode()
        assert 'datetime="2026-01-02T03:04:00+00:00"' in html, url

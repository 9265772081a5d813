"""Times in the reader's zone where they are written once and read later (campaigns/
stored_times.py): a notice holds its time as the instant and each reader sees it in their own
zone; a mail says it in the reader's profile zone. And the GM's extend-deadline form says which
zone it takes and shows the new deadline in the campaign's zone and the GM's own (RULES R30).
The demo is due Fridays 18:00 Europe/Berlin; turn 1 is open."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from campaigns.models import Campaign, Notice, Profile, Turn
from campaigns.services.campaigns import turn_extend_deadline
from campaigns.services.rollback import players_tell
from campaigns.stored_times import time_marker, times_in_words
from campaigns.templatetags.rules import rule_links
from tests.support.demo import Played, play_turn_one

SLUG = "tourmaline"
BERLIN = ZoneInfo("Europe/Berlin")
ZONES = {"alice": "America/New_York", "bob": "Asia/Tokyo"}
URL = reverse("extend_deadline", args=[SLUG])


def live_in(username: str, zone: str) -> None:
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"time_zone": zone})


def shown_at(html: str, instant: dt.datetime) -> str:
    """The text of the <time> that shows `instant` (its no-JavaScript words)."""
    iso = instant.astimezone(dt.UTC).isoformat()
    found = re.search(rf'<time datetime="{re.escape(iso)}"[^>]*>([^<]*)</time>', html)
    assert found, f"no <time> for {iso}"
    return found.group(1)


def open_turn(campaign: Campaign) -> Turn:
    return campaign.turns.get(status=Turn.Status.OPEN)


def test_a_marker_survives_escaping_and_rule_links_and_old_text_reads_as_written() -> None:
    at = dt.datetime(2027, 1, 8, 17, 0, tzinfo=dt.UTC)
    text = f"Due {time_marker(at)} (R30) & <b>so</b>."
    linked = str(rule_links(text))
    assert time_marker(at) in linked and "&lt;b&gt;" in linked
    assert times_in_words(linked, lambda when: when.isoformat()) == linked.replace(
        time_marker(at), "2027-01-08T17:00:00+00:00"
    )
    assert times_in_words("Due Friday 18:00 (R30).", str) == "Due Friday 18:00 (R30)."


def test_an_extension_notice_shows_each_reader_the_deadline_in_their_own_zone(
    demo: Campaign, client_for: Any
) -> None:
    for username, zone in ZONES.items():
        live_in(username, zone)
    turn = open_turn(demo)
    new = turn.deadline + dt.timedelta(days=1, hours=3)
    turn_extend_deadline(campaign=demo, number=1, deadline=new)
    for username, zone in ZONES.items():
        for url in (reverse("orders", args=[SLUG]), reverse("campaign", args=[SLUG])):
            html = client_for(username).get(url).content.decode()
            told = html.split("it now closes on ")[1]
            assert told.startswith("<time"), (username, url)
            words = shown_at(told, new)
            assert f"{new.astimezone(ZoneInfo(zone)):%H:%M}" in words, (username, url, words)
            assert "[[time" not in html
    # On the campaign page too, when each notice was written (its own <time>) is in the reader's.
    html = client_for("bob").get(reverse("campaign", args=[SLUG])).content.decode()
    notices = html.split('id="notices"')[1].split("</section>")[0]
    shown = re.findall(r"<time [^>]*>([^<]*)</time>", notices)
    assert len(shown) == 2 and all(text.endswith("JST") for text in shown), shown
    # carol chose no zone: the campaign's, until deadline.js writes the browser's.
    html = client_for("carol").get(reverse("orders", args=[SLUG])).content.decode()
    told = html.split("it now closes on ")[1]
    assert f"{new.astimezone(BERLIN):%H:%M}" in shown_at(told, new)


def test_an_undo_notice_holds_the_deadline_for_its_reader_and_mails_it_in_theirs(
    demo: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    live_in("alice", ZONES["alice"])
    turn = open_turn(demo)
    with django_capture_on_commit_callbacks(execute=True):
        players_tell(demo, turn, "ab" * 32)
    notice = Notice.objects.get(player__user__username="alice")
    assert time_marker(turn.deadline) in notice.text
    to_alice = next(m for m in mail.outbox if m.to[0].startswith("alice"))
    assert f"{turn.deadline.astimezone(ZoneInfo(ZONES['alice'])):%H:%M}" in to_alice.body
    assert "[[time" not in to_alice.body


def test_an_extension_mail_says_the_deadline_in_the_reader_s_zone(
    demo: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    live_in("bob", ZONES["bob"])
    turn = open_turn(demo)
    new = turn.deadline + dt.timedelta(hours=5)
    with django_capture_on_commit_callbacks(execute=True):
        turn_extend_deadline(campaign=demo, number=1, deadline=new)
    bodies = {m.to[0].split("@")[0]: m.body for m in mail.outbox}
    assert f"{new.astimezone(ZoneInfo(ZONES['bob'])):%H:%M}" in bodies["bob"]
    assert f"{new.astimezone(BERLIN):%H:%M}" in bodies["alice"], "no zone chosen: the campaign's"
    assert all("[[time" not in body for body in bodies.values())


@pytest.fixture
def played(db: None) -> Played:
    return play_turn_one()


def test_the_turn_report_shows_a_notice_s_time_in_the_reader_s_zone(
    played: Played, client_for: Any
) -> None:
    live_in("alice", ZONES["alice"])
    turn = played.campaign.turns.get(number=1)
    at = dt.datetime(2027, 1, 8, 17, 0, tzinfo=dt.UTC)
    Notice.objects.create(player=played.members["alice"], turn=turn, text=f"Due {time_marker(at)}.")
    html = client_for("alice").get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    assert "12:00" in shown_at(html.split("Due ")[1], at)  # New York, 5 hours behind UTC in January


# --- the GM's extend-deadline form -------------------------------------------------------------


def test_the_extend_form_names_the_zone_it_takes(demo: Campaign, client_for: Any) -> None:
    form = client_for("gm").get(URL).context["form"]
    assert "Europe/Berlin" in str(form.fields["deadline"].label)


def test_the_extend_form_shows_the_new_deadline_in_the_campaign_s_zone_and_the_gm_s(
    demo: Campaign, client_for: Any
) -> None:
    live_in("gm", "Asia/Tokyo")
    turn = open_turn(demo)
    typed = (turn.deadline.astimezone(BERLIN) + dt.timedelta(days=1)).replace(hour=21, minute=30)
    data = {"number": 1, "deadline": f"{typed:%Y-%m-%dT%H:%M}", "preview": "1"}
    response = client_for("gm").post(URL, data)
    assert response.status_code == 200
    html = response.content.decode()
    box = html.split('id="new-deadline"')[1].split("</div>")[0]
    new = typed.replace(tzinfo=None).replace(tzinfo=BERLIN)
    assert "21:30" in box.split("<time")[0], "in the campaign's zone, as typed"
    assert f"{new.astimezone(ZoneInfo('Asia/Tokyo')):%H:%M}" in shown_at(box, new), "the GM's"
    turn.refresh_from_db()
    assert turn.deadline != new, "a preview changes nothing"
    assert not Notice.objects.exists()


def test_a_preview_of_a_deadline_that_may_not_be_says_why(demo: Campaign, client_for: Any) -> None:
    turn = open_turn(demo)
    earlier = turn.deadline.astimezone(BERLIN) - dt.timedelta(hours=1)
    data = {"number": 1, "deadline": f"{earlier:%Y-%m-%dT%H:%M}", "preview": "1"}
    html = client_for("gm").post(URL, data).content.decode()
    assert "later than the current one" in html
    assert 'id="new-deadline"' not in html


def test_a_notice_s_time_is_worded_in_the_reader_s_language(
    demo: Campaign, client_for: Any
) -> None:
    user = get_user_model().objects.get(username="alice")
    Profile.objects.update_or_create(user=user, defaults={"language": "de"})
    turn = open_turn(demo)
    new = turn.deadline + dt.timedelta(days=3)  # Friday 18:00 Berlin -> Monday 18:00
    turn_extend_deadline(campaign=demo, number=1, deadline=new)
    html = client_for("alice").get(reverse("orders", args=[SLUG])).content.decode()
    told = html.split("Sie schließt jetzt am ")[1]
    assert shown_at(told, new).startswith("Mo"), shown_at(told, new)

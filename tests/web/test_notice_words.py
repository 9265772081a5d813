"""Issue 25: a notice is stored as a code with its parameters and put into words when read
(campaigns/words/notices.py), so a player who switches language reads their old notices in the
new one, and a time in a notice shows in the reader's zone. Names are stored as the reader
could see them when it was written (R50). A notice without a code, or with one this release
does not know, reads as its stored text. The demo: turn 1 open, due Fridays 18:00 Berlin."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign, Notice, Order, Profile
from campaigns.services.campaigns import turn_extend_deadline
from campaigns.stored_times import time_marker
from campaigns.words.notices import (
    ATTACK,
    ELECTION,
    NOTICES,
    TURN_UNDONE,
    notice_fields,
    notice_text,
    params_problem,
    utc_param,
)
from tests.support.demo import member, open_turn, submit
from tests.support.handmade import ClientFor

SLUG = "tourmaline"
EXTENDED_EN = "The GM extended the deadline of turn 1: it now closes on"
EXTENDED_DE = "Die Spielleitung hat die Frist von Runde 1 verlängert: Sie schließt jetzt am"


def speaks(username: str, language: str) -> None:
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def lives_in(username: str, zone: str) -> None:
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"time_zone": zone})


def page(client: Any, name: str) -> str:
    response = client.get(reverse(name, args=[SLUG]))
    assert response.status_code == 200
    return str(response.content.decode())


def notices_of(html: str) -> str:
    """The page's notices section."""
    return html.split('id="notices"')[1].split("</section>")[0]


def extend(demo: Campaign) -> dt.datetime:
    turn = open_turn(demo)
    new = turn.deadline + dt.timedelta(days=3)  # Friday 18:00 Berlin -> Monday 18:00
    turn_extend_deadline(campaign=demo, number=turn.number, deadline=new)
    return new


# --- each reader's language, when read ---------------------------------------------------------


def test_a_notice_written_in_english_reads_in_german_once_the_reader_switches(
    demo: Campaign, client_for: ClientFor
) -> None:
    speaks("alice", "en")
    extend(demo)
    notice = Notice.objects.get(player=member(demo, "alice"))
    assert notice.code == "deadline_extended" and notice.text.startswith(EXTENDED_EN)
    for name in ("orders", "campaign"):
        assert EXTENDED_EN in notices_of(page(client_for("alice"), name))
    speaks("alice", "de")
    for name in ("orders", "campaign"):
        shown = notices_of(page(client_for("alice"), name))
        assert EXTENDED_DE in shown and EXTENDED_EN not in shown, name
        # The deadline, worded in German too: Monday.
        assert re.search(r"<time [^>]*>Mo", shown.split(EXTENDED_DE)[1]), name


def test_a_notice_written_in_german_reads_in_english_once_the_reader_switches(
    demo: Campaign, client_for: ClientFor
) -> None:
    speaks("alice", "de")
    extend(demo)
    assert EXTENDED_DE in notices_of(page(client_for("alice"), "orders"))
    speaks("alice", "en")
    shown = notices_of(page(client_for("alice"), "orders"))
    assert EXTENDED_EN in shown and "Spielleitung" not in shown


def test_an_attack_notice_reads_in_the_defender_s_new_language_with_its_reason(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R46: nothing reaches bob's Shipwright on the harbour, so the notice says why not;
    the engine's reason is stored as the engine said it and translated when read."""
    speaks("bob", "en")
    harbour = demo.boards.get(slug="harbour")
    submit(demo, "alice", Order.Kind.ATTEMPT, {"attacker": "spice-house", "target": "shipwright"},
           board=harbour)  # fmt: skip
    notice = Notice.objects.get(player=member(demo, "bob"))
    assert notice.code == ATTACK
    assert notice.params["no_reinforcement"].startswith("no link from your departments")
    assert "No reinforcement is possible now." in notices_of(page(client_for("bob"), "orders"))
    speaks("bob", "de")
    shown = notices_of(page(client_for("bob"), "orders"))
    assert "ist in dieser Runde Ziel eines Angriffs" in shown
    assert "Eine Verstärkung ist jetzt nicht möglich." in shown
    assert "Keine Verbindung führt von Ihren Abteilungen zum Ziel" in shown
    assert "No reinforcement" not in shown


def test_an_attack_notice_stores_only_what_the_defender_may_see(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R46, R50: the controller is named only where the defender knows the attacker's card:
    bob does not know alice's City Watch's, so her name is not in what is stored."""
    submit(demo, "alice", Order.Kind.ATTEMPT, {"attacker": "city-watch", "target": "guild-hall"})
    notice = Notice.objects.get(player=member(demo, "bob"))
    assert notice.params["attacker"] == "The City Watch" and notice.params["controller"] is None
    alice = member(demo, "alice").display_name
    assert alice not in str(notice.params) and alice not in notice.text


def test_a_department_the_reader_did_not_know_reads_unnamed_in_their_language() -> None:
    said = {"attacker": None, "controller": None, "target": "The Mint", "no_reinforcement": None}
    fields = notice_fields(ATTACK, said)
    assert "a department you do not know" in fields["text"]
    with translation.override("de"):
        assert "eine Abteilung, die Sie nicht kennen" in notice_text(**fields)


def test_a_report_shows_the_turn_s_notices_in_the_reader_s_language_now(
    demo: Campaign, client_for: ClientFor
) -> None:
    extend(demo)
    speaks("alice", "de")
    html = page(client_for("alice"), "orders")
    assert EXTENDED_DE in html
    # Once its turn is processed the notice is read in that turn's report.
    from campaigns.services.turns import turn_process

    turn_process(campaign_id=demo.pk, number=1)
    report = client_for("alice").get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    told = report.split('id="turn-notices"')[1].split("</section>")[0]
    assert EXTENDED_DE in told and EXTENDED_EN not in told


# --- each reader's zone ------------------------------------------------------------------------


def test_a_time_in_a_notice_shows_in_each_reader_s_zone(
    demo: Campaign, client_for: ClientFor
) -> None:
    lives_in("alice", "America/New_York")
    lives_in("bob", "Asia/Tokyo")
    turn = open_turn(demo)
    at = dt.datetime(2027, 1, 8, 17, 0, tzinfo=dt.UTC)
    fields = notice_fields(TURN_UNDONE, {"n": 1, "deadline": utc_param(at), "seed": "ab" * 32})
    assert fields["params"]["deadline"] == "2027-01-08T17:00:00+00:00"
    for name in ("alice", "bob"):
        Notice.objects.create(player=member(demo, name), turn=turn, **fields)
    for name, hour in (("alice", "12:00"), ("bob", "02:00")):
        shown = notices_of(page(client_for(name), "orders"))
        when = re.search(
            rf'<time datetime="{re.escape(at.isoformat())}"[^>]*>([^<]*)</time>', shown
        )
        assert when and hour in when.group(1), (name, shown)
        assert "[[time" not in shown
    assert f"{at.astimezone(ZoneInfo('Asia/Tokyo')):%H:%M}" == "02:00"


# --- the table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("code", NOTICES)
def test_every_code_has_english_and_german_words(code: str) -> None:
    """A code whose words lack a German translation fails here: each English sentence of it
    would be left as it is in the German."""
    example = NOTICES[code].example
    assert params_problem(code, example) is None
    with translation.override("en"):
        english = notice_text(code, example, "")
    with translation.override("de"):
        german = notice_text(code, example, "")
    assert english and german and english != german
    marker = re.compile(r"\[\[time [^\]]*\]\]")
    for sentence in re.split(r"(?<=[.:])\s+", marker.sub("", english)):
        words = [w for w in re.findall(r"[A-Za-z']{4,}", sentence) if w not in str(example)]
        assert not words or sentence not in german, (code, sentence)
    assert marker.findall(english) == marker.findall(german), "the same times, said the same way"


def test_a_notice_without_a_code_or_with_an_unknown_one_reads_as_its_text() -> None:
    assert notice_text("", None, "Written before codes.") == "Written before codes."
    assert notice_text("bribe", {"n": 1}, "From a later release.") == "From a later release."
    # A code with parameters that do not fit it: its text, never an error.
    assert notice_text(ELECTION, {"n": "two"}, "As written.") == "As written."
    assert notice_text(ELECTION, None, "As written.") == "As written."


def test_a_writer_cannot_store_parameters_its_code_does_not_take() -> None:
    with pytest.raises(ValueError, match="notice election: takes board, n, office"):
        notice_fields(ELECTION, {"n": 2})
    with pytest.raises(ValueError, match="deadline: .* is not a time in UTC"):
        notice_fields(TURN_UNDONE, {"n": 1, "deadline": "2027-01-08T18:00:00+01:00", "seed": ""})


def test_a_time_parameter_is_said_as_the_marker_the_pages_show_in_the_reader_s_zone() -> None:
    at = dt.datetime(2027, 1, 8, 18, 0, 30, 123, tzinfo=ZoneInfo("Europe/Berlin"))
    said = notice_text(TURN_UNDONE, {"n": 1, "deadline": utc_param(at), "seed": "x"}, "")
    assert time_marker(at) in said

"""Every mail and stored notice in its reader's language (issue 13), as the turn mail already
is (tests/test_german.py): the deadline extended (R30), the campaign ended and opened (R51),
a turn undone (R52), and the GM's notice of a turn processed late. Alice speaks German (her
profile); bob speaks English; carol and the GM have no language set and get the site's
default, English. The sender's own language never matters."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import translation

from campaigns.accounts.selectors.profile import language_of
from campaigns.models import Campaign, Notice, Profile, Turn
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.services.campaigns import campaign_end, campaign_open, turn_extend_deadline
from campaigns.services.notifications import notify_gms
from campaigns.services.rollback import turn_rollback
from campaigns.services.turn_mail import late_words
from campaigns.stored_times import time_marker
from campaigns.words import game
from campaigns.words.notices import notice_text
from tests.support.demo import Played, member

pytestmark = pytest.mark.django_db


def speaks(username: str, language: str) -> None:
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def mail_to(username: str) -> Any:
    (found,) = [m for m in mail.outbox if m.to[0].split("@")[0] == username]
    return found


def notice_of(turn: Turn, username: str) -> str:
    """The player's notice as they read it: in their language (campaigns/words/notices.py)."""
    notice = Notice.objects.select_related("player__user__profile").get(
        turn=turn, player__user__username=username
    )
    with translation.override(language_of(notice.player.user)):
        return notice_text(notice.code, notice.params, notice.text)


def test_the_deadline_extended_is_told_to_each_player_in_their_language(
    demo: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    speaks("alice", "de")
    speaks("bob", "en")
    turn = demo.turns.get(status=Turn.Status.OPEN)
    later = turn.deadline + dt.timedelta(days=3)  # Friday 18:00 Berlin -> Monday 18:00
    with translation.override("de"), django_capture_on_commit_callbacks(execute=True):
        turn_extend_deadline(campaign=demo, number=turn.number, deadline=later)
    alice, bob = mail_to("alice"), mail_to("bob")
    assert alice.subject.endswith("Frist von Runde 1 verlängert")
    assert "Die Spielleitung hat die Frist von Runde 1 verlängert" in alice.body
    assert "Montag" in alice.body and "Um diese Mails abzubestellen" in alice.body
    assert notice_of(turn, "alice").startswith("Die Spielleitung hat die Frist")
    # The notice holds the instant: each reader's page words it in their zone and language
    # (tests/web/test_stored_times.py).
    assert time_marker(later) in notice_of(turn, "alice")
    for english in ("bob", "carol"):
        assert mail_to(english).subject.endswith("Turn 1 deadline extended")
        assert "Monday" in mail_to(english).body and "To stop these mails" in bob.body
        assert notice_of(turn, english).startswith("The GM extended the deadline of turn 1")


def test_the_end_and_the_opening_of_a_campaign_are_mailed_in_each_language(
    played: Played, django_capture_on_commit_callbacks: Any
) -> None:
    speaks("alice", "de")
    gm = member(played.campaign, "gm").user
    with translation.override("de"), django_capture_on_commit_callbacks(execute=True):
        campaign_end(campaign=played.campaign, actor=gm)
    assert mail_to("alice").subject.endswith("Die Kampagne ist beendet")
    assert "Runde 1 war ihre letzte" in mail_to("alice").body
    assert mail_to("bob").subject.endswith("The campaign has ended")
    assert "turn 1 was its last" in mail_to("gm").body
    mail.outbox.clear()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        campaign_open(campaign=played.campaign, actor=gm)
    assert mail_to("alice").subject.endswith("Die Kampagne ist offengelegt")
    assert "jeden Wurf" in mail_to("alice").body
    assert mail_to("carol").subject.endswith("The campaign is open")


def test_an_undone_turn_is_told_in_each_players_language(
    played: Played, django_capture_on_commit_callbacks: Any
) -> None:
    speaks("alice", "de")
    gm = member(played.campaign, "gm").user
    with django_capture_on_commit_callbacks(execute=True):
        turn = turn_rollback(campaign=played.campaign, actor=gm, number=1, discard_orders=True)
    assert mail_to("alice").subject.endswith("Runde 1 zurückgenommen")
    assert "Ihre Befehle:" in mail_to("alice").body
    assert notice_of(turn, "alice").startswith("Die Spielleitung hat Runde 1 zurückgenommen")
    assert mail_to("bob").subject.endswith("Turn 1 undone")
    assert notice_of(turn, "bob").startswith("The GM undid turn 1")


def test_the_gms_notice_of_a_late_turn_is_in_the_gms_language(played: Played) -> None:
    turn = played.campaign.turns.get(number=1)
    turn.processed_at = turn.deadline + dt.timedelta(hours=5)
    notify_gms(played.campaign, lambda: late_words(turn))
    assert mail_to("gm").subject.endswith("Turn 1 was processed late")
    mail.outbox.clear()
    speaks("gm", "de")
    with translation.override("en"):
        notify_gms(played.campaign, lambda: late_words(turn))
    assert mail_to("gm").subject.endswith("Runde 1 wurde verspätet ausgewertet")
    assert "Verpasste Runden werden der Reihe nach ausgewertet" in mail_to("gm").body


def test_the_engines_problems_with_a_board_file_are_translated_at_the_site() -> None:
    """engine/cli_io.py and values.py stay English; reasons.py says their words again."""
    problem = "department mint: effect must be a whole number >= 0"
    with translation.override("de"):
        assert game.problem_text(problem) == (
            "Abteilung mint: effect muss eine ganze Zahl ≥ 0 sein"
        )
        linked = game.problem_text("link mint->guild: mint does not produce what guild "
                                      "consumes (R10)")  # fmt: skip
        assert (
            linked == "Verbindung mint → guild: mint produziert nicht, was guild verbraucht (R10)"
        )
        assert str(UNNAMED) == "eine Abteilung, die Sie nicht kennen"
    with translation.override("en"):
        assert game.problem_text(problem) == problem
        assert str(UNNAMED) == "a department you do not know"

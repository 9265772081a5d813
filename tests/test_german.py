"""The site in German (issue 13): the language comes from the profile, else the browser's
Accept-Language; mail is written in the recipient's profile language; the engine's refusal
reasons are translated where they are shown, and one without a translation stays readable
English (never blank). English stays the default, word for word."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from campaigns.engine.refusals import fields
from campaigns.models import Campaign, Profile
from campaigns.reasons import EVERY, SAID
from campaigns.services.notifications import notify_turn_processed
from campaigns.services.reminders import reminder_mail
from campaigns.words import game, labels
from tests.support.demo import Played
from tests.support.handmade import ClientFor

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def speaks(username: str, language: str) -> None:
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def test_a_visitor_gets_the_browsers_language(client: Any, db: None) -> None:
    assert "Spielanleitung" in client.get(reverse("home"), **GERMAN).content.decode()
    page = client.get(reverse("home"), **ENGLISH).content.decode()
    assert "How to play" in page and "Spielanleitung" not in page


def test_the_profiles_language_wins_over_the_browsers(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    speaks("alice", "en")
    page = alice.get(reverse("orders", args=[demo.slug]), **GERMAN).content.decode()
    assert "Your orders for turn 1" in page and "Ihre Befehle" not in page
    speaks("alice", "de")
    page = alice.get(reverse("orders", args=[demo.slug]), **ENGLISH).content.decode()
    assert "Ihre Befehle für Runde 1" in page and "Queue an order" not in page
    # No language in the profile: the browser's again.
    speaks("alice", "")
    page = alice.get(reverse("orders", args=[demo.slug]), **GERMAN).content.decode()
    assert "Ihre Befehle für Runde 1" in page


def test_the_turn_mail_goes_out_in_each_recipients_language(
    played: Played, mailoutbox: list
) -> None:
    speaks("alice", "de")
    speaks("bob", "en")
    with translation.override("en"):  # whatever the sender's language
        notify_turn_processed(played.campaign, 1)
    mail = {m.to[0].split("@")[0]: m for m in mailoutbox}
    assert mail["alice"].subject.endswith("Runde 1 ausgewertet")
    assert "Ihr Bericht:" in mail["alice"].body
    for english in ["bob", "carol", "gm"]:  # carol and the GM have no profile language
        assert mail[english].subject.endswith("Turn 1 processed")
        assert "Your report:" in mail[english].body


def test_a_reminder_goes_out_in_the_recipients_language_with_a_german_date(
    demo: Campaign, mailoutbox: list
) -> None:
    speaks("bob", "de")
    turn = demo.turns.get(number=1)
    bob = demo.memberships.select_related("user__profile").get(user__username="bob")
    assert reminder_mail(turn, bob)
    (mail,) = mailoutbox
    assert "keine Befehle" in mail.subject
    assert "Freitag" in mail.body and " um 18:00 " in mail.body


def test_engine_reasons_are_translated_with_names_and_rule_ids() -> None:
    names = {"mint": "Die Münze", "city-watch": "Stadtwache"}
    with translation.override("de"):
        text = game.with_names("mint already links to city-watch (R10)", names)
        assert text == "Die Münze ist bereits mit Stadtwache verbunden (R10)."
        nested = game.with_names("cannot pay: mint holds only 1 money (R43)", names)
        assert nested == "Kann nicht zahlen: Die Münze hat nur 1 Geld (R43)."
        held = game.with_names("the defence held: 1 against 2 successes (R43)", {})
        assert held == "Die Verteidigung hielt: 1 gegen 2 Erfolge (R43)."
    with translation.override("en"):  # English: the engine's own sentence, with names
        text = game.with_names("mint already links to city-watch (R10)", names)
        assert text == "Die Münze already links to Stadtwache (R10)."


@pytest.mark.parametrize(
    ("reason", "german"),
    [
        ("department mint: at most three alignments (R4)",
         "Abteilung Die Münze: höchstens drei Gesinnungen (R4)."),
        ("department mint: effect must be a whole number >= 0 (R4)",
         "Abteilung Die Münze: effect muss eine ganze Zahl ≥ 0 sein (R4)."),
        ("department mint: holds government together with its opposite (R5)",
         "Abteilung Die Münze: hat government zusammen mit ihrem Gegensatz (R5)."),
        ("department mint: unknown alignment 'martian' (R5)",
         "Abteilung Die Münze: unbekannte Gesinnung 'martian': Sie steht nicht im Katalog der "
         "Kampagne (R5)."),
        ("link mint->city-watch: unknown department 'moon' (R2, R10)",
         "Verbindung Die Münze → Stadtwache: unbekannte Abteilung 'moon' (R2, R10)."),
        ("department mint: defence: unknown resource type 'gold' (R47)",
         "Abteilung Die Münze: defence: unbekannte Ressourcenart 'gold' (R47)."),
        ("no department 'moon' on this board (R2)",
         "Keine Abteilung 'moon' auf diesem Spielplan (R2)."),
    ],
)  # fmt: skip
def test_a_board_refusal_names_its_rule_in_german_too(reason: str, german: str) -> None:
    """The engine ends a refusal about a board with its rule (engine/errors.py under_rule);
    the sentence is said again in German and the rule kept, once."""
    with translation.override("de"):
        assert game.with_names(reason, {"mint": "Die Münze", "city-watch": "Stadtwache"}) == (
            german
        )


def test_a_reason_without_a_translation_is_shown_in_english_with_names() -> None:
    with translation.override("de"):
        text = game.with_names("mint did something new (R99)", {"mint": "Die Münze"})
    assert text == "Die Münze did something new (R99)."


@pytest.mark.parametrize("code", sorted(SAID))
def test_every_refusal_code_has_a_german_translation(code: str) -> None:
    # Filled in, as the site says it: a counting text (ngettext) has no words until then.
    text = SAID[code]
    values = dict.fromkeys((name for name, __ in fields(EVERY[code][1])), 2)
    with translation.override("en"):
        english = str(text % values)
    with translation.override("de"):
        german = str(text % values)
    assert german and german != english, code


def test_the_maps_words_come_from_the_page_in_the_readers_language(
    demo: Campaign, client_for: ClientFor
) -> None:
    """board_map.js writes no English of its own: its words are the page's #map-words, and
    the map's data says each department's level by code, whatever the language (the script
    draws a rumour by it)."""
    speaks("alice", "de")
    page = client_for("alice").get(reverse("board", args=[demo.slug, "city"]))
    html = page.content.decode()
    words = json.loads(html.split('id="map-words" type="application/json">')[1].split("<")[0])
    assert words["only_rumours"] == "nur Gerüchte" and words["initials"] == ["G", "P", "A"]
    assert words["types"] == ["Geld", "Personal", "Autorität"]
    assert words["statuses"]["self_sufficient"] == "autark"
    levels = {node["level"] for node in page.context["page"].map["nodes"]}
    assert levels <= {"rumoured", "known", "controlled"} and "rumoured" in levels


def test_numbers_in_sentences_are_written_as_the_language_writes_them() -> None:
    """An order's length limit, a note's: 2,000 in English, 2.000 in German."""
    with translation.override("de"):
        assert labels.number(2000) == "2.000" and labels.number(12) == "12"
    with translation.override("en"):
        assert labels.number(2000) == "2,000"


def test_the_audit_logs_entries_are_said_in_the_readers_language() -> None:
    """An entry's target is stored once, in English (a record); it is shown in words."""
    from campaigns.words.audit import audit_target

    with translation.override("de"):
        assert audit_target("structures on The City") == "Machtstrukturen auf The City"
        assert audit_target("invitation #3") == "Einladung #3"
        assert audit_target("The Mint: funding order") == "The Mint: Versorgungsreihenfolge"
        assert audit_target("something new") == "something new"
    with translation.override("en"):
        assert audit_target("structures on The City") == "structures on The City"

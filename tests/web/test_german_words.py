"""The German pages of issue 25: percentages written as German writes them („13,0 %“, a
non-breaking space, from Django's localization), the election page naming „Wahl“ once in its
title, and the forms' defaults in German words. Demo: turn 1 open, alice's City Watch may
attempt bob's Guild Hall; the played demo's turn 2 holds the election for Mayor."""

from __future__ import annotations

import html
import re

from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign, Profile
from tests.support.demo import ATTACK, Played, submit
from tests.support.handmade import ClientFor

SLUG = "tourmaline"
GERMAN_PERCENT = re.compile(r"\d+,\d\u00a0%")
ENGLISH_PERCENT = re.compile(r"\d+\.\d%")


def speaks(username: str, language: str) -> None:
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def page(client: ClientFor, username: str, url: str) -> str:
    response = client(username).get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def chance_shown(text: str) -> str:
    found = re.search(r"data-chance>([^<]*)<", text)
    assert found, "no chance on the page"
    return found.group(1)


def test_the_attempt_form_and_the_orders_page_write_the_chance_in_german(
    demo: Campaign, client_for: ClientFor
) -> None:
    form = reverse("order_new", args=[SLUG, "city", "attempt"])

    def previewed() -> str:
        response = client_for("alice").post(form, {"client_token": "", **ATTACK, "preview": "1"})
        assert response.status_code == 200
        return chance_shown(html.unescape(response.content.decode()))

    english = previewed()
    assert ENGLISH_PERCENT.fullmatch(english), english
    speaks("alice", "de")
    german = previewed()
    assert GERMAN_PERCENT.fullmatch(german), german
    assert german.replace(",", ".").replace("\u00a0", "") == english
    submit(demo, "alice", "attempt", ATTACK)
    row = chance_shown(page(client_for, "alice", reverse("orders", args=[SLUG])))
    assert row.startswith("Siegchance ") and GERMAN_PERCENT.search(row), row


def test_a_goal_s_progress_is_a_german_percentage() -> None:
    template = Template("{% load words %}{{ value|percent }}")
    with translation.override("de"):
        assert template.render(Context({"value": 50})) == "50\u00a0%"
    with translation.override("en"):
        assert template.render(Context({"value": 50})) == "50%"


def title_area(text: str) -> str:
    """The election page from its breadcrumb to the end of its heading."""
    start = text.index('aria-label="Navigationspfad"')
    return re.sub(r"<[^>]+>", " ", text[start : text.index("</h1>", start)])


def test_the_election_page_names_the_election_once_in_its_title(
    played: Played, client_for: ClientFor
) -> None:
    speaks("alice", "de")
    title = title_area(page(client_for, "alice", reverse("election", args=[SLUG])))
    assert re.findall(r"\bWahl\b", title) == ["Wahl"], title
    assert "Wahl für Mayor of Tourmaline" in title


def test_the_election_page_without_an_election_names_it_once_too(
    demo: Campaign, client_for: ClientFor
) -> None:
    speaks("alice", "de")
    text = page(client_for, "alice", reverse("election", args=[SLUG]))
    assert re.findall(r"\bWahl\b", title_area(text)) == ["Wahl"]
    assert "Wahl Wahl" not in " ".join(re.sub(r"<[^>]+>", " ", text).split())


def test_the_forms_say_their_defaults_in_german(demo: Campaign, client_for: ClientFor) -> None:
    speaks("alice", "de")
    move = page(client_for, "alice", reverse("order_new", args=[SLUG, "city", "move"]))
    assert "automatisch (erst Geld, dann Personal, dann Autorität)" in move
    attempt = page(client_for, "alice", reverse("order_new", args=[SLUG, "city", "attempt"]))
    assert "um in der Art zu zahlen, die das Ziel verbraucht" in attempt
    for text in (move, attempt):
        assert "Standard" not in text and "default" not in text

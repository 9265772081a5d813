"""What the How to play page (/rules/) must say in every language, for rules a player cannot
read in RULES.md and easily gets wrong: R31's full phase order, how an uncontrolled department
picks its ticket (R80), that an attempt that cannot pay still uses the week's attempt (R43),
that a move's path never returns to its start (R42), where a cross-board shtick applies (R60),
and how the game differs from the card game Illuminati (R44, R61)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.web.rules import LANGUAGES

# (element id, {language: words that element states})
STATEMENTS = [
    ("R42", {
        "en": "never leads back to the department the move starts from",
        "de": "führt nie zu der Abteilung zurück, in der der Transfer beginnt",
    }),
    ("R43", {
        "en": "nothing is spent, but it still uses up your linking attempt of the week",
        "de": "nichts wird ausgegeben, aber er verbraucht trotzdem Ihren Angriff dieser Woche",
    }),
    ("R44", {
        "en": "a captured department comes alone",
        "de": "kommt eine übernommene Abteilung allein",
    }),
    ("R60", {
        "en": "The shtick applies only where a new link would cross between those two boards",
        "de": "Der Shtick gilt nur dort, wo eine neue Verbindung zwischen diesen beiden "
              "Spielplänen entstünde",
    }),
    ("R80", {
        "en": "with the skill of its Linking function if it has one, against the uncontrolled "
              "department's Obstruct",
        "de": "mit der Fertigkeit seiner Funktion Linking, falls er sie hat, gegen die Blockade "
              "der unkontrollierten Abteilung",
    }),
    ("R80", {
        "en": "No shticks count, no tokens are spent",
        "de": "Keine Shticks zählen, keine Marker werden ausgegeben",
    }),
    ("not-the-card-game", {
        "en": "Its dependants do not follow it",
        "de": "Ihre Abhängigen folgen ihr nicht",
    }),
    ("not-the-card-game", {
        "en": "Nobody wins an Illumineaucracy board. There is no victory condition",
        "de": "Auf einem Illumineaucracy-Spielplan gewinnt niemand. Es gibt keine Siegbedingung",
    }),
]  # fmt: skip

# R31's phases in its own order, each as the page names it and the rules it links.
PHASES = {
    "en": ["hand-overs", "adding and breaking links", "moves", "gifts", "linking attempts",
           "the election", "function rolls", "perception checks", "produces, then consumes"],
    "de": ["Abgaben", "Knüpfen und Lösen von Verbindungen", "Transfers", "Geschenke", "Angriffe",
           "die Wahl", "Funktionswürfe", "Wahrnehmungsproben", "produziert, dann verbraucht sie"],
}  # fmt: skip
PHASE_RULES = ["R62", "R41", "R42", "R62", "R43", "R44", "R80", "R45", "R70", "R32", "R36"]


class Element(HTMLParser):
    """The visible text (whitespace collapsed) and rule links inside the element `wanted`."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.depth = 0  # > 0 while inside the wanted element
        self.words: list[str] = []
        self.rules: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if self.depth:
            self.depth += 1
            href = named.get("href") or ""
            if tag == "a" and href.startswith("/rules/#R"):
                self.rules.append(href.removeprefix("/rules/#"))
        elif named.get("id") == self.wanted:
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.words.append(data)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.words)).strip()


def element(html: str, wanted: str) -> Element:
    found = Element(wanted)
    found.feed(html)
    assert found.text, f"no element #{wanted} with text"
    return found


@pytest.fixture
def pages(db: None) -> dict[str, str]:
    return {
        language: Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("how_to_play")).content.decode()
        for language in LANGUAGES
    }


def test_every_statement_is_written_in_every_language() -> None:
    for _, words in STATEMENTS:
        assert set(words) == set(LANGUAGES)
    assert set(PHASES) == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("anchor", "words"), STATEMENTS)
def test_the_page_states_it(
    pages: dict[str, str], language: str, anchor: str, words: dict[str, str]
) -> None:
    assert words[language] in element(pages[language], anchor).text


@pytest.mark.parametrize("language", LANGUAGES)
def test_r31_names_every_phase_in_its_order(pages: dict[str, str], language: str) -> None:
    """RULES R31: hand-overs, links, moves and gifts, attempts, the election, function rolls
    and perception checks; then spawn and consume."""
    r31 = element(pages[language], "R31")
    places = [r31.text.find(phase) for phase in PHASES[language]]
    assert -1 not in places, dict(zip(PHASES[language], places, strict=True))
    assert places == sorted(places), dict(zip(PHASES[language], places, strict=True))
    assert r31.rules[1:] == PHASE_RULES, "after its own id, R31 links each phase's rules in order"

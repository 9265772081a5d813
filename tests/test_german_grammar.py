"""German that reads right whatever fills it in (issue 25, docs/glossary-de.md "Grammar the
placeholders need"): a department the reader does not know is „eine Abteilung, die Sie nicht
kennen“, so no German sentence puts a department's placeholder after a preposition that takes
the dative (it read „mit eine Abteilung, die Sie nicht kennen als Vize“ in the report).
Percentages are localized: „42,5 %“ with a non-breaking space."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import polib
import pytest
from django.utils import translation

from campaigns.selectors.report_view_models import UNNAMED
from campaigns.words.election import fraction_text, result_text, ticket_label
from campaigns.words.game import attack_notice
from campaigns.words.labels import percent_text

PO = Path(__file__).resolve().parents[1] / "locale" / "de" / "LC_MESSAGES" / "django.po"
# Placeholders that may hold a department the reader does not know (UNNAMED).
DEPARTMENTS = (
    "attacker|target|department|deputy|mate|candidate|ticket|source|supplier|winner|d|e|dept"
    "|consumer|link_from|link_to"
)
DATIVE = re.compile(
    rf"\b(?:mit|von|vom|aus|bei|beim|zu|zum|zur|nach|seit)\s+%\((?:{DEPARTMENTS})\)s", re.I
)


# Sentences whose department is always named: their reader knows it (R50).
NAMED = {
    # A classic board's transfer between two groups: every group in play is seen by every
    # member (R99), so both are always named.
    "from %(source)s to %(dest)s",
    # The GM's pages: the GM knows every department.
    "opens when they know the card of %(department)s",
    "opens when they have heard of %(department)s",
    "won by %(winner)s",
    # A GM change in the history of the reader's own structure (or the GM's view of it).
    "The GM changed the stash of %(department)s: %(changes)s (R53).",
    "The GM changed the card of %(department)s (R53).",
    # An envelope the reader opened, or the GM attached: on a department they know.
    "Intel envelope on %(department)s (%(board)s)",
    # Refusals of a link or funding order: both ends are departments the player chose.
    "%(supplier)s already links to %(consumer)s (R10)",
    "%(dept)s is not one of %(supplier)s's consumers",
}


def test_no_german_sentence_puts_a_department_after_a_dative_preposition() -> None:
    wrong = [
        f"{entry.msgid!r}: {text!r}"
        for entry in polib.pofile(str(PO))
        if entry.msgid not in NAMED
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if DATIVE.search(text)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_check_finds_a_dative_preposition_before_a_department() -> None:
    assert DATIVE.search("%(winner)s hat das Amt inne, mit %(deputy)s als Vize")
    assert not DATIVE.search("%(winner)s hat das Amt inne, Vize ist %(deputy)s")
    assert not DATIVE.search("Runde %(n)s von %(campaign)s")  # not a department


def test_an_unknown_deputy_running_mate_and_attacker_read_as_german() -> None:
    with translation.override("de"):
        unknown = str(UNNAMED)
        assert result_text("Mayor", "The Mint", unknown, "support").startswith(
            "The Mint hat das Amt Mayor inne, Vize ist eine Abteilung, die Sie nicht kennen: "
        )
        assert ticket_label("The Mint", unknown) == (
            "The Mint, Vize: eine Abteilung, die Sie nicht kennen"
        )
        __, text = attack_notice(unknown, "The Mint", None, withdrawn=True)
        assert text == (
            "Zurückgezogen: der Angriff auf The Mint durch eine Abteilung, die Sie nicht kennen."
        )
        __, text = attack_notice(unknown, "The Mint", None, withdrawn=False)
        assert "Ziel eines Angriffs durch eine Abteilung, die Sie nicht kennen (R46)" in text


@pytest.mark.parametrize(
    ("language", "value", "places", "expected"),
    [
        ("en", 42.5, 1, "42.5%"),
        ("de", 42.5, 1, "42,5\u00a0%"),
        ("de", 50, 0, "50\u00a0%"),
        ("en", 50, 0, "50%"),
        ("de", 100 / 3, 1, "33,3\u00a0%"),
    ],
)
def test_a_percentage_is_written_as_the_language_writes_it(
    language: str, value: float, places: int, expected: str
) -> None:
    with translation.override(language):
        assert percent_text(value, places) == expected


def test_an_election_chance_is_a_fraction_and_a_german_percentage() -> None:
    with translation.override("de"):
        assert fraction_text(Fraction(56, 125)) == "56/125 (44,8\u00a0%)"
    with translation.override("en"):
        assert fraction_text(Fraction(56, 125)) == "56/125 (44.8%)"

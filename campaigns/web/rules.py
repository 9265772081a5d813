"""The "How to play" page: the rules (RULES R1-R90) in the site's own words, for players who
cannot read the rulebook. Open to everyone, logged in or not: it shows no campaign data.

The rules are long prose, written once per language rather than cut into hundreds of catalogue
messages: templates/campaigns/rules/<language>/ holds the page's parts, and the active language
(accounts/web/preferences.py) picks the folder. tests/web/test_rules_page.py checks that every
language
has the same rule anchors and the same rule links."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

# The languages the rules are written in; any other reads them in the first.
LANGUAGES = ("en", "de")
# The page's parts in order: the lead and contents, parts 1-6, parts 7-10.
PARTS = ("_intro", "_part1_6", "_part7_10")


def rules_language() -> str:
    active = (get_language() or "").lower()
    return next((code for code in LANGUAGES if active.split("-")[0] == code), LANGUAGES[0])


def rules_parts(language: str) -> list[str]:
    return [f"campaigns/rules/{language}/{part}.html" for part in PARTS]


@require_safe
def how_to_play(request: HttpRequest) -> HttpResponse:
    """Every rule id R1..R90 has an anchor here; `{% rule %}` and `|rule_links` link to it."""
    parts = rules_parts(rules_language())
    return render(request, "campaigns/rules/how_to_play.html", {"parts": parts})

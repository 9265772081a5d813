"""The "How to play" page: the rules (RULES R1-R90) in the site's own words, for players who
cannot read the rulebook. Open to everyone, logged in or not: it shows no campaign data."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def how_to_play(request: HttpRequest) -> HttpResponse:
    """Every rule id R1..R90 has an anchor here; `{% rule %}` and `|rule_links` link to it."""
    return render(request, "campaigns/rules/how_to_play.html")

"""The player's pages of RULES parts 7 and 8: their dossier, every envelope they have opened
(intel from perception checks, R71, and sealed envelopes whose condition came true, R72),
newest first. Their shticks and goals are on the campaign page (templatetags/character_tags.py).
A dossier is its player's own: the GM reads it on the member's page (intrigue/web/intrigue_gm.py),
and
every character on the characters page, which every member reads once the GM opens the
campaign (R51)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from campaigns.intrigue.selectors.character import campaign_characters
from campaigns.intrigue.selectors.intrigue import dossier
from campaigns.models import Membership
from campaigns.selectors.visibility import sees_everything
from campaigns.web.access import member_of


@require_safe
@login_required
def dossier_page(request: HttpRequest, slug: str) -> HttpResponse:
    """R71, R72: the viewer's dossier; 404 for non-members, 403 for the GM and observers."""
    viewer = member_of(request, slug)
    if viewer.role != Membership.Role.PLAYER:
        raise PermissionDenied(_("Only players have a dossier."))
    context = {"campaign": viewer.campaign, "member": viewer, "items": dossier(viewer, viewer)}
    return render(request, "intrigue/dossier.html", context)


@require_safe
@login_required
def characters_page(request: HttpRequest, slug: str) -> HttpResponse:
    """R51: every player's character (shticks, secret goals, dossier) for the GM, and for
    every member once the GM has opened the campaign; 404 outside it, 403 before then."""
    viewer = member_of(request, slug)
    if not sees_everything(viewer):
        raise PermissionDenied(
            _("Every character is shown to every member once the GM opens the campaign (R51).")
        )
    characters = campaign_characters(viewer.campaign, viewer)
    context = {"campaign": viewer.campaign, "characters": characters}
    return render(request, "intrigue/characters.html", context)

"""Who may open what: the one place the web layer turns a selector's "not found" (None) into
a 404 and a wrong role into a 403. A campaign, board or turn the viewer may not see answers
404 exactly like one that does not exist (RULES R50), so ids cannot be probed."""

from __future__ import annotations

import re

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from campaigns.models import Board, Membership, Turn
from campaigns.selectors import pages
from campaigns.selectors.visibility import is_gm

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,50}")


def found[T](value: T | None, what: str = "not found") -> T:
    """`value`, or a 404 where a selector found nothing."""
    if value is None:
        raise Http404(what)
    return value


def member_of(request: HttpRequest, slug: str) -> Membership:
    """The requesting user's membership of campaign `slug`; 404 for everyone else."""
    return found(pages.membership_for_slug(request.user, slug), "no such campaign")


def gm_of(request: HttpRequest, slug: str) -> Membership:
    """The requesting GM's membership: 404 for non-members, 403 for players and observers."""
    viewer = member_of(request, slug)
    if not is_gm(viewer):
        raise PermissionDenied(_("Only the campaign's GM may do this."))
    return viewer


def player_of(request: HttpRequest, slug: str) -> Membership:
    """404 for non-members (R50), 403 for GMs and observers: only players queue orders."""
    viewer = member_of(request, slug)
    if viewer.role != Membership.Role.PLAYER:
        raise PermissionDenied(_("Only players queue orders."))
    return viewer


def not_a_player(request: HttpRequest, viewer: Membership) -> HttpResponse:
    """The GM or an observer opened the orders page: not a 403 but the campaign page, saying
    why and where to look instead (R40: only players queue orders)."""
    if is_gm(viewer):
        text = _(
            "The GM does not queue orders: players do. What each player has queued this "
            "turn, and who is ready, is in the roster below."
        )
    else:
        text = _(
            "Observers do not queue orders: only players do. You can follow the campaign "
            "here and read the turn reports."
        )
    messages.info(request, text)
    return redirect(viewer.campaign)


def board_of(viewer: Membership, board_slug: str) -> Board:
    """The viewer's campaign's board `board_slug`; 404 for anything else, including a value
    that is no slug at all (a query string's, say: a NUL byte would fail in the database)."""
    if not SLUG.fullmatch(board_slug):
        raise Http404("no such board")
    return found(pages.board_for(viewer.campaign, board_slug), "no such board")


def open_turn_of(viewer: Membership) -> Turn:
    """The campaign's current turn; 404 before the campaign starts."""
    return found(pages.current_turn(viewer.campaign), "the campaign has not started")

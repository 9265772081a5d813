"""What the views share, in one place (a view module imports no other view module:
tests/test_layers.py).

Who may open what: the one place the web layer turns a selector's "not found" (None) into
a 404 and a wrong role into a 403. A campaign, board or turn the viewer may not see answers
404 exactly like one that does not exist (RULES R50), so ids cannot be probed.

Then the data a form is bound to (posted), what a GM's form or button does with a change
(attempt, done, tell: a refusal becomes error messages and changes nothing), the methods a
form page answers, and the address of a board's map."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns.models import Board, Department, Membership, Office, Turn
from campaigns.selectors import pages
from campaigns.selectors.editor import department_for
from campaigns.selectors.visibility import is_gm
from campaigns.services.editor import Change
from campaigns.services.setup import SetupRefused

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,50}")
# A form page: shown by GET (and HEAD), sent by POST.
FORM_METHODS = ["GET", "HEAD", "POST"]


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


def board_of(viewer: Membership, board_slug: str, *, crossing: bool = False) -> Board:
    """The viewer's campaign's board `board_slug`; 404 for anything else, including a value
    that is no slug at all (a query string's, say: a NUL byte would fail in the database).
    `crossing`: read whether links cross its edge too (pages.board_for)."""
    if not SLUG.fullmatch(board_slug):
        raise Http404("no such board")
    board = pages.board_for(viewer.campaign, board_slug, crossing=crossing)
    return found(board, "no such board")


def open_turn_of(viewer: Membership) -> Turn:
    """The campaign's current turn, with the viewer's flags (pages.viewer_flags); 404 before
    the campaign starts."""
    return found(pages.current_turn(viewer.campaign, viewer), "the campaign has not started")


def gm_board(request: HttpRequest, slug: str, board_slug: str) -> tuple[Membership, Board]:
    viewer = gm_of(request, slug)
    return viewer, board_of(viewer, board_slug)


def gm_department(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str
) -> tuple[Board, Department]:
    __, board = gm_board(request, slug, board_slug)
    return board, found(department_for(board, dept_slug), "no such department")


def gm_office(request: HttpRequest, slug: str, board_slug: str, pk: int) -> tuple[Board, Office]:
    __, board = gm_board(request, slug, board_slug)
    office = Office.objects.filter(board=board, pk=pk).first() if 0 < pk < 2**31 else None
    return board, found(office, "no such office")


# --- A form's data, and a GM's change from a form or a button -------------------------------------


def posted(request: HttpRequest) -> QueryDict | None:
    """The POST data of a POST, even an empty one, else None. (`request.POST or None` would
    leave a form posted with no fields unbound: shown again as new, without saying what is
    missing.)"""
    return request.POST if request.method == "POST" else None


def attempt[T](request: HttpRequest, action: Callable[[], T], framed: str = "") -> T | None:
    """Run a GM change from a button; if it is refused, each reason becomes an error message
    (put in `framed`, a translated sentence with %(reason)s, if given) and None is returned,
    for the caller to send the GM back."""
    try:
        return action()
    except SetupRefused as error:
        for line in error.messages:
            messages.error(request, framed % {"reason": line} if framed else line)
        return None


def saved(request: HttpRequest, form: Any, save: Callable[[], object], success: str) -> bool:
    """A GM's form: posted and valid, `save()` runs and `success` is said (True, for the
    caller to send the GM on). A refusal becomes the form's errors and changes nothing;
    GET, an invalid form or a refusal: False, for the caller to show the form again."""
    if request.method != "POST" or not form.is_valid():
        return False
    try:
        save()
    except SetupRefused as refused:
        for line in refused.messages:
            form.add_error(None, line)
        return False
    messages.success(request, success)
    return True


def tell(request: HttpRequest, change: Change, done: str) -> None:
    """Say what happened: done (or nothing changed), then the engine's notes (R33)."""
    messages.success(request, done if change.changed else _("Nothing was changed."))
    for note in change.notes:
        messages.warning(request, note)


def done(request: HttpRequest, action: Any, success: str) -> None:
    """Run a GM change from a button: `success` as a message, or each reason it was refused
    for."""
    try:
        action()
    except SetupRefused as error:
        for line in error.messages:
            messages.error(request, line)
    else:
        messages.success(request, success)


def map_url(slug: str, board_slug: str, number: int | None) -> str:
    """Where a page fetches a big board's map (board_map_data), now or after turn `number`."""
    url = reverse("board_map_data", args=[slug, board_slug])
    return url if number is None else f"{url}?turn={number}"

"""The election's pages (RULES R80): the election page every member reads while the open turn
holds one (the tickets and the support declared so far, as the viewer may see them, R50, and
for a player the election's order forms), and the GM's offices of a board: add, change and
remove an office, schedule an election for it in the open turn or a later one, and cancel one
not yet held. Reads go through selectors, writes through elections/services/offices.py."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.elections.selectors.elections import election_page
from campaigns.elections.selectors.office_views import board_office_admin, office_shtick_texts
from campaigns.elections.services.offices import (
    election_cancel as cancel_election,
)
from campaigns.elections.services.offices import (
    election_schedule as schedule_election,
)
from campaigns.elections.services.offices import (
    office_remove as remove_office,
)
from campaigns.elections.services.offices import (
    office_save,
)
from campaigns.elections.web.election_choices import KINDS
from campaigns.elections.web.office_forms import ElectionScheduleForm, OfficeForm
from campaigns.models import Board, Election, Membership, Shtick
from campaigns.selectors.order_context import OrderContext
from campaigns.services.setup import SetupRefused
from campaigns.web.access import (
    FORM_METHODS,
    done,
    found,
    gm_board,
    gm_of,
    gm_office,
    member_of,
    posted,
)
from campaigns.web.order_choices import kinds_offered
from campaigns.web.post_only import post_only


@require_safe
@login_required
def election(request: HttpRequest, slug: str) -> HttpResponse:
    """R80: the open turn's election so far, for every member as far as they may see it;
    a player also gets the election's order forms that have a choice now, and why not."""
    viewer = member_of(request, slug)
    page = election_page(viewer.campaign, viewer)
    offers = []
    if page.board is not None and page.turn is not None and viewer.role == Membership.Role.PLAYER:
        ctx = OrderContext.build(viewer, page.turn, page.board)
        offers = [o for o in kinds_offered(ctx) if o.kind in KINDS]
    context = {"campaign": viewer.campaign, "page": page, "offers": offers, "viewer": viewer}
    return render(request, "elections/election.html", context)


# --- The GM's offices of a board -------------------------------------------------------------


@require_http_methods(FORM_METHODS)
@login_required
def board_offices(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """The board's offices and their elections; POST adds an office."""
    viewer, board = gm_board(request, slug, board_slug)
    form = OfficeForm(posted(request), board=board)
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            office = office_save(
                board=board, actor=request.user, name=data["name"],
                alignment=data["alignment"], **form.posts(),
            )  # fmt: skip
        except SetupRefused as error:
            refused = error.messages
        else:
            messages.success(request, _("%(office)s is added.") % {"office": office.name})
            return redirect("board_offices", viewer.campaign.slug, board.slug)
    context = offices_context(viewer, board, form, refused)
    return render(request, "elections/offices.html", context)


def offices_context(
    viewer: Membership, board: Board, form: OfficeForm, refused: list[str]
) -> dict[str, Any]:
    turn = viewer.campaign.turns.filter(status="open").order_by("number").first()
    schedule = ElectionScheduleForm(initial={"number": turn.number if turn else 1})
    return {
        "campaign": viewer.campaign,
        "board": board,
        "offices": board_office_admin(board),
        "form": form,
        "schedule": schedule,
        "refused": refused,
        "open_turn": turn,
    }


@require_http_methods(FORM_METHODS)
@login_required
def office_edit(request: HttpRequest, slug: str, board_slug: str, pk: int) -> HttpResponse:
    """Change an office's name, alignment, holder and deputy (R53: the GM may put any
    department of the board in it). Its shticks are granted and taken away on this page
    too, each by its own form (elections/web/office_shticks.py)."""
    board, office = gm_office(request, slug, board_slug, pk)
    initial = {
        "name": office.name,
        "alignment": office.alignment,
        "holder": office.holder.slug if office.holder else "",
        "deputy": office.deputy.slug if office.deputy else "",
    }
    form = OfficeForm(posted(request), board=board, initial=initial)
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            office_save(
                board=board, actor=request.user, name=data["name"], alignment=data["alignment"],
                shticks=office.shticks, office=office, **form.posts(),
            )  # fmt: skip
        except SetupRefused as error:
            refused = error.messages
        else:
            messages.success(request, _("%(office)s is saved.") % {"office": data["name"]})
            return redirect("board_offices", board.campaign.slug, board.slug)
    boards = dict(board.campaign.boards.values_list("slug", "name"))
    names = dict(board.departments.values_list("slug", "name"))
    context = {
        "campaign": board.campaign,
        "board": board,
        "office": office,
        "form": form,
        "refused": refused,
        # R60: the office's shticks in words, each removable by its place in the list.
        "shticks": list(enumerate(office_shtick_texts(office.shticks, names, boards))),
        "shtick_kinds": [
            (kind, label)
            for kind, label in Shtick.Kind.choices
            if kind != Shtick.Kind.CROSS_BOARD or len(boards) > 1
        ],
    }
    return render(request, "elections/office.html", context)


@post_only("office_edit", "slug", "board_slug", "pk")
@login_required
def office_delete(request: HttpRequest, slug: str, board_slug: str, pk: int) -> HttpResponse:
    board, office = gm_office(request, slug, board_slug, pk)
    removed = _("%(office)s is removed.") % {"office": office.name}
    done(request, lambda: remove_office(office=office, actor=request.user), removed)
    return redirect("board_offices", board.campaign.slug, board.slug)


@post_only("board_offices", "slug", "board_slug")
@login_required
def election_new(request: HttpRequest, slug: str, board_slug: str, pk: int) -> HttpResponse:
    """Schedule an election for the office in the open turn or a later one; its players
    are told when that turn opens (at once, for the open turn)."""
    board, office = gm_office(request, slug, board_slug, pk)
    form = ElectionScheduleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the number of a turn: the open one or a later one."))
    else:
        number = form.cleaned_data["number"]
        done(
            request,
            lambda: schedule_election(office=office, number=number, actor=request.user),
            _("An election for %(office)s is scheduled in turn %(n)s.")
            % {"office": office.name, "n": number},
        )
    return redirect("board_offices", board.campaign.slug, board.slug)


@post_only("election", "slug")
@login_required
def election_drop(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Cancel an election that has not been held."""
    viewer = gm_of(request, slug)
    row = Election.objects.filter(campaign=viewer.campaign, pk=pk).select_related("office__board")
    election_row = found(row.first() if 0 < pk < 2**31 else None, "no such election")
    board = election_row.office.board
    done(
        request,
        lambda: cancel_election(election=election_row, actor=request.user),
        _("The election for %(office)s in turn %(n)s is cancelled.")
        % {"office": election_row.office.name, "n": election_row.number},
    )
    return redirect("board_offices", viewer.campaign.slug, board.slug)

"""History pages: a board's history, a structure's and a department's history,
two turns compared, the map's layout graph and the history as a spreadsheet. Reads go
through selectors, where RULES R50/R51 are applied (every turn as the viewer knew it then);
every page answers 404 to non-members, and to members for what is not theirs to see.

A classic board (R90) has groups, not departments: its history and its comparison have pages
of their own (selectors/history_classic.py, where R99 is applied), its file rows of its own,
and no structure or department history (404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from campaigns.csv_cells import write_rows
from campaigns.history.selectors.history import history_index, member_of_campaign, structure_history
from campaigns.history.selectors.history_classic import classic_compare, classic_history
from campaigns.history.selectors.history_compare import compare_turns
from campaigns.history.selectors.history_department import department_history
from campaigns.history.selectors.history_export import history_rows
from campaigns.history.selectors.history_records import turn_numbers
from campaigns.history.web.history_forms import CompareForm, asked_turn
from campaigns.models import Board, Membership
from campaigns.selectors.board_turns import board_layout, board_map_of
from campaigns.web.access import board_of, found, member_of


def viewer_and_board(request: HttpRequest, slug: str, board_slug: str) -> tuple[Membership, Board]:
    viewer = member_of(request, slug)
    return viewer, board_of(viewer, board_slug)


@require_safe
@login_required
def board_map_layout(request: HttpRequest, slug: str, board_slug: str) -> JsonResponse:
    """The graph the board map lays out once, so departments keep their places from turn to
    turn: opaque ids of everything the viewer has seen of the board (selectors/board_map)."""
    viewer, board = viewer_and_board(request, slug, board_slug)
    return JsonResponse(board_layout(board, viewer))


@require_safe
@login_required
def board_map_data(request: HttpRequest, slug: str, board_slug: str) -> JsonResponse:
    """The board map's data, now or after `?turn=N` as the viewer knew it then (R50/R51):
    what the page of a big board fetches instead of holding it (selectors/board_map). A turn
    that cannot be shown gives the board now, as the board page does."""
    viewer, board = viewer_and_board(request, slug, board_slug)
    number, _ = asked_turn(request.GET.get("turn"))
    return JsonResponse(board_map_of(board, viewer, number))


@require_safe
@login_required
def board_history(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    viewer, board = viewer_and_board(request, slug, board_slug)
    if board.is_classic:
        return classic_board_history(request, viewer, board)
    context = {
        "campaign": viewer.campaign,
        "board": board,
        "index": history_index(board, viewer),
        "form": CompareForm(numbers=turn_numbers(board)),
        "viewer_key": str(viewer.pk),
    }
    return render(request, "history/index.html", context)


def classic_board_history(request: HttpRequest, viewer: Membership, board: Board) -> HttpResponse:
    """R51, R99: a classic board turn by turn (selectors/history_classic.py)."""
    history = classic_history(board, viewer)
    context = {
        "campaign": viewer.campaign,
        "board": board,
        "history": history,
        "form": CompareForm(numbers=history.numbers, initial=latest_two(history.numbers)),
    }
    return render(request, "history/classic_index.html", context)


def latest_two(numbers: list[int]) -> dict[str, int]:
    """The last two recorded turns, as the compare form's choice (nothing with fewer)."""
    return {"first": numbers[-2], "second": numbers[-1]} if len(numbers) > 1 else {}


def not_classic(board: Board, what: str) -> Board:
    """A classic board has no structures or departments to follow (R90): a 404."""
    if board.is_classic:
        raise Http404(what)
    return board


@require_safe
@login_required
def structure_history_page(
    request: HttpRequest, slug: str, board_slug: str, member: int
) -> HttpResponse:
    """A player's structure from turn 0 to now: their own; any for the GM (R51)."""
    viewer, board = viewer_and_board(request, slug, board_slug)
    not_classic(board, "no such structure")
    player = found(member_of_campaign(viewer.campaign, member), "no such structure")
    history = found(structure_history(board, viewer, player), "no such structure")
    context = {"campaign": viewer.campaign, "board": board, "history": history}
    return render(request, "history/structure.html", context)


@require_safe
@login_required
def department_history_page(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str
) -> HttpResponse:
    viewer, board = viewer_and_board(request, slug, board_slug)
    not_classic(board, "no such department")
    history = found(department_history(board, viewer, dept_slug), "no such department")
    context = {"campaign": viewer.campaign, "board": board, "history": history}
    return render(request, "history/department.html", context)


@require_safe
@login_required
def compare(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """Two turns of a board side by side, and what changed between them. Without a choice,
    or with one that cannot be compared, the last two turns (and the reason)."""
    viewer, board = viewer_and_board(request, slug, board_slug)
    form, first, second = turns_to_compare(request, turn_numbers(board))
    comparison: object = None
    if first is not None and second is not None and board.is_classic:
        comparison = classic_compare(board, viewer, first, second)
    elif first is not None and second is not None:
        comparison = compare_turns(board, viewer, first, second)
    context = {
        "campaign": viewer.campaign,
        "board": board,
        "form": form,
        "comparison": comparison,
    }
    template = "classic_compare.html" if board.is_classic else "compare.html"
    return render(request, f"history/{template}", context)


def turns_to_compare(
    request: HttpRequest, numbers: list[int]
) -> tuple[CompareForm, int | None, int | None]:
    """The form of `?first=&second=` and the two turns to compare: those asked for, or the
    last two of `numbers` (and a message saying so) when nothing or something that cannot
    be compared was asked; None when there are not two turns."""
    latest = latest_two(numbers)
    asked = {k: request.GET[k] for k in ("first", "second") if k in request.GET}
    form = CompareForm({**latest, **asked} if latest or asked else None, numbers=numbers)
    first, second = latest.get("first"), latest.get("second")
    if form.is_bound and form.is_valid():
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        if form.swapped:
            swapped = _("Compared in time order: turn %(first)s, then turn %(second)s.")
            messages.info(request, swapped % {"first": first, "second": second})
    elif form.is_bound and first is not None:
        instead = _("Showing turns %(first)s and %(second)s instead.")
        messages.warning(request, instead % {"first": first, "second": second})
    return form, first, second


@require_safe
@login_required
def history_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The history as CSV (`?board=` for one board): the GM's holds everything, a player's
    what they saw at each turn (selectors/history_export says what exactly)."""
    viewer = member_of(request, slug)
    asked = request.GET.get("board", "")
    board = None
    if asked:
        try:
            board = board_of(viewer, asked)
        except Http404:
            # A hand-edited link: say so where the downloads are, rather than a bare 404.
            messages.error(request, _("There is no such board: nothing was downloaded."))
            return redirect(viewer.campaign)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"{viewer.campaign.slug}{'-' + board.slug if board else ''}-history.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    write_rows(response, history_rows(viewer.campaign, viewer, board))
    return response

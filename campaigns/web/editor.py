"""The GM's board and department editor (RULES R2, R4, R10-R13, R53): add, rename and
remove boards; add, edit and remove departments; add, remove and reorder links. Every
change goes through services/editor.py, where the engine reviews it first; a refusal is
shown with its reasons and changes nothing. GM only (web/access.py: 404 for non-members,
403 for players and observers)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.models import Board, Department, Link
from campaigns.selectors.editor import (
    active_players,
    board_editor_page,
    board_removal,
    catalogue_names,
    department_by_pk,
    department_links,
    department_removal,
    link_for,
    link_offers,
    no_offer_text,
    partner_choices,
)
from campaigns.services.editor import (
    board_create,
    board_remove,
    board_rename,
    department_create,
    department_remove,
    department_update,
    link_add,
    link_remove,
    link_shift,
)
from campaigns.services.setup import SetupRefused
from campaigns.web.access import (
    FORM_METHODS,
    attempt,
    found,
    gm_board,
    gm_department,
    gm_of,
    posted,
    tell,
)
from campaigns.web.editor_forms import (
    BoardForm,
    BoardRenameForm,
    DepartmentForm,
    FunctionFormSet,
    LinkAddForm,
    LinkShiftForm,
    department_initial,
)
from campaigns.web.post_only import post_only

# --- Boards -------------------------------------------------------------------------------------


@require_http_methods(FORM_METHODS)
@login_required
def board_new(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = gm_of(request, slug).campaign
    form = BoardForm(posted(request))
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            board = board_create(campaign=campaign, actor=request.user, **form.cleaned_data)
        except SetupRefused as error:
            refused = error.messages
        else:
            if board.is_classic:  # R90: no departments to edit; its page shows its groups
                messages.success(
                    request, _("%(name)s is added as a classic board.") % {"name": board.name}
                )
                return redirect("board", campaign.slug, board.slug)
            messages.success(
                request, _("%(name)s is added. Now give it departments.") % {"name": board.name}
            )
            return redirect("board_edit", campaign.slug, board.slug)
    context = {"campaign": campaign, "form": form, "refused": refused}
    return render(request, "campaigns/editor/board_new.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def board_edit(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """The board's departments (a page at a time) and its name."""
    viewer, board = gm_board(request, slug, board_slug)
    form = BoardRenameForm(posted(request), initial={"name": board.name})
    if request.method == "POST" and form.is_valid():
        changed = board_rename(board=board, actor=request.user, name=form.cleaned_data["name"])
        messages.success(request, _("Renamed.") if changed else _("Nothing was changed."))
        return redirect("board_edit", viewer.campaign.slug, board.slug)
    page = board_editor_page(board, page=request.GET.get("page", 1))
    context = {"campaign": viewer.campaign, "board": board, "form": form, "page": page}
    return render(request, "campaigns/editor/board_edit.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def board_delete(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """GET: what removing the board takes with it. POST: remove it."""
    viewer, board = gm_board(request, slug, board_slug)
    campaign = viewer.campaign
    if request.method == "POST":
        if attempt(request, lambda: board_remove(board=board, actor=request.user)) is None:
            return redirect("board_edit", campaign.slug, board.slug)
        messages.success(request, _("%(name)s is removed.") % {"name": board.name})
        return redirect(campaign)
    context = {"campaign": campaign, "board": board, "removal": board_removal(board)}
    return render(request, "campaigns/editor/board_remove.html", context)


# --- Departments --------------------------------------------------------------------------------


def department_forms(
    request: HttpRequest, board: Board, dept: Department | None
) -> tuple[DepartmentForm, Any]:
    catalogue = catalogue_names(board.campaign)
    players = active_players(board.campaign)
    data = posted(request)
    initial = department_initial(dept, catalogue) if dept else None
    form = DepartmentForm(
        data, initial=initial, catalogue=catalogue, players=players, new=dept is None
    )
    functions = [{"name": n, "skill": s} for n, s in (dept.functions if dept else {}).items()]
    if data is not None:
        formset = FunctionFormSet(data, prefix="functions")
    else:
        formset = FunctionFormSet(initial=functions, prefix="functions")
    return form, formset


def department_page(
    request: HttpRequest, board: Board, dept: Department | None, refused: list[str], forms: Any
) -> HttpResponse:
    form, formset = forms
    context: dict[str, Any] = {
        "campaign": board.campaign, "board": board, "department": dept,
        "form": form, "formset": formset, "refused": refused,
    }  # fmt: skip
    if dept is not None:
        context["links"] = department_links(dept)
        for name, direction in (("supplies", "out"), ("supplied", "in")):
            offers = link_offers(dept, direction)
            context[f"{name}_form"] = LinkAddForm(initial={"direction": direction}, partners=offers)
            context[f"{name}_none"] = "" if offers else no_offer_text(dept, direction)
    return render(request, "campaigns/editor/department.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def department_new(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    __, board = gm_board(request, slug, board_slug)
    form, formset = department_forms(request, board, None)
    refused: list[str] = []
    if request.method == "POST" and form.is_valid() and formset.is_valid():
        values = form.values(formset.functions())
        try:
            change = department_create(
                board=board, actor=request.user, slug=values.pop("slug"), values=values
            )
        except SetupRefused as error:
            refused = error.messages
        else:
            added = _("%(name)s is added to %(board)s.")
            tell(request, change, added % {"name": values["name"], "board": board.name})
            return redirect("department_edit", board.campaign.slug, board.slug,
                            form.cleaned_data["slug"])  # fmt: skip
    return department_page(request, board, None, refused, (form, formset))


@require_http_methods(FORM_METHODS)
@login_required
def department_edit(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str
) -> HttpResponse:
    """The card (every field, R4), who holds it (R13), and its links (R10-R12)."""
    board, dept = gm_department(request, slug, board_slug, dept_slug)
    form, formset = department_forms(request, board, dept)
    refused: list[str] = []
    if request.method == "POST" and form.is_valid() and formset.is_valid():
        values = form.values(formset.functions())
        try:
            change = department_update(department=dept, actor=request.user, values=values)
        except SetupRefused as error:
            refused = error.messages
        else:
            tell(request, change, _("%(name)s is saved.") % {"name": values["name"]})
            return redirect("department_edit", board.campaign.slug, board.slug, dept.slug)
    return department_page(request, board, dept, refused, (form, formset))


@require_http_methods(FORM_METHODS)
@login_required
def department_delete(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str
) -> HttpResponse:
    """GET: what removing the department takes with it. POST: remove it."""
    board, dept = gm_department(request, slug, board_slug, dept_slug)
    if request.method == "POST":
        if attempt(request, lambda: department_remove(department=dept, actor=request.user)) is None:
            return redirect("department_delete", board.campaign.slug, board.slug, dept.slug)
        removed = _("%(name)s is removed from %(board)s.")
        messages.success(request, removed % {"name": dept.name, "board": board.name})
        return redirect("board_edit", board.campaign.slug, board.slug)
    context = {
        "campaign": board.campaign, "board": board, "department": dept,
        "removal": department_removal(dept),
    }  # fmt: skip
    return render(request, "campaigns/editor/department_remove.html", context)


# --- Links --------------------------------------------------------------------------------------


def gm_link(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str, pk: int
) -> tuple[Department, Link]:
    """The department whose page the GM is on, and a link of its board."""
    board, dept = gm_department(request, slug, board_slug, dept_slug)
    return dept, found(link_for(board, pk), "no such link")


def back_to(dept: Department) -> HttpResponse:
    return redirect("department_edit", dept.board.campaign.slug, dept.board.slug, dept.slug)


@post_only("department_edit", "slug", "board_slug", "dept_slug")
@login_required
def link_new(request: HttpRequest, slug: str, board_slug: str, dept_slug: str) -> HttpResponse:
    board, dept = gm_department(request, slug, board_slug, dept_slug)
    form = LinkAddForm(request.POST, partners=partner_choices(board, dept))
    if not form.is_valid():
        messages.error(request, _("Choose a department of this board to link (R2, R10)."))
        return back_to(dept)
    partner = found(department_by_pk(board, form.cleaned_data["partner"]))
    out = form.cleaned_data["direction"] == "out"
    supplier, consumer = (dept, partner) if out else (partner, dept)
    made = attempt(
        request,
        lambda: link_add(board=board, actor=request.user, supplier=supplier, consumer=consumer),
        _("No link was made: %(reason)s"),
    )
    if made is not None:
        supplies = _("%(supplier)s now supplies %(consumer)s.")
        messages.success(request, supplies % {"supplier": supplier.name, "consumer": consumer.name})
    return back_to(dept)


@post_only("department_edit", "slug", "board_slug", "dept_slug")
@login_required
def link_delete(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str, pk: int
) -> HttpResponse:
    dept, link = gm_link(request, slug, board_slug, dept_slug, pk)
    removed = attempt(
        request, lambda: link_remove(link=link, actor=request.user), _("The link stays: %(reason)s")
    )
    if removed is not None:
        gone = _("%(supplier)s no longer supplies %(consumer)s.")
        names = {"supplier": link.supplier.name, "consumer": link.consumer.name}
        messages.success(request, gone % names)
    return back_to(dept)


@post_only("department_edit", "slug", "board_slug", "dept_slug")
@login_required
def link_move(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str, pk: int
) -> HttpResponse:
    """One place earlier or later in the supplier's funding order (R12)."""
    dept, link = gm_link(request, slug, board_slug, dept_slug, pk)
    form = LinkShiftForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Move a link earlier or later (R12)."))
        return back_to(dept)
    up = form.cleaned_data["direction"] == "up"
    change = attempt(request, lambda: link_shift(link=link, actor=request.user, up=up))
    if change is not None:
        saved = _("The funding order of %(supplier)s is saved.")
        tell(request, change, saved % {"supplier": link.supplier.name})
    return back_to(dept)

"""The GM grants an office shticks from the RULES R60 catalogue and takes them away (R80: the
office's holder's controller holds them while the holder is in their structure). The same
form per kind as a character's shticks (intrigue/web/shtick_forms.py); the office is saved through
elections/services/offices.py office_save, which has the engine check it and keeps the change in the
audit log (R53). GM only (web/access.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.elections.services.offices import office_save
from campaigns.intrigue.selectors.character import board_department_options
from campaigns.intrigue.web.shtick_forms import SHTICK_FORMS
from campaigns.models import Office, Shtick
from campaigns.selectors.pages import boards_of
from campaigns.web.access import FORM_METHODS, done, gm_office, posted, saved
from campaigns.web.post_only import post_only


def office_saved_with(office: Office, shticks: list[dict[str, object]], actor: object) -> Office:
    """The office as it is, with `shticks` instead of its own."""
    return office_save(
        board=office.board, actor=actor, name=office.name, alignment=office.alignment,
        shticks=shticks, holder=office.holder, deputy=office.deputy, office=office,
    )  # type: ignore[arg-type]  # fmt: skip


def office_page(office: Office) -> str:
    return reverse("office_edit", args=[office.board.campaign.slug, office.board.slug, office.pk])


def back(office: Office) -> HttpResponse:
    return redirect(office_page(office))


@require_http_methods(FORM_METHODS)
@login_required
def office_shtick_new(
    request: HttpRequest, slug: str, board_slug: str, pk: int, kind: str
) -> HttpResponse:
    """R60/R80: one shtick of kind `kind` for the office. A shtick naming a department names
    one of the office's board (the state names it so, selectors/state_beyond_boards.py)."""
    board, office = gm_office(request, slug, board_slug, pk)
    if kind not in SHTICK_FORMS:
        raise Http404("no such shtick kind")
    departments = board_department_options(board)
    boards = [(b.slug, b.name) for b in boards_of(board.campaign)]
    form = SHTICK_FORMS[kind](posted(request), departments=departments, boards=boards)

    def save() -> object:
        return office_saved_with(office, [*office.shticks, form.engine_object()], request.user)

    if saved(request, form, save, _("Shtick granted.")):
        return back(office)
    title = _("A shtick for %(office)s: %(kind)s") % {
        "office": office.name,
        "kind": Shtick.Kind(kind).label,
    }
    context = {"campaign": board.campaign, "board": board, "office": office, "form": form,
               "title": title, "back": office_page(office), "back_label": office.name}  # fmt: skip
    return render(request, "elections/office_shtick.html", context)


@post_only("office_edit", "slug", "board_slug", "pk")
@login_required
def office_shtick_remove(
    request: HttpRequest, slug: str, board_slug: str, pk: int, index: int
) -> HttpResponse:
    """Take the office's shtick number `index` (its place in the list) away."""
    __, office = gm_office(request, slug, board_slug, pk)
    if not 0 <= index < len(office.shticks):
        raise Http404("no such shtick")
    kept = [s for i, s in enumerate(office.shticks) if i != index]
    done(request, lambda: office_saved_with(office, kept, request.user), _("Shtick removed."))
    return back(office)

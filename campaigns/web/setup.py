"""The GM's set-up pages: a new campaign, its settings, its alignment catalogue (RULES R5)
and the audit log of the GM's changes (R53). Every change goes through services/setup.py,
which has the engine check it first; a refusal is shown on the form and changes nothing."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.selectors.audit import audit_choices, audit_page
from campaigns.selectors.board_files import (
    COLUMNS,
    BoardFileError,
    board_csv,
    board_file,
    board_from_csv,
    board_from_json,
)
from campaigns.services.boards import BoardImportError
from campaigns.services.setup import (
    SetupRefused,
    alignments_set,
    board_import_by_gm,
    campaign_create,
    campaign_settings_set,
)
from campaigns.web.access import board_of, gm_of
from campaigns.web.posted import posted
from campaigns.web.setup_forms import (
    ZONES,
    AlignmentFormSet,
    AuditFilterForm,
    BoardImportForm,
    CampaignSettingsForm,
)
from campaigns.wording import count

FORM_METHODS = ["GET", "HEAD", "POST"]


@require_http_methods(FORM_METHODS)
@login_required
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Anyone logged in may start a campaign, and becomes its GM."""
    form = CampaignSettingsForm(posted(request))
    if request.method == "POST" and form.is_valid():
        campaign = campaign_create(user=request.user, values=form.cleaned_data)
        messages.success(
            request,
            _("%(name)s is created, and you are its GM. Players cannot see it until you add them.")
            % {"name": campaign.name},
        )
        return redirect(campaign)
    return render(request, "campaigns/setup/new.html", {"form": form, "zones": ZONES})


@require_http_methods(FORM_METHODS)
@login_required
def campaign_settings(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = gm_of(request, slug).campaign
    form = CampaignSettingsForm(posted(request), instance=campaign)
    if request.method == "POST" and form.is_valid():
        try:
            changed = campaign_settings_set(
                campaign=campaign, actor=request.user, values=form.cleaned_data
            )
        except SetupRefused as refused:
            for line in refused.messages:
                form.add_error(None, line)
        else:
            labels = [str(form.fields[name].label) for name in changed]
            text = (
                _("Saved: %(fields)s.") % {"fields": ", ".join(labels)}
                if changed
                else _("Nothing was changed.")
            )
            messages.success(request, text)
            return redirect("campaign_settings", campaign.slug)
    campaign.refresh_from_db()  # the page's heading shows the stored name, not the typed one
    context = {"campaign": campaign, "form": form, "zones": ZONES}
    return render(request, "campaigns/setup/settings.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def campaign_alignments(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = gm_of(request, slug).campaign
    initial = [
        {"name": a.name, "opposite": a.opposite, "self_opposed": a.self_opposed}
        for a in campaign.alignments.order_by("pk")
    ]
    # Bound to what was posted only: against an initial, an unchanged line would count as
    # empty and be dropped.
    if request.method == "POST":
        formset = AlignmentFormSet(request.POST, prefix="alignments")
    else:
        formset = AlignmentFormSet(initial=initial, prefix="alignments")
    refused: list[str] = []
    if request.method == "POST" and formset.is_valid():
        entries = [
            form.cleaned_data
            for form in formset.forms
            if form.cleaned_data.get("name") and not form.cleaned_data.get("DELETE")
        ]
        try:
            changed = alignments_set(campaign=campaign, actor=request.user, entries=entries)
        except SetupRefused as error:
            refused = error.messages
        else:
            messages.success(
                request, _("Alignment catalogue saved.") if changed else _("Nothing was changed.")
            )
            return redirect("campaign_alignments", campaign.slug)
    context: dict[str, Any] = {"campaign": campaign, "formset": formset, "refused": refused}
    return render(request, "campaigns/setup/alignments.html", context)


@require_safe
@login_required
def audit_log(request: HttpRequest, slug: str) -> HttpResponse:
    """The GM's changes (R53), filtered by what, who, when, board and department."""
    campaign = gm_of(request, slug).campaign
    form = AuditFilterForm(request.GET, choices=audit_choices(campaign))
    page = audit_page(campaign, form.filters(), page=request.GET.get("page", 1))
    context = {"campaign": campaign, "page": page, "form": form}
    return render(request, "campaigns/setup/audit.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def board_import(request: HttpRequest, slug: str) -> HttpResponse:
    """The GM imports a board from a file; every problem is listed, nothing saved until the
    whole file is valid (the engine checks it as it would a turn)."""
    campaign = gm_of(request, slug).campaign
    form = BoardImportForm(posted(request), request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            data = uploaded_board(form)
            board = board_import_by_gm(campaign=campaign, actor=request.user, data=data)
        except (BoardFileError, BoardImportError) as error:
            problems = error.messages
        else:
            messages.success(
                request,
                _("Imported %(name)s: %(departments)s and %(links)s.")
                % {
                    "name": board.name,
                    "departments": count(len(data["departments"]), "department"),
                    "links": count(len(data.get("links") or []), "link"),
                },
            )
            return redirect("board", campaign.slug, board.slug)
    context = {"campaign": campaign, "form": form, "problems": problems, "columns": COLUMNS}
    return render(request, "campaigns/setup/board_import.html", context)


def uploaded_board(form: BoardImportForm) -> dict[str, Any]:
    """The uploaded file as a board file (BoardFileError if it cannot be read as one)."""
    raw = form.cleaned_data["file"].read()
    try:
        text = raw.decode("utf-8-sig")  # spreadsheets often write a byte-order mark
    except UnicodeDecodeError:
        raise BoardFileError([_("file: not UTF-8 text; save it as UTF-8 (CSV UTF-8)")]) from None
    if form.is_csv():
        data = form.cleaned_data
        return board_from_csv(text, slug=data["slug"], name=data["name"])
    return board_from_json(text)


@require_safe
@login_required
def board_export(request: HttpRequest, slug: str, board_slug: str, fmt: str) -> HttpResponse:
    """The GM downloads a board as the file it can be imported from (JSON or CSV)."""
    viewer = gm_of(request, slug)
    board = board_of(viewer, board_slug)
    if fmt not in ("json", "csv"):
        raise Http404("boards are exported as .json or .csv")
    data = board_file(board)
    if fmt == "csv":
        response = HttpResponse(board_csv(data), content_type="text/csv; charset=utf-8")
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False)
        response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{board.slug}.{fmt}"'
    return response

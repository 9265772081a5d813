"""The GM's set-up pages: a new campaign, its settings, its alignment catalogue (RULES R5)
and the audit log of the GM's changes (R53). Every change goes through services/setup.py,
which has the engine check it first; a refusal is shown on the form and changes nothing."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.accounts.web.preferences import request_profile
from campaigns.classic.selectors.board_files import COLUMNS as CLASSIC_COLUMNS
from campaigns.classic.selectors.board_files import (
    classic_board_and_lines_from_csv,
    is_classic_csv,
)
from campaigns.selectors.audit import audit_choices, audit_page
from campaigns.selectors.board_files import (
    COLUMNS,
    BoardFileError,
    FileLines,
    board_and_lines_from_csv,
    board_csv,
    board_file,
    board_from_json,
    json_lines,
    located,
)
from campaigns.services.boards import BoardImportError, BoardImportWarning
from campaigns.services.setup import (
    SetupRefused,
    alignments_set,
    board_import_by_gm,
    campaign_create,
    campaign_settings_set,
)
from campaigns.web.access import FORM_METHODS, board_of, gm_of, posted
from campaigns.web.setup_forms import (
    BOARD_TEXT_MAX,
    ZONES,
    AlignmentFormSet,
    AuditFilterForm,
    BoardImportForm,
    CampaignSettingsForm,
)
from campaigns.words.labels import count


@require_http_methods(FORM_METHODS)
@login_required
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Anyone logged in may start a campaign, and becomes its GM. Its time zone starts as
    the GM's own: their profile's, else their browser's (set by zone_default.js), not UTC."""
    zone = request_profile(request).time_zone
    form = CampaignSettingsForm(posted(request), initial={"time_zone": zone} if zone else None)
    if not zone and request.method != "POST":
        form.fields["time_zone"].widget.attrs["data-browser-zone"] = ""
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
    whole file is valid (the engine checks it as it would a turn). What the GM should know
    first (a department without Impress or Obstruct) is listed too, and the GM confirms it.
    After either, the file's text stays in the form, so it need not be chosen again."""
    campaign = gm_of(request, slug).campaign
    form = BoardImportForm(posted(request), request.FILES or None)
    problems: list[str] = []
    warnings: list[str] = []
    valid = request.method == "POST" and form.is_valid()
    content = form.content() if request.method == "POST" else None
    if valid:
        text = content or ""
        lines = FileLines()
        try:
            data, lines = board_of_text(form, text)
            board = board_import_by_gm(
                campaign=campaign,
                actor=request.user,
                data=data,
                stop_for_warnings=request.POST.get("confirmed") != text_digest(text),
            )
        except BoardImportWarning as warning:
            warnings = located(warning.messages, warning.places, file_lines(form, text, lines))
        except BoardImportError as error:
            problems = located(error.messages, error.places, file_lines(form, text, lines))
        except BoardFileError as error:
            problems = error.messages
        else:
            if board.is_classic:  # R90
                messages.success(
                    request,
                    _("Imported %(name)s, a classic board: %(groups)s.")
                    % {"name": board.name, "groups": count(len(data.get("groups") or []), "group")},
                )
                return redirect("board", campaign.slug, board.slug)
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
    if content is not None:
        form = kept(form, content)
    context = {
        "campaign": campaign,
        "form": form,
        "problems": problems,
        "warnings": warnings,
        "confirm": text_digest(content) if warnings else "",
        "columns": COLUMNS,
        "classic_columns": CLASSIC_COLUMNS,
    }
    return render(request, "campaigns/setup/board_import.html", context)


def board_of_text(form: BoardImportForm, content: str) -> tuple[dict[str, Any], FileLines]:
    """The board file the form's text holds (BoardFileError if it cannot be read as one),
    and the lines of a CSV's departments or groups (a JSON file's are found only when
    needed)."""
    if form.is_csv():
        data = form.cleaned_data
        if is_classic_csv(
            content
        ):  # R90: a spreadsheet of groups (classic/selectors/board_files.py)
            return classic_board_and_lines_from_csv(content, slug=data["slug"], name=data["name"])
        return board_and_lines_from_csv(content, slug=data["slug"], name=data["name"])
    return board_from_json(content), FileLines()


def file_lines(form: BoardImportForm, content: str, lines: FileLines) -> FileLines:
    return lines if form.is_csv() else json_lines(content)


def text_digest(content: str | None) -> str:
    """What the GM confirmed: the text warned about, not another file chosen since. Line ends
    do not count: the page keeps the file's text in a textarea, and a browser posts a
    textarea's lines with CRLF whatever the file had, so the digest of an LF file would never
    match its own confirmation (the GM had to press *Import it as it is* twice)."""
    normalised = (content or "").replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(normalised.encode()).hexdigest()


def kept(form: BoardImportForm, content: str) -> BoardImportForm:
    """The form shown again with the board's text in it (a file input cannot be refilled),
    its errors as they were; a text too long to post back is not kept."""
    if len(content) > BOARD_TEXT_MAX:
        return form
    data = form.data.copy()
    data["text"] = content
    again = BoardImportForm(data)
    again._errors = form.errors  # the errors found with the file, not without it
    return again


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

"""Turn reports, verify-the-dice and mail settings. Like web/campaign.py: reads go through
`selectors` (pages, reports) (R50 applied there), writes through services; every
campaign page answers 404 to non-members and for turns that have not been processed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.engine.dice import roll_faces
from campaigns.engine.election import digest
from campaigns.engine.perception import roll_sides
from campaigns.models import NotificationSettings
from campaigns.selectors import reports
from campaigns.selectors.board_turns import turn_maps
from campaigns.selectors.visibility import is_gm
from campaigns.services.order_notes import order_note_set
from campaigns.web.access import found, gm_of, map_url, member_of
from campaigns.web.post_only import post_only
from campaigns.web.report_forms import (
    GmNoteForm,
    NotificationSettingsForm,
    VerifyDiceForm,
    VerifyDigestForm,
)


@require_safe
@login_required
def turn_report(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The report of turn `number`. A big one (reports.REPORT_BIG) shows one board a page
    (`?board=`, the first by name unless another is asked for) and that board's orders and
    departments a page at a time (`?page=`); a smaller one shows everything at once."""
    viewer = member_of(request, slug)
    turn = found(reports.processed_turn(viewer.campaign, number), "no report for this turn")
    tabs = reports.report_boards(turn)
    shown = None
    if sum(tab.size for tab in tabs) > reports.REPORT_BIG:
        asked = request.GET.get("board")
        shown = next((tab for tab in tabs if tab.slug == asked), tabs[0])
    board = shown.slug if shown else None
    page = request.GET.get("page", 1) if shown else None
    # The records the report reads and the maps draw, read once for both.
    read = reports.report_records(turn, board=board)
    report = reports.turn_report(turn, viewer, board=board, page=page, read=read)
    maps = turn_maps(
        viewer.campaign, number, viewer, board=board, told=report.told, records=read.drawn
    )
    # Each board with its orders and its map, and for the GM a note form per function roll
    # (R45).
    sections = [
        {
            "board": section,
            "map": maps.get(section.slug),
            "map_url": map_url(viewer.campaign.slug, section.slug, number),
            "orders": [
                {"order": order, "form": note_form(order) if is_gm(viewer) else None}
                for order in section.orders
            ],
        }
        for section in report.boards
    ]
    # The turn was read with whether its neighbours have reports (reports.processed_turn).
    previous = number - 1 if getattr(turn, "previous", False) else None
    following = number + 1 if getattr(turn, "following", False) else None
    context = {
        "report": report,
        "campaign": viewer.campaign,
        "is_gm": is_gm(viewer),
        "sections": sections,
        "previous": previous,
        "following": following,
        "tabs": tabs if shown else [],
        "shown": shown,
        "page_size": reports.REPORT_PAGE_SIZE,
    }
    return render(request, "campaigns/reports/report.html", context)


def note_form(order: reports.OrderView) -> GmNoteForm | None:
    if not order.is_function:
        return None
    return GmNoteForm(
        initial={"gm_note": order.gm_note, "publish": order.gm_note_published},
        prefix=f"note-{order.id}",
    )


@post_only("turn_report", "slug", "number")
@login_required
def turn_report_note(request: HttpRequest, slug: str, number: int, order_id: int) -> HttpResponse:
    """The GM writes (and publishes) what one function roll meant (R45)."""
    viewer = gm_of(request, slug)
    turn = found(reports.processed_turn(viewer.campaign, number), "no report for this turn")
    order = found(reports.function_order(turn, order_id), "no such function roll")
    form = GmNoteForm(request.POST, prefix=f"note-{order.pk}")
    if form.is_valid():
        order_note_set(
            order=order,
            note=form.cleaned_data["gm_note"],
            published=form.cleaned_data["publish"],
        )
        messages.success(request, _("Note on order #%(pk)s saved.") % {"pk": order.pk})
    else:
        not_saved = _("Note on order #%(pk)s not saved: %(errors)s")
        messages.error(request, not_saved % {"pk": order.pk, "errors": form.errors.as_text()})
    # Where the order is in a paged report (a small one ignores these).
    url = reverse("turn_report", args=[viewer.campaign.slug, number])
    where = f"board={order.board.slug}&page={reports.report_page_of(order)}"
    return redirect(f"{url}?{where}#order-{order.pk}")


@require_safe
@login_required
def verify_dice(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """R23: recompute any roll of a processed turn from its published seed. The list of
    rolls offered is the viewer's own report's; any key may be typed (the seed is public)."""
    viewer = member_of(request, slug)
    turn = found(reports.processed_turn(viewer.campaign, number), "no report for this turn")
    report = reports.turn_report(turn, viewer)
    form = VerifyDiceForm(request.GET if "key" in request.GET else None)
    faces = None
    reported = None
    sides = 10
    if form.is_bound and form.is_valid():
        key, dice = form.cleaned_data["key"], form.cleaned_data["dice"]
        # R70: a perception check rolls d6; a classic attack's link names its d6 (R23).
        sides = form.cleaned_data["sides"] or roll_sides(key)
        faces = roll_faces(turn.seed, key, dice, sides)
        reported = next((r for r in report.rolls if r.key == key and r.dice == dice), None)
    context = {
        "campaign": viewer.campaign,
        "report": report,
        "form": form,
        "faces": faces,
        "sides": sides,
        "reported": reported,
        "matches": reported is not None and reported.faces == faces,
        **digest_check(request, turn.seed, report),
    }
    return render(request, "campaigns/reports/verify.html", context)


def digest_check(request: HttpRequest, seed: str, report: reports.TurnReport) -> dict[str, Any]:
    """R80, R23: an election roll-off's digest recomputed from the published seed, and the
    one the viewer's report shows for that key, if any."""
    form = VerifyDigestForm(request.GET if "digest_key" in request.GET else None)
    computed = None
    if form.is_bound and form.is_valid():
        computed = digest(seed, form.cleaned_data["digest_key"])
    shown = next(
        (d for d in report.digests if form.is_bound and d.key == form.data.get("digest_key")), None
    )
    return {"digest_form": form, "digest": computed, "digest_reported": shown}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    """Each user switches each kind of mail on or off (no row yet: everything on)."""
    chosen = NotificationSettings.objects.filter(user=request.user).first()
    if chosen is None:
        chosen = NotificationSettings(user=request.user)
    data = request.POST if request.method == "POST" else None
    form = NotificationSettingsForm(data, instance=chosen)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Mail settings saved."))
        return redirect("notification_settings")
    return render(request, "campaigns/settings_notifications.html", {"form": form})

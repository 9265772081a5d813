"""The GM runs a long campaign (RULES R51, R52): preview the open turn, undo the last
processed turn, end the campaign and open it. Each step that changes something shows what it
will do and asks for a confirmation first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.archive.selectors.archive import archive_text, campaign_archive
from campaigns.models import Campaign
from campaigns.selectors import pages as selectors
from campaigns.services.campaigns import campaign_end, campaign_open
from campaigns.services.preview import turn_preview
from campaigns.services.rollback import rollback_plan, turn_rollback
from campaigns.services.victory import campaign_play_on
from campaigns.web.access import FORM_METHODS, gm_of, posted
from campaigns.web.campaign_forms import ConfirmForm, PlayOnForm, RollbackForm
from campaigns.web.post_only import post_only


@require_safe
@login_required
def preview(request: HttpRequest, slug: str) -> HttpResponse:
    """What the queued orders would do if the turn were processed now: a throwaway seed,
    nothing saved."""
    viewer = gm_of(request, slug)
    report = turn_preview(campaign=viewer.campaign, viewer=viewer)
    if report is None:
        messages.error(request, _("There is no open turn to preview."))
        return redirect(viewer.campaign)
    sections = [
        {"board": board, "orders": [{"order": order} for order in board.orders]}
        for board in report.boards
    ]
    context = {"report": report, "campaign": viewer.campaign, "sections": sections, "preview": True}
    return render(request, "campaigns/reports/report.html", context)


@require_safe
@login_required
def archive(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign as one JSON file (docs/campaign-archive.md), for the GM to keep or to
    import elsewhere with `manage.py import_campaign`: the GM's archive, which holds only what
    this GM may read on the site (private conversations only if the press rules let the GM
    read them). The full archive is `manage.py export_campaign`'s alone."""
    viewer = gm_of(request, slug)
    campaign = viewer.campaign
    response = HttpResponse(
        archive_text(campaign_archive(campaign, reader=viewer)),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{campaign.slug}-campaign.json"'
    return response


@require_http_methods(FORM_METHODS)
@login_required
def rollback(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: what undoing the last processed turn will do (R52). POST: undo it."""
    viewer = gm_of(request, slug)
    campaign = viewer.campaign
    try:
        plan = rollback_plan(campaign)
    except ValueError as error:
        messages.error(request, str(error))
        return redirect(campaign)
    form = RollbackForm(posted(request), initial={"number": plan.turn.number})
    if request.method == "POST" and form.is_valid():
        try:
            turn = turn_rollback(
                campaign=campaign,
                actor=request.user,
                number=form.cleaned_data["number"],
                discard_orders=form.cleaned_data["discard"],
            )
        except ValueError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Turn %(n)s is undone and open again with new dice; every player has been told.")
                % {"n": turn.number},
            )
            return redirect(campaign)
    context = {"campaign": campaign, "plan": plan, "form": form}
    return render(request, "campaigns/running/rollback.html", context)


def confirmed_step(
    request: HttpRequest,
    slug: str,
    *,
    template: str,
    step: Callable[..., None],
    done: object,
) -> HttpResponse:
    """GET: a page saying what `step` does, with a confirmation. POST: do it; a refusal is
    shown on the campaign page."""
    viewer = gm_of(request, slug)
    campaign: Campaign = viewer.campaign
    form = ConfirmForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            step(campaign=campaign, actor=request.user)
        except ValueError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, done)
        return redirect(campaign)
    context: dict[str, Any] = {
        "campaign": campaign,
        "form": form,
        "turn": selectors.current_turn(campaign),
    }
    return render(request, template, context)


@require_http_methods(FORM_METHODS)
@login_required
def end(request: HttpRequest, slug: str) -> HttpResponse:
    return confirmed_step(
        request,
        slug,
        template="campaigns/running/end.html",
        step=campaign_end,
        done=_("The campaign has ended. Its reports stay readable; you may now open it."),
    )


@post_only("campaign", "slug")
@login_required
def play_on(request: HttpRequest, slug: str) -> HttpResponse:
    """R98: after a classic board's win, the GM goes on instead of ending the campaign (the
    campaign page's choice; ending is `end`). Nothing changes on a bad or stale number."""
    viewer = gm_of(request, slug)
    campaign = viewer.campaign
    form = PlayOnForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That is not a turn number: nothing changed."))
        return redirect(campaign)
    number = form.cleaned_data["number"]
    try:
        campaign_play_on(campaign=campaign, actor=request.user, number=number)
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("You play on after turn %(n)s's win: the campaign goes on.") % {"n": number}
        )
    return redirect(campaign)


@require_http_methods(FORM_METHODS)
@login_required
def open_to_all(request: HttpRequest, slug: str) -> HttpResponse:
    return confirmed_step(
        request,
        slug,
        template="campaigns/running/open.html",
        step=campaign_open,
        done=_("The campaign is open: every member now sees everything of every turn."),
    )

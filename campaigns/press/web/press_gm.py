"""The GM's press pages: the press rules, announcements to every member, and hiding a
message (kept in the audit log, R53). GM only: 404 for non-members, 403 for players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.press.selectors import press as reads
from campaigns.press.services.press import PressRefused, message_hide, press_rules_set
from campaigns.press.services.press_mail import announcement_post
from campaigns.press.web.press_forms import AnnouncementForm, PressRulesForm
from campaigns.web.access import found, gm_of, posted
from campaigns.web.post_only import post_only


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def press_rules(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_of(request, slug)
    campaign = viewer.campaign
    initial = {"rules": campaign.press_rules, "gm_reads": campaign.gm_reads_press}
    form = PressRulesForm(posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = press_rules_set(
            campaign=campaign,
            actor=request.user,
            rules=form.cleaned_data["rules"],
            gm_reads=form.cleaned_data["gm_reads"],
        )
        if changed:
            messages.success(request, _("Press rules saved. Players see them before they write."))
        else:
            messages.info(request, _("Nothing changed."))
        return redirect("press", slug)
    context = {"campaign": campaign, "form": form}
    return render(request, "press/rules.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def announcement_new(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = gm_of(request, slug)
    form = AnnouncementForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            announcement_post(gm=viewer, text=form.cleaned_data["text"])
        except PressRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, _("Announcement sent to every member."))
            return redirect(viewer.campaign)
    context = {"campaign": viewer.campaign, "form": form}
    return render(request, "press/announce.html", context)


@post_only("press", "slug")
@login_required
def press_hide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The GM hides one message from the players (the text stays in the audit log)."""
    viewer = gm_of(request, slug)
    message = found(reads.message_for(viewer, pk), "no such message")
    try:
        hidden = message_hide(gm=viewer, message_pk=message.pk)
    except PressRefused as refused:
        messages.error(request, str(refused))
    else:
        if hidden:
            messages.success(request, _("Message hidden. Its text is kept in the audit log."))
        else:
            messages.info(request, _("That message was already hidden."))
    url = reverse("press_conversation", args=[slug, message.conversation_id])
    return redirect(f"{url}#m-{message.seq}")

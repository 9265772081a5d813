"""Press pages (RULES R62: deals are made by talking): a campaign's conversations and public
channel, one conversation with its composer, new messages fetched while the page is open
(press.js polls `press_poll`; the pages work without JavaScript), a quoted order, and the
overview of unread messages in all of a user's campaigns. The GM's press pages are in
press/web/press_gm.py. A conversation the viewer may not read answers 404, like one that does not
exist (press/selectors/press.py decides)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.models import Campaign, Membership
from campaigns.press.selectors import press as reads
from campaigns.press.selectors.press_quotes import quote_view, quotes_for
from campaigns.press.selectors.press_unread import unread_by_campaign
from campaigns.press.services.press import (
    PressRefused,
    channel_ensure,
    conversation_read,
    conversation_start,
    message_send,
)
from campaigns.press.web.press_forms import ConversationForm, MessageForm, quote_from
from campaigns.selectors.visibility import is_gm
from campaigns.web.access import board_of, found, member_of, posted
from campaigns.web.post_only import post_only

# The session holds one order quoted from an order form until a message takes it along.
PENDING_QUOTE = "press_quote"
MAX_SEQ = 2**31 - 1


def pending_quote(request: HttpRequest, campaign: Campaign) -> dict[str, Any] | None:
    held = request.session.get(PENDING_QUOTE)
    if isinstance(held, dict) and held.get("campaign") == campaign.pk:
        quote = held.get("quote")
        return quote if isinstance(quote, dict) else None
    return None


def quote_context(request: HttpRequest, viewer: Membership) -> dict[str, Any]:
    """The pending quote as the composer shows it (a query only when there is one)."""
    quote = pending_quote(request, viewer.campaign)
    if quote is None:
        return {"pending": None}
    return {"pending": quote_view(quote, quotes_for(viewer))}


def quote_to_send(request: HttpRequest, viewer: Membership, wanted: bool) -> dict[str, Any] | None:
    return pending_quote(request, viewer.campaign) if wanted else None


def quote_sent(request: HttpRequest, quote: dict[str, Any] | None) -> None:
    if quote is not None:
        request.session.pop(PENDING_QUOTE, None)


def seq_param(request: HttpRequest, name: str) -> int | None:
    """A message number from the query string; None if absent or not a sane number."""
    try:
        value = int(request.GET.get(name, ""))
    except ValueError:
        return None
    return value if 0 <= value <= MAX_SEQ else None


@require_safe
@login_required
def press(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's press: the rules that apply, announcements, the public channel and
    the viewer's conversations with their unread counts."""
    viewer = member_of(request, slug)
    channel_ensure(campaign=viewer.campaign)
    context = {
        "campaign": viewer.campaign,
        "rules": reads.rules_view(viewer),
        "conversations": reads.conversation_lines(viewer),
        "announcements": reads.announcements(viewer.campaign),
        "is_gm": is_gm(viewer),
        **quote_context(request, viewer),
    }
    return render(request, "press/index.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def press_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A new private conversation with one or more other members."""
    viewer = member_of(request, slug)
    form = ConversationForm(
        posted(request), members=reads.members_to_address(viewer), initial={"attach_quote": True}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        quote = quote_to_send(request, viewer, data["attach_quote"])
        try:
            conversation = conversation_start(
                member=viewer,
                recipients=reads.members_by_pk(viewer, data["recipients"]),
                subject=data["subject"],
                text=data["text"],
                quote=quote,
            )
        except PressRefused as refused:
            form.add_error(None, str(refused))
        else:
            quote_sent(request, quote)
            messages.success(request, _("Message sent."))
            return redirect("press_conversation", slug, conversation.pk)
    context = {
        "campaign": viewer.campaign,
        "form": form,
        "rules": reads.rules_view(viewer),
        **quote_context(request, viewer),
    }
    return render(request, "press/new.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def conversation(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One conversation, a page of its messages (?before= for older ones), and the composer
    if the rules let the viewer write here. Opening it marks it read."""
    viewer = member_of(request, slug)
    talk = found(reads.conversation_for(viewer, pk), "no such conversation")
    form = MessageForm(posted(request), initial={"attach_quote": True})
    if request.method == "POST" and form.is_valid():
        quote = quote_to_send(request, viewer, form.cleaned_data["attach_quote"])
        try:
            sent = message_send(
                member=viewer, conversation=talk, text=form.cleaned_data["text"], quote=quote
            )
        except PressRefused as refused:
            form.add_error(None, str(refused))
        else:
            quote_sent(request, quote)
            url = reverse("press_conversation", args=[slug, pk])
            return redirect(f"{url}#m-{sent.seq}")
    page = reads.conversation_page(viewer, talk, before=seq_param(request, "before"))
    if page.last_seq:
        conversation_read(member=viewer, conversation=talk, seq=page.last_seq)
    context = {
        "campaign": viewer.campaign,
        "page": page,
        "form": form,
        **quote_context(request, viewer),
    }
    return render(request, "press/conversation.html", context)


@require_safe
@login_required
def press_poll(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """What press.js asks every few seconds: the messages after ?after= as HTML to append
    (204 when there are none). The viewer has read what they are shown."""
    viewer = member_of(request, slug)
    talk = found(reads.conversation_for(viewer, pk), "no such conversation")
    after = seq_param(request, "after")
    if after is None:
        raise Http404("after= must be a message number")
    new = reads.messages_after(viewer, talk, after)
    if not new:
        return HttpResponse(status=204)
    conversation_read(member=viewer, conversation=talk, seq=new[-1].seq)
    context = {"campaign": viewer.campaign, "messages": new, "is_gm": is_gm(viewer)}
    return render(request, "press/_messages.html", context)


@post_only("order_new", "slug", "board_slug", "kind")
@login_required
def press_quote(request: HttpRequest, slug: str, board_slug: str, kind: str) -> HttpResponse:
    """An order form's "Quote in a message": keep the form's fields as a quoted order until
    the viewer's next message takes it along (a link to the order form, prefilled)."""
    viewer = member_of(request, slug)
    board_of(viewer, board_slug)  # 404 for a board the campaign does not have
    quote = found(quote_from(request.POST, board_slug, kind), "no such order kind")
    quote["by"] = viewer.player_id  # who quotes it: a deal's reader answers them (R62)
    request.session[PENDING_QUOTE] = {"campaign": viewer.campaign.pk, "quote": quote}
    messages.info(
        request,
        _("Open a conversation or start one: your next message takes the order along."),
    )
    return redirect("press", slug)


@require_safe
@login_required
def press_overview(request: HttpRequest) -> HttpResponse:
    """Unread messages in each of the user's campaigns (the navbar's link)."""
    return render(request, "press/overview.html", {"campaigns": unread_by_campaign(request.user)})

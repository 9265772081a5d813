"""Pages. Views read through `selectors`, write through `services`, and check who may do
what; they hold no game logic. Every campaign page answers 404 to non-members (R50)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.classic.selectors.board_turns import classic_board_page
from campaigns.history.web.history_forms import asked_turn
from campaigns.intrigue.selectors.cross_board import cross_links
from campaigns.intrigue.selectors.intrigue import board_offices
from campaigns.models import Board, Campaign, Membership, Turn
from campaigns.selectors import pages as selectors
from campaigns.selectors.board_turns import board_page
from campaigns.selectors.campaign_boxes import campaign_boxes
from campaigns.selectors.visibility import is_gm
from campaigns.services.campaign_start import campaign_start_checked
from campaigns.services.campaigns import (
    campaign_pause,
    campaign_resume,
    extendable_turn,
    next_due_if_processed,
    turn_extend_deadline,
    turn_process_now,
)
from campaigns.services.setup import SetupRefused
from campaigns.web.access import board_of, gm_of, map_url, member_of, posted
from campaigns.web.campaign_forms import ExtendDeadlineForm, ProcessTurnForm
from campaigns.web.post_only import post_only
from illumineaucracy.accounts import NEW_ACCOUNT

log = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front page; once logged in, the list of the user's campaigns."""
    if not request.user.is_authenticated:
        return render(request, "campaigns/home.html")
    campaigns = selectors.campaigns_for_user(request.user)
    # Just signed up (illumineaucracy/accounts.py): welcomed there, not "welcome back" here.
    new_account = request.session.pop(NEW_ACCOUNT, False)
    context = {"campaigns": campaigns, "new_account": new_account}
    return render(request, "campaigns/my_campaigns.html", context)


@require_safe
@login_required
def campaign(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = member_of(request, slug)
    turn, over = selectors.turns_now(viewer.campaign, viewer)
    page = selectors.campaign_page(viewer, turn, over)
    # The page's boxes (templatetags draw them) are read here: no template tag queries.
    boxes = campaign_boxes(viewer, turn, page.boards)
    context = {"page": page, "viewer": viewer, "current_turn": turn, "boxes": boxes}
    return render(request, "campaigns/campaign.html", context)


@require_safe
@login_required
def board(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """The board now, or after turn `?turn=N` as the viewer knew it then (R51), with its
    map; a turn that cannot be shown gives the board now, saying why."""
    viewer = member_of(request, slug)
    board_row = board_of(viewer, board_slug, crossing=True)
    if board_row.is_classic:  # R90: groups, not departments
        return classic_board(request, viewer, board_row)
    number, problem = asked_turn(request.GET.get("turn"))
    page = board_page(
        board_row,
        viewer,
        number,
        query=request.GET.get("q", ""),
        page=request.GET.get("page", 1),
    )
    warn_if_not_shown(request, problem, page.missing)
    context = {
        "campaign": viewer.campaign,
        "board": page.board,
        "page": page,
        "board_row": board_row,
        "is_gm": is_gm(viewer),
        "map_url": map_url(viewer.campaign.slug, board_row.slug, page.scrubber.shown),
        # R80: the board's offices now (the map and cards mark holders at the turn shown).
        "offices": board_offices(board_row, viewer) if page.scrubber.shown is None else [],
        # R2, R60: links to and from other boards, as the viewer knows them now.
        "crossing": cross_links(board_row, viewer) if page.scrubber.shown is None else [],
        # A player's orders from the map (web/order_menu.py), on the board now.
        "orders_url": reverse("order_map_menu", args=[viewer.campaign.slug, board_row.slug])
        if viewer.role == Membership.Role.PLAYER and page.scrubber.shown is None
        else None,
    }
    return render(request, "campaigns/board.html", context)


def warn_if_not_shown(request: HttpRequest, problem: str | None, missing: int | None) -> None:
    """Why a board page shows the board now rather than the turn asked for (?turn=N)."""
    if problem:
        messages.warning(request, _("%(problem)s: this is the board now.") % {"problem": problem})
    elif missing is not None:
        messages.warning(
            request,
            _("Turn %(n)s has no record on this board: this is the board now.") % {"n": missing},
        )


def classic_board(request: HttpRequest, viewer: Membership, board_row: Board) -> HttpResponse:
    """A classic board (R90-R99) now, or after turn `?turn=N` as its record left it: its
    power structures, table, destroyed pile and deck's size, as tables and as a map;
    treasuries and goals only to whom R99 shows them. A turn that cannot be shown gives the
    board now, saying why."""
    number, problem = asked_turn(request.GET.get("turn"))
    page = classic_board_page(board_row, viewer, number)
    warn_if_not_shown(request, problem, page.missing)
    context = {
        "campaign": viewer.campaign,
        "board": board_row,
        "page": page,
        "view": page.view,
        "is_gm": is_gm(viewer),
    }
    return render(request, "classic/board.html", context)


# --- GM controls -----------------------------------------------------------------------------


def gm_action(
    request: HttpRequest, slug: str, action: Callable[[Campaign], object], done: object
) -> HttpResponse:
    """Run one GM service on the campaign; report success or the service's refusal."""
    viewer = gm_of(request, slug)
    try:
        action(viewer.campaign)
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return redirect(viewer.campaign)


@post_only("campaign", "slug")
@login_required
def start(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the campaign once it can run; otherwise list what is missing
    (selectors/start_problems.py) and start nothing."""
    campaign = gm_of(request, slug).campaign
    try:
        campaign_start_checked(campaign=campaign, actor=request.user)
    except SetupRefused as refused:
        context = {
            "campaign": campaign,
            "problems": refused.messages,
            "boards": selectors.boards_of(campaign),
        }
        return render(request, "campaigns/editor/start_problems.html", context)
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The campaign has started."))
    return redirect(campaign)


@post_only("campaign", "slug")
@login_required
def pause(request: HttpRequest, slug: str) -> HttpResponse:
    return gm_action(
        request,
        slug,
        lambda c: campaign_pause(campaign=c, actor=request.user),
        _("Campaign paused."),
    )


@post_only("campaign", "slug")
@login_required
def resume(request: HttpRequest, slug: str) -> HttpResponse:
    return gm_action(
        request,
        slug,
        lambda c: campaign_resume(campaign=c, actor=request.user),
        _("Campaign resumed."),
    )


def gm_open_turn(request: HttpRequest, slug: str) -> tuple[Campaign, Turn | None]:
    """For the GM's turn pages: the campaign, and its open turn (None if there is none)."""
    campaign = gm_of(request, slug).campaign
    turn = selectors.current_turn(campaign)
    return campaign, turn if turn is not None and turn.status == Turn.Status.OPEN else None


TurnPage = Callable[[HttpRequest, Campaign, Turn], HttpResponse]


def gm_turn_page(
    no_turn: object,
) -> Callable[[TurnPage], Callable[[HttpRequest, str], HttpResponse]]:
    """A GM page about the open turn (GET shows, POST acts): logged in, GM only; without an
    open turn, back to the campaign page saying `no_turn`."""

    def decorate(view: TurnPage) -> Callable[[HttpRequest, str], HttpResponse]:
        @require_http_methods(["GET", "HEAD", "POST"])
        @login_required
        @functools.wraps(view)
        def page(request: HttpRequest, slug: str) -> HttpResponse:
            campaign, turn = gm_open_turn(request, slug)
            if turn is None:
                messages.error(request, no_turn)
                return redirect(campaign)
            return view(request, campaign, turn)

        return page

    return decorate


@gm_turn_page(gettext_lazy("There is no open turn to process."))
def process(request: HttpRequest, campaign: Campaign, turn: Turn) -> HttpResponse:
    """GET: the confirmation page for processing the open turn now. POST: do it."""
    form = ProcessTurnForm(posted(request), initial={"number": turn.number})
    if request.method == "POST" and form.is_valid():
        number = form.cleaned_data["number"]
        try:
            opened = turn_process_now(campaign=campaign, number=number, actor=request.user)
        except ValueError as error:
            messages.error(request, str(error))
        except Exception:
            # The transaction rolled back, so nothing changed; the GM gets a page, not a 500.
            log.exception("processing turn %s of %s failed", number, campaign)
            messages.error(
                request,
                _(
                    "Turn %(n)s could not be processed and nothing was changed. "
                    "The error is in the server log; the scheduled job will try again."
                )
                % {"n": number},
            )
        else:
            messages.success(
                request,
                _("Turn %(n)s processed; turn %(next)s is open.")
                % {"n": number, "next": opened.number},
            )
        return redirect(campaign)
    next_due, early = next_due_if_processed(campaign=campaign, turn=turn)
    context = {
        "campaign": campaign,
        "turn": selectors.turn_view(turn),
        "queued": selectors.queued_order_count(turn),
        "form": form,
        "next_due": next_due,  # R30: the GM sees it before confirming
        "early": early,
    }
    return render(request, "campaigns/process_confirm.html", context)


@gm_turn_page(gettext_lazy("There is no open turn whose deadline could move."))
def extend_deadline(request: HttpRequest, campaign: Campaign, turn: Turn) -> HttpResponse:
    """GET: the form to move the open turn's deadline later (R30). POST: move it; with
    `preview`, only show the new deadline in the campaign's zone and the GM's own."""
    zone = ZoneInfo(campaign.time_zone)  # validated when the campaign is saved
    local = turn.deadline.astimezone(zone).replace(tzinfo=None)
    initial = {"number": turn.number, "deadline": local}
    form = ExtendDeadlineForm(posted(request), initial=initial, zone=campaign.time_zone)
    new_deadline = None
    if request.method == "POST":
        with timezone.override(zone):  # the typed time is the campaign's local time
            valid = form.is_valid()
        if valid:
            number, deadline = form.cleaned_data["number"], form.cleaned_data["deadline"]
            try:
                if "preview" in request.POST:
                    extendable_turn(campaign, number, deadline, timezone.now())
                    new_deadline = deadline
                else:
                    moved = turn_extend_deadline(
                        campaign=campaign, number=number, deadline=deadline, actor=request.user
                    )
            except ValueError as error:
                form.add_error(None, str(error))
            else:
                if new_deadline is None:
                    messages.success(
                        request, _("Turn %(n)s's deadline is extended.") % {"n": moved.number}
                    )
                    return redirect(campaign)
    context = {
        "campaign": campaign,
        "turn": selectors.turn_view(turn),
        "form": form,
        "new_deadline": new_deadline,
    }
    return render(request, "campaigns/extend_deadline.html", context)

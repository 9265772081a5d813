"""The GM's editor of a classic board (RULES R90-R92, R98, R53): one group's figures, place,
parent and treasury; one player's Illuminati treasury and goal. Every save goes through
classic/services/editor.py, where the engine reviews the whole new board as the import does;
a refusal is shown in words and changes nothing. GM only (web/access.py: 404 for
non-members, 403 for players and observers); groups in the deck are face down even to the
GM (R99) and have no page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.classic.selectors.editor import classic_player, editable_group, parent_choices
from campaigns.classic.selectors.state import stored_classic_state
from campaigns.classic.services.editor import classic_group_update, classic_player_update
from campaigns.classic.web.editor_forms import (
    ClassicGroupForm,
    ClassicPlayerForm,
    group_initial,
    player_initial,
)
from campaigns.models import Board, Membership
from campaigns.selectors.board_views import player_names
from campaigns.services.setup import SetupRefused
from campaigns.web.access import FORM_METHODS, found, gm_board, posted


def gm_classic_board(request: HttpRequest, slug: str, board_slug: str) -> tuple[Membership, Board]:
    viewer, board = gm_board(request, slug, board_slug)
    if not board.is_classic:
        raise Http404("not a classic board")
    return viewer, board


def back_to_board(board: Board) -> HttpResponse:
    return redirect(reverse("board", args=[board.campaign.slug, board.slug]) + "#classic-gm")


def saved_or_refused(
    request: HttpRequest, board: Board, save: Callable[[], bool], said: str
) -> tuple[HttpResponse | None, list[str]]:
    """Run `save` (True when it changed something). Saved: the way back to the board, with
    `said` or "Nothing was changed". Refused by the engine's review: no answer yet and the
    refusal's words, for the form to show above its fields; nothing was written."""
    try:
        changed = save()
    except SetupRefused as refusal:
        return None, refusal.messages
    messages.success(request, said if changed else _("Nothing was changed."))
    return back_to_board(board), []


@require_http_methods(FORM_METHODS)
@login_required
def classic_group_edit(
    request: HttpRequest, slug: str, board_slug: str, group_slug: str
) -> HttpResponse:
    __, board = gm_classic_board(request, slug, board_slug)
    state = stored_classic_state(board)
    group = found(editable_group(state, group_slug), "no such group, or face down in the deck")
    names = player_names(board.campaign)
    form = ClassicGroupForm(
        posted(request),
        initial=group_initial(group),
        parents=parent_choices(state, group_slug, names),
        illuminati=bool(group.get("illuminati")),
    )
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        done, refused = saved_or_refused(
            request, board,
            lambda: classic_group_update(
                board=board, actor=request.user, slug=group_slug, values=form.values()
            ),
            _("%(name)s is saved.") % {"name": group.get("name")},
        )  # fmt: skip
        if done:
            return done
    context: dict[str, Any] = {
        "campaign": board.campaign, "board": board, "group": group, "form": form,
        "refused": refused, "controller": names.get(str(group.get("controller")), ""),
    }  # fmt: skip
    return render(request, "classic/editor/group.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def classic_player_edit(
    request: HttpRequest, slug: str, board_slug: str, player: str
) -> HttpResponse:
    __, board = gm_classic_board(request, slug, board_slug)
    state = stored_classic_state(board)
    found_player = found(classic_player(board, state, player), "no such player on this board")
    illuminati = found(found_player.illuminati, "the player has no Illuminati")
    form = ClassicPlayerForm(
        posted(request),
        initial=player_initial(int(illuminati.get("treasury") or 0), found_player.goal),
    )
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        done, refused = saved_or_refused(
            request, board,
            lambda: classic_player_update(
                board=board, actor=request.user, pid=player,
                treasury=form.cleaned_data["treasury"], goal=form.goal_value(),
            ),
            _("%(name)s's Illuminati and goal are saved.") % {"name": found_player.name},
        )  # fmt: skip
        if done:
            return done
    context: dict[str, Any] = {
        "campaign": board.campaign, "board": board, "player": found_player,
        "illuminati": illuminati, "form": form, "refused": refused,
    }  # fmt: skip
    return render(request, "classic/editor/player.html", context)

"""The GM places the players (RULES R13, R50, R70): a board's structures and knowledge
grids (a page of departments at a time, so a board of hundreds stays usable), and one
member's page (character name, Perception, role; replace them; remove them). Writes go
through services/members.py. GM only (web/access.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.intrigue.selectors.character import character_sheet, contingency_lines
from campaigns.models import ContingencyEnvelope, Goal, Membership, Shtick
from campaigns.selectors.editor import department_by_pk
from campaigns.selectors.pages import boards_of
from campaigns.selectors.players import member_for, member_page
from campaigns.selectors.structures_and_knowledge import knowledge_grid, structures_page
from campaigns.services.members import (
    knowledge_bulk,
    knowledge_set,
    member_remove,
    member_replace,
    member_update,
    structures_set,
)
from campaigns.services.setup import SetupRefused
from campaigns.web.access import FORM_METHODS, attempt, found, gm_board, gm_of, posted, tell
from campaigns.web.members_forms import (
    KnowledgeBulkForm,
    KnowledgeGridForm,
    MemberForm,
    ReplaceForm,
    StructuresForm,
)
from campaigns.web.post_only import post_only
from campaigns.words.labels import count

Condition = ContingencyEnvelope.Condition


def character_context(request: HttpRequest, member: Membership) -> dict[str, Any]:
    """What the member page shows of a player's character (R60, R61, R71, R72)."""
    if member.role != Membership.Role.PLAYER:
        return {}
    viewer = gm_of(request, member.campaign.slug)
    return {
        "sheet": character_sheet(member, viewer),
        "sealed": contingency_lines(member, viewer),
        "shtick_kinds": [
            (kind, label)
            for kind, label in Shtick.Kind.choices
            if kind != Shtick.Kind.CROSS_BOARD or len(boards_of(member.campaign)) > 1
        ],
        "goal_kinds": Goal.Kind.choices,
        "conditions": Condition.choices,
    }


def same_page(name: str, slug: str, board_slug: str, page: object) -> HttpResponse:
    return redirect(f"{reverse(name, args=[slug, board_slug])}?page={page}")


def page_number(request: HttpRequest) -> str:
    """The grid page the GM is on (a posted form keeps it in its action URL)."""
    page = request.GET.get("page", "1")
    return page if page.isdigit() else "1"


@require_http_methods(FORM_METHODS)
@login_required
def board_structures(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """R13: who holds each department of the board, and which are home departments."""
    viewer, board = gm_board(request, slug, board_slug)
    number = page_number(request)
    page = structures_page(board, page=number)
    form = StructuresForm(posted(request), page=page)
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            change = structures_set(board=board, actor=request.user, assignments=form.assignments())
        except SetupRefused as error:
            refused = error.messages
        else:
            tell(request, change, _("The structures are saved."))
            return same_page("board_structures", slug, board_slug, page.page.number)
    context = {
        "campaign": viewer.campaign, "board": board, "page": page, "form": form,
        "refused": refused,
    }  # fmt: skip
    return render(request, "campaigns/editor/structures.html", context)


@require_http_methods(FORM_METHODS)
@login_required
def board_knowledge(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """R50: what each player and observer knows of each department of the board."""
    viewer, board = gm_board(request, slug, board_slug)
    grid = knowledge_grid(board, page=page_number(request))
    form = KnowledgeGridForm(posted(request), grid=grid)
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            changed = knowledge_set(board=board, actor=request.user, levels=form.levels())
        except SetupRefused as error:
            refused = error.messages
        else:
            text = (
                _("Saved: %(levels)s changed.") % {"levels": count(changed, "level")}
                if changed
                else _("Nothing was changed.")
            )
            messages.success(request, text)
            return same_page("board_knowledge", slug, board_slug, grid.page.number)
    context = {
        "campaign": viewer.campaign, "board": board, "grid": grid, "form": form,
        "bulk": KnowledgeBulkForm(grid=grid), "refused": refused,
    }  # fmt: skip
    return render(request, "campaigns/editor/knowledge.html", context)


@post_only("board_knowledge", "slug", "board_slug")
@login_required
def board_knowledge_bulk(request: HttpRequest, slug: str, board_slug: str) -> HttpResponse:
    """R50: one level for the whole board, a department, a member, or one cell."""
    viewer, board = gm_board(request, slug, board_slug)
    grid = knowledge_grid(board, page=page_number(request))
    form = KnowledgeBulkForm(request.POST, grid=grid)
    if not form.is_valid():
        messages.error(request, _("Choose who, which departments and a level."))
        return same_page("board_knowledge", slug, board_slug, grid.page.number)
    data = form.cleaned_data
    member = member_for(viewer.campaign, data["member"]) if data["member"] else None
    department = department_by_pk(board, data["department"]) if data["department"] else None
    changed = attempt(request, lambda: knowledge_bulk(
        board=board, actor=request.user, level=data["level"],
        raise_only=data["how"] == "raise", member=member, department=department,
    ))  # fmt: skip
    if changed is not None:
        done = _("Done: %(levels)s changed on %(board)s.")
        messages.success(request, done % {"levels": count(changed, "level"), "board": board.name})
    return same_page("board_knowledge", slug, board_slug, grid.page.number)


# --- One member ---------------------------------------------------------------------------------


def gm_member(request: HttpRequest, slug: str, pk: int) -> Membership:
    campaign = gm_of(request, slug).campaign
    member = found(member_for(campaign, pk), "no such player or observer")
    member.campaign = campaign
    return member


@require_http_methods(FORM_METHODS)
@login_required
def member_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player's or observer's character name, Perception (R70) and role."""
    member = gm_member(request, slug, pk)
    initial = {f: getattr(member, f) for f in ("character_name", "perception", "role")}
    form = MemberForm(posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            changed = member_update(member=member, actor=request.user, values=form.cleaned_data)
        except SetupRefused as error:
            for line in error.messages:
                form.add_error(None, line)
        else:
            messages.success(request, _("Saved.") if changed else _("Nothing was changed."))
            return redirect("member_edit", slug, member.pk)
    page = member_page(member)
    context = {
        "campaign": member.campaign, "page": page, "form": form,
        "replace": ReplaceForm(successors=page.successors),
        **character_context(request, member),  # R60, R61, R71, R72
    }  # fmt: skip
    return render(request, "campaigns/editor/member.html", context)


@post_only("member_edit", "slug", "pk")
@login_required
def member_hand_over(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Replace a player: their structures go to another player (R13)."""
    member = gm_member(request, slug, pk)
    page = member_page(member)
    form = ReplaceForm(request.POST, successors=page.successors)
    if not form.is_valid():
        messages.error(request, _("Choose the player who takes over."))
        return redirect("member_edit", slug, member.pk)
    successor = next(m for m in page.successors if m.pk == form.cleaned_data["successor"])
    knowledge = form.cleaned_data["knowledge"]
    handed = attempt(request, lambda: member_replace(
        member=member, actor=request.user, successor=successor, knowledge=knowledge
    ))  # fmt: skip
    if handed is None:
        return redirect("member_edit", slug, member.pk)
    held = count(sum(len(s) for s in handed.values()), "department")
    messages.success(
        request,
        _(
            "%(successor)s now holds %(member)s's %(held)s; "
            "%(member)s's queued orders of this turn are cancelled."
        )
        % {"successor": successor.display_name, "member": member.display_name, "held": held},
    )
    return redirect("member_edit", slug, successor.pk)


@require_http_methods(FORM_METHODS)
@login_required
def member_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """GET: what removing the member does. POST: remove them."""
    member = gm_member(request, slug, pk)
    if request.method == "POST":
        if attempt(request, lambda: member_remove(member=member, actor=request.user)) is None:
            return redirect("member_edit", slug, member.pk)
        messages.success(
            request, _("%(name)s is removed from the campaign.") % {"name": member.display_name}
        )
        return redirect("players", slug)
    context = {"campaign": member.campaign, "page": member_page(member)}
    return render(request, "campaigns/editor/member_remove.html", context)

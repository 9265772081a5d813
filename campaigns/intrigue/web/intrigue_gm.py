"""The GM's pages of RULES parts 7 and 8, reached from a player's member page and from a
department's editor page: grant and remove shticks (R60), set and remove secret goals (R61),
write and remove contingency envelopes (R72) and intel envelopes on a department (R71).

Each writes through its service (intrigue/services/characters.py, intrigue/services/envelopes.py),
which has
the engine check the change, holds the campaign lock and keeps it in the audit log (R53); a
refusal changes nothing and is shown to the GM. GM only (web/access.py): 404 for anyone
outside the campaign, 403 for its players and observers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.intrigue.selectors.character import department_choices, department_options
from campaigns.intrigue.selectors.intrigue_gm import (
    contingency_of,
    department_envelopes,
    department_in,
    envelope_of,
    goal_of,
    players_of,
    shtick_of,
)
from campaigns.intrigue.services.characters import (
    goal_remove,
    goal_set,
    shtick_grant,
    shtick_remove,
)
from campaigns.intrigue.services.envelopes import (
    contingency_create,
    contingency_remove,
    envelope_create,
    envelope_remove,
)
from campaigns.intrigue.web.intrigue_forms import GOAL_FORMS, ContingencyForm, IntelEnvelopeForm
from campaigns.intrigue.web.shtick_forms import SHTICK_FORMS
from campaigns.models import ContingencyEnvelope, Goal, Membership, Shtick
from campaigns.selectors.pages import boards_of
from campaigns.selectors.players import member_for
from campaigns.services.setup import SetupRefused
from campaigns.web.access import (
    FORM_METHODS,
    attempt,
    found,
    gm_department,
    gm_of,
    posted,
    saved,
)
from campaigns.web.post_only import post_only
from campaigns.words.labels import in_text

Condition = ContingencyEnvelope.Condition


def gm_player(request: HttpRequest, slug: str, pk: int) -> Membership:
    """The GM's view of one player (a character: observers have none, 404)."""
    campaign = gm_of(request, slug).campaign
    member = found(member_for(campaign, pk), "no such player")
    if member.role != Membership.Role.PLAYER:
        raise Http404("only a player has a character")
    member.campaign = campaign
    return member


def member_page(member: Membership) -> str:
    return reverse("member_edit", args=[member.campaign.slug, member.pk])


def back_to(member: Membership, anchor: str) -> HttpResponse:
    return redirect(f"{member_page(member)}#{anchor}")


def form_page(
    request: HttpRequest,
    member: Membership,
    form: Any,
    *,
    title: str,
    save: Callable[[], object],
    done: tuple[str, str],
) -> HttpResponse:
    """POST: a valid form is saved and the GM goes back to the member page, told `done`
    (message, anchor); a refusal becomes the form's error and nothing changes. GET or an
    invalid form: the page."""
    if saved(request, form, save, done[0]):
        return back_to(member, done[1])
    context = {"campaign": member.campaign, "member": member, "form": form, "title": title,
               "back": member_page(member), "back_label": member.display_name}  # fmt: skip
    return render(request, "intrigue/gm_form.html", context)


def removal(
    request: HttpRequest, member: Membership, remove: Callable[[], object], done: tuple[str, str]
) -> HttpResponse:
    """A GM's removal from the member page: done (message, anchor), or refused with why."""
    if attempt(request, lambda: remove() or True):
        messages.success(request, done[0])
    return back_to(member, done[1])


# --- Shticks (R60) --------------------------------------------------------------------------


@require_http_methods(FORM_METHODS)
@login_required
def shtick_new(request: HttpRequest, slug: str, pk: int, kind: str) -> HttpResponse:
    member = gm_player(request, slug, pk)
    if kind not in SHTICK_FORMS:
        raise Http404("no such shtick kind")
    boards = [(b.slug, b.name) for b in boards_of(member.campaign)]
    form = SHTICK_FORMS[kind](
        posted(request), departments=department_options(member.campaign), boards=boards
    )

    def save() -> object:
        department = department_in(member.campaign, form.department_pk())
        return shtick_grant(
            member=member, actor=request.user, data=form.engine_object(), department=department
        )

    title = _("A shtick for %(name)s: %(kind)s") % {
        "name": member.display_name,
        "kind": Shtick.Kind(kind).label,
    }
    return form_page(
        request, member, form, title=title, save=save, done=(_("Shtick granted."), "gm-shticks")
    )


@post_only("member_edit", "slug", "pk")
@login_required
def shtick_delete(request: HttpRequest, slug: str, pk: int, item: int) -> HttpResponse:
    member = gm_player(request, slug, pk)
    shtick = found(shtick_of(member, item), "no such shtick")
    return removal(request, member, lambda: shtick_remove(shtick=shtick, actor=request.user),
                   (_("Shtick removed."), "gm-shticks"))  # fmt: skip


# --- Secret goals (R61) ---------------------------------------------------------------------


@require_http_methods(FORM_METHODS)
@login_required
def goal_new(request: HttpRequest, slug: str, pk: int, kind: str) -> HttpResponse:
    member = gm_player(request, slug, pk)
    if kind not in GOAL_FORMS:
        raise Http404("no such goal kind")
    alignments = list(member.campaign.alignments.values_list("name", flat=True))
    form = GOAL_FORMS[kind](posted(request), alignments=alignments)

    def save() -> object:
        return goal_set(member=member, actor=request.user, data=form.engine_object())

    title = _("A secret goal for %(name)s: %(kind)s") % {
        "name": member.display_name,
        "kind": Goal.Kind(kind).label,
    }
    return form_page(
        request, member, form, title=title, save=save, done=(_("Secret goal set."), "gm-goals")
    )


@post_only("member_edit", "slug", "pk")
@login_required
def goal_delete(request: HttpRequest, slug: str, pk: int, item: int) -> HttpResponse:
    member = gm_player(request, slug, pk)
    goal = found(goal_of(member, item), "no such goal")
    return removal(request, member, lambda: goal_remove(goal=goal, actor=request.user),
                   (_("Secret goal removed."), "gm-goals"))  # fmt: skip


# --- Contingency envelopes (R72) ------------------------------------------------------------


@require_http_methods(FORM_METHODS)
@login_required
def contingency_new(request: HttpRequest, slug: str, pk: int, condition: str) -> HttpResponse:
    member = gm_player(request, slug, pk)
    if condition not in Condition.values:
        raise Http404("no such condition")
    choices = department_choices(department_options(member.campaign))
    form = ContingencyForm(posted(request), condition=condition, departments=choices)
    if request.method == "POST":
        with timezone.override(ZoneInfo(member.campaign.time_zone)):
            form.is_valid()  # a date is typed in the campaign's time zone

    def save() -> object:
        data = form.cleaned_data
        return contingency_create(
            member=member, actor=request.user, text=data["text"], condition=condition,
            turn_number=data.get("turn_number"), date=data.get("date"),
            department=department_in(member.campaign, data.get("department")),
            level=data.get("level"),
        )  # fmt: skip

    title = _("A sealed envelope for %(name)s. It opens when: %(when)s") % {
        "name": member.display_name,
        "when": in_text(Condition(condition).label),
    }
    done = (_("Sealed envelope written."), "gm-sealed")
    return form_page(request, member, form, title=title, save=save, done=done)


@post_only("member_edit", "slug", "pk")
@login_required
def contingency_delete(request: HttpRequest, slug: str, pk: int, item: int) -> HttpResponse:
    member = gm_player(request, slug, pk)
    envelope = found(contingency_of(member, item), "no such envelope")
    return removal(request, member,
                   lambda: contingency_remove(envelope=envelope, actor=request.user),
                   (_("Sealed envelope removed."), "gm-sealed"))  # fmt: skip


# --- Intel envelopes on a department (R71) --------------------------------------------------


@require_http_methods(FORM_METHODS)
@login_required
def department_envelopes_page(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str
) -> HttpResponse:
    """R71: a department's intel envelopes (who opened each) and the form for a new one."""
    board, department = gm_department(request, slug, board_slug, dept_slug)
    players = players_of(board.campaign)
    form = IntelEnvelopeForm(posted(request), players=[(m.pk, m.display_name) for m in players])
    refused: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        chosen = [m for m in players if m.pk in data["audience"]]
        try:
            envelope_create(
                department=department, actor=request.user, text=data["text"],
                target=data["target"], audience=None if data["everyone"] else chosen,
                grants=data["grants"],
            )  # fmt: skip
        except SetupRefused as error:
            refused = error.messages
        else:
            messages.success(
                request, _("Envelope attached to %(name)s.") % {"name": department.name}
            )
            return redirect("department_envelopes", slug, board_slug, dept_slug)
    context = {
        "campaign": board.campaign, "board": board, "department": department, "form": form,
        "envelopes": department_envelopes(department), "refused": refused,
    }  # fmt: skip
    return render(request, "intrigue/department_envelopes.html", context)


@post_only("department_envelopes", "slug", "board_slug", "dept_slug")
@login_required
def envelope_delete(
    request: HttpRequest, slug: str, board_slug: str, dept_slug: str, item: int
) -> HttpResponse:
    __, department = gm_department(request, slug, board_slug, dept_slug)
    envelope = found(envelope_of(department, item), "no such envelope")
    if attempt(request, lambda: envelope_remove(envelope=envelope, actor=request.user) or True):
        messages.success(request, _("Envelope removed, with every dossier entry of it."))
    return redirect("department_envelopes", slug, board_slug, dept_slug)

"""The GM gives players' characters shticks (RULES R60) and secret goals (R61).

Each is checked by the engine's own parser (engine/sheets.py `parse_shtick`, engine/goals.py
`parse_goal`), never by a second copy of the rules, and then the campaign is read back as the
turn job will read it (selectors/setup.py `engine_problems`): a change the engine would refuse
is refused and nothing changes. Every write holds the campaign row lock (the turn job's) and
is in the audit log (R53). Errors are SetupRefused with messages fit to show the GM.

A page offers departments and boards as rows; the services fill in the ENGINE.md object's
slugs themselves."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.engine import EngineError
from campaigns.engine.cli_io import parse_board
from campaigns.engine.sheets import parse_shtick
from campaigns.models import AuditEntry, Board, Campaign, Department, Goal, Membership, Shtick
from campaigns.selectors.setup import engine_problems
from campaigns.services.audit import audit_record
from campaigns.services.setup import SetupRefused

MAX_TEXT = 1000  # a narrative shtick's text


@contextmanager
def campaign_checked(campaign: Campaign) -> Iterator[Campaign]:
    """A transaction holding the campaign row lock, in which the caller writes; afterwards
    the engine reads every board as the turn job will, and a refusal undoes the writes."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        yield locked
        problems = engine_problems(locked)
        if problems:
            raise SetupRefused(problems)


def player_of(member: Membership) -> Membership:
    """Inside a transaction: the member re-read, who must be a player (R60, R61: a
    character's shticks and goals)."""
    member = Membership.objects.select_related("user", "campaign").get(pk=member.pk)
    if member.role != Membership.Role.PLAYER:
        raise SetupRefused([_("Only a player's character holds shticks and goals.")])
    return member


def engine_checked(check: Any, *args: Any) -> Any:
    """Run one of the engine's parsers; its one-line refusal becomes the GM's message."""
    try:
        return check(*args)
    except EngineError as error:
        raise SetupRefused([str(error)]) from None


# --- Shticks (R60) --------------------------------------------------------------------------


def shtick_data(
    campaign: Campaign, data: dict[str, Any], department: Department | None
) -> dict[str, Any]:
    """The ENGINE.md object of a shtick as the GM filled it in: `department` (a row of the
    campaign) fills its "department" key; a narrative one is at most MAX_TEXT characters;
    a cross_board one names two of the campaign's boards."""
    data = {k: v for k, v in data.items() if k != "department"}
    if department is not None:
        if department.board.campaign_id != campaign.pk:
            raise SetupRefused([_("That department is not in this campaign.")])
        data["department"] = department.slug
    elif data.get("kind") in ("dice", "skill"):
        data["department"] = None  # every department of the holder's structures
    if data.get("kind") == "text":
        text = str(data.get("text") or "").strip()
        if not text or len(text) > MAX_TEXT:
            raise SetupRefused(
                [_("A narrative shtick is 1 to %(n)s characters of text.") % {"n": MAX_TEXT}]
            )
        data["text"] = text
    engine_checked(parse_shtick, data, _("shtick"))
    if data["kind"] == "cross_board":
        slugs = set(Board.objects.filter(campaign=campaign).values_list("slug", flat=True))
        if not set(data["boards"]) <= slugs:
            raise SetupRefused([_("A cross-board shtick names two boards of this campaign.")])
    return data


def shtick_grant(
    *,
    member: Membership,
    actor: AbstractBaseUser,
    data: dict[str, Any],
    department: Department | None = None,
) -> Shtick:
    """R60: give a player's character a shtick: `data` is the ENGINE.md object without its
    department (kind, amount, roll, out/in, boards, or text), `department` the one it names
    (production, link_limit; dice/skill for one department, or None for all)."""
    with campaign_checked(member.campaign) as campaign:
        member = player_of(member)
        data = shtick_data(campaign, data, department)
        shtick = Shtick.objects.create(
            member=member, kind=data["kind"], data=data, department=department
        )
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.SHTICKS,
            target=member.user.get_username(), before={}, after={"granted": data},
        )  # fmt: skip
    return shtick


def shtick_remove(*, shtick: Shtick, actor: AbstractBaseUser) -> None:
    """R60: take a shtick away."""
    member = shtick.member
    with campaign_checked(member.campaign) as campaign:
        shtick = Shtick.objects.select_related("member__user").get(pk=shtick.pk)
        data = shtick.data
        shtick.delete()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.SHTICKS,
            target=shtick.member.user.get_username(), before={"removed": data}, after={},
        )  # fmt: skip


# --- Secret goals (R61) --------------------------------------------------------------------


def goal_data(campaign: Campaign, data: dict[str, Any]) -> dict[str, Any]:
    """The ENGINE.md goal's own fields (kind, n, and alignment, type or stat), checked by
    the engine against the campaign's catalogue."""
    own = {k: v for k, v in data.items() if k in ("kind", "n", "alignment", "type", "stat")}
    engine_checked(parse_board, beside_only(campaign, goals=[{**own, "id": _("new goal"),
                                                            "player": "p0"}]))  # fmt: skip
    kept = ("kind", "n") + {"control_aligned": ("alignment",), "hold": ("type",),
                            "stat_total": ("stat",)}.get(own["kind"], ())  # fmt: skip
    return {k: own[k] for k in kept}


def beside_only(campaign: Campaign, **beside: Any) -> dict[str, Any]:
    """An ENGINE.md state of no board with the campaign's catalogue and `beside` (goals,
    offices with `departments`, ...): what the engine's parser (`parse_board`) checks
    against the catalogue, as the turn job's state will hold them."""
    catalogue = [a.as_engine() for a in campaign.alignments.all()]
    departments = [{"slug": slug} for slug in beside.pop("departments", [])]
    state: dict[str, Any] = {"departments": departments, "links": [], **beside}
    if catalogue:  # none: the default catalogue of R5 (selectors/state.py)
        state["alignments"] = catalogue
    return state


def goal_set(
    *,
    member: Membership,
    actor: AbstractBaseUser,
    data: dict[str, Any],
    goal: Goal | None = None,
) -> Goal:
    """R61: give a player a secret goal, or change `goal` (one of theirs). `data`: the
    ENGINE.md goal's `kind`, `n` and what the kind needs. A changed `attempts_won` goal keeps
    its count; a goal that changes kind starts again from 0."""
    with campaign_checked(member.campaign) as campaign:
        member = player_of(member)
        fields = goal_data(campaign, data)
        before: dict[str, Any] = {}
        if goal is None:
            goal = Goal(member=member)
        else:
            goal = Goal.objects.get(pk=goal.pk, member=member)
            before = {"kind": goal.kind, **goal.data}
            if goal.kind != fields["kind"]:
                goal.count = 0
        goal.kind = fields["kind"]
        goal.data = {k: v for k, v in fields.items() if k != "kind"}
        goal.save()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.GOALS,
            target=member.user.get_username(), before=before, after=fields,
        )  # fmt: skip
    return goal


def goal_remove(*, goal: Goal, actor: AbstractBaseUser) -> None:
    """R61: take a secret goal away, with its progress."""
    with campaign_checked(goal.member.campaign) as campaign:
        goal = Goal.objects.select_related("member__user").get(pk=goal.pk)
        before = {"kind": goal.kind, **goal.data, "count": goal.count}
        goal.delete()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.GOALS,
            target=goal.member.user.get_username(), before=before, after={},
        )  # fmt: skip

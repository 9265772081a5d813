"""The GM's offices and elections (RULES R80): an office per board (a name, an alignment of
the campaign's catalogue, shticks of the R60 catalogue, its holder and deputy), and an
election for an office scheduled on a turn.

One election per turn in a campaign (models/offices.py says why). Each office is checked by
the engine's own parsers (engine/sheets.py `parse_offices`), and the campaign is read back as
the turn job will read it; every write holds the campaign row lock and is in the audit log
(R53). Errors are SetupRefused with messages fit to show the GM."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.elections.services.election_notices import election_announce
from campaigns.engine.cli_io import parse_board
from campaigns.intrigue.services.characters import beside_only, campaign_checked, engine_checked
from campaigns.models import (
    AuditEntry,
    Board,
    Campaign,
    Department,
    Election,
    Office,
    Turn,
)
from campaigns.services.audit import audit_record
from campaigns.services.setup import SetupRefused

MAX_NAME = 120


def office_checked(
    board: Board,
    name: str,
    alignment: str,
    shticks: list[dict[str, Any]],
    holder: Department | None,
    deputy: Department | None,
) -> dict[str, Any]:
    """The office as ENGINE.md part 9 holds it, checked by the engine: an alignment of the
    catalogue, shticks of R60, holder and deputy departments of `board` (two different
    ones). Shticks naming a department name one of `board` by slug."""
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME:
        raise SetupRefused([_("An office's name is 1 to %(n)s characters.") % {"n": MAX_NAME}])
    for post in (holder, deputy):
        if post is not None and post.board_id != board.pk:
            raise SetupRefused([_("An office's holder and deputy are departments of its board.")])
    if holder is not None and deputy is not None and holder.pk == deputy.pk:
        raise SetupRefused([_("The holder and the deputy are two different departments.")])
    office = {
        "id": "o", "name": name, "alignment": alignment, "shticks": list(shticks),
        "holder": holder.slug if holder else None, "deputy": deputy.slug if deputy else None,
    }  # fmt: skip
    slugs = list(board.departments.values_list("slug", flat=True))
    engine_checked(parse_board, beside_only(board.campaign, offices=[office], departments=slugs))
    return office


def office_save(
    *,
    board: Board,
    actor: AbstractBaseUser,
    name: str,
    alignment: str,
    shticks: list[dict[str, Any]] | None = None,
    holder: Department | None = None,
    deputy: Department | None = None,
    office: Office | None = None,
) -> Office:
    """R80: create an office on `board`, or change `office` (one of the board's): name,
    alignment, shticks (ENGINE.md objects), holder and deputy (R53: the GM may put any
    department of the board in it)."""
    with campaign_checked(board.campaign) as campaign:
        board = Board.objects.select_related("campaign").get(pk=board.pk)
        checked = office_checked(board, name, alignment, shticks or [], holder, deputy)
        before: dict[str, Any] = {}
        if office is None:
            office = Office(board=board)
        else:
            office = Office.objects.select_related("holder", "deputy").get(
                pk=office.pk, board=board
            )
            before = office_fields(office)
        office.name, office.alignment = checked["name"], checked["alignment"]
        office.shticks, office.holder, office.deputy = checked["shticks"], holder, deputy
        office.save()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.OFFICES,
            target=f"{board.name}: {office.name}", before=before, after=office_fields(office),
        )  # fmt: skip
    return office


def office_fields(office: Office) -> dict[str, Any]:
    return {
        "name": office.name,
        "alignment": office.alignment,
        "shticks": office.shticks,
        "holder": office.holder.slug if office.holder else None,
        "deputy": office.deputy.slug if office.deputy else None,
    }


def office_remove(*, office: Office, actor: AbstractBaseUser) -> None:
    """R80: take an office away, with its elections (their results stay in the records)."""
    with campaign_checked(office.board.campaign) as campaign:
        office = Office.objects.select_related("board", "holder", "deputy").get(pk=office.pk)
        before = office_fields(office)
        where = f"{office.board.name}: {office.name}"
        office.delete()
        audit_record(
            campaign=campaign, actor=actor, action=AuditEntry.Action.OFFICES,
            target=where, before=before, after={},
        )  # fmt: skip


# --- Elections --------------------------------------------------------------------------------


def election_schedule(*, office: Office, number: int, actor: AbstractBaseUser) -> Election:
    """R80: an election for `office` in turn `number`: the open turn (its players are told
    at once) or a later one (they are told when it opens: election_announce). One election
    per turn of a campaign."""
    campaign = office.board.campaign
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        office = Office.objects.select_related("board").get(pk=office.pk)
        open_turn = locked.turns.filter(status=Turn.Status.OPEN).order_by("number").first()
        first = open_turn.number if open_turn else (locked.turns.count() or 1)
        if number < first:
            raise SetupRefused(
                [_("An election is held in the open turn or a later one (turn %(n)s on).")
                 % {"n": first}]
            )  # fmt: skip
        try:
            with transaction.atomic():
                election = Election.objects.create(campaign=locked, office=office, number=number)
        except IntegrityError:
            raise SetupRefused(
                [_("Turn %(n)s already holds an election: one election per turn.") % {"n": number}]
            ) from None
        audit_record(
            campaign=locked, actor=actor, action=AuditEntry.Action.OFFICES,
            target=f"{office.board.name}: {office.name}", before={},
            after={"election": number},
        )  # fmt: skip
        if open_turn is not None and open_turn.number == number:
            election_announce(open_turn)
    return election


def election_cancel(*, election: Election, actor: AbstractBaseUser) -> None:
    """R80: call off an election that has not been held."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=election.campaign_id)
        election = Election.objects.select_related("office__board").get(pk=election.pk)
        if election.result is not None:
            raise SetupRefused([_("That election has been held: its result is history.")])
        number, office = election.number, election.office
        election.delete()
        audit_record(
            campaign=locked, actor=actor, action=AuditEntry.Action.OFFICES,
            target=f"{office.board.name}: {office.name}", before={"election": number}, after={},
        )  # fmt: skip

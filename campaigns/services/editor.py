"""The GM edits boards, departments and links from the site (RULES R4, R10-R13, R53).

Every change runs in `board_change`: under the campaign row lock (the turn job takes it too,
so an edit never interleaves with a turn), the change is written, the board is read back as
the engine's state and the engine reviews it (engine/edit.py). A refusal raises
SetupRefused with the engine's reasons in words and the transaction rolls back, so nothing
changes; an accepted change is recorded in the audit log with before and after.

GM changes happen between turns (R53): while a turn is open they change the state its
resolution will start from, and the engine's review guarantees that state is one the turn
job plays. A department's `capacity` stays what the last spawn and consume computed
(ENGINE.md); the next one recomputes it from the edited card."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from campaigns.models import (
    AuditEntry,
    Board,
    Campaign,
    ClassicBoard,
    Department,
    Link,
    Membership,
    Office,
    Structure,
)
from campaigns.selectors.editor import (
    change_review,
    changed_fields,
    department_for,
    department_record,
)
from campaigns.selectors.state import board_state
from campaigns.services.audit import audit_record
from campaigns.services.setup import SetupRefused

# The card's own fields, as the department form and the services name them.
CARD_FIELDS = (
    "name", "description", "effect", "obstruct", "impress",
    "consumes_type", "consumes_amount", "produces_type", "produces_amount",
    "functions", "alignments", "flaws", "money", "people", "authority",
)  # fmt: skip


@dataclass
class Change:
    """What a GM's change came to: whether anything changed, and notes the GM should read
    although the change was kept (R33)."""

    changed: bool = True
    notes: list[str] = field(default_factory=list)


@contextmanager
def board_change(
    board: Board, *, new_links: Iterable[tuple[str, str]] = (), watch: Iterable[str] = ()
) -> Iterator[Change]:
    """The frame of every GM change to `board` (R53): the campaign row lock, the board as
    the engine sees it before and after the caller's writes, and the engine's review
    (`new_links`: links the change adds, judged as new links, R10-R11; `watch`: the slugs
    whose cards or stash changed, R33, R36). Raises SetupRefused, rolling the writes back."""
    with transaction.atomic():
        board.campaign = Campaign.objects.select_for_update().get(pk=board.campaign_id)
        before = board_state(board)
        change = Change()
        yield change
        if not change.changed:
            return
        after = board_state(board)
        refusals, change.notes = change_review(
            board, before, after, new_links=new_links, watch=watch
        )
        if refusals:
            raise SetupRefused(refusals)


def record(
    board: Board,
    actor: AbstractBaseUser,
    action: str,
    target: str,
    before: dict,
    after: dict,
    departments: Iterable[str] = (),
) -> None:
    """The change in the audit log (R53), about `board` and the `departments` (slugs)."""
    audit_record(
        campaign=board.campaign, actor=actor, action=action, target=target,
        before=before, after=after, board=board.slug, departments=departments,
    )  # fmt: skip


# --- Boards ---------------------------------------------------------------------------------------


def board_create(
    *,
    campaign: Campaign,
    actor: AbstractBaseUser,
    name: str,
    slug: str,
    ruleset: str = Board.Ruleset.STANDARD,
) -> Board:
    """A new, empty board (R2) of `ruleset` (R90: fixed from now on); a classic board gets
    its state, with no players or groups yet (models/classic.py)."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.boards.filter(slug=slug).exists():
            raise SetupRefused(
                [
                    _("%(campaign)s already has a board at the address %(slug)s (R2).")
                    % {"campaign": locked.name, "slug": repr(slug)}
                ]
            )
        board = Board.objects.create(campaign=locked, name=name, slug=slug, ruleset=ruleset)
        after: dict[str, Any] = {"created": name}
        if board.is_classic:
            ClassicBoard.objects.create(board=board)
            after["ruleset"] = board.ruleset
        record(board, actor, AuditEntry.Action.BOARD, f"board {name}", {}, after)
    return board


def board_rename(*, board: Board, actor: AbstractBaseUser, name: str) -> bool:
    """Give the board a new name (its address stays: links to it keep working)."""
    with board_change(board) as change:
        old = Board.objects.get(pk=board.pk).name
        change.changed = old != name
        if change.changed:
            Board.objects.filter(pk=board.pk).update(name=name)
            board.name = name
            record(board, actor, AuditEntry.Action.BOARD, f"board {name}", {"name": old},
                   {"name": name})  # fmt: skip
    return change.changed


def board_remove(*, board: Board, actor: AbstractBaseUser) -> dict[str, Any]:
    """Remove a board with its departments, links and structures, and the queued orders on
    it; returns what went. Refused once it has been played: every processed turn keeps
    each board's state (R51), and the turn records are the board's."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=board.campaign_id)
        if board.records.exists():
            raise SetupRefused([
                _("%(board)s has been played, and every processed turn keeps its state "
                  "(R51): it cannot be removed. Remove its departments instead.")
                % {"board": board.name}
            ])  # fmt: skip
        gone = {
            "slug": board.slug,
            "departments": board.departments.count(),
            "links": board.links.count(),
        }
        board.delete()
        board.campaign = campaign
        record(board, actor, AuditEntry.Action.BOARD, f"board {board.name}", gone,
               {"removed": True})  # fmt: skip
    return gone


# --- Departments ----------------------------------------------------------------------------------


def structure_for(board: Board, player: Membership | None) -> Structure | None:
    """The player's structure on the board (R13), made if they have none yet."""
    if player is None:
        return None
    if player.campaign_id != board.campaign_id or player.role != Membership.Role.PLAYER:
        raise SetupRefused(
            [_("%(name)s is not a player of this campaign (R13).") % {"name": player.display_name}]
        )
    structure, __ = Structure.objects.get_or_create(board=board, player=player)
    return structure


def department_assign(dept: Department, structure: Structure | None, home: bool) -> None:
    """Put `dept` in `structure` (None: uncontrolled), unsaved. Its standing defence was its
    old controller's setting (R47) and goes with a change of hands, as after a capture (the
    engine's reading, engine/resolve.py); an uncontrolled department is nobody's home."""
    if dept.structure_id != (structure.pk if structure else None):
        dept.defence = {}
    dept.structure = structure
    dept.home = home and structure is not None


def department_fill(dept: Department, values: dict[str, Any], board: Board) -> None:
    """The form's values onto `dept` (unsaved)."""
    for key in CARD_FIELDS:
        setattr(dept, key, values[key])
    if not dept.consumes_type:
        dept.consumes_amount = 0
    if not dept.produces_type:
        dept.produces_amount = 0
    department_assign(dept, structure_for(board, values.get("controller")), values["home"])


def department_create(
    *, board: Board, actor: AbstractBaseUser, slug: str, values: dict[str, Any]
) -> Change:
    """A new department (R4) on `board`, checked by the engine like any change."""
    with board_change(board, watch=[slug]) as change:
        if Department.objects.filter(board=board, slug=slug).exists():
            raise SetupRefused([
                _("%(board)s already has a department at the address %(slug)s: "
                  "choose another address (R4).")
                % {"board": board.name, "slug": repr(slug)}
            ])  # fmt: skip
        dept = Department(board=board, slug=slug)
        department_fill(dept, values, board)
        dept.save()
        after = department_record(department_for(board, slug) or dept)
        record(board, actor, AuditEntry.Action.DEPARTMENT, f"{board.name}: {dept.name}", {},
               after, [slug])  # fmt: skip
    return change


def department_update(
    *, department: Department, actor: AbstractBaseUser, values: dict[str, Any]
) -> Change:
    """Change every field of the card the GM sees (R4, R13, R53); the slug stays."""
    board = department.board
    with board_change(board, watch=[department.slug]) as change:
        dept = department_for(board, department.slug)
        if dept is None:
            raise SetupRefused([_("That department has just been removed.")])
        before = department_record(dept)
        department_fill(dept, values, board)
        dept.save()
        after = department_record(department_for(board, dept.slug) or dept)
        change.changed = before != after
        if change.changed:
            old, new = changed_fields(before, after)
            record(board, actor, AuditEntry.Action.DEPARTMENT, f"{board.name}: {dept.name}",
                   old, new, [dept.slug])  # fmt: skip
    return change


def department_remove(*, department: Department, actor: AbstractBaseUser) -> Change:
    """Remove a department with its links and what members knew of it (R50). Queued orders
    naming it stay, and are rejected when the turn is processed (R40). Refused if it
    would strand another department in its structure (R13)."""
    board = department.board
    with board_change(board) as change:
        dept = department_for(board, department.slug)
        if dept is None:
            raise SetupRefused([_("That department has already been removed.")])
        before = department_record(dept)
        links = Link.objects.filter(Q(supplier=dept) | Q(consumer=dept))
        before["links"] = [
            f"{s} → {c}" for s, c in links.values_list("supplier__name", "consumer__name")
        ]
        dept.delete()
        record(board, actor, AuditEntry.Action.DEPARTMENT, f"{board.name}: {dept.name}",
               before, {"removed": True}, [dept.slug])  # fmt: skip
        offices_forget(board, dept.slug, actor)
    return change


def offices_forget(board: Board, slug: str, actor: AbstractBaseUser) -> None:
    """R60/R80: the board's offices lose the shticks that name a removed department (a
    character's shticks naming it go with its row); each changed office is audited (R53).
    Call inside the change's transaction."""
    for office in Office.objects.filter(board=board):
        kept = [s for s in office.shticks if s.get("department") != slug]
        if len(kept) != len(office.shticks):
            before = {"shticks": office.shticks}
            office.shticks = kept
            office.save(update_fields=["shticks"])
            record(board, actor, AuditEntry.Action.OFFICES, f"{board.name}: {office.name}",
                   before, {"shticks": kept})  # fmt: skip


# --- Links (R10-R12) ------------------------------------------------------------------------------


def link_add(
    *, board: Board, actor: AbstractBaseUser, supplier: Department, consumer: Department
) -> Change:
    """A new link supplier -> consumer, ranked last among the supplier's (R12). The engine
    judges it as a new link (R10-R11); R14 does not bind the GM (engine/edit.py)."""
    if supplier.board_id != board.pk or consumer.board_id != board.pk:
        raise SetupRefused([_("Both departments must be on this board (R2).")])
    pair = (supplier.slug, consumer.slug)
    with board_change(board, new_links=[pair]) as change:
        if not Link.objects.filter(supplier=supplier, consumer=consumer).exists():
            last = Link.objects.filter(supplier=supplier).aggregate(top=Max("priority"))["top"]
            priority = 0 if last is None else last + 1
            Link.objects.create(board=board, supplier=supplier, consumer=consumer,
                                priority=priority)  # fmt: skip
        record(board, actor, AuditEntry.Action.LINK, f"{supplier.name} → {consumer.name}",
               {}, {"link": f"{supplier.name} → {consumer.name}"}, pair)  # fmt: skip
    return change


def link_remove(*, link: Link, actor: AbstractBaseUser) -> Change:
    """Break a link; the supplier's other links keep their order (R12). Refused if it
    strands a department in its structure (R13)."""
    board = link.board
    with board_change(board) as change:
        supplier = link.supplier
        Link.objects.filter(pk=link.pk).delete()
        ranks_renumber(supplier_links(supplier))
        record(board, actor, AuditEntry.Action.LINK,
               f"{supplier.name} → {link.consumer.name}",
               {"link": f"{supplier.name} → {link.consumer.name}"}, {"removed": True},
               [supplier.slug, link.consumer.slug])  # fmt: skip
    return change


def link_shift(*, link: Link, actor: AbstractBaseUser, up: bool) -> Change:
    """Move a link one place earlier (`up`) or later in its supplier's funding order (R12)."""
    board = link.board
    with board_change(board) as change:
        links = supplier_links(link.supplier)
        order = [x.pk for x in links]
        if link.pk not in order:
            raise SetupRefused([_("That link has just been removed.")])
        index = order.index(link.pk)
        other = index - 1 if up else index + 1
        change.changed = 0 <= other < len(links)
        if change.changed:
            consumers = [x.consumer.slug for x in links]
            before = [x.consumer.name for x in links]
            links[index], links[other] = links[other], links[index]
            ranks_renumber(links)
            record(board, actor, AuditEntry.Action.LINK, f"{link.supplier.name}: funding order",
                   {"order": before}, {"order": [x.consumer.name for x in links]},
                   [link.supplier.slug, *consumers])  # fmt: skip
    return change


def supplier_links(supplier: Department) -> list[Link]:
    """The supplier's links, first fed first, as the engine ranks them (selectors/state.py
    lists them by priority, then by id)."""
    rows = Link.objects.filter(supplier=supplier).select_related("consumer")
    return list(rows.order_by("priority", "pk"))


def ranks_renumber(links: list[Link]) -> None:
    """Store the ranks 0, 1, ... in the given order (R12)."""
    for rank, link in enumerate(links):
        link.priority = rank
    Link.objects.bulk_update(links, ["priority"])

"""The GM places the players (RULES R13, R50, R53, R70): who holds which departments,
what each member knows, character names and Perception, replacing a player and removing
one. Every write holds the campaign row lock; every change of a structure is reviewed by
the engine (services/editor.board_change) and each change is in the audit log."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import (
    AuditEntry,
    Board,
    Campaign,
    Department,
    Knowledge,
    Membership,
    Order,
    OrderLog,
    Structure,
    Turn,
)
from campaigns.selectors.visibility import department_rows
from campaigns.services.audit import audit_record
from campaigns.services.editor import Change, board_change, department_assign, structure_for
from campaigns.services.orders import attempt_notify, order_changed
from campaigns.services.setup import SetupRefused

Role = Membership.Role
# Stored in the audit log: the levels' own names, in English whatever the GM's language.
LEVEL_NAMES = {level.value: level.name.lower() for level in Knowledge.Level}
# What the GM stores (R50): `controlled` follows the structure and is never stored.
STORED_LEVELS = (Knowledge.Level.UNKNOWN, Knowledge.Level.RUMOURED, Knowledge.Level.KNOWN)
# A player's assignment of one department: (the player, or None for uncontrolled; home).
Assignment = tuple[Membership | None, bool]


def holder_text(dept: Department) -> str | None:
    if dept.structure_id is None:
        return None
    name = dept.structure.player.user.get_username()
    return f"{name} (home)" if dept.home else name


# --- Structures (R13) ---------------------------------------------------------------------------


def structures_set(
    *, board: Board, actor: AbstractBaseUser, assignments: dict[int, Assignment]
) -> Change:
    """Put departments of `board` (by id) into players' structures or none, each with its
    home flag (R13); the engine reviews the board (a stranded department is refused)."""
    with board_change(board) as change:
        rows = {d.pk: d for d in department_rows(board=board, pk__in=list(assignments))}
        if len(rows) != len(assignments):
            raise SetupRefused([_("A department of the form is no longer on this board: reload.")])
        structures: dict[int, Structure | None] = {}
        before, after, changed = {}, {}, []
        for pk, (player, home) in assignments.items():
            dept = rows[pk]
            key = player.pk if player else 0
            if key not in structures:
                structures[key] = structure_for(board, player)
            old = holder_text(dept), dept.structure_id, dept.home
            department_assign(dept, structures[key], home)
            if (dept.structure_id, dept.home) != old[1:]:
                # Keyed by name: the GM reads the log (R53); the entry's `departments` keep
                # the slugs its filter finds it by.
                before[dept.name] = old[0]
                after[dept.name] = holder_text(dept)
                changed.append(dept)
        Department.objects.bulk_update(changed, ["structure", "home", "defence"])
        change.changed = bool(changed)
        if changed:
            audit_record(
                campaign=board.campaign, actor=actor, action=AuditEntry.Action.STRUCTURE,
                target=f"structures on {board.name}", before=before, after=after,
                board=board.slug, departments=[d.slug for d in changed],
            )  # fmt: skip
    return change


# --- Knowledge (R50) ----------------------------------------------------------------------------


def knowledge_set(
    *,
    board: Board,
    actor: AbstractBaseUser,
    levels: dict[tuple[int, int], int],
    raise_only: bool = False,
) -> int:
    """Store levels (member id, department id) -> unknown, rumoured or known (R50) for
    players and observers on `board`; with `raise_only`, never lower one. A member's own
    departments are refused: `controlled` follows the structure. Returns how many changed."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=board.campaign_id)
        members, departments = knowledge_targets(campaign, board, levels)
        rows = Knowledge.objects.filter(player__in=members, department__in=departments)
        current = {(k.player_id, k.department_id): k for k in rows}
        new, updated, before, after = [], [], {}, {}
        slugs: set[str] = set()  # of the departments whose knowledge changed
        for (member_pk, dept_pk), level in levels.items():
            row = current.get((member_pk, dept_pk))
            old = min(row.level, Knowledge.Level.KNOWN) if row else Knowledge.Level.UNKNOWN
            level = max(level, old) if raise_only else level
            if level == old:
                continue
            if row is None:
                row = Knowledge(player_id=member_pk, department_id=dept_pk, level=level)
                new.append(row)
            else:
                row.level = level
                updated.append(row)
            who, dept = members[member_pk].user.get_username(), departments[dept_pk]
            before.setdefault(who, {})[dept.name] = LEVEL_NAMES[old]
            after.setdefault(who, {})[dept.name] = LEVEL_NAMES[level]
            slugs.add(dept.slug)
        Knowledge.objects.bulk_create(new)
        Knowledge.objects.bulk_update(updated, ["level"])
        if before:
            audit_record(
                campaign=campaign, actor=actor, action=AuditEntry.Action.KNOWLEDGE,
                target=f"knowledge on {board.name}", before=before, after=after,
                board=board.slug, departments=slugs,
            )  # fmt: skip
    return len(new) + len(updated)


def knowledge_targets(
    campaign: Campaign, board: Board, levels: dict[tuple[int, int], int]
) -> tuple[dict[int, Membership], dict[int, Department]]:
    """The members and departments `levels` names, checked (SetupRefused otherwise)."""
    members = {
        m.pk: m
        for m in campaign.memberships.filter(role__in=[Role.PLAYER, Role.OBSERVER])
        .filter(pk__in={m for m, _ in levels})
        .select_related("user")
    }
    departments = {
        d.pk: d for d in Department.objects.filter(board=board, pk__in={d for _, d in levels})
    }
    controller = dict(board.structures.values_list("pk", "player_id"))
    for (member_pk, dept_pk), level in levels.items():
        if member_pk not in members or dept_pk not in departments:
            raise SetupRefused([_("A member or department of the form has gone: reload the page.")])
        if level not in STORED_LEVELS:
            raise SetupRefused([_("A level is unknown, rumoured or known (R50).")])
        if controller.get(departments[dept_pk].structure_id) == member_pk:
            raise SetupRefused([
                _("%(member)s controls %(department)s: what a player knows of their own "
                  "departments follows their structure (R50).")
                % {"member": members[member_pk].display_name,
                   "department": departments[dept_pk].name}
            ])  # fmt: skip
    return members, departments


def knowledge_bulk(
    *,
    board: Board,
    actor: AbstractBaseUser,
    level: int,
    raise_only: bool,
    member: Membership | None = None,
    department: Department | None = None,
) -> int:
    """One level for many cells of the grid (R50): `member` None is every player and
    observer, `department` None every department of the board ("reveal this board to
    everyone as rumoured"). A member's own departments are left alone (they control them).
    Returns how many changed."""
    members = board.campaign.memberships.filter(role__in=[Role.PLAYER, Role.OBSERVER])
    if member is not None:
        members = members.filter(pk=member.pk)
    departments = Department.objects.filter(board=board)
    if department is not None:
        departments = departments.filter(pk=department.pk)
    controller = dict(board.structures.values_list("pk", "player_id"))
    cells = departments.values_list("pk", "structure_id")
    levels = {
        (member_pk, dept_pk): level
        for member_pk in members.values_list("pk", flat=True)
        for dept_pk, structure in cells
        if controller.get(structure) != member_pk
    }
    if not levels:
        return 0
    return knowledge_set(board=board, actor=actor, levels=levels, raise_only=raise_only)


# --- Members: names, Perception, replacing and removing (R13, R70) ------------------------------


def locked_member(member: Membership) -> Membership:
    """Call inside a transaction: the campaign row lock, then the member, re-read; only a
    player or an observer (the GM edits themselves nowhere here)."""
    Campaign.objects.select_for_update().get(pk=member.campaign_id)
    locked = Membership.objects.select_related("user", "campaign").get(pk=member.pk)
    if locked.role not in (Role.PLAYER, Role.OBSERVER):
        raise SetupRefused(
            [_("%(name)s is not a player or an observer.") % {"name": locked.display_name}]
        )
    return locked


def held_departments(member: Membership) -> int:
    return Department.objects.filter(structure__player=member).count()


def member_update(*, member: Membership, actor: AbstractBaseUser, values: dict[str, Any]) -> bool:
    """A member's character name, Perception (R70) and role (player or observer); returns
    whether anything changed. An observer holds no structure (R13): a player who holds
    departments becomes one only once they are handed to someone else."""
    fields = ("character_name", "perception", "role")
    with transaction.atomic():
        locked = locked_member(member)
        if values["role"] not in (Role.PLAYER, Role.OBSERVER):
            raise SetupRefused([_("A member is a player or an observer.")])
        changed = [f for f in fields if getattr(locked, f) != values[f]]
        if not changed:
            return False
        if values["role"] == Role.OBSERVER and held_departments(locked):
            raise SetupRefused([
                _("%(name)s holds departments: an observer holds none (R13). "
                  "Hand their structures to another player first (Replace).")
                % {"name": locked.display_name}
            ])  # fmt: skip
        before = {f: getattr(locked, f) for f in changed}
        for f in changed:
            setattr(locked, f, values[f])
        locked.save(update_fields=changed)
        audit_record(
            campaign=locked.campaign, actor=actor, action=AuditEntry.Action.MEMBERS,
            target=locked.user.get_username(), before=before,
            after={f: getattr(locked, f) for f in changed},
        )  # fmt: skip
    return True


def orders_cancel_open(member: Membership) -> int:
    """Cancel the member's queued orders of the open turn (logged as a cancellation, R40;
    the defender of a cancelled attempt is told, R46)."""
    orders = list(
        Order.objects.filter(
            player=member, status=Order.Status.QUEUED, turn__status=Turn.Status.OPEN
        ).select_related("turn", "board", "player__user", "player__campaign")
    )
    for order in orders:
        order.status = Order.Status.CANCELLED
        order.save(update_fields=["status", "updated_at"])
        order_changed(order, OrderLog.Action.CANCELLED)
        if order.kind == Order.Kind.ATTEMPT:
            attempt_notify(order, cancelled=True)
    return len(orders)


def structures_of(member: Membership) -> list[Structure]:
    """The member's structures that hold departments, with their boards."""
    structures = Structure.objects.filter(player=member, departments__isnull=False)
    return list(structures.distinct().select_related("board__campaign").order_by("board__name"))


def slugs_in(structure: Structure) -> list[str]:
    return list(structure.departments.order_by("slug").values_list("slug", flat=True))


def member_replace(
    *,
    member: Membership,
    actor: AbstractBaseUser,
    successor: Membership,
    knowledge: bool,
) -> dict[str, list[str]]:
    """Hand every structure of `member` to `successor`, another player (R13: the
    departments keep their home flags, links and standing defence; where the successor
    has a structure on that board already, the two become one), and, with `knowledge`,
    raise what the successor knows to at least what `member` knew (R50). The member's
    queued orders of the open turn are cancelled; they stay a member. Returns the slugs
    handed over, per board name."""
    with transaction.atomic():
        locked = locked_member(member)
        if successor.pk == locked.pk or successor.campaign_id != locked.campaign_id:
            raise SetupRefused([_("Choose another member of this campaign.")])
        if successor.role != Role.PLAYER:
            raise SetupRefused([
                _("%(name)s is not a player: only a player holds a structure (R13). "
                  "Make them a player first.")
                % {"name": successor.display_name}
            ])  # fmt: skip
        handed = {}
        for structure in structures_of(locked):
            with board_change(structure.board):
                handed[structure.board.name] = slugs_in(structure)
                target = structure_for(structure.board, successor)
                Department.objects.filter(structure=structure).update(structure=target)
        if not handed:
            raise SetupRefused(
                [_("%(name)s holds no department to hand over.") % {"name": locked.display_name}]
            )
        if knowledge:
            knowledge_inherit(locked, successor)
        cancelled = orders_cancel_open(locked)
        audit_record(
            campaign=locked.campaign, actor=actor, action=AuditEntry.Action.MEMBERS,
            target=f"{locked.user.get_username()} replaced",
            before={"player": locked.user.get_username(), "structures": handed},
            after={"player": successor.user.get_username(), "knowledge": knowledge,
                   "orders_cancelled": cancelled},
        )  # fmt: skip
    return handed


def knowledge_inherit(member: Membership, successor: Membership) -> None:
    """The successor knows at least what `member` knew (R50), capped at `known`: what they
    control follows their structure."""
    theirs = dict(
        Knowledge.objects.filter(player=member, level__gt=0).values_list("department_id", "level")
    )
    mine = {k.department_id: k for k in Knowledge.objects.filter(player=successor)}
    new, raised = [], []
    for dept_pk, level in theirs.items():
        level = min(level, Knowledge.Level.KNOWN)
        row = mine.get(dept_pk)
        if row is None:
            new.append(Knowledge(player=successor, department_id=dept_pk, level=level))
        elif row.level < level:
            row.level = level
            raised.append(row)
    Knowledge.objects.bulk_create(new)
    Knowledge.objects.bulk_update(raised, ["level"])


def member_remove(*, member: Membership, actor: AbstractBaseUser) -> dict[str, list[str]]:
    """Remove a player or observer: their departments become uncontrolled (R13: no longer
    anyone's home, no standing defence), their queued orders of the open turn are cancelled,
    and they can no longer open the campaign. The membership stays, as "removed", so the
    campaign's history keeps their orders and name. Returns the released slugs per board."""
    with transaction.atomic():
        locked = locked_member(member)
        released = {}
        for structure in structures_of(locked):
            with board_change(structure.board):
                released[structure.board.name] = slugs_in(structure)
                Department.objects.filter(structure=structure).update(
                    structure=None, home=False, defence={}
                )
        Structure.objects.filter(player=locked).delete()
        cancelled = orders_cancel_open(locked)
        before = {"role": locked.role, "structures": released}
        locked.role = Role.REMOVED
        locked.save(update_fields=["role"])
        audit_record(
            campaign=locked.campaign, actor=actor, action=AuditEntry.Action.MEMBERS,
            target=f"{locked.user.get_username()} removed", before=before,
            after={"role": locked.role, "orders_cancelled": cancelled},
        )  # fmt: skip
    return released

"""A campaign as one JSON archive (docs/campaign-archive.md): the full archive from
`manage.py export_campaign`, or the GM's from the site, which holds only what that GM may
read there; `import_campaign` makes a new campaign from either (archive/services/archive.py).

The archive names people by user name and orders by a reference of their own ("o1", "o2",
... in the order they were made), never by database id, so export -> import -> export gives
the same archive apart from the campaign's slug; likewise intel envelopes ("envelope1"),
goals ("goal1") and offices ("office1"). Wherever the site stores a database id inside data
(the engine's player ids "p<membership>" in recorded states, membership ids in recorded
knowledge, order ids in reports and in a reinforcement's `answers`, a notice's link, the
engine ids "e<pk>", "g<pk>" and "o<pk>" of ENGINE.md parts 7-9 in recorded states, reports
and election results), `ArchiveIds` swaps it for its name on the way out and back on the way
in. The rows of parts 7-9 themselves are written by archive/selectors/archive_intrigue.py. Roll keys
("3:17:attack") keep the ids they were rolled with: they are what the published seed
verifies, so they are history, not references.
"""

from __future__ import annotations

import json
from typing import Any

from campaigns.archive.selectors.archive_ids import (
    FORMAT,
    SCOPE_FULL,
    SCOPE_GM,
    VERSION,
    ArchiveIds,
    checksum,
    plain,
    swap_classic,
    swap_knowledge,
    swap_payload,
    swap_report,
    swap_state,
    swap_url,
)
from campaigns.archive.selectors.archive_intrigue import intrigue_entries, intrigue_refs
from campaigns.archive.selectors.archive_press import press_entries
from campaigns.models import (
    AuditEntry,
    Campaign,
    ClassicBoard,
    Department,
    Knowledge,
    Link,
    Membership,
    Notice,
    Order,
    OrderLog,
    PlayerTurn,
    Turn,
    TurnRecord,
)
from campaigns.models.classic import empty_classic_state

CAMPAIGN_FIELDS = tuple(
    f.attname for f in Campaign._meta.concrete_fields if f.attname not in ("id", "slug")
)
DEPARTMENT_FIELDS = tuple(
    f.attname
    for f in Department._meta.concrete_fields
    if f.attname not in ("id", "board_id", "structure_id")
)
TURN_FIELDS = (
    "number",
    "status",
    "opened_at",
    "deadline",
    "seed",
    "commitment",
    "processed_at",
    "failures",
    "last_error",
)
ORDER_FIELDS = (
    "kind",
    "payload",
    "seq",
    "status",
    "result",
    "gm_note",
    "gm_note_published",
    "created_at",
    "updated_at",
)
RECORD_FIELDS = ("state", "report", "before", "knowledge", "knowledge_before", "created_at")


def archive_text(archive: dict[str, Any]) -> str:
    """The archive as the file is written: sorted keys, so the same campaign always gives
    the same bytes."""
    return json.dumps(archive, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def campaign_archive(campaign: Campaign, reader: Membership | None = None) -> dict[str, Any]:
    """The campaign as an archive (docs/campaign-archive.md). A fixed number of queries
    whatever its size.

    `reader` None: the full archive, everything (the command line's, for moving a campaign
    between servers). `reader` a GM: the GM's archive (the site's download), which holds
    only what the site shows that GM: the conversations they may read (archive_press.py),
    and no member's email address (the site shows nobody's)."""
    members = list(campaign.memberships.select_related("user").order_by("pk"))
    orders = list(
        Order.objects.filter(turn__campaign=campaign)
        .select_related("turn", "board")
        .order_by("turn__number", "pk")
    )
    ids = ArchiveIds(
        member_name={m.pk: m.user.get_username() for m in members},
        order_ref={o.pk: f"o{i}" for i, o in enumerate(orders, start=1)},
        slug=campaign.slug,
        refs=intrigue_refs(campaign),
    )
    archive: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "scope": SCOPE_FULL if reader is None else SCOPE_GM,
        "campaign": {"slug": campaign.slug, **plain(campaign, CAMPAIGN_FIELDS)},
        "alignments": [a.as_engine() for a in campaign.alignments.order_by("pk")],
        "members": [member_entry(m, with_email=reader is None) for m in members],
        "boards": boards_entries(campaign, ids),
        "knowledge": [
            {
                "player": ids.member_name[k.player_id],
                "board": k.department.board.slug,
                "department": k.department.slug,
                "level": k.level,
            }
            for k in Knowledge.objects.filter(department__board__campaign=campaign)
            .select_related("department__board")
            .order_by("player_id", "department_id")
        ],  # fmt: skip
        "turns": turns_entries(campaign, ids, orders),
        "press": press_entries(campaign, ids, reader),
        "audit": [
            {
                **plain(e, ("at", "action", "target", "before", "after", "board", "departments")),
                "actor": e.actor.get_username() if e.actor else None,
            }
            for e in AuditEntry.objects.filter(campaign=campaign)
            .select_related("actor")
            .order_by("pk")
        ],  # fmt: skip
    }
    archive.update(intrigue_entries(campaign, ids))
    archive["checksum"] = checksum(archive)
    return archive


def member_entry(member: Membership, *, with_email: bool) -> dict[str, Any]:
    user = member.user
    entry = {
        "user": user.get_username(),
        "role": member.role,
        "character_name": member.character_name,
        "perception": member.perception,
    }
    if with_email:
        entry["email"] = getattr(user, "email", "")
    return entry


def boards_entries(campaign: Campaign, ids: ArchiveIds) -> list[dict[str, Any]]:
    boards = list(campaign.boards.order_by("pk"))
    departments = Department.objects.filter(board__campaign=campaign).select_related("structure")
    links = Link.objects.filter(board__campaign=campaign).select_related("supplier", "consumer")
    by_board: dict[int, dict[str, list[dict[str, Any]]]] = {
        b.pk: {"departments": [], "links": []} for b in boards
    }
    for dept in departments.order_by("pk"):
        owner = dept.structure.player_id if dept.structure_id else None
        by_board[dept.board_id]["departments"].append(
            {**plain(dept, DEPARTMENT_FIELDS), "structure": ids.member_name.get(owner)}
        )
    for link in links.order_by("supplier_id", "priority", "pk"):
        by_board[link.board_id]["links"].append(
            {"from": link.supplier.slug, "to": link.consumer.slug, "priority": link.priority}
        )
    classic = dict(
        ClassicBoard.objects.filter(board__campaign=campaign).values_list("board_id", "state")
    )
    entries = [{"slug": b.slug, "name": b.name, **by_board[b.pk]} for b in boards]
    for board, entry in zip(boards, entries, strict=True):
        if board.is_classic:  # R90: its ruleset and its state (a standard entry is as before)
            entry["ruleset"] = board.ruleset
            entry["classic"] = swap_classic(classic.get(board.pk, empty_classic_state()), ids)
    return entries


def turns_entries(campaign: Campaign, ids: ArchiveIds, orders: list[Order]) -> list[dict[str, Any]]:
    turns = list(campaign.turns.order_by("number"))
    entries = {t.pk: {**plain(t, TURN_FIELDS), "records": [], "orders": [], "order_log": [],
                      "player_turns": [], "notices": []} for t in turns}  # fmt: skip
    for turn in turns:
        # R23: a seed is secret until its turn is processed, from the GM too (who could
        # otherwise foresee the dice); the importer rolls a new one for an open turn.
        if turn.status != Turn.Status.PROCESSED:
            entries[turn.pk]["seed"] = None
    name = ids.member_name
    for record in TurnRecord.objects.filter(turn__campaign=campaign).select_related("board"):
        entries[record.turn_id]["records"].append(record_entry(record, ids))
    for order in orders:
        entries[order.turn_id]["orders"].append(
            {"ref": ids.order_ref[order.pk], "board": order.board.slug,
             "player": name[order.player_id], **plain(order, ORDER_FIELDS),
             "payload": swap_payload(order.kind, order.payload, ids)}
        )  # fmt: skip
    for log in OrderLog.objects.filter(turn__campaign=campaign).order_by("pk"):
        entries[log.turn_id]["order_log"].append(
            {"order": ids.order_ref[log.order_id], "player": name[log.player_id],
             **plain(log, ("action", "kind", "seq", "at")),
             "payload": swap_payload(log.kind, log.payload, ids)}
        )  # fmt: skip
    for ready in PlayerTurn.objects.filter(turn__campaign=campaign).order_by("pk"):
        entries[ready.turn_id]["player_turns"].append(
            {"player": name[ready.player_id], **plain(ready, ("ready_at", "reminded_for"))}
        )
    for notice in Notice.objects.filter(turn__campaign=campaign).order_by("pk"):
        entries[notice.turn_id]["notices"].append(
            {"player": name[notice.player_id],
             **plain(notice, ("text", "created_at", "read_at", "kind", "code", "params")),
             "url": swap_url(notice.url, ids, to_slug="{campaign}")}
        )  # fmt: skip
    for entry in entries.values():
        entry["records"].sort(key=lambda r: r["board"])
    return [entries[t.pk] for t in turns]


def record_entry(record: TurnRecord, ids: ArchiveIds) -> dict[str, Any]:
    def member(pk: str) -> Any:
        return ids.member_name.get(int(pk), pk) if pk.isdigit() else pk

    return {
        "board": record.board.slug,
        "state": swap_state(record.state, ids),
        "before": swap_state(record.before, ids),
        "report": swap_report(record.report, ids),
        "knowledge": swap_knowledge(record.knowledge, member),
        "knowledge_before": swap_knowledge(record.knowledge_before, member),
        "created_at": record.created_at.isoformat(),
    }

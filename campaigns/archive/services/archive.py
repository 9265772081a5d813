"""A new campaign from an archive (docs/campaign-archive.md; archive/selectors/archive.py writes
it).

The archive is checked before anything is written: its format and version, its checksum (a
changed or damaged file is refused), its shape, every value as the site's own forms and
columns would take it (archive/services/archive_fields.py: the checksum stops accidents, not someone
who computes it again), and each board's current state by the rules engine. Then everything
is created in one transaction, so a failure creates nothing. Users are matched by user name;
one that does not exist here is created inactive, without a password (they set one through
"forgot password" once the admin activates them).

Errors are ArchiveError with one line fit for a terminal or a page.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, transaction
from django.utils.dateparse import parse_datetime, parse_time

from campaigns.archive.selectors.archive import (
    CAMPAIGN_FIELDS,
    DEPARTMENT_FIELDS,
    ORDER_FIELDS,
    TURN_FIELDS,
)
from campaigns.archive.selectors.archive_ids import (
    FORMAT,
    READABLE,
    SCOPE_FULL,
    SCOPES,
    ArchiveNames,
    checksum,
    swap_classic,
    swap_knowledge,
    swap_payload,
    swap_report,
    swap_state,
    swap_url,
)
from campaigns.archive.services.archive_fields import (
    ArchiveError,
    fields_check,
    nesting_check,
    slug_check,
)
from campaigns.archive.services.archive_intrigue import IntrigueRows
from campaigns.classic.selectors.state import classic_engine_state
from campaigns.engine import EngineError
from campaigns.engine.classic.state import parse_classic
from campaigns.engine.cli_io import parse_board
from campaigns.engine.dice import commitment
from campaigns.models import (
    Alignment,
    Announcement,
    AuditEntry,
    Board,
    Campaign,
    ClassicBoard,
    Conversation,
    Department,
    Knowledge,
    Link,
    Membership,
    Message,
    Notice,
    Order,
    OrderLog,
    Participant,
    PlayerTurn,
    Structure,
    Turn,
    TurnRecord,
)
from campaigns.selectors.state import board_state
from campaigns.services.bulk_writes import bulk_set

DATETIMES = {"created_at", "updated_at", "opened_at", "deadline", "processed_at", "at",
             "ready_at", "reminded_for", "read_at"}  # fmt: skip


# Campaign settings the site gained after archives were first written: an older archive has
# no key for them, and its campaign takes the column's default (R30's minimum turn length,
# 72 hours; R98's "played on after a win": none). Every other setting must be there.
NEWER = ("min_turn_hours", "played_on_after")


def archive_check(data: Any) -> dict[str, Any]:
    """The archive if it is one this site wrote and nobody changed since; ArchiveError
    otherwise."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(f'not a campaign archive (no "format": "{FORMAT}")')
    nesting_check(data)  # before the checksum, whose json.dumps recurses
    if data.get("version") not in READABLE:
        versions = " and ".join(str(v) for v in READABLE)
        raise ArchiveError(f"archive version {data.get('version')!r}; this site reads {versions}")
    # Versions 1 and 2 have no scope: they were always full archives.
    if data.get("scope", SCOPE_FULL) not in SCOPES:
        scopes = " and ".join(SCOPES)
        raise ArchiveError(f"archive scope {data.get('scope')!r}; this site reads {scopes}")
    if data.get("checksum") != checksum(data):
        raise ArchiveError(
            "the checksum does not match: the archive was changed or damaged after export"
        )
    for key in ("campaign", "alignments", "members", "boards", "knowledge", "turns", "audit"):
        if key not in data:
            raise ArchiveError(f"the archive has no {key!r}")
    fields_check(data)
    return data


def campaign_import(*, data: Any, slug: str) -> Campaign:
    """A new campaign `slug` made from archive `data` (checked first; nothing is created if
    anything fails)."""
    archive = archive_check(data)
    slug_check(slug)
    try:
        with transaction.atomic():
            return Importer(archive, slug).run()
    except ArchiveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IntegrityError, DataError,
            OverflowError) as error:  # fmt: skip
        raise ArchiveError(f"the archive is not complete or not consistent ({error!r})") from None


def when(value: Any) -> dt.datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise ArchiveError(f"{value!r} is not a date and time")
    return parsed


def values(entry: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    return {f: when(entry[f]) if f in DATETIMES else entry[f] for f in fields}


class Importer:
    """Creates the rows of one archive, in the order the export listed them (so the ids
    keep that order and a second export lists them the same way)."""

    def __init__(self, archive: dict[str, Any], slug: str) -> None:
        self.archive = archive
        self.slug = slug
        self.timestamps: list[tuple[Any, list[str]]] = []  # rows whose auto times to restore

    def run(self) -> Campaign:
        entry = self.archive["campaign"]
        fields = values(entry, [f for f in CAMPAIGN_FIELDS if f in entry or f not in NEWER])
        fields["deadline_time"] = parse_time(self.archive["campaign"]["deadline_time"])
        campaign = Campaign.objects.create(slug=self.slug, **fields)
        self.later(campaign, ["created_at"], fields)
        self.campaign = campaign
        Alignment.objects.bulk_create(
            Alignment(campaign=campaign, name=a["name"], opposite=a.get("opposite", ""),
                      self_opposed=bool(a.get("self_opposed")))
            for a in self.archive["alignments"]
        )  # fmt: skip
        self.members = self.members_create()
        self.boards_create()
        # Before the turns: their records name the envelopes, goals and offices.
        rows = IntrigueRows(
            self.archive, self.members, self.boards, self.departments, self.names, when
        )
        rows.before_turns(self.later)
        self.turns_create()
        rows.after_turns(self.campaign, self.later)
        self.press_create(self.archive.get("press") or {})
        self.audit_create()
        self.timestamps_restore()
        return campaign

    def later(self, row: Any, names: list[str], source: dict[str, Any]) -> None:
        """Give `row` the archive's times for its auto_now fields once it exists."""
        for name in names:
            setattr(row, name, source[name])
        self.timestamps.append((row, names))

    def timestamps_restore(self) -> None:
        """One UPDATE per model for the times Django sets itself on creation."""
        groups: dict[tuple[type, tuple[str, ...]], list[Any]] = {}
        for row, names in self.timestamps:
            groups.setdefault((type(row), tuple(names)), []).append(row)
        for (_, names), rows in groups.items():
            bulk_set(rows, names)

    def members_create(self) -> dict[str, Membership]:
        users = get_user_model().objects
        members = {}
        for entry in self.archive["members"]:
            user = users.filter(username=entry["user"]).first()
            if user is None:
                user = users.create_user(entry["user"], entry.get("email", ""), is_active=False)
            members[entry["user"]] = Membership.objects.create(
                campaign=self.campaign, user=user, role=entry["role"],
                character_name=entry["character_name"], perception=entry["perception"],
            )  # fmt: skip
        self.names = ArchiveNames(
            member_pk={name: m.pk for name, m in members.items()}, order_pk={}, slug="{campaign}"
        )
        return members

    def boards_create(self) -> None:
        self.boards: dict[str, Board] = {}
        self.departments: dict[tuple[str, str], Department] = {}
        for entry in self.archive["boards"]:
            if entry.get("ruleset") == Board.Ruleset.CLASSIC:
                self.boards[entry["slug"]] = self.classic_board_create(entry)
                continue
            board = Board.objects.create(campaign=self.campaign, slug=entry["slug"],
                                         name=entry["name"])  # fmt: skip
            self.boards[board.slug] = board
            structures: dict[str, Structure] = {}
            for dept in entry["departments"]:
                owner = dept["structure"]
                if owner is not None and owner not in structures:
                    structures[owner] = Structure.objects.create(
                        board=board, player=self.members[owner]
                    )
                row = Department.objects.create(
                    board=board, structure=structures.get(owner), **values(dept, DEPARTMENT_FIELDS)
                )
                self.departments[(board.slug, row.slug)] = row
            Link.objects.bulk_create(
                Link(board=board, supplier=self.departments[(board.slug, link["from"])],
                     consumer=self.departments[(board.slug, link["to"])],
                     priority=link["priority"])
                for link in entry["links"]
            )  # fmt: skip
            self.board_check(board)
        Knowledge.objects.bulk_create(
            Knowledge(player=self.members[k["player"]],
                      department=self.departments[(k["board"], k["department"])], level=k["level"])
            for k in self.archive["knowledge"]
        )  # fmt: skip

    def classic_board_create(self, entry: dict[str, Any]) -> Board:
        """R90: a classic board and its state, reviewed by the engine as the turn job reads
        it (the campaign's catalogue is made already)."""
        if not isinstance(entry.get("classic"), dict):
            raise ArchiveError(f"board {entry['slug']}: a classic board without its state")
        board = Board.objects.create(campaign=self.campaign, slug=entry["slug"],
                                     name=entry["name"], ruleset=Board.Ruleset.CLASSIC)  # fmt: skip
        state = swap_classic(entry["classic"], self.names)
        catalogue = [a.as_engine() for a in self.campaign.alignments.order_by("pk")]
        try:
            parse_classic(classic_engine_state(state, catalogue=catalogue))
        except EngineError as error:
            raise ArchiveError(f"board {board.slug}: {error}") from None
        ClassicBoard.objects.create(board=board, state=state)
        return board

    def board_check(self, board: Board) -> None:
        """The rules engine reads the board as the next turn job will."""
        try:
            parse_board(board_state(board))
        except EngineError as error:
            raise ArchiveError(f"board {board.slug}: {error}") from None

    def turns_create(self) -> None:
        for entry in self.archive["turns"]:
            fields = values(entry, TURN_FIELDS)
            if fields["status"] != Turn.Status.PROCESSED or not fields["seed"]:
                # A seed is secret until its turn is processed (R23): whatever the file says,
                # whoever wrote it could know it, so the open turn gets new dice here.
                fields["seed"] = secrets.token_hex(32)
                fields["commitment"] = commitment(fields["seed"])
            turn = Turn.objects.create(campaign=self.campaign, **fields)
            for order in entry["orders"]:
                row = Order.objects.create(
                    turn=turn, board=self.boards[order["board"]],
                    player=self.members[order["player"]], **values(order, ORDER_FIELDS),
                )  # fmt: skip
                self.names.order_pk[order["ref"]] = row.pk
                self.later(row, ["created_at", "updated_at"], values(order, ORDER_FIELDS))
            self.turn_details(turn, entry)
        # Payloads name other orders (a reinforcement answers an attempt): swapped once
        # every order has its id.
        orders = list(Order.objects.filter(turn__campaign=self.campaign))
        for row in orders:
            row.payload = swap_payload(row.kind, row.payload, self.names)
        bulk_set(orders, ["payload"])

    def turn_details(self, turn: Turn, entry: dict[str, Any]) -> None:
        names = self.names
        for record in entry["records"]:
            row = TurnRecord.objects.create(
                turn=turn, board=self.boards[record["board"]],
                state=swap_state(record["state"], names),
                before=swap_state(record["before"], names),
                report=swap_report(record["report"], names),
                knowledge=swap_knowledge(record["knowledge"], self.member_pk),
                knowledge_before=swap_knowledge(record["knowledge_before"], self.member_pk),
            )  # fmt: skip
            self.later(row, ["created_at"], {"created_at": when(record["created_at"])})
        for log in entry["order_log"]:
            row = OrderLog.objects.create(
                turn=turn, player=self.members[log["player"]], action=log["action"],
                order_id=names.order_pk[log["order"]], kind=log["kind"], seq=log["seq"],
                payload=swap_payload(log["kind"], log["payload"], names),
            )  # fmt: skip
            self.later(row, ["at"], {"at": when(log["at"])})
        for ready in entry["player_turns"]:
            PlayerTurn.objects.create(turn=turn, player=self.members[ready["player"]],
                                      **values(ready, ("ready_at", "reminded_for")))  # fmt: skip
        for notice in entry["notices"]:
            row = Notice.objects.create(
                turn=turn, player=self.members[notice["player"]], text=notice["text"],
                url=swap_url(notice["url"], names, to_slug=self.slug),
                read_at=when(notice["read_at"]), kind=notice.get("kind", ""),
                # An older archive's notice has no code: it reads as its text.
                code=notice.get("code", ""), params=notice.get("params"),
            )  # fmt: skip
            self.later(row, ["created_at"], {"created_at": when(notice["created_at"])})

    def member_pk(self, name: str) -> str:
        pk = self.names.member_pk.get(name)
        if pk is None:
            raise ArchiveError(f"recorded knowledge names {name!r}, who is not a member")
        return str(pk)

    def press_create(self, press: dict[str, Any]) -> None:
        users = get_user_model().objects
        for entry in press.get("conversations", []):
            fields = values(entry, ("is_public", "subject", "last_seq", "last_message_at"))
            conversation = Conversation.objects.create(
                campaign=self.campaign, started_by=self.members.get(entry["started_by"] or ""),
                **fields,
            )  # fmt: skip
            self.later(conversation, ["created_at"], values(entry, ("created_at",)))
            # The GM's archive keeps only the GM's own read marks: the others are taken as
            # read and mailed up to the last message, so the copy tells nobody of old ones.
            seen = fields["last_seq"]
            Participant.objects.bulk_create(
                Participant(conversation=conversation, member=self.members[p["member"]],
                            last_read_seq=p.get("last_read_seq", seen),
                            mailed_seq=p.get("mailed_seq", seen))
                for p in entry["participants"]
            )  # fmt: skip
            for m in entry["messages"]:
                hidden_by = (
                    users.filter(username=m["hidden_by"]).first() if m["hidden_by"] else None
                )
                message = Message.objects.create(
                    conversation=conversation, sender=self.members[m["sender"]],
                    hidden_by=hidden_by, **values(m, ("seq", "text", "quote", "hidden_at")),
                )  # fmt: skip
                self.later(message, ["created_at"], values(m, ("created_at",)))
        for a in press.get("announcements", []):
            announcement = Announcement.objects.create(
                campaign=self.campaign, author=self.members[a["author"]], text=a["text"]
            )
            self.later(announcement, ["created_at"], values(a, ("created_at",)))

    def audit_create(self) -> None:
        users = get_user_model().objects
        for entry in self.archive["audit"]:
            actor = users.filter(username=entry["actor"]).first() if entry["actor"] else None
            AuditEntry.objects.create(
                campaign=self.campaign, actor=actor, at=when(entry["at"]),
                action=entry["action"], target=entry["target"], before=entry["before"],
                after=entry["after"],
                # Archives written before the log had filters have neither.
                board=entry.get("board", ""), departments=entry.get("departments", ""),
            )  # fmt: skip

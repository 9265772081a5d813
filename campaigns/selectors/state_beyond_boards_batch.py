"""What lies beside a campaign's boards (ENGINE.md parts 7-9), read in one query.

`state_beyond_boards.beside_read` asked one query to learn which parts a campaign has
(`present`) and then one or two per part it has: eight on the demo campaign, which has them
all, and that on every orders page. Here every part is one branch of a single
UNION ALL, each row tagged with its part, so the page asks once whatever the campaign holds;
what `present` said is read off the rows (a part is present when any row of it came back).

The branches share one row shape (part, pk, three numbers, five texts, one JSON text); a
JSON column is read as text and decoded as the model field decodes it (campaigns.jsoncodec),
so the values are those the per-part reads gave, in the same order (each part by pk)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from campaigns import jsoncodec
from campaigns.models import (
    Alignment,
    Board,
    Department,
    Election,
    Goal,
    IntelEnvelope,
    Knowledge,
    Membership,
    Office,
    Shtick,
)
from campaigns.models.campaign import engine_player_id

PLAYER = Membership.Role.PLAYER.value
INT, TEXT = "CAST(NULL AS INTEGER)", "CAST(NULL AS TEXT)"
# The tables the batch reads, named by their model in `branches`.
MODELS = (Alignment, Board, Department, Election, Goal, IntelEnvelope, Knowledge, Membership,
          Office, Shtick)  # fmt: skip


@dataclass(frozen=True)
class BesideBatch:
    """The rows of every part as `state_beyond_boards.BesideRows` holds them (None where the
    campaign has none of a part), and the campaign's players as (pk, character name,
    username) in pk order, for the orders page's hand-over choices (R62); with a viewer, what
    they know (R50)."""

    players: list[tuple[int, int]] | None
    shticks: list[tuple[int, dict[str, Any], str | None, str | None]] | None
    envelopes: list[tuple[Any, ...]] | None
    audiences: dict[int, list[str]]
    goals: list[dict[str, Any]] | None
    offices: list[tuple[Any, ...]] | None
    election: tuple[int, str] | None
    names: list[tuple[int, str, str]]
    knowledge: dict[int, int] | None = None
    boards: list[Board] | None = None
    alignments: list[Alignment] | None = None


def branches(
    campaign_id: int, number: int | None, viewer: int | None, boards: bool
) -> tuple[str, list[Any]]:
    """The UNION ALL of every part's rows of the campaign, and its parameters."""
    table = {m.__name__: m._meta.db_table for m in MODELS}
    user = get_user_model()._meta.db_table
    audience = IntelEnvelope.audience.through._meta.db_table
    department = (
        f"LEFT JOIN {table['Department']} d ON d.id = x.department_id "
        f"LEFT JOIN {table['Board']} b ON b.id = d.board_id"
    )
    member = f"JOIN {table['Membership']} m ON m.id = x.member_id"
    # part, pk, n1, n2, n3, t1, t2, t3, t4, t5, json
    parts = [
        # R70: every player, with Perception; their names for R62's choices.
        f"SELECT 'm', x.id, x.perception, {INT}, {INT}, x.character_name, u.username, {TEXT}, "
        f"{TEXT}, {TEXT}, {TEXT} FROM {table['Membership']} x JOIN {user} u ON u.id = x.user_id "
        "WHERE x.campaign_id = %s AND x.role = %s",
        # R60: every member's shticks (only players' count; any member's says "present").
        f"SELECT 's', x.id, x.member_id, {INT}, {INT}, b.slug, d.slug, m.role, {TEXT}, {TEXT}, "
        f"CAST(x.data AS TEXT) FROM {table['Shtick']} x {member} {department} "
        "WHERE m.campaign_id = %s",
        # R71: the envelopes, by their department's board.
        f"SELECT 'e', x.id, x.target, CAST(x.everyone AS INTEGER), x.grants, b.slug, d.slug, "
        f"{TEXT}, {TEXT}, {TEXT}, {TEXT} FROM {table['IntelEnvelope']} x {department} "
        "WHERE x.campaign_id = %s",
        f"SELECT 'a', a.intelenvelope_id, a.membership_id, {INT}, {INT}, {TEXT}, {TEXT}, "
        f"{TEXT}, {TEXT}, {TEXT}, {TEXT} FROM {audience} a "
        f"JOIN {table['IntelEnvelope']} x ON x.id = a.intelenvelope_id "
        "WHERE x.campaign_id = %s AND NOT x.everyone",
        # R61: every member's goals (only players' count).
        f"SELECT 'g', x.id, x.member_id, x.count, {INT}, x.kind, {TEXT}, m.role, {TEXT}, "
        f"{TEXT}, CAST(x.data AS TEXT) FROM {table['Goal']} x {member} "
        "WHERE m.campaign_id = %s",
        # R80: the offices, with their holder's and deputy's slugs.
        f"SELECT 'o', x.id, {INT}, {INT}, {INT}, x.name, x.alignment, b.slug, h.slug, p.slug, "
        f"CAST(x.shticks AS TEXT) FROM {table['Office']} x "
        f"JOIN {table['Board']} b ON b.id = x.board_id "
        f"LEFT JOIN {table['Department']} h ON h.id = x.holder_id "
        f"LEFT JOIN {table['Department']} p ON p.id = x.deputy_id "
        "WHERE b.campaign_id = %s",
    ]
    params: list[Any] = [campaign_id, PLAYER, *[campaign_id] * 5]
    if number is not None:
        parts.append(
            f"SELECT 'v', x.office_id, {INT}, {INT}, {INT}, b.slug, {TEXT}, {TEXT}, {TEXT}, "
            f"{TEXT}, {TEXT} FROM {table['Election']} x "
            f"JOIN {table['Office']} o ON o.id = x.office_id "
            f"JOIN {table['Board']} b ON b.id = o.board_id "
            "WHERE x.campaign_id = %s AND x.number = %s"
        )
        params += [campaign_id, number]
    if viewer is not None:
        # R50: what the viewer knows of the campaign's departments, for the order forms.
        parts.append(
            f"SELECT 'k', x.department_id, x.level, {INT}, {INT}, {TEXT}, {TEXT}, {TEXT}, "
            f"{TEXT}, {TEXT}, {TEXT} FROM {table['Knowledge']} x "
            f"JOIN {table['Department']} d ON d.id = x.department_id "
            f"JOIN {table['Board']} b ON b.id = d.board_id "
            "WHERE x.player_id = %s AND b.campaign_id = %s"
        )
        params += [viewer, campaign_id]
    if boards:
        # The campaign's boards and its catalogue of alignments (R5), each ranked by name
        # as the database orders names (n1), as the models' default order reads them.
        parts.append(
            f"SELECT 'b', x.id, ROW_NUMBER() OVER (ORDER BY x.name, x.id), {INT}, {INT}, "
            f"x.name, x.slug, x.ruleset, {TEXT}, {TEXT}, {TEXT} FROM {table['Board']} x "
            "WHERE x.campaign_id = %s"
        )
        parts.append(
            f"SELECT 'l', x.id, ROW_NUMBER() OVER (ORDER BY x.name, x.id), "
            f"CAST(x.self_opposed AS INTEGER), {INT}, x.name, x.opposite, {TEXT}, {TEXT}, "
            f"{TEXT}, {TEXT} FROM {table['Alignment']} x WHERE x.campaign_id = %s"
        )
        params += [campaign_id, campaign_id]
    return " UNION ALL ".join(parts) + " ORDER BY 1, 2", params


def beside_batch(
    campaign_id: int,
    *,
    boards: Sequence[Board] | None,
    number: int | None,
    viewer: int | None = None,
) -> BesideBatch:
    """Parts 7-9 of `boards` (of campaign `campaign_id`) in one query; `number`, the turn
    being resolved (its election), or None. Same values as beside_read's per-part reads.
    With `viewer` (a membership pk), that member's knowledge of every department of the
    campaign too (`knowledge`, department id -> level, as visibility.viewer_knowledge).
    With `boards` None, of every board of the campaign, read in the same query (`boards`,
    by name, and the campaign's `alignments`, by name)."""
    sql, params = branches(campaign_id, number, viewer, boards is None)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        found.setdefault(row[0], []).append(row)
    read = None
    if boards is None:
        ranked = sorted(found.get("b", []), key=lambda row: row[2])
        boards = read = [
            Board(pk=row[1], campaign_id=campaign_id, name=row[5], slug=row[6], ruleset=row[7])
            for row in ranked
        ]
    slugs = {board.slug for board in boards}
    members = found.get("m", [])
    shticks = found.get("s", [])
    players_present = any(row[2] > 0 for row in members) or bool(shticks)
    envelopes = found.get("e", [])
    audiences: dict[int, list[str]] = {}
    for _, envelope, member, *_rest in found.get("a", []):
        audiences.setdefault(envelope, []).append(engine_player_id(member))
    goals = found.get("g", [])
    offices = found.get("o", [])
    election = next((row for row in found.get("v", []) if row[5] in slugs), None)
    return BesideBatch(
        players=[(row[1], row[2]) for row in members] if players_present else None,
        shticks=[
            (row[2], jsoncodec.loads(row[10]), row[5], row[6])
            for row in shticks
            if row[7] == PLAYER
        ]
        if players_present
        else None,
        envelopes=[
            (row[1], row[5], row[6], row[2], bool(row[3]), row[4])
            for row in envelopes
            if row[5] in slugs
        ]
        if envelopes
        else None,
        audiences=audiences if envelopes else {},
        goals=[goal_of(row) for row in goals if row[7] == PLAYER] if goals else None,
        offices=[
            (row[1], row[5], row[6], jsoncodec.loads(row[10]), row[7], row[8], row[9])
            for row in offices
            if row[7] in slugs
        ]
        if offices
        else None,
        election=None if election is None or not offices else (election[1], election[5]),
        names=[(row[1], row[5], row[6]) for row in members],
        knowledge={row[1]: row[2] for row in found.get("k", [])} if viewer is not None else None,
        boards=read,
        alignments=[
            Alignment(
                pk=row[1],
                campaign_id=campaign_id,
                name=row[5],
                opposite=row[6],
                self_opposed=bool(row[3]),
            )
            for row in sorted(found.get("l", []), key=lambda row: row[2])
        ]
        if read is not None
        else None,
    )


def goal_of(row: tuple[Any, ...]) -> dict[str, Any]:
    """R61: a goal as the state holds it; `count` only for attempts_won (ENGINE.md)."""
    _, pk, member, count, _, kind, *_rest, data = row
    goal = {
        **jsoncodec.loads(data),
        "id": f"g{pk}",
        "player": engine_player_id(member),
        "kind": kind,
    }
    if kind == Goal.Kind.ATTEMPTS_WON:
        goal["count"] = count
    return goal

"""The keys of ENGINE.md parts 7-9 as the bridge builds them (selectors/state.py): what lies
beside the boards of a campaign. Read in a fixed number of queries whatever the number of
departments, players, shticks, envelopes, goals or offices.

- `players`: every player member (role player) with their Perception (R70) and shticks (R60);
- `envelopes` (R71): those of the state's departments, id "e<pk>", audience null (everyone)
  or the engine player ids it is addressed to, `grants` "rumoured" / "known" or null;
- `goals` (R61): every player's, id "g<pk>", `attempts_won` with its running count;
- `offices` (R80): those of the state's boards, id "o<pk>", with `"board"` in a state of
  several boards (the electorate of an election is its office's board);
- `election`: {"office": id} when one is scheduled for the turn being resolved.

A key is present only where the campaign has something for it (`players` where a player has a
Perception above 0 or a shtick), so a campaign with none of it gets exactly the state it had
before parts 7-9 (and the engine gives the same output byte for byte,
tests/engine/test_unchanged.py).

Departments are named by `Names`: plain slugs for the one board of a one-board state,
"<board>/<slug>" for every other (engine/joined.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from django.db import connection

from campaigns.engine.joined import SEP
from campaigns.models import (
    Board,
    Campaign,
    Election,
    Goal,
    IntelEnvelope,
    Knowledge,
    Membership,
    Office,
    Shtick,
    Turn,
)
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.state_beyond_boards_batch import BesideBatch, beside_batch

LEVEL_WORDS = {Knowledge.Level.RUMOURED: "rumoured", Knowledge.Level.KNOWN: "known"}
PLAYER = Membership.Role.PLAYER


@dataclass(frozen=True)
class Names:
    """How a state names departments: plain for `home`'s (a one-board state), qualified
    with their board for every other."""

    home: str | None

    def __call__(self, board: str, slug: str) -> str:
        return slug if board == self.home else f"{board}{SEP}{slug}"


@dataclass(frozen=True)
class Present:
    """What a campaign has of parts 7-9 (one query), and how many boards (a campaign of
    several is resolved as one state, selectors/state.py `campaign_state`). False when it
    has none of parts 7-9."""

    players: bool
    envelopes: bool
    goals: bool
    offices: bool
    boards: int = 1

    def __bool__(self) -> bool:
        return self.players or self.envelopes or self.goals or self.offices


def present(campaign_id: int) -> Present:
    """One query with an EXISTS per part and the number of boards. Written as SQL: it runs
    before every order check, and the ORM took longer to compile it than the database to
    answer it."""
    table = {m.__name__: m._meta.db_table for m in (Board, Goal, IntelEnvelope, Membership,
             Office, Shtick)}  # fmt: skip
    member = f"JOIN {table['Membership']} m ON m.id = x.member_id WHERE m.campaign_id = %s"
    board = f"JOIN {table['Board']} b ON b.id = x.board_id WHERE b.campaign_id = %s"
    sql = (
        f"SELECT EXISTS(SELECT 1 FROM {table['Membership']} x WHERE x.campaign_id = %s "
        "AND x.role = %s AND x.perception > 0), "
        f"EXISTS(SELECT 1 FROM {table['Shtick']} x {member}), "
        f"EXISTS(SELECT 1 FROM {table['IntelEnvelope']} x WHERE x.campaign_id = %s), "
        f"EXISTS(SELECT 1 FROM {table['Goal']} x {member}), "
        f"EXISTS(SELECT 1 FROM {table['Office']} x {board}), "
        f"(SELECT COUNT(*) FROM {table['Board']} x WHERE x.campaign_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [campaign_id, PLAYER.value, *[campaign_id] * 5])
        perception, shticks, envelopes, goals, offices, count = cursor.fetchone()
    return Present(
        bool(perception or shticks), bool(envelopes), bool(goals), bool(offices), int(count)
    )


def beside_keys(
    campaign: Campaign,
    *,
    boards: Sequence[Board],
    names: Names,
    turn: Turn | None = None,
    parts: Present | None = None,
) -> dict[str, Any]:
    """The keys of parts 7-9 for a state of `boards` of `campaign` (see the module): one
    query to learn what the campaign has (unless the caller passes `parts`), then one or
    two per part it has."""
    rows = beside_read(campaign, boards=boards, turn=turn, parts=parts)
    return beside_named(rows, boards=boards, names=names)


@dataclass(frozen=True)
class BesideRows:
    """What lies beside some boards of a campaign, as read: beside_keys names it for one
    state; a page that builds a state per board (the orders page) reads it once for all of
    them and names it for each (beside_named). Each part is None when the campaign has none
    of it. `envelopes` and `offices` are the rows of envelope_rows and office_rows, each with
    its board's slug; `election` the office up for election and its board's slug."""

    players: list[tuple[int, int]] | None = None
    shticks: list[tuple[int, dict[str, Any], str | None, str | None]] | None = None
    envelopes: list[tuple[Any, ...]] | None = None
    audiences: dict[int, list[str]] = field(default_factory=dict)
    goals: list[dict[str, Any]] | None = None
    offices: list[tuple[Any, ...]] | None = None
    election: tuple[int, str] | None = None
    # The campaign's players as (pk, character name, username), when read in one batch.
    names: list[tuple[int, str, str]] | None = None


def beside_read(
    campaign: Campaign,
    *,
    boards: Sequence[Board],
    turn: Turn | None = None,
    parts: Present | None = None,
) -> BesideRows:
    """BesideRows of `boards`: one query (selectors/state_beyond_boards_batch.py), or, when
    the caller has asked what the campaign has (`parts`), one or two per part it has."""
    if parts is None:
        number = turn.number if turn else None
        return beside_rows(beside_batch(campaign.pk, boards=boards, number=number))
    if not parts:
        return BesideRows()
    envelopes, audiences = envelope_rows(boards) if parts.envelopes else (None, {})
    members, shticks = player_rows(campaign) if parts.players else (None, None)
    return BesideRows(
        players=members,
        shticks=shticks,
        envelopes=envelopes,
        audiences=audiences,
        goals=goals_of(campaign) if parts.goals else None,
        offices=office_rows(boards) if parts.offices else None,
        election=election_of(boards, turn) if parts.offices and turn is not None else None,
    )


def beside_rows(batch: BesideBatch) -> BesideRows:
    """The BesideRows of a batch read (selectors/state_beyond_boards_batch.py)."""
    return BesideRows(**{f.name: getattr(batch, f.name) for f in fields(BesideRows)})


def beside_named(rows: BesideRows, *, boards: Sequence[Board], names: Names) -> dict[str, Any]:
    """The keys of parts 7-9 for a state of `boards` (some or all of those `rows` were read
    for), departments named by `names`."""
    slugs = {board.slug for board in boards}
    keys: dict[str, Any] = {}
    if rows.players is not None and rows.shticks is not None:
        keys["players"] = players_named(rows.players, rows.shticks, names)
    if rows.envelopes is not None:
        on = [row for row in rows.envelopes if row[1] in slugs]
        keys["envelopes"] = envelopes_named(on, rows.audiences, names)
    if rows.goals is not None:
        keys["goals"] = [dict(goal) for goal in rows.goals]
    if rows.offices is not None:
        on = [row for row in rows.offices if row[4] in slugs]
        keys["offices"] = offices_named(on, names, several=names.home is None)
        if rows.election is not None and rows.election[1] in slugs:
            keys["election"] = {"office": f"o{rows.election[0]}"}
    return keys


def shtick_named(data: dict[str, Any], board: str | None, slug: str | None, names: Names) -> dict:
    """A stored shtick as the state holds it: its department (if it names one) by the
    state's name for it."""
    if board is None or slug is None:
        return dict(data)
    return {**data, "department": names(board, slug)}


def player_rows(
    campaign: Campaign,
) -> tuple[list[tuple[int, int]], list[tuple[int, dict[str, Any], str | None, str | None]]]:
    """R60, R70: (every player's (pk, Perception), every player's shticks as (member pk,
    data, board slug, department slug)): 2 queries."""
    members = Membership.objects.filter(campaign=campaign, role=PLAYER).order_by("pk")
    shticks = Shtick.objects.filter(member__campaign=campaign, member__role=PLAYER).order_by("pk")
    return (
        list(members.values_list("pk", "perception")),
        list(
            shticks.values_list("member_id", "data", "department__board__slug", "department__slug")
        ),
    )


def players_named(
    members: list[tuple[int, int]],
    shticks: list[tuple[int, dict[str, Any], str | None, str | None]],
    names: Names,
) -> dict[str, Any]:
    """R60, R70: the `players` key."""
    sheets: dict[str, Any] = {
        engine_player_id(pk): {"perception": perception, "shticks": []}
        for pk, perception in members
    }
    for member, data, board, slug in shticks:
        sheets[engine_player_id(member)]["shticks"].append(shtick_named(data, board, slug, names))
    return sheets


def envelope_rows(boards: Sequence[Board]) -> tuple[list[tuple[Any, ...]], dict[int, list[str]]]:
    """R71: the envelopes of the boards' departments as (pk, board slug, department slug,
    target, everyone, grants), and envelope pk -> its audience's engine player ids (2
    queries)."""
    rows = list(
        IntelEnvelope.objects.filter(department__board__in=boards)
        .order_by("pk")
        .values_list("pk", "department__board__slug", "department__slug", "target", "everyone",
                     "grants")
    )  # fmt: skip
    audiences: dict[int, list[str]] = {}
    through = IntelEnvelope.audience.through.objects.filter(
        intelenvelope_id__in=[row[0] for row in rows if not row[4]]
    )
    for envelope, member in through.values_list("intelenvelope_id", "membership_id"):
        audiences.setdefault(envelope, []).append(engine_player_id(member))
    return rows, audiences


def envelopes_named(
    rows: list[tuple[Any, ...]], audiences: dict[int, list[str]], names: Names
) -> list[dict[str, Any]]:
    """R71: the `envelopes` key."""
    return [
        {
            "id": f"e{pk}",
            "department": names(board, slug),
            "target": target,
            "audience": None if everyone else sorted(audiences.get(pk, [])),
            "grants": LEVEL_WORDS.get(grants) if grants else None,
        }
        for pk, board, slug, target, everyone, grants in rows
    ]


def goals_of(campaign: Campaign) -> list[dict[str, Any]]:
    """R61: every player's goals (1 query). `count` only for attempts_won (ENGINE.md)."""
    goals = Goal.objects.filter(member__campaign=campaign, member__role=PLAYER).order_by("pk")
    found = []
    for pk, member, kind, data, count in goals.values_list(
        "pk", "member_id", "kind", "data", "count"
    ):
        goal = {**data, "id": f"g{pk}", "player": engine_player_id(member), "kind": kind}
        if kind == Goal.Kind.ATTEMPTS_WON:
            goal["count"] = count
        found.append(goal)
    return found


def office_rows(boards: Sequence[Board]) -> list[tuple[Any, ...]]:
    """R80: the boards' offices as (pk, name, alignment, shticks, board slug, holder slug,
    deputy slug): 1 query."""
    offices = Office.objects.filter(board__in=boards).order_by("pk")
    return list(
        offices.values_list(
            "pk", "name", "alignment", "shticks", "board__slug", "holder__slug", "deputy__slug"
        )
    )


def offices_named(
    rows: list[tuple[Any, ...]], names: Names, *, several: bool
) -> list[dict[str, Any]]:
    """R80: the `offices` key; their shticks name departments of their board."""
    found = []
    for pk, name, alignment, shticks, board, holder, deputy in rows:
        office: dict[str, Any] = {
            "id": f"o{pk}",
            "name": name,
            "alignment": alignment,
            "shticks": [shtick_named(s, board, s.get("department"), names) for s in shticks],
            "holder": names(board, holder) if holder else None,
            "deputy": names(board, deputy) if deputy else None,
        }
        if several:
            office["board"] = board
        found.append(office)
    return found


def election_of(boards: Sequence[Board], turn: Turn) -> tuple[int, str] | None:
    """R80: the election scheduled for `turn` on one of the boards, as (its office's pk,
    the office's board slug): 1 query."""
    found = (
        Election.objects.filter(
            campaign_id=turn.campaign_id, number=turn.number, office__board__in=boards
        )
        .values_list("office_id", "office__board__slug")
        .first()
    )
    return None if found is None else (found[0], found[1])

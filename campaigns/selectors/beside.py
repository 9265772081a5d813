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
from dataclasses import dataclass
from typing import Any

from django.db import connection

from campaigns.engine.joined import SEP
from campaigns.models import (
    Board,
    Campaign,
    Department,
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
    table = {m.__name__: m._meta.db_table for m in (Board, Department, Goal, IntelEnvelope,
             Membership, Office, Shtick)}  # fmt: skip
    member = f"JOIN {table['Membership']} m ON m.id = x.member_id WHERE m.campaign_id = %s"
    board = f"JOIN {table['Board']} b ON b.id = x.board_id WHERE b.campaign_id = %s"
    sql = (
        f"SELECT EXISTS(SELECT 1 FROM {table['Membership']} x WHERE x.campaign_id = %s "
        "AND x.role = %s AND x.perception > 0), "
        f"EXISTS(SELECT 1 FROM {table['Shtick']} x {member}), "
        f"EXISTS(SELECT 1 FROM {table['IntelEnvelope']} e "
        f"JOIN {table['Department']} x ON x.id = e.department_id {board}), "
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
    parts = parts if parts is not None else present(campaign.pk)
    if not parts:
        return {}
    keys: dict[str, Any] = {}
    if parts.players:
        keys["players"] = players_of(campaign, names)
    if parts.envelopes:
        keys["envelopes"] = envelopes_of(boards, names)
    if parts.goals:
        keys["goals"] = goals_of(campaign)
    if parts.offices:
        keys["offices"] = offices_of(boards, names, several=names.home is None)
        election = election_of(boards, turn) if turn is not None else None
        if election is not None:
            keys["election"] = election
    return keys


def shtick_named(data: dict[str, Any], board: str | None, slug: str | None, names: Names) -> dict:
    """A stored shtick as the state holds it: its department (if it names one) by the
    state's name for it."""
    if board is None or slug is None:
        return dict(data)
    return {**data, "department": names(board, slug)}


def players_of(campaign: Campaign, names: Names) -> dict[str, Any]:
    """R60, R70: every player's Perception and shticks (2 queries)."""
    members = Membership.objects.filter(campaign=campaign, role=PLAYER).order_by("pk")
    sheets: dict[str, Any] = {
        engine_player_id(pk): {"perception": perception, "shticks": []}
        for pk, perception in members.values_list("pk", "perception")
    }
    shticks = Shtick.objects.filter(member__campaign=campaign, member__role=PLAYER).order_by("pk")
    for member, data, board, slug in shticks.values_list(
        "member_id", "data", "department__board__slug", "department__slug"
    ):
        sheets[engine_player_id(member)]["shticks"].append(shtick_named(data, board, slug, names))
    return sheets


def envelopes_of(boards: Sequence[Board], names: Names) -> list[dict[str, Any]]:
    """R71: the envelopes of the boards' departments (2 queries)."""
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


def offices_of(boards: Sequence[Board], names: Names, *, several: bool) -> list[dict[str, Any]]:
    """R80: the boards' offices (1 query); their shticks name departments of their board."""
    offices = Office.objects.filter(board__in=boards).order_by("pk")
    found = []
    for pk, name, alignment, shticks, board, holder, deputy in offices.values_list(
        "pk", "name", "alignment", "shticks", "board__slug", "holder__slug", "deputy__slug"
    ):
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


def election_of(boards: Sequence[Board], turn: Turn) -> dict[str, str] | None:
    """R80: the election scheduled for `turn` on one of the boards (1 query)."""
    office = (
        Election.objects.filter(
            campaign_id=turn.campaign_id, number=turn.number, office__board__in=boards
        )
        .values_list("office_id", flat=True)
        .first()
    )
    return None if office is None else {"office": f"o{office}"}

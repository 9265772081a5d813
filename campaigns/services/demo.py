"""The demo campaign "Tourmaline": a GM, three players, two boards, turn 1 open, and an office
on the city board with its election scheduled in turn 2 (RULES R80: turn 1 lets a new player
read about it first).

The campaign is data (campaigns/demo/*.json); the boards go through the same importer a
GM's board file does (services/boards.py), so the demo also shows the import works.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.demo import demo_boards, demo_campaign
from campaigns.elections.services.offices import office_checked
from campaigns.models import (
    Board,
    Campaign,
    ContingencyEnvelope,
    Department,
    Election,
    Goal,
    IntelEnvelope,
    Knowledge,
    Membership,
    Office,
    Shtick,
    Weekday,
)
from campaigns.services.boards import board_import
from campaigns.services.campaigns import alignments_create_default
from campaigns.services.turns import campaign_start

DEMO_SLUG = "tourmaline"
DEMO_PASSWORD = "tourmaline"


def demo_exists() -> bool:
    return Campaign.objects.filter(slug=DEMO_SLUG).exists()


@transaction.atomic
def demo_create() -> Campaign:
    """Create Tourmaline and start it (turn 1 open). Users are reused if they exist."""
    facts = demo_campaign()
    campaign, members = demo_campaign_made(facts["name"], facts["slug"])
    players = {n: m for n, m in members.items() if m.role == Membership.Role.PLAYER}
    for data in demo_boards():
        board_import(campaign=campaign, data=data, players=players)
    departments = {d.slug: d for d in Department.objects.filter(board__campaign=campaign)}
    Knowledge.objects.bulk_create(
        Knowledge(player=members[name], department=departments[slug], level=level)
        for name, levels in facts["knowledge"].items()
        for slug, level in levels.items()
    )
    demo_offices(campaign, facts.get("offices", []))  # before the start: in turn 0's record
    demo_intrigue(facts, members, departments)
    campaign_start(campaign=campaign)
    return campaign


def demo_campaign_made(name: str, slug: str) -> tuple[Campaign, dict[str, Membership]]:
    """A demo campaign named `name` with campaign.json's deadline, zone and people (users
    reused if they exist), its default alignments, and its memberships by username. Shared
    with the classic demo (services/demo_classic.py)."""
    facts = demo_campaign()
    campaign = Campaign.objects.create(
        name=name,
        slug=slug,
        deadline_weekday=Weekday[facts["deadline"]["weekday"].upper()],
        deadline_time=dt.time.fromisoformat(facts["deadline"]["time"]),
        time_zone=facts["time_zone"],
    )
    alignments_create_default(campaign=campaign)
    return campaign, demo_members(campaign, facts["people"])


def demo_offices(campaign: Campaign, offices: list[dict[str, Any]]) -> None:
    """R80: each office of campaign.json (board, name, alignment, the turn of its first
    election), checked by the engine as the GM's are (elections/services/offices.py). Made as the
    boards are imported: the demo's data, not the GM's changes, so the audit log starts
    empty (R53)."""
    for facts in offices:
        board = Board.objects.select_related("campaign").get(campaign=campaign, slug=facts["board"])
        office_checked(board, facts["name"], facts["alignment"], [], None, None)
        office = Office.objects.create(
            board=board, name=facts["name"], alignment=facts["alignment"]
        )
        if facts.get("election"):
            Election.objects.create(campaign=campaign, office=office, number=facts["election"])


def demo_intrigue(
    facts: dict[str, Any], members: dict[str, Membership], departments: dict[str, Department]
) -> None:
    """RULES parts 7 and 8, so a new player meets them in the first week: each character's
    shticks (R60), secret goals (R61) and sealed envelopes (R72), and intel envelopes on
    departments some player has heard of (R71). The data is the engine's (campaign.json);
    the turn job's engine call at the start checks it like any GM's."""
    for name, sheet in facts.get("characters", {}).items():
        member = members[name]
        for data in sheet.get("shticks", []):
            dept = departments.get(data.get("department") or "")
            Shtick.objects.create(member=member, kind=data["kind"], data=data, department=dept)
        for data in sheet.get("goals", []):
            Goal.objects.create(
                member=member,
                kind=data["kind"],
                data={k: v for k, v in data.items() if k != "kind"},
            )
        for sealed in sheet.get("sealed", []):
            ContingencyEnvelope.objects.create(
                member=member, text=sealed["text"], condition=sealed["condition"],
                turn_number=sealed.get("turn"), level=sealed.get("level"),
                department=departments.get(sealed.get("department") or ""),
            )  # fmt: skip
    grants = {None: None, "rumoured": Knowledge.Level.RUMOURED, "known": Knowledge.Level.KNOWN}
    for data in facts.get("envelopes", []):
        audience = data.get("audience")
        envelope = IntelEnvelope.objects.create(
            department=departments[data["department"]], text=data["text"], target=data["target"],
            everyone=audience is None, grants=grants[data.get("grants")],
        )  # fmt: skip
        envelope.audience.set([members[n] for n in audience or []])


def demo_members(campaign: Campaign, people: list[dict[str, Any]]) -> dict[str, Membership]:
    """username -> membership, creating the users that do not exist yet."""
    members = {}
    users = get_user_model().objects
    for person in people:
        username = person["username"]
        user = users.filter(username=username).first()
        if user is None:
            user = users.create_user(username, f"{username}@example.com", DEMO_PASSWORD)
        members[username] = Membership.objects.create(
            campaign=campaign, user=user, role=person["role"],
            character_name=person["character_name"], perception=person["perception"],
        )  # fmt: skip
    return members

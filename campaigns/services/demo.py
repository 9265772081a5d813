"""The demo campaign "Tourmaline": a GM, three players, two boards, turn 1 open."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import (
    Board,
    Campaign,
    Department,
    Knowledge,
    Link,
    Membership,
    Structure,
)

from .campaigns import alignments_create_default
from .turns import campaign_start

DEMO_SLUG = "tourmaline"
DEMO_PASSWORD = "tourmaline"
PEOPLE = [
    ("gm", Membership.Role.GM, "The Game Master", 0),
    ("alice", Membership.Role.PLAYER, "Alice Ambergris, Comptroller", 2),
    ("bob", Membership.Role.PLAYER, "Bob Brackwater, Guildmaster", 1),
    ("carol", Membership.Role.PLAYER, "Mother Carol of the Eye", 3),
]

M, P, A = "money", "people", "authority"
# slug, name, (E, O, I), consumes, produces, functions, alignments, owner, home, stash
CITY: list[tuple[Any, ...]] = [
    (
        "mint",
        "The Mint",
        (2, 1, 1),
        (A, 1),
        (M, 3),
        {"coinage": 2, "linking": 1},
        ["Government", "Straight"],
        "alice",
        True,
        {A: 1},
    ),
    (
        "treasury",
        "The Treasury",
        (1, 2, 2),
        (M, 2),
        (A, 2),
        {"audit": 2},
        ["Government", "Conservative"],
        "alice",
        True,
        {M: 2},
    ),
    (
        "city-watch",
        "The City Watch",
        (2, 3, 1),
        (M, 1),
        (P, 2),
        {"patrol": 1},
        ["Violent", "Straight"],
        "alice",
        False,
        {},
    ),
    (
        "guild-hall",
        "The Guild Hall",
        (1, 1, 3),
        (P, 1),
        (M, 2),
        {"trade": 2, "linking": 2},
        ["Liberal", "Peaceful"],
        "bob",
        True,
        {P: 1},
    ),
    (
        "printing-press",
        "The Printing Press",
        (1, 1, 2),
        (M, 1),
        (A, 1),
        {"media": 2},
        ["Liberal", "Weird"],
        "bob",
        True,
        {},
    ),
    (
        "dock-workers",
        "The Dock Workers' Union",
        (2, 2, 0),
        (M, 2),
        (P, 3),
        {"strike": 1},
        ["Communist", "Violent"],
        "bob",
        False,
        {},
    ),
    (
        "temple",
        "The Temple of the Eye",
        (0, 2, 3),
        (P, 1),
        (A, 2),
        {"prophecy": 2},
        ["Fanatic", "Peaceful"],
        "carol",
        True,
        {P: 1},
    ),
    (
        "seminary",
        "The Seminary",
        (1, 1, 1),
        (A, 1),
        (P, 2),
        {"recruit": 1, "linking": 1},
        ["Fanatic", "Conservative"],
        "carol",
        True,
        {},
    ),
    (
        "thieves-guild",
        "The Thieves' Guild",
        (2, 2, 1),
        (P, 1),
        (M, 2),
        {"smuggling": 2},
        ["Criminal", "Weird"],
        "carol",
        False,
        {},
    ),
    (
        "tax-office",
        "The Tax Office",
        (1, 2, 1),
        (A, 1),
        (M, 2),
        {"assessment": 1},
        ["Government"],
        None,
        False,
        {M: 1},
    ),
    ("orphanage", "The Orphanage", (0, 1, 1), (M, 1), (P, 1), {}, ["Peaceful"], None, False, {}),
    (
        "archives",
        "The City Archives",
        (0, 3, 1),
        (P, 1),
        (A, 1),
        {"research": 2},
        ["Straight", "Conservative"],
        None,
        False,
        {},
    ),
    (
        "rebel-cell",
        "The Rebel Cell",
        (2, 1, 1),
        (M, 1),
        (P, 2),
        {"sabotage": 2},
        ["Communist", "Criminal"],
        None,
        False,
        {},
    ),
    (
        "street-preachers",
        "The Street Preachers",
        (1, 1, 1),
        (A, 1),
        (P, 1),
        {"sermon": 1},
        ["Fanatic", "Violent"],
        None,
        False,
        {},
    ),
]
# Cycles: mint<->treasury, guild-hall<->dock-workers, temple<->seminary and
# orphanage->archives->street-preachers. Contested: the guild hall makes 2 money but
# the press (1) and the dockers (2) want 3.
CITY_LINKS = [
    ("mint", "treasury"),
    ("treasury", "mint"),
    ("mint", "city-watch"),
    ("guild-hall", "printing-press"),
    ("guild-hall", "dock-workers"),
    ("dock-workers", "guild-hall"),
    ("temple", "seminary"),
    ("seminary", "temple"),
    ("seminary", "thieves-guild"),
    ("tax-office", "orphanage"),
    ("orphanage", "archives"),
    ("archives", "street-preachers"),
]
HARBOUR: list[tuple[Any, ...]] = [
    (
        "spice-house",
        "The Spice House",
        (1, 1, 2),
        (P, 1),
        (M, 2),
        {"haggle": 2},
        ["Liberal"],
        "alice",
        True,
        {},
    ),
    (
        "shipwright",
        "The Shipwright",
        (2, 1, 1),
        (M, 1),
        (P, 2),
        {"build": 2},
        ["Peaceful"],
        "bob",
        True,
        {M: 1},
    ),
    (
        "customs-house",
        "The Customs House",
        (1, 2, 2),
        (M, 1),
        (A, 2),
        {"inspect": 1},
        ["Government"],
        "carol",
        True,
        {M: 1},
    ),
    (
        "warehouse",
        "The Warehouse",
        (1, 2, 0),
        (A, 1),
        (M, 2),
        {},
        ["Conservative"],
        None,
        False,
        {},
    ),
    (
        "sailors-guild",
        "The Sailors' Guild",
        (2, 1, 1),
        (M, 1),
        (P, 2),
        {"brawl": 1},
        ["Violent", "Criminal"],
        None,
        False,
        {},
    ),
    (
        "harbour-master",
        "The Harbour Master",
        (1, 1, 2),
        (P, 1),
        (A, 1),
        {"licence": 1},
        ["Straight"],
        None,
        False,
        {A: 1},
    ),
]
HARBOUR_LINKS = [
    ("warehouse", "sailors-guild"),
    ("sailors-guild", "harbour-master"),
    ("harbour-master", "warehouse"),
]
# What each player knows of the others' departments (R50); their own they know fully.
KNOWLEDGE = {
    "alice": {"guild-hall": 2, "tax-office": 2, "temple": 1, "orphanage": 1, "archives": 1,
              "shipwright": 2, "warehouse": 1},
    "bob": {"mint": 2, "temple": 2, "treasury": 1, "tax-office": 1, "customs-house": 1},
    "carol": {"tax-office": 2, "printing-press": 2, "mint": 1, "rebel-cell": 1, "city-watch": 2,
              "harbour-master": 2},
}  # fmt: skip


def demo_exists() -> bool:
    return Campaign.objects.filter(slug=DEMO_SLUG).exists()


@transaction.atomic
def demo_create() -> Campaign:
    """Create Tourmaline and start it (turn 1 open). Users are reused if they exist."""
    campaign = Campaign.objects.create(
        name="Tourmaline",
        slug=DEMO_SLUG,
        deadline_time=dt.time(18, 0),
        time_zone="Europe/Berlin",
    )
    alignments_create_default(campaign=campaign)
    members = {}
    users = get_user_model().objects
    for username, role, character, perception in PEOPLE:
        user = users.filter(username=username).first()
        if user is None:
            user = users.create_user(username, f"{username}@example.com", DEMO_PASSWORD)
        members[username] = Membership.objects.create(
            campaign=campaign, user=user, role=role, character_name=character,
            perception=perception,
        )  # fmt: skip
    boards = [
        demo_board(campaign, "city", "The City of Tourmaline", CITY, CITY_LINKS, members),
        demo_board(campaign, "harbour", "The Merchant Harbour", HARBOUR, HARBOUR_LINKS, members),
    ]
    departments = {d.slug: d for b in boards for d in b.departments.all()}
    Knowledge.objects.bulk_create(
        Knowledge(player=members[name], department=departments[slug], level=level)
        for name, levels in KNOWLEDGE.items()
        for slug, level in levels.items()
    )
    campaign_start(campaign=campaign)
    return campaign


def demo_board(
    campaign: Campaign,
    slug: str,
    name: str,
    cards: list[tuple[Any, ...]],
    links: list[tuple[str, str]],
    members: dict[str, Membership],
) -> Board:
    board = Board.objects.create(campaign=campaign, slug=slug, name=name)
    structures = {
        player: Structure.objects.create(board=board, player=member)
        for player, member in members.items()
        if member.role == Membership.Role.PLAYER
    }
    made = {}
    for dslug, dname, (e, o, i), consumes, produces, functions, aligns, owner, home, stash in cards:
        made[dslug] = Department.objects.create(
            board=board, slug=dslug, name=dname, effect=e, obstruct=o, impress=i,
            consumes_type=consumes[0], consumes_amount=consumes[1],
            produces_type=produces[0], produces_amount=produces[1],
            functions=functions, alignments=aligns,
            structure=structures[owner] if owner else None, home=home,
            description=f"{dname}, a department of {name}.",
            flaws="Ambitious deputies." if home else "",
            **stash,
        )  # fmt: skip
    ranks: dict[str, int] = {}
    for supplier, consumer in links:
        Link.objects.create(
            board=board, supplier=made[supplier], consumer=made[consumer],
            priority=ranks.setdefault(supplier, 0),
        )  # fmt: skip
        ranks[supplier] += 1
    return board

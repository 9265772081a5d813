"""A hand-made board whose hidden fields hold sentinel strings, so that a leak of anything
RULES R50 hides shows up as a plain substring of the page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.test import Client

from campaigns.models import Board, Campaign, Department, Knowledge, Membership
from tests.factories import (
    BoardFactory,
    CampaignFactory,
    DepartmentFactory,
    KnowledgeFactory,
    LinkFactory,
    MembershipFactory,
    StructureFactory,
    TurnFactory,
)

# A fixture that gives a test client logged in as the named user (tests/conftest.py).
ClientFor = Callable[[str], Client]


@dataclass
class HandBoard:
    campaign: Campaign
    board: Board
    gm: Membership
    alice: Membership
    bob: Membership
    own: Department  # alice's
    known: Department  # bob's, alice knows it
    rumoured: Department  # uncontrolled, alice has heard of it
    unknown: Department  # no Knowledge row
    zero: Department  # a Knowledge row at level 0
    stale: Department  # bob's; alice's row still says "controlled" (R50: capped at known)


def secret_department(board: Board, tag: str, **fields: object) -> Department:
    """A department whose every field carries `tag`, to search the HTML for."""
    defaults: dict[str, object] = {
        "board": board,
        "slug": f"{tag.lower()}-slug-sentinel",
        "description": f"{tag}-DESCRIPTION-SENTINEL",
        "functions": {f"{tag.lower()}function": 3},
        "flaws": f"{tag}-FLAWS-SENTINEL",
        "status": f"{tag}-STAT",  # fits the column (16 characters) on PostgreSQL
    }
    return DepartmentFactory(**{**defaults, **fields})


def hand_board_create() -> HandBoard:
    """One board of campaign "hand": alice controls Own; she knows Bob's Known, has heard of
    Rumoured, knows nothing of Unknown or Zero, and has a stale level-3 row on Stale."""
    campaign = CampaignFactory(name="Hand", slug="hand")
    TurnFactory(campaign=campaign)
    gm = MembershipFactory(campaign=campaign, user__username="gm", role=Membership.Role.GM)
    alice = MembershipFactory(campaign=campaign, user__username="alice")
    bob = MembershipFactory(campaign=campaign, user__username="bob")
    board = BoardFactory(campaign=campaign, name="The Hand Board", slug="hand-board")
    alices = StructureFactory(board=board, player=alice)
    bobs = StructureFactory(board=board, player=bob)
    own = secret_department(
        board, "OWN", name="Alice Own Office", structure=alices, home=True,
        money=4711, capacity=8123, chain_length=3,
    )  # fmt: skip
    known = secret_department(
        board, "KNOWN", name="Bob Known Bureau", structure=bobs, home=True,
        money=5150, people=5151, capacity=6161, chain_length=7272,
    )  # fmt: skip
    rumoured = secret_department(
        board, "RUMOURED", name="Rumoured Ravens", effect=31337, obstruct=31338,
        impress=31339, alignments=["Weird"], money=5252,
    )  # fmt: skip
    unknown = secret_department(board, "UNKNOWN", name="Unknown Unicorns")
    zero = secret_department(board, "ZERO", name="Zero Zebras")
    stale = secret_department(
        board, "STALE", name="Stale Stoats", structure=bobs, money=5353, capacity=5454
    )
    for dept, level in [
        (known, Knowledge.Level.KNOWN),
        (rumoured, Knowledge.Level.RUMOURED),
        (zero, Knowledge.Level.UNKNOWN),
        (stale, Knowledge.Level.CONTROLLED),
    ]:
        KnowledgeFactory(player=alice, department=dept, level=level)
    LinkFactory(board=board, supplier=own, consumer=known, priority=0)
    LinkFactory(board=board, supplier=known, consumer=stale, priority=1)
    LinkFactory(board=board, supplier=known, consumer=rumoured, priority=0)
    LinkFactory(board=board, supplier=unknown, consumer=zero, priority=0)
    return HandBoard(campaign, board, gm, alice, bob, own, known, rumoured, unknown, zero, stale)

"""A classic board's page (RULES R90-R99, issue 27): each power structure from its Illuminati,
the table, the destroyed pile and the deck's size; treasuries only to their controller and the
GM, goals only to their player and the GM, the deck's order to nobody (R99); and the same
number of queries however many groups and players the board holds."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, ClassicBoard
from campaigns.services.campaigns import campaign_end, campaign_open
from tests.support.classic_files import (
    ALICE_GOAL,
    ALICE_TREASURY,
    BOB_TREASURY,
    MAFIA_TREASURY,
    classic_board_in,
    group,
)
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def text_of(response: object) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))  # type: ignore[attr-defined]


def cabal(client_for: ClientFor, username: str) -> str:
    response = client_for(username).get(reverse("board", args=[SLUG, "cabal"]))
    assert response.status_code == 200
    return text_of(response)


def test_every_member_sees_the_cards_places_and_controllers(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R99: every group on the table, in a structure or destroyed, with its card."""
    classic_board_in(demo)
    page = cabal(client_for, "carol")
    for name in ("Bavarian Illuminati", "The Mafia", "Gnomes of Zurich", "CIA", "Yuppies",
                 "Moonies"):  # fmt: skip
        assert name in page
    assert "Alice Ambergris, Comptroller's power structure" in page
    assert "Bob Brackwater, Guildmaster's power structure" in page
    assert "Government, Violent" in page  # the CIA's alignments
    assert "+2 to destroy (every attack of its player)" in page  # the Bavarians' bonus
    assert "The deck holds 2 groups, face down." in page
    assert "KGB" not in page and "Cycle Gangs" not in page  # R99: the deck is face down
    assert "Alice Ambergris, Comptroller: 1" in page  # destroyed by alice (R98)


def test_a_treasury_and_a_goal_are_seen_by_their_owner_and_the_gm_only(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R99."""
    classic_board_in(demo)
    alice, bob, carol, gm = (cabal(client_for, u) for u in ("alice", "bob", "carol", "gm"))
    mine = [str(ALICE_TREASURY), str(MAFIA_TREASURY), str(ALICE_GOAL)]
    assert all(m in alice for m in mine) and str(BOB_TREASURY) not in alice
    assert "Your power structure" in alice
    assert str(BOB_TREASURY) in bob and not any(m in bob for m in mine)
    assert not any(m in carol for m in [*mine, str(BOB_TREASURY)])
    assert all(m in gm for m in [*mine, str(BOB_TREASURY)])


def test_once_the_campaign_is_opened_everyone_sees_everything_r51(
    demo: Campaign, client_for: ClientFor
) -> None:
    classic_board_in(demo)
    gm = demo.memberships.get(role="gm").user
    campaign_end(campaign=demo, actor=gm)
    campaign_open(campaign=demo, actor=gm)
    assert str(ALICE_TREASURY) in cabal(client_for, "carol")


def grow(board_pk: int, groups: int, players: int) -> None:
    """The board with `groups` more groups in bob's structure, on the table, in the deck and
    destroyed, and `players` more players' Illuminati in the state (no members behind them)."""
    row = ClassicBoard.objects.get(pk=board_pk)
    state = row.state
    bob = next(g["controller"] for g in state["groups"] if g["slug"] == "gnomes")
    places = ["table", "deck", "destroyed", "structure"]
    parent = "gnomes"
    for i in range(groups):
        place = places[i % 4]
        extra = group(f"extra-{i}", place=place, treasury=i, bonuses=[
            {"aim": "control", "amount": 1, "scope": "own", "alignment": None}])  # fmt: skip
        if place == "structure":
            extra.update(controller=bob, parent=parent, arrows=1)
            parent = extra["slug"]  # a chain: each hangs on the one before
        if place == "deck":
            state["deck"].append(extra["slug"])
        state["groups"].append(extra)
    for i in range(players):
        state["players"].append({"id": f"x{i}", "goal": {"kind": "money", "amount": 5}})
        state["groups"].append(group(f"x{i}-illuminati", illuminati=True, resistance=None,
                                     arrows=4, place="structure", controller=f"x{i}"))  # fmt: skip
    row.state = state
    row.save()


@pytest.mark.parametrize("username", ["alice", "gm"])
def test_the_page_costs_the_same_queries_however_big_the_board(
    demo: Campaign, client_for: ClientFor, username: str
) -> None:
    board = classic_board_in(demo)
    client = client_for(username)
    url = reverse("board", args=[SLUG, "cabal"])
    client.get(url)  # warm: the session, the language

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    small = counted()
    grow(board.pk, groups=200, players=5)
    big = client.get(url)
    assert "Extra 196" in text_of(big) and "Extra 197" not in text_of(big)  # table; deck
    assert counted() == small

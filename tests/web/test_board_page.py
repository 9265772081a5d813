"""The board page shows each department at the viewer's level and no higher (RULES R50)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Model
from django.urls import reverse

from campaigns.models import Campaign
from tests.factories import BoardFactory, MembershipFactory
from tests.support.handmade import ClientFor, HandBoard


def board_html(client_for: ClientFor, username: str, slug: str, board: str) -> str:
    response = client_for(username).get(reverse("board", args=[slug, board]))
    assert response.status_code == 200
    return response.content.decode()


def test_r50_alice_sees_none_of_the_departments_she_does_not_know(
    demo: Campaign, client_for: ClientFor
) -> None:
    html = board_html(client_for, "alice", "tourmaline", "city")
    for hidden in ["Printing Press", "Dock Workers", "Seminary", "Thieves", "Rebel Cell",
                   "Street Preachers", "printing-press", "seminary"]:  # fmt: skip
        assert hidden not in html


def test_r50_alice_sees_her_own_mint_in_full(demo: Campaign, client_for: ClientFor) -> None:
    html = board_html(client_for, "alice", "tourmaline", "city")
    assert 'id="dept-mint"' in html
    mint = html[html.index('id="dept-mint"') :].split("</article>")[0]
    assert "Stash:" in mint
    assert "Ambitious deputies." in mint  # flaws
    assert "capacity" in mint and "chain" in mint


def test_r50_alice_sees_a_known_card_but_not_its_stash(
    demo: Campaign, client_for: ClientFor
) -> None:
    html = board_html(client_for, "alice", "tourmaline", "city")
    guild = html[html.index('id="dept-guild-hall"') :].split("</article>")[0]
    assert "trade +2" in guild
    assert "Bob Brackwater, Guildmaster" in guild  # who controls it
    assert "Stash" not in guild
    assert "Flaws" not in guild
    assert "capacity" not in guild


def test_r50_alice_hears_only_the_name_of_a_rumoured_department(
    demo: Campaign, client_for: ClientFor
) -> None:
    html = board_html(client_for, "alice", "tourmaline", "city")
    assert "The Temple of the Eye" in html
    assert "prophecy" not in html  # its function
    assert "landladies and barbers" not in html  # its description (campaigns/demo/city.json)
    assert 'id="dept-temple"' not in html


def test_r50_sentinels_of_hidden_fields_never_reach_alice(
    hand_board: HandBoard, client_for: ClientFor
) -> None:
    html = board_html(client_for, "alice", "hand", "hand-board")
    # Her own: everything.
    for shown in ["Alice Own Office", "OWN-FLAWS-SENTINEL", "OWN-STAT", "4711", "8123"]:
        assert shown in html
    # Known: the card, nothing private.
    assert "Bob Known Bureau" in html and "KNOWN-DESCRIPTION-SENTINEL" in html
    assert "knownfunction" in html
    for hidden in ["KNOWN-FLAWS-SENTINEL", "KNOWN-STAT", "5150", "5151", "6161", "7272"]:
        assert hidden not in html
    # Rumoured: the name only, not even the slug.
    assert "Rumoured Ravens" in html
    for hidden in ["RUMOURED-", "rumoured-slug-sentinel", "rumouredfunction", "31337", "31338",
                   "31339", "Weird", "5252"]:  # fmt: skip
        assert hidden not in html
    # Unknown and level 0: nothing at all.
    for hidden in ["Unknown Unicorns", "UNKNOWN-", "Zero Zebras", "ZERO-", "zero-slug"]:
        assert hidden not in html
    # A stale "controlled" row counts as known: card yes, stash no.
    assert "STALE-DESCRIPTION-SENTINEL" in html
    for hidden in ["STALE-FLAWS-SENTINEL", "STALE-STAT", "5353", "5454"]:
        assert hidden not in html


def test_r50_links_show_only_when_both_ends_are_known(
    hand_board: HandBoard, client_for: ClientFor
) -> None:
    html = board_html(client_for, "alice", "hand", "hand-board")
    links = html[html.index('id="links"') :].split("</ul>")[0]
    assert "Alice Own Office → Bob Known Bureau" in links
    assert "Bob Known Bureau → Stale Stoats" in links
    assert "Rumoured Ravens" not in links
    # R12: priorities only on the links alice's departments supply.
    assert links.count("priority") == 1


def test_r50_the_gm_sees_every_department_in_full(
    hand_board: HandBoard, client_for: ClientFor
) -> None:
    html = board_html(client_for, "gm", "hand", "hand-board")
    for shown in ["Unknown Unicorns", "Zero Zebras", "KNOWN-FLAWS-SENTINEL", "5150", "31337",
                  "STALE-STAT", "→ Rumoured Ravens"]:  # fmt: skip
        assert shown in html
    # Every priority in the list of links (the map's data and key say "priority" too).
    links = html[html.index('id="links"') :].split("</ul>")[0]
    assert links.count("priority") == 4


def walk(value: Any, seen: set[int]) -> list[Any]:
    """Every object reachable from a context value through lists, dicts and dataclasses."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    found = [value]
    children: list[Any] = []
    if isinstance(value, dict):
        children = list(value.values())
    elif isinstance(value, list | tuple):
        children = list(value)
    elif hasattr(value, "__dataclass_fields__"):
        children = [getattr(value, name) for name in value.__dataclass_fields__]
    for child in children:
        found += walk(child, seen)
    return found


def test_r50_the_board_context_holds_view_models_not_departments(
    hand_board: HandBoard, client_for: ClientFor
) -> None:
    """Hidden fields are not merely left out of the HTML: they never enter the context."""
    response = client_for("alice").get(reverse("board", args=["hand", "hand-board"]))
    objects = walk(response.context["board"], set())
    assert not [o for o in objects if isinstance(o, Model)]
    texts = " ".join(str(o) for o in objects if isinstance(o, str | int))
    assert "Unknown Unicorns" not in texts
    assert "KNOWN-FLAWS-SENTINEL" not in texts
    assert "5150" not in texts


@pytest.mark.parametrize(
    ("username", "slug", "board"),
    [
        ("dave", "tourmaline", "city"),  # not a member
        ("alice", "tourmaline", "no-such-board"),
        ("alice", "no-such-campaign", "city"),
        ("alice", "tourmaline", "elsewhere"),  # a board of another campaign
    ],
)
def test_board_page_is_404_unless_yours_and_real(
    demo: Campaign, client_for: ClientFor, username: str, slug: str, board: str
) -> None:
    MembershipFactory(user__username="dave")
    BoardFactory(slug="elsewhere")
    response = client_for(username).get(reverse("board", args=[slug, board]))
    assert response.status_code == 404


def test_board_page_does_not_accept_posts(demo: Campaign, client_for: ClientFor) -> None:
    response = client_for("alice").post(reverse("board", args=["tourmaline", "city"]))
    assert response.status_code == 405

"""A classic board's map and its turns (RULES R90-R99, R51): the page's map JSON draws each
power structure from its Illuminati with its control arrows and its free arrows, the table,
the destroyed pile and the deck's size only; another player's treasury and any goal never
reach it; `?turn=N` shows the board as turn N's record left it, with the same secrecy, and
a bad `?turn=` says so and shows the board now. Query counts do not grow with the groups."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, ClassicBoard, TurnRecord
from campaigns.services.turns import turn_process
from tests.support.classic_files import (
    ALICE_GOAL,
    ALICE_TREASURY,
    BOB_TREASURY,
    DECK_NAMES,
    MAFIA_TREASURY,
    classic_board_in,
    group,
)
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
URL = reverse("board", args=[SLUG, "cabal"])
MAP_DATA = re.compile(r'<script id="map-data-cabal" type="application/json">(.*?)</script>')


def page_of(client_for: ClientFor, username: str, query: str = "") -> tuple[str, dict[str, Any]]:
    """The page's HTML and its map's JSON (the json_script the map is drawn from)."""
    response = client_for(username).get(URL + query)
    assert response.status_code == 200
    content = response.content.decode()
    found = MAP_DATA.search(content)
    assert found is not None, "no map data on the page"
    return content, json.loads(html.unescape(found.group(1)))


def nodes_of(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {node["id"]: node for node in data["nodes"]}


def arrows(data: dict[str, Any], kind: str) -> set[tuple[str, str]]:
    return {(e["source"], e["target"]) for e in data["edges"] if e.get("kind") == kind}


def boxes(data: dict[str, Any]) -> set[tuple[str, str]]:
    """(pile, group) for each group drawn in the table's or the destroyed pile's box."""
    return {(n["parent"], n["id"]) for n in data["nodes"] if n.get("parent")}


def test_the_map_draws_each_structure_the_table_the_destroyed_and_the_deck_size(
    demo: Campaign, client_for: ClientFor
) -> None:
    classic_board_in(demo)
    content, data = page_of(client_for, "carol")
    nodes = nodes_of(data)
    # R92: a control arrow from each parent to its child.
    assert arrows(data, "control") == {
        ("group-bavarians", "group-mafia"),
        ("group-gnomes", "group-cia"),
    }
    # Free arrows, still open: out-arrows (R91) less the children hanging on them.
    assert arrows(data, "open") == {
        (f"group-{slug}", f"free-{slug}") for slug in ("bavarians", "mafia", "gnomes", "cia")
    }
    assert nodes["free-bavarians"]["label"] == "3 free arrows"  # 4 arrows, the Mafia on one
    assert nodes["free-cia"]["label"] == "2 free arrows"
    assert nodes["group-bavarians"]["illuminati"] and not nodes["group-mafia"]["illuminati"]
    assert nodes["group-mafia"]["controller"] == nodes["group-bavarians"]["controller"]
    assert nodes["group-mafia"]["colour"] != nodes["group-cia"]["colour"]
    # The table and the destroyed pile, each a box of its groups; the deck, its size.
    assert boxes(data) == {
        ("pile-table", "group-yuppies"),
        ("pile-destroyed", "group-moonies"),
    }
    assert nodes["group-yuppies"]["controller"] == ""  # uncontrolled
    assert nodes["pile-deck"]["label"] == "Deck: 2 groups, face down"
    # R99: the deck is face down, its cards are nowhere on the page, not even as ids.
    for hidden in ("kgb", "KGB", "cycle-gangs", "Cycle Gangs"):
        assert hidden not in content
    assert {n["id"] for n in data["nodes"]} == {
        "group-bavarians", "group-mafia", "group-gnomes", "group-cia", "group-yuppies",
        "group-moonies", "free-bavarians", "free-mafia", "free-gnomes", "free-cia",
        "pile-table", "pile-destroyed", "pile-deck",
    }  # fmt: skip
    # Every edge, drawn or only laid out, joins two nodes of the map; no box in a box.
    assert all(e["source"] in nodes and e["target"] in nodes for e in data["edges"])
    assert all(a in nodes and b in nodes for a, b in data["layout"])
    assert all(nodes[parent].get("parent") is None for parent, _ in boxes(data))


def test_a_treasury_reaches_the_map_of_its_controller_and_the_gm_only_and_no_goal_ever(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R99, in the page's HTML and its map JSON."""
    classic_board_in(demo)
    mine, bobs = [str(ALICE_TREASURY), str(MAFIA_TREASURY)], str(BOB_TREASURY)
    alice_html, alice_map = page_of(client_for, "alice")
    bob_html, bob_map = page_of(client_for, "bob")
    carol_html, carol_map = page_of(client_for, "carol")
    _, gm_map = page_of(client_for, "gm")
    as_text = json.dumps
    assert all(m in as_text(alice_map) for m in mine) and bobs not in as_text(alice_map)
    assert bobs in as_text(bob_map) and not any(m in as_text(bob_map) for m in mine)
    assert not any(s in as_text(carol_map) for s in [*mine, bobs])
    assert all(s in as_text(gm_map) for s in [*mine, bobs])
    assert f"{ALICE_TREASURY} MB" in nodes_of(alice_map)["group-bavarians"]["detail"]
    assert "MB" not in nodes_of(alice_map)["group-gnomes"]["detail"]
    # A group on the table is nobody's: its treasury is the GM's only; a destroyed one has
    # none (it went to the bank), as its row in the table says.
    assert "MB" in nodes_of(gm_map)["group-yuppies"]["detail"]
    assert "MB" not in nodes_of(alice_map)["group-yuppies"]["detail"]
    assert "MB" not in nodes_of(gm_map)["group-moonies"]["detail"]
    assert bobs not in alice_html and not any(m in bob_html for m in mine)
    assert not any(s in carol_html for s in [*mine, bobs])
    # A goal is on its player's page, in words, but never on a map.
    assert str(ALICE_GOAL) in alice_html
    assert not any(str(ALICE_GOAL) in as_text(m) for m in (alice_map, gm_map))


def after_turn_one_and_a_change(demo: Campaign) -> dict[str, Any]:
    """Turn 1 processed on the cabal, its deck two groups longer (R93: income, then the
    deck's top two groups drawn onto the table, two left in it), then the board changed (the
    Yuppies destroyed, bob's Illuminati's treasury set): the state turn 1 left, as its
    record keeps it."""
    board = classic_board_in(demo)
    row = ClassicBoard.objects.get(pk=board.pk)
    for name in DECK_NAMES:
        slug = name.lower().replace(" ", "-")
        row.state["groups"].append(group(slug, name=name, place="deck"))
        row.state["deck"].append(slug)
    row.save()
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    recorded = TurnRecord.objects.get(board=board, turn__number=1).state
    row = ClassicBoard.objects.get(pk=board.pk)
    for raw in row.state["groups"]:
        if raw["slug"] == "yuppies":
            raw.update(place="destroyed")
        if raw["slug"] == "gnomes":
            raw["treasury"] = 7399
    row.save()
    return dict(recorded)


def test_turn_n_shows_the_board_as_that_turn_left_it_with_the_same_secrecy(
    demo: Campaign, client_for: ClientFor
) -> None:
    recorded = after_turn_one_and_a_change(demo)
    treasury = {g["slug"]: g["treasury"] for g in recorded["groups"]}
    assert treasury["bavarians"] != ALICE_TREASURY  # income was paid in turn 1

    now_html, now_map = page_of(client_for, "alice")
    then_html, then_map = page_of(client_for, "alice", "?turn=1")
    assert "after turn 1" in then_html and "after turn 1" not in now_html
    # Now: the Yuppies destroyed, the deck empty; after turn 1: the Yuppies on the table
    # with the two groups drawn from the deck.
    assert ("pile-destroyed", "group-yuppies") in boxes(now_map)
    assert boxes(then_map) >= {
        ("pile-table", "group-yuppies"),
        ("pile-table", "group-kgb"),
        ("pile-table", "group-cycle-gangs"),
    }
    assert nodes_of(then_map)["pile-deck"]["label"] == "Deck: 2 groups, face down"
    # R99: the cards still in the deck then are face down then too.
    for name in DECK_NAMES:
        assert name not in then_html and name.lower().replace(" ", "-") not in then_html
    assert 'id="classic-table"' in then_html and "KGB" in then_html
    # alice's treasuries as turn 1 left them, on the page and the map; bob's, never.
    then_text = json.dumps(then_map)
    assert f"{treasury['bavarians']} MB" in nodes_of(then_map)["group-bavarians"]["detail"]
    assert str(treasury["mafia"]) in then_html
    for secret in (treasury["gnomes"], 7399):
        assert str(secret) not in then_html and str(secret) not in then_text
    assert "MB" not in nodes_of(then_map)["group-cia"]["detail"]
    # bob sees his own as turn 1 left them, not the change made since.
    bob_then, bob_map = page_of(client_for, "bob", "?turn=1")
    assert f"{treasury['gnomes']} MB" in nodes_of(bob_map)["group-gnomes"]["detail"]
    assert "7399" not in bob_then
    assert str(treasury["bavarians"]) not in bob_then
    # carol controlled neither: no treasury of theirs, then or now.
    carol_then, carol_map = page_of(client_for, "carol", "?turn=1")
    for secret in (treasury["bavarians"], treasury["mafia"], treasury["gnomes"], 7399):
        assert str(secret) not in carol_then and str(secret) not in json.dumps(carol_map)
    # The record's secret seed (R23) is no part of the page.
    seed = TurnRecord.objects.get(turn__number=1, board__slug="cabal").state["seed"]
    assert seed and seed not in then_html and seed not in bob_then
    # The scrubber: turn 1 and the board now.
    assert 'id="turn-slider"' in then_html and "The board now" in then_html


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("abc", "“abc” is not a turn number: this is the board now."),
        ("-1", "“-1” is not a turn number: this is the board now."),
        ("1.5", "“1.5” is not a turn number: this is the board now."),
        ("١", "“١” is not a turn number: this is the board now."),  # an Arabic-Indic one
        ("1\x00", "is not a turn number: this is the board now."),
        ("9" * 30, "is not a turn number: this is the board now."),
        ("7", "Turn 7 has no record on this board: this is the board now."),
        ("0", "Turn 0 has no record on this board: this is the board now."),
    ],
)
def test_a_bad_turn_says_so_and_shows_the_board_now(
    demo: Campaign, client_for: ClientFor, asked: str, said: str
) -> None:
    after_turn_one_and_a_change(demo)
    content, data = page_of(client_for, "alice", f"?turn={asked}")
    assert said in html.unescape(content)
    assert ("pile-destroyed", "group-yuppies") in boxes(data)  # the board now
    assert "after turn" not in content.split("<main", 1)[-1].split("</h1>", 1)[0]


def grow_record(board_pk: int, groups: int) -> None:
    """Turn 1's record of the board with `groups` more groups: a chain in alice's structure,
    on the table, destroyed and in the deck."""
    record = TurnRecord.objects.get(board_id=board_pk, turn__number=1)
    state = record.state
    alice = next(g["controller"] for g in state["groups"] if g["slug"] == "bavarians")
    parent = "bavarians"
    for i in range(groups):
        place = ["table", "deck", "destroyed", "structure"][i % 4]
        extra = group(f"extra-{i}", place=place, treasury=i)
        if place == "structure":
            extra.update(controller=alice, parent=parent, arrows=1)
            parent = extra["slug"]
        state["groups"].append(extra)
    record.state = state
    record.save()


@pytest.mark.parametrize("username", ["alice", "gm"])
def test_a_turn_costs_the_same_queries_however_many_groups(
    demo: Campaign, client_for: ClientFor, username: str
) -> None:
    after_turn_one_and_a_change(demo)
    board_pk = ClassicBoard.objects.get().pk
    client = client_for(username)
    client.get(URL)  # warm: the session, the language

    def counted(query: str) -> int:
        # The page cache off: it would answer the second read of a page from its store.
        with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as queries:
            assert client.get(URL + query).status_code == 200
        return len(queries)

    small = {q: counted(q) for q in ("", "?turn=1")}
    grow_record(board_pk, 200)
    _, data = page_of(client_for, username, "?turn=1")
    assert "group-extra-199" in nodes_of(data)  # the chain's last
    assert {q: counted(q) for q in ("", "?turn=1")} == small

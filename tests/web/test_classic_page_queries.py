"""Every classic page (RULES R90-R99) costs the same SQL queries however many groups the
board holds and however many orders the turn has, of every kind: the classic board page,
the orders page, each kind's order form (new, edited, and an attack's preview), the turn
report and the campaign page, for a player and the GM. Counted on a small classic board with
one order of each kind, then again after it grew by structures, table and deck and by eighty
orders (tests/web/test_every_page_queries.py's world has no classic board)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.classic.selectors.orders import CLASSIC_KINDS
from campaigns.models import Board, Campaign, ClassicBoard, Order, Turn
from campaigns.services.turns import turn_process
from tests.support.classic_files import classic_board_in, group
from tests.support.demo import member

pytestmark = pytest.mark.django_db

GROWTH = 40  # groups on the table, and as many orders of each player, as a board grows by
Kind = Order.Kind


def queries(client: Client, url: str) -> int:
    """The queries of one GET with the page cache off (a hit costs a fixed three)."""
    client.get(url)  # the session and language warmed first
    with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as seen:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(seen)


def grow(board: Board, campaign: Campaign, turn: Turn, size: int, tag: str) -> None:
    """The board grows by `size` groups on the table and in the deck and by a chain of
    `chain` groups under the Mafia and under the CIA (R92); then each player queues `size`
    orders on `turn`, every kind in turn (R94-R97). Called once small, so that every list a
    page shows has one row (an empty one may skip its query), then big. Most of the big
    week's orders are rejected at resolution (R94: two actions, two free transfers)."""
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    a, b = alice.player_id, bob.player_id
    chain = 2 if size < GROWTH else 8  # 2 + 2 + 8 groups: below the 13 that win (R98)
    row = ClassicBoard.objects.get(board=board)
    state = row.state
    state["groups"] += [group(f"{tag}extra-{n}", name=f"Extra {tag}{n}") for n in range(size)]
    for n in range(size):
        state["groups"].append(group(f"{tag}deck-{n}", place="deck"))
        state["deck"].append(f"{tag}deck-{n}")
    for player, root in ((a, "mafia"), (b, "cia")):
        parent = root
        for n in range(chain):
            slug = f"{tag}{root}-{n}"
            state["groups"].append(
                group(slug, place="structure", controller=player, parent=parent, arrows=2,
                      treasury=4)
            )  # fmt: skip
            parent = slug
    row.save()
    mafia = [f"{tag}mafia-{n}" for n in range(chain)]
    payloads = [
        (Kind.CLASSIC_ATTACK, {"group": "mafia", "target": f"{tag}extra-0", "aim": "control",
                               "assist": ["bavarians"], "spend": 1}),
        (Kind.CLASSIC_TRANSFER, {"from": mafia[1], "to": mafia[0], "amount": 1}),
        (Kind.CLASSIC_DEFEND, {"group": mafia[0], "spend": 1, "spend_illuminati": 1}),
        (Kind.CLASSIC_INTERFERE, {"target": f"{tag}cia-0", "side": "defend", "amount": 1}),
        (Kind.CLASSIC_GIFT, {"to_player": b, "amount": 1}),
        (Kind.CLASSIC_MOVE, {"group": mafia[-1], "to": "bavarians"}),
        (Kind.CLASSIC_DROP, {"group": mafia[-1]}),
        (Kind.CLASSIC_GIVE, {"group": mafia[-1], "to_player": b}),
        (Kind.CLASSIC_PASS, {}),
    ]  # fmt: skip
    theirs = [
        (Kind.CLASSIC_ATTACK, {"group": "cia", "target": mafia[0], "aim": "neutralize",
                               "spend": 0}),
        (Kind.CLASSIC_ACCEPT, {"group": mafia[-1], "parent": "gnomes"}),
    ]  # fmt: skip
    Order.objects.bulk_create(
        [Order(turn=turn, board=board, player=who, kind=kind, payload=payload,
               seq=len(tag) * 1000 + n)
         for who, kinds in ((alice, payloads), (bob, theirs))
         for n in range(max(size, len(kinds)))
         for kind, payload in [kinds[n % len(kinds)]]]
    )  # fmt: skip


def open_pages(campaign: Campaign, attack: Order) -> list[tuple[str, str]]:
    """(user, URL) of every classic page of the open turn."""
    slug = campaign.slug
    forms = [reverse("classic_order", args=[slug, "cabal", kind]) for kind in CLASSIC_KINDS]
    edit = f"{reverse('classic_order', args=[slug, 'cabal', 'attack'])}?order={attack.pk}"
    return [
        ("alice", reverse("board", args=[slug, "cabal"])),
        ("gm", reverse("board", args=[slug, "cabal"])),
        ("alice", reverse("orders", args=[slug])),
        ("bob", reverse("orders", args=[slug])),
        ("alice", reverse("campaign", args=[slug])),
        ("gm", reverse("campaign", args=[slug])),
        *[("alice", url) for url in forms],
        ("alice", edit),
    ]


def test_the_classic_pages_of_the_open_turn_cost_the_same_queries_on_a_grown_board(
    demo: Campaign, client_for: Any
) -> None:
    board = classic_board_in(demo)
    turn = demo.turns.get(number=1)
    attack = Order.objects.create(
        turn=turn, board=board, player=member(demo, "alice"), kind=Kind.CLASSIC_ATTACK,
        payload={"group": "mafia", "target": "yuppies", "aim": "control", "spend": 0},
    )  # fmt: skip
    clients = {who: client_for(who) for who in ("alice", "bob", "gm")}
    pages = open_pages(demo, attack)
    grow(board, demo, turn, 1, "a")
    small = {(who, url): queries(clients[who], url) for who, url in pages}
    grow(board, demo, turn, GROWTH, "big")
    assert Order.objects.filter(board=board, status="queued").count() == 1 + 9 + 2 + 2 * GROWTH
    large = {(who, url): queries(clients[who], url) for who, url in pages}
    grew = {page: (small[page], large[page]) for page in pages if small[page] != large[page]}
    assert grew == {}


def test_the_attack_preview_costs_the_same_queries_on_a_grown_board(
    demo: Campaign, client_for: Any
) -> None:
    """R95: the preview of an attack's need and chance, posted, stores nothing."""
    board = classic_board_in(demo)
    turn = demo.turns.get(number=1)
    client = client_for("alice")
    url = reverse("classic_order", args=[demo.slug, "cabal", "attack"])
    body = {"choice": "mafia|yuppies|control", "assist": ["bavarians"], "spend": "1",
            "preview": "1"}  # fmt: skip

    def previewed() -> int:
        with override_settings(PAGE_CACHE=False), CaptureQueriesContext(connection) as seen:
            response = client.post(url, body)
        assert response.status_code == 200 and "data-need" in response.content.decode()
        return len(seen)

    grow(board, demo, turn, 1, "a")
    previewed()  # the session warmed
    small = previewed()
    grow(board, demo, turn, GROWTH, "big")
    assert previewed() == small
    previews = Order.objects.filter(board=board, payload__target="yuppies")
    assert not previews.exists()


def test_the_classic_report_costs_the_same_queries_for_a_grown_board_and_turn(
    demo: Campaign, client_for: Any
) -> None:
    """Turn 1: one order of each kind on the small board; turn 2: the board grown and eighty
    orders of every kind resolved (R94-R97), income and draws for many more groups (R93).
    In the classic demo (its users are Tourmaline's), whose turns differ in nothing else:
    Tourmaline's turn 2 holds an election, which its report reads."""
    from campaigns.services.demo_classic import classic_demo_create

    demo = classic_demo_create()
    board = classic_board_in(demo)
    grow(board, demo, demo.turns.get(number=1), 1, "a")
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    grow(board, demo, demo.turns.get(number=2), GROWTH, "big")
    assert turn_process(campaign_id=demo.pk, number=2) is not None
    resolved = Order.objects.filter(board=board, turn__number=2).exclude(status="queued")
    assert resolved.count() == 2 * GROWTH
    for who in ("alice", "bob", "gm"):
        client = client_for(who)
        counts = [queries(client, reverse("turn_report", args=[demo.slug, n])) for n in (1, 2)]
        assert counts[0] == counts[1], (who, counts)

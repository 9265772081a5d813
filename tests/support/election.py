"""The demo's election (RULES R80) in tests: turn 1 processed with no orders, so turn 2 is open
and holds the election for the Mayor of Tourmaline (campaigns/demo/campaign.json), and the
three players' tickets, support and votes queued through the real order service (so the
engine checks each, as a player's form would have it)."""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, Order, Turn
from campaigns.services.orders import orders_submit
from campaigns.services.turns import turn_process
from tests.support.demo import member

# (player, kind, payload): three tickets, bob's Printing Press doubling its support (media).
TICKETS: list[tuple[str, str, dict[str, Any]]] = [
    ("alice", "nominate", {"candidate": "mint", "running_mate": "treasury"}),
    ("bob", "nominate", {"candidate": "guild-hall", "running_mate": "printing-press"}),
    ("carol", "nominate", {"candidate": "temple", "running_mate": "seminary"}),
]
SUPPORT: list[tuple[str, str, dict[str, Any]]] = [
    ("alice", "support", {"department": "mint", "ticket": "mint"}),
    ("alice", "support", {"department": "treasury", "ticket": "mint"}),
    ("bob", "support", {"department": "guild-hall", "ticket": "guild-hall"}),
    ("bob", "support", {"department": "printing-press", "ticket": "guild-hall", "double": True}),
    ("carol", "support", {"department": "temple", "ticket": "temple"}),
    ("carol", "support", {"department": "seminary", "ticket": "temple"}),
    ("alice", "vote", {"ticket": "mint"}),
    ("bob", "vote", {"ticket": "guild-hall"}),
]


def election_turn(demo: Campaign) -> Turn:
    """Turn 1 processed without orders: turn 2, the Mayor's election, is open."""
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    return demo.turns.get(status=Turn.Status.OPEN)


def queue_election(demo: Campaign, orders: list[tuple[str, str, dict[str, Any]]]) -> list[Order]:
    turn = demo.turns.get(status=Turn.Status.OPEN)
    city = demo.boards.get(slug="city")
    return [
        orders_submit(
            player=member(demo, player), turn=turn, board=city, kind=kind, payload=payload
        )  # fmt: skip
        for player, kind, payload in orders
    ]


# --- The fog-of-war crawl's election (tests/support/crawl.py) ---------------------------------

# The Printing Press's Impress in the crawl's world: a supporter's power (doubled: 9602) is a
# sentinel only those who know its card may see (bob controls it, carol knows it, R50).
POWER = 4801
POWER_SHOWN = str(2 * POWER)
# Turn 1 (made before it is played): bob's ticket, with his Printing Press doubling, carol's.
TURN_ONE: list[tuple[str, str, dict[str, Any]]] = [
    ("bob", "nominate", {"candidate": "guild-hall", "running_mate": "dock-workers"}),
    ("bob", "support", {"department": "printing-press", "ticket": "guild-hall", "double": True}),
    ("carol", "nominate", {"candidate": "temple", "running_mate": "seminary"}),
    ("alice", "vote", {"ticket": "temple"}),
]
# Turn 2, open: alice's ticket, which the Printing Press supports doubled.
TURN_TWO: list[tuple[str, str, dict[str, Any]]] = [
    ("alice", "nominate", {"candidate": "mint", "running_mate": "treasury"}),
    ("bob", "support", {"department": "printing-press", "ticket": "mint", "double": True}),
    ("carol", "vote", {"ticket": "mint"}),
]


def crawl_election_before(campaign: Campaign) -> None:
    """Before turn 1 is played: the Mayor's election in turn 1 too (turn 2's comes with the
    demo), its orders, and the Printing Press's sentinel Impress."""
    from campaigns.elections.services.offices import election_schedule
    from campaigns.models import Department, Office

    Department.objects.filter(board__campaign=campaign, slug="printing-press").update(impress=POWER)
    gm = member(campaign, "gm").user
    election_schedule(office=Office.objects.get(board__campaign=campaign), number=1, actor=gm)
    make_orders(campaign, 1, TURN_ONE)


def make_orders(
    campaign: Campaign, number: int, orders: list[tuple[str, str, dict[str, Any]]]
) -> None:
    """Order rows made directly (as tests/support/demo.py makes turn 1's), after the rest."""
    turn = campaign.turns.get(number=number)
    city = campaign.boards.get(slug="city")
    for seq, (player, kind, payload) in enumerate(orders, start=50):
        Order.objects.create(turn=turn, board=city, player=member(campaign, player), kind=kind,
                             payload=payload, seq=seq)  # fmt: skip

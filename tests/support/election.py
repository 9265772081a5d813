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

"""Fixtures for the report, dice and mail tests: the demo campaign with turn 1 played.

Turn 1's orders are Order rows made directly (the order forms are another part of the
issue) and resolved by the real turn job. The seed is chosen, before processing, as the
first of a fixed list under which Carol's linking attempt on Alice's City Watch succeeds,
so the capture is always there to report."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pytest

from campaigns import engine
from campaigns.engine.dice import commitment
from campaigns.models import Campaign, Membership, Order, Turn
from campaigns.selectors.state import board_state
from campaigns.services.demo import demo_create
from campaigns.services.turns import turn_process
from tests.web.conftest import client_for  # noqa: F401  (the report tests log in too)


@dataclass
class Played:
    campaign: Campaign
    turn: Turn  # turn 1, processed
    members: dict[str, Membership]
    orders: dict[str, Order]

    def order(self, name: str) -> Order:
        return Order.objects.get(pk=self.orders[name].pk)


ORDERS = [
    # name, player, kind, payload
    ("alice_roll", "alice", Order.Kind.FUNCTION,
     {"department": "mint", "function": "coinage", "stat": "effect",
      "intent": "ALICE-INTENT-SENTINEL"}),
    ("alice_move", "alice", Order.Kind.MOVE,
     {"from": "mint", "path": ["treasury"], "tokens": {"money": 1}}),
    ("alice_bad", "alice", Order.Kind.BREAK_LINK, {"from": "mint", "to": "orphanage"}),
    ("bob_roll", "bob", Order.Kind.FUNCTION,
     {"department": "guild-hall", "function": "trade", "stat": "impress",
      "intent": "BOB-INTENT-SENTINEL"}),
    ("carol_attempt", "carol", Order.Kind.ATTEMPT,
     {"attacker": "thieves-guild", "target": "city-watch", "cost": {"money": 2}}),
]  # fmt: skip


def seed_for_capture(turn: Turn, orders: list[Order], attempt: Order) -> str:
    city = turn.campaign.boards.get(slug="city")
    for i in range(2000):
        turn.seed = hashlib.sha256(f"report-tests-{i}".encode()).hexdigest()
        result = engine.resolve(board_state(city, turn=turn, orders=orders))
        if result["report"]["orders"][attempt.engine_id]["status"] == "succeeded":
            return turn.seed
    raise AssertionError("no seed in the list lets the attempt succeed")


def play_turn_one() -> Played:
    campaign = demo_create()
    members = {m.user.username: m for m in campaign.memberships.select_related("user")}
    turn = campaign.turns.get(number=1)
    city = campaign.boards.get(slug="city")
    orders = {
        name: Order.objects.create(
            turn=turn, board=city, player=members[player], kind=kind, payload=payload, seq=seq
        )
        for seq, (name, player, kind, payload) in enumerate(ORDERS, start=1)
    }
    turn.seed = seed_for_capture(turn, list(orders.values()), orders["carol_attempt"])
    turn.commitment = commitment(turn.seed)
    turn.save(update_fields=["seed", "commitment"])
    turn_process(campaign_id=campaign.pk, number=1)
    turn.refresh_from_db()
    return Played(campaign, turn, members, orders)


@pytest.fixture
def played(db: None) -> Played:
    return play_turn_one()

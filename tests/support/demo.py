"""The demo campaign Tourmaline in tests (services/demo.py): shortcuts for orders, and turn 1
played with several players' orders.

Turn 1's orders are Order rows made directly and resolved by the real turn job. The seed is
chosen, before processing, as the first of a fixed list under which Carol's linking attempt
on Alice's City Watch succeeds, so the capture is always there to report."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaigns import engine
from campaigns.engine.dice import commitment
from campaigns.models import Board, Campaign, Membership, Order, Turn
from campaigns.selectors.state import board_state
from campaigns.services.demo import demo_create
from campaigns.services.orders import orders_submit
from campaigns.services.turns import turn_process


def member(campaign: Campaign, username: str) -> Membership:
    return Membership.objects.select_related("user", "campaign").get(
        campaign=campaign, user__username=username
    )


def reset_link(campaign: Campaign, username: str) -> str:
    """The link of a password-reset mail for `username` (the page it opens is the form)."""
    from django.contrib.auth.tokens import default_token_generator
    from django.urls import reverse
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    user = member(campaign, username).user
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])


def intrigue_cleared(campaign: Campaign) -> Campaign:
    """The demo without its RULES parts 7-8 rows (services/demo.py `demo_intrigue`: shticks,
    goals, intel and sealed envelopes), for tests written about a campaign that has none."""
    from campaigns.models import ContingencyEnvelope, Goal, IntelEnvelope, Shtick

    Shtick.objects.filter(member__campaign=campaign).delete()
    Goal.objects.filter(member__campaign=campaign).delete()
    ContingencyEnvelope.objects.filter(member__campaign=campaign).delete()
    IntelEnvelope.objects.filter(department__board__campaign=campaign).delete()
    return campaign


def open_turn(campaign: Campaign) -> Turn:
    return campaign.turns.get(status=Turn.Status.OPEN)


def city(campaign: Campaign) -> Board:
    return campaign.boards.get(slug="city")


def submit(
    campaign: Campaign, username: str, kind: str, payload: dict[str, Any], **kw: Any
) -> Order:
    return orders_submit(
        player=member(campaign, username),
        turn=open_turn(campaign),
        board=kw.pop("board", None) or city(campaign),
        kind=kind,
        payload=payload,
        **kw,
    )


ATTACK = {"attacker": "city-watch", "target": "guild-hall"}  # alice -> bob, legal in the demo


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


def seed_where(
    turn: Turn, orders: list[Order], order: Order, wanted: str, *, prefix: str = "report-tests"
) -> str:
    """The first of a fixed list of seeds under which `order` (resolved with `orders` on
    the city board) ends `wanted` (succeeded, failed, ...)."""
    city = turn.campaign.boards.get(slug="city")
    for i in range(2000):
        turn.seed = hashlib.sha256(f"{prefix}-{i}".encode()).hexdigest()
        result = engine.resolve(board_state(city, turn=turn, orders=orders))
        if result["report"]["orders"][order.engine_id]["status"] == wanted:
            return turn.seed
    raise AssertionError(f"no seed in the list makes order {order.pk} {wanted}")


def seed_for_capture(turn: Turn, orders: list[Order], attempt: Order) -> str:
    return seed_where(turn, orders, attempt, "succeeded")


def play_turn_one(
    create: Callable[[], Campaign] = demo_create, carol_attempt: str = "succeeded"
) -> Played:
    """Turn 1 of the demo (made by `create`) played with ORDERS under a seed where Carol's
    attempt on Alice's City Watch ends as `carol_attempt` says (by default: it captures it)."""
    campaign = create()
    members = {m.user.username: m for m in campaign.memberships.select_related("user")}
    turn = campaign.turns.get(number=1)
    city = campaign.boards.get(slug="city")
    orders = {
        name: Order.objects.create(
            turn=turn, board=city, player=members[player], kind=kind, payload=payload, seq=seq
        )
        for seq, (name, player, kind, payload) in enumerate(ORDERS, start=1)
    }
    turn.seed = seed_where(turn, list(orders.values()), orders["carol_attempt"], carol_attempt)
    turn.commitment = commitment(turn.seed)
    turn.save(update_fields=["seed", "commitment"])
    turn_process(campaign_id=campaign.pk, number=1)
    turn.refresh_from_db()
    return Played(campaign, turn, members, orders)

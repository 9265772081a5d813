"""Campaigns for the tests of RULES parts 7-9 through the real turn job: the small campaign of
tests/support/turn_job.py (alice and bob on two identical boards: mint, treasury and watch are
alice's, guild and press bob's, the orphanage uncontrolled) plus carol, a player who holds
nothing, and helpers to process a turn and to pick a seed under which an order ends as wanted.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from campaigns import engine
from campaigns.intrigue.services.characters import shtick_grant
from campaigns.models import Campaign, Membership, Order, Turn
from campaigns.services.turn_plans import boards_resolve
from campaigns.services.turns import turn_process
from tests.factories import MembershipFactory
from tests.support.demo import member
from tests.support.turn_job import Game, started_campaign


@dataclass
class Plot(Game):
    carol: Membership


def plot_game(*, boards: int = 2, slug: str = "plot") -> Plot:
    game = started_campaign(boards=boards, slug=slug)
    carol = MembershipFactory(campaign=game.campaign, user__username=f"{slug}-carol")
    return Plot(game.campaign, game.gm, game.alice, game.bob, game.boards, carol)


def open_turn(game: Game) -> Turn:
    return game.campaign.turns.get(status=Turn.Status.OPEN)


def process(game: Game) -> Turn:
    """Process the open turn through the real job; return it, processed."""
    turn = open_turn(game)
    assert turn_process(campaign_id=game.campaign.pk, number=turn.number) is not None
    return Turn.objects.get(pk=turn.pk)


def outcomes_under(game: Game, seed: str) -> dict[int, dict[str, Any]]:
    """Order id -> outcome if the open turn were resolved under `seed` (nothing written)."""
    turn = open_turn(game)
    turn.seed = seed
    queued: dict[int, list[Order]] = {}
    for order in turn.orders.filter(status=Order.Status.QUEUED).order_by("seq", "pk"):
        queued.setdefault(order.board_id, []).append(order)
    boards = list(game.campaign.boards.all())
    boards_resolve(game.campaign, boards, turn, queued, engine.resolve_then_spawn, turn)
    return {o.pk: o.result for orders in queued.values() for o in orders}


def seed_making(game: Game, order: Order, status: str, *, prefix: str = "plot") -> str:
    """Give the open turn the first seed of a fixed list under which `order` ends `status`."""
    for i in range(500):
        seed = hashlib.sha256(f"{prefix}-{i}".encode()).hexdigest()
        if outcomes_under(game, seed)[order.pk]["status"] == status:
            Turn.objects.filter(pk=order.turn_id).update(seed=seed)
            return seed
    raise AssertionError(f"no seed in the list makes order {order.pk} {status}")


def queue(campaign: Campaign, board: str, orders: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Queue (username, kind, payload) orders of the demo's open turn on `board`."""
    turn = campaign.turns.get(status=Turn.Status.OPEN)
    on = campaign.boards.get(slug=board)
    for player, kind, payload in orders:
        seq = Order.objects.filter(turn=turn, player=member(campaign, player)).count()
        Order.objects.create(turn=turn, board=on, player=member(campaign, player), kind=kind,
                             payload=payload, seq=seq)  # fmt: skip


def cross_board_link(demo: Campaign) -> Campaign:
    """Turn 1 of the demo, in which alice (with a cross_board shtick, RULES R60) links her
    City Watch (city, produces People) to her Spice House (harbour, consumes People)."""
    alice = member(demo, "alice")
    shtick_grant(member=alice, actor=member(demo, "gm").user,
                 data={"kind": "cross_board", "boards": ["city", "harbour"]})  # fmt: skip
    queue(demo, "city", [("alice", Order.Kind.ADD_LINK,
                          {"from": "city-watch", "to": "harbour/spice-house"})])  # fmt: skip
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    return demo

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
from campaigns.models import Membership, Order, Turn
from campaigns.services.turn_plans import boards_resolve
from campaigns.services.turns import turn_process
from tests.factories import MembershipFactory
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

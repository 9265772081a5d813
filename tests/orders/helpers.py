"""Shortcuts for the order tests on the demo campaign (services/demo.py)."""

from __future__ import annotations

from typing import Any

from campaigns.models import Board, Campaign, Membership, Order, Turn
from campaigns.services.orders import orders_submit


def member(campaign: Campaign, username: str) -> Membership:
    return Membership.objects.select_related("user", "campaign").get(
        campaign=campaign, user__username=username
    )


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

"""Legal choices of the order kinds of RULES parts 7 and 8 (R62 deals, R70 perception checks)
for one player after their queued orders (`plan`); `legal.legal_choices` gathers them with
the other kinds. Choices carry slugs; reasons name no department."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .board import TYPES, Board, Tokens
from .cli_io import parse_board
from .orders import Order, room, unmoved
from .plan import Plan, handovers_made
from .refusals import refuse

# The gift reason about other players' departments (callers hide it, R50, as legal.NO_TARGET).
NO_ROOM = refuse("no_room_for_gift")


@dataclass(frozen=True, slots=True)
class PerceiveChoice:
    """R70: a department the player may still check this turn. Any department of the state:
    the web layer offers only those the player knows at least as `rumoured` (R50)."""

    department: str


@dataclass(frozen=True, slots=True)
class GiftChoice:
    """R62: from one of the player's departments, 1 or more of its `unmoved` tokens, to a
    department of another player's structure: `rooms` maps each receiver to the most tokens
    its capacity takes (R36). Every giver shares one `rooms`, so a large board makes one
    choice per giver, not one per pair."""

    start: str
    unmoved: Tokens
    rooms: Mapping[str, int]

    def most(self, to: str) -> int:
        """How many tokens may go to `to` (0 if it cannot receive a gift)."""
        return min(sum(self.unmoved.values()), self.rooms.get(to, 0))

    def accepts(self, to: str, tokens: Tokens) -> bool:
        return carries(tokens, self.unmoved, 1, self.most(to))


def carries(tokens: Tokens, unmoved: Tokens, least: int, most: int) -> bool:
    """R42/R62: `least`..`most` tokens, none of a type beyond the unmoved ones."""
    within = all(0 <= tokens.get(t, 0) <= unmoved[t] for t in TYPES)
    return within and least <= sum(tokens.values()) <= most


@dataclass(frozen=True, slots=True)
class HandoverChoice:
    """R62: a department the player may hand over, to any other player (`to` is a player id;
    the hand-over then needs that player's accept)."""

    department: str


@dataclass(frozen=True, slots=True)
class AcceptChoice:
    """R62: a hand-over offered to the player by `giver` that would succeed if accepted."""

    department: str
    giver: str


def perceive_choices(board: Board, done: frozenset[str]) -> list[PerceiveChoice]:
    return [PerceiveChoice(slug) for slug in board.departments if slug not in done]


def gift_choices(board: Board, player: str) -> list[GiftChoice]:
    """R62, R42, R36: every giver with unmoved tokens, to every department of another
    player's structure with room for one token."""
    rooms = MappingProxyType(
        {
            d.slug: room(board, d)
            for d in board.departments.values()
            if d.structure is not None and d.structure != player and room(board, d) >= 1
        }
    )
    if not rooms:
        return []
    found: list[GiftChoice] = []
    for giver in board.departments.values():
        free = unmoved(giver)
        if giver.structure == player and any(free.values()):
            found.append(GiftChoice(giver.slug, free, rooms))
    return found


def handover_choices(planned: Plan) -> list[HandoverChoice]:
    return [HandoverChoice(slug) for slug in planned.handable]


def accept_choices(state: dict[str, Any], planned: Plan, player: str) -> list[AcceptChoice]:
    """R62: each hand-over to the player in the state that would succeed with their accept
    (tried on the board as the turn starts, with the state's other deals)."""
    found: list[AcceptChoice] = []
    offers = [
        o
        for o in planned.deals
        if o.kind == "handover" and o.fields.get("to") == player and o.player is not None
    ]
    start = parse_board(state) if offers else None
    for offer in offers:
        assert start is not None and offer.player is not None
        department = offer.fields.get("department")
        if not isinstance(department, str):
            continue
        choice = AcceptChoice(department, offer.player)
        if choice in found:
            continue
        consent = Order(
            "accept?", player, "accept", 0, -1, {"department": department, "from": offer.player}
        )
        trial = copy.deepcopy(start)
        if department in handovers_made(trial, [*planned.deals, consent]):
            if trial.departments[department].structure == player:
                found.append(choice)
    return found


def deal_reason(kind: str, board: Board, player: str) -> str:
    """One line, naming no department, for an empty list of a part 7-8 kind."""
    if kind == "perceive":
        return refuse("all_perceived")
    if kind == "handover":
        return refuse("nothing_to_hand_over")
    if kind == "accept":
        return refuse("no_offer")
    mine = [d for d in board.departments.values() if d.structure == player]
    if not any(sum(unmoved(d).values()) for d in mine):
        return refuse("nothing_unmoved_gift")
    return NO_ROOM

"""The election page (RULES R80, R50): the open turn's election as the queued orders of every
player make it so far (intrigue.election_so_far: tickets, declared support and votes, a
department the viewer does not know shown as unknown support, its power hidden), the office
being elected, and the elections scheduled for later turns. A fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.intrigue.selectors.intrigue import (
    ElectionView,
    OfficeView,
    board_offices,
    election_so_far,
    elections_coming,
)
from campaigns.models import Board, Campaign, Membership, Turn


@dataclass(frozen=True)
class Coming:
    number: int
    office: str
    board: str


@dataclass(frozen=True)
class ElectionPage:
    turn: Turn | None  # the open turn
    so_far: ElectionView | None  # its election, if it holds one
    office: OfficeView | None  # the office elected in it (alignment, holder, deputy now)
    board: Board | None  # the office's board (the orders of the election are queued there)
    coming: list[Coming]  # the elections of later turns

    @property
    def unknown_support(self) -> bool:
        """Whether any ticket has support the viewer cannot see (R50)."""
        tickets = self.so_far.tickets if self.so_far else []
        return any(s.power is None for t in tickets for s in t.supporters)


def election_page(campaign: Campaign, viewer: Membership) -> ElectionPage:
    """The election of the open turn (if any) and those to come."""
    turn = campaign.turns.filter(status=Turn.Status.OPEN).order_by("number").first()
    scheduled = elections_coming(campaign.pk)
    now = next((e for e in scheduled if turn is not None and e.number == turn.number), None)
    coming = [
        Coming(e.number, e.office.name, e.office.board.name)
        for e in scheduled
        if turn is None or e.number > turn.number
    ]
    if turn is None or now is None:
        return ElectionPage(turn, None, None, None, coming)
    board = now.office.board
    office = next((o for o in board_offices(board, viewer) if o.pk == now.office_id), None)
    return ElectionPage(turn, election_so_far(turn, viewer), office, board, coming)

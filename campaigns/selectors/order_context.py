"""What the order forms read about one board for one player (RULES R40-R47, R50): the engine
state with the player's queued orders, each department's level (R50) and name, and the
engine's legal choices (campaigns.engine.legal), which are the only source of what may be
ordered. Reads only; built once per request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.engine.legal import Legal, legal_choices
from campaigns.models import Board, Membership, Turn
from campaigns.selectors.order_checks import (
    departments_by_name,
    elsewhere_attempts,
    queued_orders,
    trial_state,
)
from campaigns.selectors.visibility import Level, department_rows, level_of, viewer_knowledge

MAX_PATH = 5  # the longest move the form offers: it has drop fields for 4 departments passed


@dataclass
class OrderContext:
    """One board for one player: `state` is the board now with the player's queued orders
    (ENGINE.md, a throwaway seed), `levels` what they know of each department (R50)."""

    player: Membership
    turn: Turn
    board: Board
    state: dict[str, Any]
    levels: dict[str, Level]
    names: dict[str, str]
    # R43: the player's queued attempts on the campaign's other boards, which count against
    # the per-turn limit here too (order_checks.elsewhere_attempts).
    elsewhere: list[dict[str, Any]] = field(default_factory=list)
    _legal: dict[str | None, Legal] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, player: Membership, turn: Turn, board: Board) -> OrderContext:
        rows = list(department_rows(board=board))
        knowledge = viewer_knowledge(player, board=board)
        levels = {d.slug: level_of(d, player, knowledge) for d in rows}
        names = {d.slug: d.name for d in rows}
        queued = queued_orders(player=player, turn=turn)
        state = trial_state(board, turn, [o for o in queued if o.board_id == board.pk])
        far_ends(state, board, player, levels, names)
        elsewhere = elsewhere_attempts(board, queued)
        return cls(player, turn, board, state, levels, names, elsewhere)

    def name(self, slug: str) -> str:
        return self.names[slug]

    def queued(self, kind: str) -> list[dict[str, Any]]:
        """The player's queued orders of one kind, as the engine sees them."""
        return [o for o in self.state["orders"] if o.get("kind") == kind]

    def legal(self, without: str | None = None) -> Legal:
        """The engine's choices after the player's queued orders; `without`: the engine id
        of an order being edited, which must not count against itself (R43, R45)."""
        if without not in self._legal:
            orders = [o for o in self.state["orders"] if o["id"] != without]
            state = {**self.state, "orders": [*self.elsewhere, *orders]}
            self._legal[without] = legal_choices(state, self.player.player_id, longest=MAX_PATH)
        return self._legal[without]

    def controlled(self, slug: str) -> bool:
        return self.levels.get(slug, Level.UNKNOWN) == Level.CONTROLLED

    def known(self, slug: str) -> bool:
        """R50: the player may pick it on a path or as a target (their own included)."""
        return self.levels.get(slug, Level.UNKNOWN) >= Level.KNOWN


def far_ends(
    state: dict[str, Any],
    board: Board,
    player: Membership,
    levels: dict[str, Level],
    names: dict[str, str],
) -> None:
    """The departments of other boards the board's links reach (a cross-board link, RULES
    R60; their stubs in the state, "<board>/<slug>"), added to `levels` and `names`: two
    queries, only where there is such a link."""
    stubs = {d["slug"] for d in state["departments"] if "board" in d}
    if not stubs:
        return
    found = departments_by_name(board, stubs)
    knowledge = viewer_knowledge(player, pk__in=[d.pk for d in found.values()])
    for name, dept in found.items():
        levels[name] = level_of(dept, player, knowledge)
        names[name] = dept.name


def order_contexts(player: Membership, turn: Turn) -> dict[str, OrderContext]:
    """Board slug -> the forms' context of each board of the player's campaign (for the
    orders page's offers): a fixed number of queries per board."""
    boards = Board.objects.filter(campaign=player.campaign).select_related("campaign")
    return {board.slug: OrderContext.build(player, turn, board) for board in boards}

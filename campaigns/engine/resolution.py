"""A turn's resolution in progress (RULES R40): the working board, the turn's seed, and each
order's outcome as it is decided. Shared by the phases (resolve.py, election.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .errors import EngineError, OrderRejected
from .orders import Order, Outcome
from .refusals import refuse


@dataclass(slots=True)
class Resolution:
    board: Board
    seed: str
    turn: int
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    attempt_order: list[str] = field(default_factory=list)
    players: dict[str, str | None] = field(default_factory=dict)  # attempt id -> its player
    election: dict[str, Any] | None = None  # report.election (RULES R80)

    def run(self, order: Order, handler: Callable[..., Outcome], *args: Any) -> Outcome:
        """Run `handler(*args)` for one order; an illegal order is rejected with its reason
        and changes nothing."""
        if order.player is None:  # Order.parse makes any non-string player None
            outcome = Outcome("rejected", refuse("no_player"))
        else:
            try:
                outcome = handler(*args)
            except OrderRejected as rejected:
                # Its message as raised: a Refusal keeps its code for the site.
                reason = rejected.args[0] if rejected.args else None
                outcome = Outcome("rejected", reason if isinstance(reason, str) else str(rejected))
        self.outcomes[order.id] = outcome
        return outcome


def parse_orders(raw: object) -> list[Order]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise EngineError(refuse("orders_list"))
    orders = [Order.parse(item, index) for index, item in enumerate(raw)]
    seen: set[str] = set()
    for order in orders:
        if order.id in seen:
            raise EngineError(refuse("order_twice", order=order.id))
        seen.add(order.id)
    return sorted(orders, key=lambda o: o.sort_key)

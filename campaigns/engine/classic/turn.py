"""What one classic resolution carries between its steps (RULES R94): the seat order, the
groups already used in attacks, the standing orders not yet spent and the report."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from .orders import ClassicOrder
from .state import Classic


def seat_order(seed: str, turn: int, players: list[str]) -> list[str]:
    """R94: players sorted by the hex digest of HMAC-SHA256(seed, "<turn>:seat:<player>")."""
    key = bytes.fromhex(seed)

    def digest(player: str) -> str:
        return hmac.new(key, f"{turn}:seat:{player}".encode(), hashlib.sha256).hexdigest()

    return sorted(players, key=digest)


@dataclass(slots=True)
class Turn:
    board: Classic
    seed: str
    turn: int
    seats: list[str]
    used: set[str] = field(default_factory=set)  # groups that attacked or assisted (R95)
    standing: list[ClassicOrder] = field(default_factory=list)  # in seat order
    spent: dict[str, int] = field(default_factory=dict)  # id of a used standing order -> MB
    report: dict[str, dict[str, Any]] = field(default_factory=dict)

    def seat_key(self, order: ClassicOrder) -> tuple[int, int, int]:
        """R94: "in seat order": by seat, then seq, then position."""
        return (self.seats.index(order.player), order.seq, order.index)

    def unused(self, kind: str) -> list[ClassicOrder]:
        return [o for o in self.standing if o.kind == kind and o.id not in self.spent]

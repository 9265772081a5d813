"""The turn report's view-models (RULES R23, R31, R40-R47): plain dataclasses holding only
what one viewer may see (R50), built by `reports` and read by the report page and mail."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.core.paginator import Page
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, Order
from campaigns.selectors.visibility import Amount

# R50: the name of a department the viewer does not know (str() it where it is used).
UNNAMED = gettext_lazy("a department you do not know")


@dataclass(frozen=True)
class RollView:
    """One dice pool roll (R20) with the link that recomputes it from the seed (R23). A
    `hidden` roll is an attacker's as a defender who does not know the attacker's card sees
    it (R46): its successes only; dice, skill, target number and faces stay None."""

    key: str
    dice: int | None
    skill: int | None
    tn: int | None
    faces: list[int] | None
    successes: int | None  # None: a perception check's sum (R70), not a pool (R20)
    verify_url: str | None

    @property
    def hidden(self) -> bool:
        return self.faces is None


@dataclass(frozen=True)
class OrderView:
    id: str
    player: str  # who gave it (the viewer's own name in a player's report)
    kind: str
    kind_label: str
    summary: str
    status: str
    reason: str
    rolls: list[RollView]
    gm_note: str  # players: only once published
    gm_note_published: bool

    @property
    def is_function(self) -> bool:
        return self.kind == Order.Kind.FUNCTION


@dataclass(frozen=True)
class Consumed:
    source: str  # a name, or UNNAMED when the viewer may not see the supplier
    type_label: str
    amount: int


@dataclass(frozen=True)
class DepartmentResult:
    """Spawn and consume (R32-R36) of one department the viewer controls."""

    name: str
    status: str
    status_label: str
    chain_length: int
    capacity: int
    produced: int
    produced_label: str
    consumed: list[Consumed]
    discarded: list[Amount]


@dataclass(frozen=True)
class BoardTab:
    """A board of a paged report: a link to its pages."""

    slug: str
    name: str
    size: int  # its departments now


@dataclass(frozen=True)
class BoardReport:
    name: str
    slug: str
    orders: list[OrderView]
    # R46: attempts on the viewer's departments by other players (empty for the GM, whose
    # `orders` holds every order).
    attacks: list[OrderView]
    changes: list[str]  # captures and departments leaving structures (R44, R13)
    links_added: list[str]
    links_removed: list[str]
    departments: list[DepartmentResult]
    # A paged report: which page of this board's orders and departments this is (the
    # Django Page of their positions; None: all of them).
    pages: Page | None = None


@dataclass(frozen=True)
class TurnReport:
    campaign: Campaign  # name, slug: nothing hidden
    number: int
    full_view: bool
    processed_at: dt.datetime | None
    seed: str
    commitment: str
    commitment_ok: bool
    boards: list[BoardReport] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # what the viewer was told this turn

    @property
    def is_start(self) -> bool:
        return self.number == 0

    @property
    def rolls(self) -> list[RollView]:
        """The rolls the viewer may recompute (R23): not those hidden from them (R46)."""
        return [
            roll
            for board in self.boards
            for order in [*board.orders, *board.attacks]
            for roll in order.rolls
            if not roll.hidden
        ]

"""The turn report's view-models (RULES R23, R31, R40-R47): plain dataclasses holding only
what one viewer may see (R50), built by `reports` and read by the report page and mail."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page
from django.utils.translation import gettext, gettext_lazy, ngettext

from campaigns.engine.attempts import DefenceRead
from campaigns.models import Campaign, Notice, Order
from campaigns.selectors.visibility import Amount

# R50: the name of a department the viewer does not know (str() it where it is used).
UNNAMED = gettext_lazy("a department you do not know")


@dataclass(frozen=True)
class RollView:
    """One dice pool roll (R20) with the link that recomputes it from the seed (R23). A
    `hidden` roll is an attacker's as a defender who does not know the attacker's card sees
    it (R46): its successes only; dice, skill, target number and faces stay None. So is a
    target's defend roll to an attacker who does not know the target's card (`defend`)."""

    key: str
    dice: int | None
    skill: int | None
    tn: int | None
    faces: list[int] | None
    successes: int | None  # None: a perception check's sum (R70), not a pool (R20)
    verify_url: str | None
    defend: bool = False

    @property
    def hidden(self) -> bool:
        return self.faces is None


@dataclass(frozen=True)
class DefenceView:
    """R43 step 4, R47: an attempt's defend roll and what made its pool, for a reader who
    may see it: the defender, an attacker who knows the target's card (R46 read both ways),
    the GM. `read` None: the pool is told without the count of each part
    (report_defence); `uncontrolled`: the target spent by the GM's setting for it."""

    department: str
    dice: int
    skill: int
    read: DefenceRead | None
    uncontrolled: bool


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
    # R70: a perception check's total (3d6 + `perception`, the skill its roll shows) and how
    # many envelopes it opened (their text is in the dossier, never in a report).
    total: int | None = None
    opened: int = 0
    # R43/R21: an attempt that names both its cost and tokens spent on its roll, which the
    # report then tells apart.
    pays_and_spends: bool = False
    # R46: the defender's view of an attempt on their department, whose badge then reads
    # from their side (a failed attempt is a defence that held).
    defending: bool = False
    # R43 step 4: the target's defend roll read back, where the reader may see it.
    defence: DefenceView | None = None
    # R43 step 1: what an attempt that was made paid (its attacker's and the GM's view).
    paid: dict[str, int] | None = None

    @property
    def successes(self) -> int:
        return sum(roll.successes or 0 for roll in self.rolls)

    @property
    def badge_label(self) -> str:
        """The outcome as the reader lives it: a function roll that took place counts its
        successes (the engine calls it `succeeded` even with none, ENGINE.md); an attempt
        that failed against the reader's department held."""
        if self.is_function and self.status == "succeeded":
            n = self.successes
            return ngettext("%(n)s success", "%(n)s successes", n) % {"n": n}
        if self.defending and self.status == "failed":
            return gettext("held")
        labels = {
            "succeeded": gettext("succeeded"),
            "failed": gettext("failed"),
            "rejected": gettext("rejected"),
        }
        return labels.get(self.status, self.status)

    @property
    def badge_tone(self) -> str:
        """Green for what went the reader's way, grey for a roll with no success."""
        if self.is_function and self.status == "succeeded":
            return "success" if self.successes else "secondary"
        if self.defending and self.status == "failed":
            return "success"
        return {"succeeded": "success", "failed": "warning"}.get(self.status, "danger")

    @property
    def is_function(self) -> bool:
        return self.kind == Order.Kind.FUNCTION

    @property
    def is_perception(self) -> bool:
        return self.kind == Order.Kind.PERCEIVE


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
    # R33: what the departments it supplies took from its stash (`source` names the taker):
    # a link of the viewer's to a department they only know as rumoured costs them tokens
    # every turn, and the report says where they went.
    supplied: list[Consumed] = field(default_factory=list)


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
    # R80: the election held on this board this turn (report_election.ElectionResult).
    election: Any = None
    # R62: other players' gifts to the viewer's departments, in words.
    received: list[str] = field(default_factory=list)
    # R62: the hand-overs among `changes`.
    handovers: list[str] = field(default_factory=list)
    # (phase, text) of each of `links_added` and `links_removed` (report_account.link_events).
    link_events: list[tuple[str, str]] = field(default_factory=list)
    # R31: the numbered account of the turn, phase by phase (report_account.Phase).
    account: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class TurnReport:
    campaign: Campaign  # name, slug: nothing hidden
    number: int
    full_view: bool
    processed_at: dt.datetime | None
    seed: str
    commitment: str
    commitment_ok: bool
    # A BoardReport each, or for a classic board a ClassicBoardReport (classic/selectors/report.py).
    boards: list[Any] = field(default_factory=list)
    # What the viewer was told this turn (put into words when shown: campaigns/words/notices.py).
    notices: list[Notice] = field(default_factory=list)
    # R72: sealed envelopes this turn opened, delivered in their player's report: (player,
    # text); the viewer's own only (every player's for the GM, and once opened, R51).
    sealed: list[tuple[str, str]] = field(default_factory=list)
    # The turn's resolved orders its maps mark, as history_records.resolved_orders gives
    # them ((board id, turn number) -> orders), from the orders the report read.
    told: dict[tuple[int, int], list[Order]] = field(default_factory=dict)

    @property
    def is_start(self) -> bool:
        return self.number == 0

    @property
    def digests(self) -> list[Any]:
        """The election's roll-off digests whose keys the viewer may read (R80, R23)."""
        found = []
        for board in self.boards:
            if board.election is not None:
                found += board.election.rolloff
                found += [d for f in board.election.followers for d in f.rolloff]
        return [d for d in found if d.key]

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

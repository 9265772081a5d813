"""What each defend roll of a turn spent (RULES R21, R43 step 4, R47), for the turn report.

The engine reports a defend roll's dice and skill, not the tokens spent (ENGINE.md, frozen).
`engine.attempts.defence_read` reads them back: the pool without tokens, which the engine
computes itself (Obstruct, shticks, offices: R60, R80), leaves exactly the tokens spent. It
needs the board as it stood at the roll: the shticks that count depend on who controlled the
target and the offices' holders then. That board is rebuilt here from the turn's record:

- the board before the turn (`TurnRecord.before`, GM changes included, R53), each stash
  raised by what the turn's moves, reinforcements and gifts may have brought it (a bound of
  what it held at the roll, which tells the types of the defence apart where it meets the
  setting);
- the hand-overs of the link phase (R62): the department changes hands, its standing defence
  is cleared;
- R13's departures: a department controlled before the turn and uncontrolled after it (not
  captured) left at the end of the link phase or when a capture stranded it. If a capture of
  its structure's comes at or after this roll, either may be the case, and both boards are
  read;
- the captures of the attempts resolved before this one (R43's order, `attempt_order`): the
  target joins the attacker's structure, its standing defence is cleared (R44).

A roll is read only where every board it could have been made on gives the same reading;
otherwise the report says what made the pool without the count of each (`Defence.read` None).

Pure: dicts and Order rows in, no query.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from campaigns.engine.attempts import DefenceRead, cost_tokens, defence_read
from campaigns.engine.board import Tokens
from campaigns.engine.cli_io import parse_board
from campaigns.engine.errors import EngineError, OrderRejected
from campaigns.models import Order
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.report_board_changes import handed_over

# At most this many departures read both ways per roll (each doubles the boards read).
MOST_OPEN = 3


@dataclass(frozen=True)
class Defence:
    """One attempt's defend roll read back: `read` None where the board at the roll cannot
    be told (see the module); `uncontrolled`: the target had no controller then, so it spent
    by the GM's defence setting for it (R43 step 4). `paid`: what the attempt's cost took
    from the attacker (R43 step 1), the order's own types or the default."""

    target: str
    dice: int
    skill: int
    read: DefenceRead | None
    uncontrolled: bool
    paid: Tokens | None


def defences(
    before: dict[str, Any],
    orders: Sequence[Order],
    report: dict[str, Any],
    after: dict[str, str | None],
) -> dict[str, Defence]:
    """Order id -> its defend roll read back, for every attempt of the turn on this board
    that rolled. `before`: the record's `before` (departments, players, offices, alignments);
    `report`: the record's report; `after`: slug -> controller after the turn."""
    cards = {d["slug"]: d for d in before.get("departments") or [] if isinstance(d, dict)}
    outcomes = report.get("orders") or {}
    attempts = {o.engine_id: o for o in orders if o.kind == Order.Kind.ATTEMPT}
    sequence = [i for i in report.get("attempt_order") or [] if i in attempts]
    if not cards or not sequence:
        return {}
    board = Rebuilt(before, cards, arriving(orders, outcomes))
    for slug, receiver in handed_over(orders, outcomes).items():
        board.joins(slug, receiver)
    captures = [
        (n, str(attempts[i].payload.get("target")))
        for n, i in enumerate(sequence)
        if (outcomes.get(i) or {}).get("status") == "succeeded"
    ]
    captured = {slug for _, slug in captures}
    leavers = {
        slug: owner
        for slug, owner in board.structure.items()
        if owner is not None and slug in after and after[slug] is None and slug not in captured
    }
    found = {}
    for n, order_id in enumerate(sequence):
        order, outcome = attempts[order_id], outcomes.get(order_id) or {}
        target = str(order.payload.get("target"))
        rolls = outcome.get("rolls") or []
        if len(rolls) == 2 and target in cards:
            # A capture of a department of the leaver's structure at or after this roll
            # may be the one that stranded it: then it may still have been there.
            gone = {
                slug: not any(m >= n and board.structure.get(t) == owner for m, t in captures)
                for slug, owner in leavers.items()
            }
            found[order_id] = board.read(target, rolls[1], gone, order.payload.get("cost"))
        if outcome.get("status") == "succeeded":
            board.joins(target, engine_player_id(order.player_id))
    return found


def arriving(orders: Iterable[Order], outcomes: dict[str, Any]) -> dict[str, Tokens]:
    """Slug -> the tokens the turn's moves, reinforcements and gifts may have brought it
    before the attempts (R42, R46, R62): all that each carried, wherever it was dropped."""
    found: dict[str, Tokens] = {}
    for order in orders:
        if order.kind not in (Order.Kind.MOVE, Order.Kind.REINFORCE, Order.Kind.GIFT):
            continue
        if (outcomes.get(order.engine_id) or {}).get("status") != "succeeded":
            continue
        p = order.payload
        ends = [p.get("to")] if order.kind == Order.Kind.GIFT else p.get("path") or []
        carried = p.get("tokens") if isinstance(p.get("tokens"), dict) else {}
        for slug in {str(end) for end in ends}:
            into = found.setdefault(slug, {})
            for kind, n in carried.items():
                if isinstance(n, int) and n > 0:
                    into[kind] = into.get(kind, 0) + n
    return found


class Rebuilt:
    """The controllers and standing defences of the board as the attempts go by, and a bound
    of each stash: what it held before the turn and all that may have arrived since (the
    defences and costs before a roll only take)."""

    def __init__(
        self, before: dict[str, Any], cards: dict[str, dict[str, Any]], arrived: dict[str, Tokens]
    ) -> None:
        self.before, self.cards, self.arrived = before, cards, arrived
        self.structure: dict[str, str | None] = {s: d.get("structure") for s, d in cards.items()}
        self.cleared: set[str] = set()
        offices = [o for o in before.get("offices") or [] if isinstance(o, dict)]
        self.office_slugs = {
            slug for o in offices for slug in (o.get("holder"), o.get("deputy")) if slug in cards
        }

    def joins(self, slug: str, owner: str | None) -> None:
        """R62, R44: `slug` changes hands; its standing defence was the old controller's."""
        if slug in self.structure:
            self.structure[slug] = owner
            self.cleared.add(slug)

    def read(
        self, target: str, roll: dict[str, Any], gone: dict[str, bool], cost: object
    ) -> Defence:
        """The roll read on every board it may have been made on (see the module)."""
        dice, skill = int(roll.get("dice", 0)), int(roll.get("skill", 0))
        relevant = {target} | self.office_slugs
        sure = {slug for slug, g in gone.items() if g and slug in relevant}
        open_ = sorted(slug for slug, g in gone.items() if not g and slug in relevant)
        choices: Iterable[tuple[bool, ...]] = product((False, True), repeat=len(open_))
        if len(open_) > MOST_OPEN:
            choices = [(False,) * len(open_), (True,) * len(open_)]
        # The board the roll was made on is among them, and its reading is never None: one
        # that gives None is not it.
        readings: list[DefenceRead] = []
        for choice in choices:
            left = sure | {slug for slug, g in zip(open_, choice, strict=True) if g}
            try:
                reading = defence_read(
                    self.state_at(relevant, left), target, dice=dice, skill=skill
                )
            except EngineError:
                reading = None
            if reading is not None:
                readings.append(reading)
        agreed = readings[0] if readings and all(r == readings[0] for r in readings) else None
        paid = cost_paid(self.cards[target], self.before.get("alignments"), cost)
        controller = None if target in sure else self.structure.get(target)
        return Defence(target, dice, skill, agreed, controller is None, paid)

    def state_at(self, slugs: set[str], left: set[str]) -> dict[str, Any]:
        """An ENGINE.md state of only what a defend roll reads (the target, the offices'
        holders and deputies), with the controllers of the moment."""
        departments = []
        for slug in sorted(slugs):
            card = dict(self.cards[slug])
            card["structure"] = None if slug in left else self.structure[slug]
            held = card.get("stash") if isinstance(card.get("stash"), dict) else {}
            more = self.arrived.get(slug, {})
            card["stash"] = {k: int(held.get(k, 0)) + more.get(k, 0) for k in {*held, *more}}
            if slug in self.cleared:
                card["defence"] = {}
            departments.append(card)
        state: dict[str, Any] = {"departments": departments, "links": []}
        for key in ("players", "offices", "alignments"):
            if self.before.get(key) is not None:
                state[key] = self.before[key]
        return state


def cost_paid(card: dict[str, Any], alignments: object, named: object) -> Tokens | None:
    """R43 step 1: the cost an attempt on `card` paid (it rolled, so it paid), as the engine
    takes it: the types the order names, else the default."""
    state = {"departments": [card], "links": [], "alignments": alignments}
    try:
        return cost_tokens(parse_board(state).departments[card["slug"]], named)
    except (EngineError, OrderRejected):
        return None

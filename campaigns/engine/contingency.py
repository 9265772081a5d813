"""Contingency envelopes (RULES R72): which sealed messages a processed turn opens. Pure: the
board states before and after the turn, its orders with their outcomes, each player's
knowledge levels after it, and the envelopes' conditions in; the ids of the envelopes whose
condition is true after this turn out. The caller opens each of them once and never asks
again about one already open.

A condition (`Condition`) belongs to one player (an ENGINE.md player id) and is one of:

- `turn`: turn `turn` or a later one has been processed (this turn's number >= `turn`);
- `date`: this turn was processed at or after `date` (ISO 8601 with its offset);
- `joins` / `leaves`: `department` was outside / inside the player's structure before the
  turn and is inside / outside it after it (a capture, a hand-over, R13's departures);
- `attempt_by` / `attempt_on`: a linking attempt with `department` as attacker / target was
  made this turn: its outcome is `succeeded` or `failed` (a `rejected` order attempted
  nothing, RULES R40);
- `knowledge`: the player's level of `department` after the turn is at least `level`
  (1 rumoured, 2 known, 3 controlled: RULES R50). A condition already true when the GM
  wrote it opens with the next processed turn.

Departments are named as the states name them (plain slugs, or "<board>/<slug>" in a state
of several boards). Bad input raises EngineError.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import EngineError
from .refusals import refuse

KINDS = ("turn", "date", "joins", "leaves", "attempt_by", "attempt_on", "knowledge")
DEPARTMENT_KINDS = frozenset(("joins", "leaves", "attempt_by", "attempt_on", "knowledge"))
MADE = frozenset(("succeeded", "failed"))


@dataclass(frozen=True, slots=True)
class Condition:
    id: str
    player: str
    kind: str
    turn: int | None = None
    date: dt.datetime | None = None
    department: str | None = None
    level: int | None = None


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What one processed turn did, as the conditions ask it."""

    number: int
    at: dt.datetime
    owners_before: Mapping[str, str | None]
    owners_after: Mapping[str, str | None]
    attackers: frozenset[str]
    targets: frozenset[str]
    levels: Mapping[str, Mapping[str, int]]


def parse_condition(raw: Mapping[str, Any]) -> Condition:
    """One condition; EngineError naming it if it is not one of KINDS with what it needs."""
    where = f"contingency {raw.get('id')!r}"
    kind = raw.get("kind")
    player = raw.get("player")
    if not isinstance(kind, str) or kind not in KINDS:
        raise EngineError(refuse("condition_unknown", what=where, condition=kind))
    if not isinstance(player, str) or not player:
        raise EngineError(refuse("condition_player", what=where))
    found = Condition(str(raw.get("id")), player, kind)
    if kind == "turn":
        turn = raw.get("turn")
        if type(turn) is not int or turn < 0:
            raise EngineError(refuse("whole_number", what=f"{where}: turn", minimum=0))
        return Condition(found.id, player, kind, turn=turn)
    if kind == "date":
        return Condition(found.id, player, kind, date=instant(raw.get("date"), where))
    department = raw.get("department")
    if not isinstance(department, str) or not department:
        raise EngineError(refuse("condition_department", what=where))
    level = raw.get("level") if kind == "knowledge" else None
    if kind == "knowledge" and (type(level) is not int or not 1 <= level <= 3):
        raise EngineError(refuse("condition_level", what=where))
    return Condition(found.id, player, kind, department=department, level=level)


def instant(value: object, where: str) -> dt.datetime:
    """An ISO 8601 time with its UTC offset."""
    try:
        parsed = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise EngineError(refuse("condition_time", what=where, value=value))
    return parsed


def owners(state: Mapping[str, Any]) -> dict[str, str | None]:
    return {d["slug"]: d.get("structure") for d in state.get("departments", [])}


def turn_facts(
    *,
    number: int,
    at: str,
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    orders: Iterable[Mapping[str, Any]],
    outcomes: Mapping[str, Mapping[str, Any]],
    levels: Mapping[str, Mapping[str, int]],
) -> TurnFacts:
    """The facts of a turn: `orders` are ENGINE.md orders, `outcomes` report.orders,
    `levels` player id -> department -> level after the turn."""
    made = [
        o
        for o in orders
        if o.get("kind") == "attempt" and outcomes.get(str(o.get("id")), {}).get("status") in MADE
    ]
    return TurnFacts(
        number=number,
        at=instant(at, "the turn"),
        owners_before=owners(before),
        owners_after=owners(after),
        attackers=frozenset(str(o.get("attacker")) for o in made),
        targets=frozenset(str(o.get("target")) for o in made),
        levels=levels,
    )


def is_true(condition: Condition, facts: TurnFacts) -> bool:
    """Whether `condition` holds after the turn `facts` describe."""
    kind, slug, player = condition.kind, condition.department, condition.player
    if kind == "turn":
        return condition.turn is not None and facts.number >= condition.turn
    if kind == "date":
        return condition.date is not None and facts.at >= condition.date
    if kind == "joins":
        return facts.owners_before.get(slug or "") != player == facts.owners_after.get(slug or "")
    if kind == "leaves":
        return facts.owners_before.get(slug or "") == player != facts.owners_after.get(slug or "")
    if kind == "attempt_by":
        return slug in facts.attackers
    if kind == "attempt_on":
        return slug in facts.targets
    if facts.owners_after.get(slug or "") == player:  # knowledge: control is everything
        return True
    return facts.levels.get(player, {}).get(slug or "", 0) >= (condition.level or 0)


def contingencies_opened(conditions: Iterable[Mapping[str, Any]], facts: TurnFacts) -> list[str]:
    """R72: the ids of the conditions true after the turn, in the order given."""
    return [c.id for c in map(parse_condition, conditions) if is_true(c, facts)]

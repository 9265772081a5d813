"""Secret goals (RULES R61, ENGINE.md part 8): parsed from the state, their `attempts_won`
counts raised by `resolve`, and their progress counted by `spawn-consume` on the state it
returns. A player's structures are every department whose `structure` is that player, on
every board of the state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .board import STAT_TYPE, TYPES, Catalogue, Department
from .errors import EngineError
from .refusals import refuse
from .values import objects, text, unique_ids, whole

KINDS = ("control", "control_aligned", "hold", "stat_total", "attempts_won")
STATS = tuple(STAT_TYPE)


@dataclass(slots=True)
class Goal:
    """One goal; `count` (attempts_won only) is the number won in earlier turns. `detail` is
    the alignment, token type or stat the kind needs."""

    id: str
    player: str
    kind: str
    n: int
    detail: str | None
    count: int
    raw: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        if self.kind != "attempts_won":
            return self.raw
        return {**self.raw, "count": self.count}

    def value(self, departments: Iterable[Department]) -> int:
        """R61: the goal's progress now (ENGINE.md: `met` when it reaches n)."""
        if self.kind == "attempts_won":
            return self.count
        mine = [d for d in departments if d.structure == self.player]
        if self.kind == "control":
            return len(mine)
        if self.kind == "control_aligned":
            # The department's own alignments: an office's alignment counts in R6 only.
            wanted = (self.detail or "").casefold()
            return sum(1 for d in mine if wanted in {a.casefold() for a in d.alignments})
        if self.kind == "hold":
            return sum(d.stash[self.detail or ""] for d in mine)
        return sum(int(getattr(d, self.detail or "")) for d in mine)  # stat_total


def parse_goals(raw: object, catalogue: Catalogue) -> list[Goal]:
    """ENGINE.md part 8 `goals`; a goal without `n`, of an unknown kind or without what its
    kind needs is an input error."""
    items = objects(raw, "goals")
    unique_ids(items, "goals")
    return [parse_goal(item, catalogue) for item in items]


def parse_goal(item: dict[str, Any], catalogue: Catalogue) -> Goal:
    where = f"goal {item['id']}"
    player = text(item.get("player"), f"{where}: player")
    kind = item.get("kind")
    if kind not in KINDS:
        raise EngineError(refuse("goal_kind", what=where, goal_kind=kind))
    n = whole(item.get("n"), f"{where}: n")
    detail: str | None = None
    if kind == "control_aligned":
        detail = text(item.get("alignment"), f"{where}: alignment")
        if detail.casefold() not in catalogue.names:
            raise EngineError(refuse("named_alignment", what=where, alignment=detail))
    elif kind == "hold":
        detail = chosen(item.get("type"), TYPES, f"{where}: type")
    elif kind == "stat_total":
        detail = chosen(item.get("stat"), STATS, f"{where}: stat")
    count = whole(item.get("count", 0), f"{where}: count") if kind == "attempts_won" else 0
    return Goal(str(item["id"]), player, kind, n, detail, count, item)


def chosen(value: object, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise EngineError(refuse("one_of", what=what, allowed=", ".join(allowed)))
    assert isinstance(value, str)
    return value


def raise_counts(goals: list[Goal], won: Mapping[str, int]) -> None:
    """ENGINE.md: each attempts_won goal's count goes up by its player's successful attempts
    of the turn."""
    for goal in goals:
        if goal.kind == "attempts_won":
            goal.count += won.get(goal.player, 0)


def goals_report(goals: list[Goal], departments: Iterable[Department]) -> dict[str, Any]:
    """ENGINE.md `report.goals`: {"g1": {"value": n, "met": bool}} on the state returned."""
    depts = list(departments)
    report = {}
    for goal in goals:
        value = goal.value(depts)
        report[goal.id] = {"value": value, "met": value >= goal.n}
    return report

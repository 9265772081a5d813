"""Contingency envelopes (RULES R72, engine/contingency.py): which sealed messages a processed
turn opens, one condition kind at a time, and bad conditions refused with one line."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.engine import EngineError
from campaigns.engine.contingency import contingencies_opened, parse_condition, turn_facts

BEFORE = {"departments": [
    {"slug": "mint", "structure": "p1"},
    {"slug": "watch", "structure": "p1"},
    {"slug": "guild", "structure": "p2"},
    {"slug": "orphanage", "structure": None},
]}  # fmt: skip
# Turn 3: p2 captured the watch from p1 and p1 took the orphanage.
AFTER = {"departments": [
    {"slug": "mint", "structure": "p1"},
    {"slug": "watch", "structure": "p2"},
    {"slug": "guild", "structure": "p2"},
    {"slug": "orphanage", "structure": "p1"},
]}  # fmt: skip
ORDERS = [
    {"id": "10", "kind": "attempt", "player": "p2", "attacker": "guild", "target": "watch"},
    {"id": "11", "kind": "attempt", "player": "p1", "attacker": "mint", "target": "guild"},
    {"id": "12", "kind": "attempt", "player": "p1", "attacker": "watch", "target": "orphanage"},
]
OUTCOMES = {"10": {"status": "succeeded"}, "11": {"status": "rejected"},
            "12": {"status": "failed"}}  # fmt: skip


def facts(levels: dict[str, dict[str, int]] | None = None, at: str = "2026-11-27T17:00:00+00:00"):
    return turn_facts(
        number=3, at=at, before=BEFORE, after=AFTER, orders=ORDERS, outcomes=OUTCOMES,
        levels=levels or {},
    )  # fmt: skip


def opened(*conditions: dict[str, Any], **kw: Any) -> list[str]:
    return contingencies_opened(
        [{"player": "p1", **c, "id": str(i)} for i, c in enumerate(conditions)], facts(**kw)
    )


def test_a_turn_condition_opens_at_that_turn_and_any_later_one() -> None:
    assert opened({"kind": "turn", "turn": 2}, {"kind": "turn", "turn": 3},
                  {"kind": "turn", "turn": 4}) == ["0", "1"]  # fmt: skip


def test_a_date_condition_opens_once_the_turn_is_processed_at_or_after_it() -> None:
    conditions = (
        {"kind": "date", "date": "2026-11-27T18:00:00+01:00"},  # the same instant
        {"kind": "date", "date": "2026-11-27T17:00:01+00:00"},
    )
    assert opened(*conditions) == ["0"]


def test_joining_and_leaving_need_the_department_to_change_sides_this_turn() -> None:
    conditions = (
        {"kind": "joins", "department": "orphanage"},  # joined p1 this turn
        {"kind": "joins", "department": "mint"},  # p1's before and after: nothing happened
        {"kind": "leaves", "department": "watch"},  # captured away from p1
        {"kind": "leaves", "department": "guild"},  # never p1's
    )
    assert opened(*conditions) == ["0", "2"]


def test_an_attempt_by_or_on_a_department_counts_if_it_was_made_whatever_its_outcome() -> None:
    conditions = (
        {"kind": "attempt_by", "department": "guild"},  # succeeded
        {"kind": "attempt_on", "department": "watch"},
        {"kind": "attempt_by", "department": "watch"},  # failed: still made
        {"kind": "attempt_on", "department": "guild"},  # rejected: nothing was attempted
        {"kind": "attempt_by", "department": "orphanage"},
    )
    assert opened(*conditions) == ["0", "1", "2"]


def test_a_knowledge_condition_opens_at_its_level_or_above_and_control_counts_as_all() -> None:
    conditions = (
        {"kind": "knowledge", "department": "guild", "level": 2},
        {"kind": "knowledge", "department": "guild", "level": 3},
        {"kind": "knowledge", "department": "orphanage", "level": 3},  # p1 controls it now
        {"kind": "knowledge", "department": "watch", "level": 1},
    )
    assert opened(*conditions, levels={"p1": {"guild": 2}}) == ["0", "2"]


def test_another_players_condition_is_judged_for_them() -> None:
    conditions = [
        {"id": "a", "player": "p2", "kind": "joins", "department": "watch"},
        {"id": "b", "player": "p2", "kind": "leaves", "department": "watch"},
    ]
    assert contingencies_opened(conditions, facts()) == ["a"]


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ({"kind": "someday"}, "unknown condition 'someday'"),
        ({"kind": "turn"}, "turn must be a whole number >= 0"),
        ({"kind": "date", "date": "next Friday"}, "ISO 8601"),
        ({"kind": "date", "date": "2026-11-27T17:00:00"}, "with its offset"),
        ({"kind": "joins"}, "needs a department"),
        ({"kind": "knowledge", "department": "mint", "level": 4}, "level must be 1, 2 or 3"),
        ({"kind": "turn", "turn": 1, "player": None}, "needs a player"),
    ],
)
def test_a_bad_condition_is_refused_in_one_line(condition: dict[str, Any], message: str) -> None:
    with pytest.raises(EngineError, match=message) as raised:
        parse_condition({"id": "c1", "player": "p1", **condition})
    assert "\n" not in str(raised.value)

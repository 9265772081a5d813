"""R46 via campaigns.engine.legal: when a player has no reinforcement of their attacked
department, the reason says which part of R42 stands in the way (no link reaches the target,
nothing unmoved to send, a full target, too few tokens for the way, too far for the form, a
full department on the way), naming no department. Small hand-made boards (boards.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from boards import dept, state  # noqa: E402

from campaigns.engine.legal import legal_choices  # noqa: E402
from campaigns.engine.legal_reinforce import (  # noqa: E402
    FULL_ON_WAY,
    NO_LINK,
    NOT_CONTROLLER,
    NOTHING_UNMOVED,
    TARGET_FULL,
    TOO_FEW,
)
from campaigns.engine.refusals import refuse  # noqa: E402


def chain(n: int, *, stash: dict[str, int], **target: object) -> dict:
    """bob's money-makers a0 -> a1 -> ... -> a<n> (the target, last); a0 holds `stash`;
    `target`: the last department's fields (capacity 9 unless given)."""
    kind = {"produces": ("money", 1), "consumes": ("money", 1), "structure": "bob"}
    depts = [dept("a0", home=True, stash=stash, capacity=9, **kind)]
    depts += [dept(f"a{i}", capacity=9, **kind) for i in range(1, n)]
    holds = target.pop("holds", None)
    depts.append(dept(f"a{n}", **{**kind, "capacity": 9, "stash": holds, **target}))
    return state(depts, [(f"a{i}", f"a{i + 1}") for i in range(n)])


def why_not(board: dict, target: str, longest: int | None = None) -> str | None:
    legal = legal_choices(board, "bob", longest=longest)
    assert bool(legal.reinforce(target)) == (legal.reinforce_why_not(target) is None)
    return legal.reinforce_why_not(target)


def test_a_route_means_no_reason() -> None:
    assert why_not(chain(2, stash={"money": 2}), "a2") is None


@pytest.mark.parametrize(
    ("board", "target", "longest", "reason"),
    [
        (chain(1, stash={"money": 1}), "a0", None, NO_LINK),  # links only leave a0
        (chain(1, stash={"money": 1}, structure="carol"), "a1", None, NOT_CONTROLLER),
        (chain(2, stash={}), "a2", None, NOTHING_UNMOVED),
        (chain(1, stash={"money": 1}, capacity=1, holds={"people": 1}), "a1", None, TARGET_FULL),
        (chain(3, stash={"money": 2}), "a3", None, TOO_FEW),
        (chain(3, stash={"money": 5}), "a3", 2, refuse("too_far", links=2)),
    ],
)
def test_each_reason(board: dict, target: str, longest: int | None, reason: str | None) -> None:
    assert why_not(board, target, longest) == reason


def test_a_full_department_on_the_way() -> None:
    board = chain(2, stash={"money": 3})
    middle = next(d for d in board["departments"] if d["slug"] == "a1")
    # Full with a token that arrived this turn (so it cannot be sent on itself).
    middle["capacity"], middle["stash"]["people"], middle["moved"]["people"] = 1, 1, 1
    assert why_not(board, "a2") == FULL_ON_WAY


def test_tokens_already_moved_this_turn_cannot_be_sent() -> None:
    board = chain(1, stash={"money": 2})
    board["departments"][0]["moved"]["money"] = 2
    assert why_not(board, "a1") == NOTHING_UNMOVED


def test_the_reasons_name_no_department() -> None:
    for reason in (NO_LINK, NOTHING_UNMOVED, TARGET_FULL, TOO_FEW, FULL_ON_WAY):
        assert "a0" not in reason and "{" not in reason

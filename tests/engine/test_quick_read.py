"""The quick reading of a department (engine/quick_read.py) builds exactly the Department the
field-by-field reading builds, and leaves to it everything else, so every refusal (R4, R5,
R13, R36, R42) stays the same one line."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from campaigns.engine import EngineError
from campaigns.engine.board import Catalogue
from campaigns.engine.cli_io import parse_board, parse_department
from campaigns.engine.quick_read import quick_department

CATALOGUE = Catalogue.parse(None)
PLAIN: dict[str, Any] = {
    "slug": "mint",
    "name": "The Mint",
    "effect": 2,
    "obstruct": 1,
    "impress": 0,
    "consumes": {"type": "people", "amount": 1},
    "produces": {"type": "money", "amount": 2},
    "functions": {"linking": 2},
    "alignments": ["government"],
    "stash": {"money": 3, "people": 1},
    "structure": "p1",
    "home": True,
    "defence": {"people": 1},
    "moved": {"money": 2},
    "capacity": 20,
}
# Each a change to PLAIN: (key, value), a value of None removes the key.
CHANGES: list[tuple[str, Any]] = [
    ("name", None), ("name", 7), ("effect", -1), ("effect", True), ("effect", 1.0),
    ("obstruct", "2"), ("consumes", None), ("consumes", {"type": "gold", "amount": 1}),
    ("consumes", {"type": "money", "amount": 0}), ("produces", []), ("functions", None),
    ("functions", []), ("functions", {"linking": -1}), ("functions", {"linking": True}),
    ("alignments", None), ("alignments", []), ("alignments", ["nowhere"]),
    ("alignments", ["government", "communist", "liberal", "violent"]), ("alignments", "x"),
    ("stash", None), ("stash", {"gold": 1}), ("stash", {"money": -1}), ("stash", []),
    ("structure", None), ("structure", 3), ("home", None), ("home", 0), ("home", "yes"),
    ("defence", {"money": 1.5}), ("moved", {"money": 9}), ("moved", None),
    ("capacity", None), ("capacity", -2), ("capacity", False), ("board", "harbour"),
    ("board", ""), ("slug", ""), ("colour", "red"),
]  # fmt: skip


def changed(key: str, value: Any) -> dict[str, Any]:
    raw = copy.deepcopy(PLAIN)
    if value is None:
        raw.pop(key, None)
    else:
        raw[key] = value
    return raw


def read_slowly(raw: dict[str, Any]) -> Any:
    try:
        return parse_department(raw, CATALOGUE)
    except EngineError as error:
        return f"refused: {error}"


@pytest.mark.parametrize(("key", "value"), [("slug", "mint"), *CHANGES])
def test_a_quick_read_department_is_the_one_read_field_by_field(key: str, value: Any) -> None:
    raw = changed(key, value)
    quick = quick_department(copy.deepcopy(raw), CATALOGUE)
    slow = read_slowly(raw)
    if quick is not None:
        assert quick == slow
    if key == "slug" and value == "mint":
        assert quick is not None  # the ordinary department is read quickly


def test_a_quick_read_department_shares_no_dict_with_the_input() -> None:
    raw = copy.deepcopy(PLAIN)
    dept = quick_department(raw, CATALOGUE)
    assert dept is not None
    dept.stash["money"] += 1
    dept.functions["linking"] = 9
    dept.alignments.append("violent")
    assert raw == PLAIN


def test_a_board_with_a_bad_department_is_refused_as_before() -> None:
    state = {"departments": [PLAIN, changed("moved", {"people": 5})]}
    with pytest.raises(EngineError, match="R42"):
        parse_board(state)
    state = {"departments": [PLAIN, changed("slug", "")]}
    with pytest.raises(EngineError):
        parse_board(state)


@pytest.mark.parametrize(
    "link",
    [
        {"from": "mint", "to": "nowhere"},
        {"from": "mint", "to": "mint"},
        {"from": "mint", "to": "well", "priority": -1},
        {"from": "mint", "to": "well", "priority": "1"},
        ["mint", "well"],
    ],
)
def test_a_bad_link_is_refused_with_one_line(link: Any) -> None:
    well = {**changed("slug", "well"), "consumes": {"type": "money", "amount": 1}}
    state = {"departments": [PLAIN, well], "links": [link]}
    with pytest.raises(EngineError) as refused:
        parse_board(state)
    assert "\n" not in str(refused.value)


def test_links_are_funded_in_priority_order_then_as_listed() -> None:
    well = {**changed("slug", "well"), "consumes": {"type": "money", "amount": 1}}
    pond = {**changed("slug", "pond"), "consumes": {"type": "money", "amount": 1}}
    sea = {**changed("slug", "sea"), "consumes": {"type": "money", "amount": 1}}
    links = [
        {"from": "mint", "to": "well"},
        {"from": "mint", "to": "pond", "priority": 1},
        {"from": "mint", "to": "sea", "priority": 0},
    ]
    board = parse_board({"departments": [PLAIN, well, pond, sea], "links": links})
    assert board.out_links["mint"] == ["sea", "pond", "well"]

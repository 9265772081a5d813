"""R40 / ENGINE.md: a malformed field rejects its order (or is an input error); it never
crashes resolve with a TypeError. Found by the property tests' author: unhashable values."""

import json

import pytest

from campaigns.engine import EngineError, resolve

SEED = "0123456789abcdef" * 4
BOARD = {
    "turn": 1,
    "seed": SEED,
    "departments": [
        {"slug": "a", "produces": {"type": "money", "amount": 2}, "structure": "p",
         "stash": {"money": 3}, "capacity": 9},
        {"slug": "b", "consumes": {"type": "money", "amount": 1}, "structure": "q",
         "produces": {"type": "people", "amount": 1}},
    ],
    "links": [],
}  # fmt: skip
WEIRD = [["a"], {"x": 1}, 3, None, True, 2.5]
FIELDS = {
    "function": ["department", "function", "stat", "spend", "player"],
    "attempt": ["attacker", "target", "cost", "spend", "player"],
    "move": ["from", "path", "tokens", "drops", "player"],
    "reinforce": ["answers", "from", "path", "tokens", "player"],
    "add_link": ["from", "to", "player"],
    "break_link": ["from", "to", "player"],
    "priority": ["department", "consumers", "player"],
}
LEGAL = {
    "function": {"department": "a", "function": "x", "stat": "effect"},
    "attempt": {"attacker": "a", "target": "b"},
    "move": {"from": "a", "path": ["b"], "tokens": {"money": 1}},
    "reinforce": {"answers": "o0", "from": "a", "path": ["b"], "tokens": {"money": 1}},
    "add_link": {"from": "a", "to": "b"},
    "break_link": {"from": "a", "to": "b"},
    "priority": {"department": "a", "consumers": ["b"]},
}


@pytest.mark.parametrize(
    ("kind", "field"), [(k, f) for k, fields in FIELDS.items() for f in fields]
)
@pytest.mark.parametrize("value", WEIRD, ids=repr)
def test_a_malformed_field_rejects_the_order(kind: str, field: str, value: object) -> None:
    order = {"id": "o1", "player": "p", "kind": kind, **LEGAL[kind], field: value}
    state = json.loads(json.dumps({**BOARD, "orders": [order]}))
    try:
        result = resolve(state)
    except EngineError:
        return  # an input error with a one-line message is also within the contract
    assert result["report"]["orders"]["o1"]["status"] in {"rejected", "failed", "succeeded"}

"""R40 / ENGINE.md: a malformed field rejects its order; it never crashes resolve with a
TypeError, nor is it quietly read as something legal. Found by the property tests' author:
unhashable values.

Every order in LEGAL is accepted on BOARD as it stands (the first test), so when a spoiled
copy is rejected, the spoiled field is why."""

import json

import pytest

from campaigns.engine import resolve

SEED = "0123456789abcdef" * 4
EMPTY = {"money": 0, "people": 0, "authority": 0}
MONEY = {"type": "money", "amount": 1}


def dept(slug: str, structure: str, **fields: object) -> dict[str, object]:
    card = {
        "slug": slug, "effect": 2, "obstruct": 1, "impress": 1, "consumes": None,
        "produces": None, "functions": {"x": 1}, "alignments": [], "structure": structure,
        "stash": {"money": 3, "people": 3, "authority": 3}, "home": True, "capacity": 9,
    }  # fmt: skip
    return {**card, **fields}


# p: a feeds c, d could be fed; q: e feeds b, the target of p's attempt.
BOARD = {
    "turn": 1,
    "seed": SEED,
    "settings": {"max_out_links": 2, "max_in_links": 2, "attempts_per_turn": 1},
    "departments": [
        dept("a", "p", produces={"type": "money", "amount": 2}),
        dept("c", "p", home=False, consumes=MONEY, stash=EMPTY),
        dept("d", "p", home=False, consumes=MONEY, stash=EMPTY),
        dept("b", "q", consumes=MONEY, stash=EMPTY),
        dept("e", "q", produces=MONEY),
    ],
    "links": [{"from": "a", "to": "c"}, {"from": "e", "to": "b"}],
    "offices": [{"id": "mayor", "name": "Mayor", "alignment": "Government"}],
    "election": {"office": "mayor"},
}
WEIRD = [["a"], {"x": 1}, 3, None, True, 2.5]
FIELDS = {
    "function": ["department", "function", "stat", "spend", "player"],
    "attempt": ["attacker", "target", "cost", "spend", "player"],
    "move": ["from", "path", "tokens", "drops", "player"],
    "reinforce": ["answers", "from", "path", "tokens", "player"],
    "add_link": ["from", "to", "player"],
    "break_link": ["from", "to", "player"],
    "priority": ["department", "consumers", "player"],
    "perceive": ["department", "player"],
    "gift": ["from", "to", "tokens", "player"],
    "handover": ["department", "to", "player"],
    "accept": ["department", "from", "player"],
    "nominate": ["candidate", "running_mate", "player"],
    "running_mate": ["candidate", "running_mate", "player"],
    "support": ["department", "ticket", "double", "player"],
    "vote": ["ticket", "player"],
}
ATTEMPT = {"id": "o0", "player": "p", "kind": "attempt", "attacker": "a", "target": "b"}
# The hand-over an accept answers (R62): q offers b to p.
HANDOVER = {"id": "o0", "player": "q", "kind": "handover", "department": "b", "to": "p"}
# The ticket a running mate, a support or a vote names (R80): q nominates p's a, with c.
NOMINATION = {"id": "o0", "player": "q", "kind": "nominate", "candidate": "a", "running_mate": "c"}
LEGAL = {
    "function": {"player": "p", "department": "a", "function": "x", "stat": "effect"},
    "attempt": {"player": "p", "attacker": "a", "target": "b"},
    "move": {"player": "p", "from": "a", "path": ["c"], "tokens": {"money": 1}},
    "reinforce": {
        "player": "q",
        "answers": "o0",
        "from": "e",
        "path": ["b"],
        "tokens": {"money": 1},
    },  # fmt: skip
    "add_link": {"player": "p", "from": "a", "to": "d"},
    "break_link": {"player": "p", "from": "a", "to": "c"},
    "priority": {"player": "p", "department": "a", "consumers": ["c"]},
    "perceive": {"player": "p", "department": "b"},
    "gift": {"player": "p", "from": "a", "to": "b", "tokens": {"money": 1}},
    "handover": {"player": "p", "department": "c", "to": "q"},  # no accept: failed
    "accept": {"player": "p", "department": "b", "from": "q"},
    "nominate": {"player": "p", "candidate": "d", "running_mate": "e"},
    "running_mate": {"player": "p", "candidate": "a", "running_mate": "d"},
    "support": {"player": "p", "department": "c", "ticket": "a"},
    "vote": {"player": "p", "ticket": "a"},
}


def status(kind: str, order: dict[str, object]) -> str:
    """The status of `order` (id o1) resolved on BOARD; a reinforcement answers ATTEMPT, an
    accept answers HANDOVER, and a running mate, a support or a vote names NOMINATION's
    ticket."""
    answered = {"reinforce": ATTEMPT, "accept": HANDOVER}
    answered |= dict.fromkeys(("running_mate", "support", "vote"), NOMINATION)
    orders = [answered[kind], order] if kind in answered else [order]
    result = resolve(json.loads(json.dumps({**BOARD, "orders": orders})))
    return str(result["report"]["orders"]["o1"]["status"])


@pytest.mark.parametrize("kind", sorted(LEGAL))
def test_each_order_is_accepted_before_a_field_is_spoiled(kind: str) -> None:
    assert status(kind, {"id": "o1", "kind": kind, **LEGAL[kind]}) in {"succeeded", "failed"}


# ENGINE.md's optional order fields. JSON's null for one of them reads as "not given" (the
# default), as for a department's `consumes`: that is not malformed.
OPTIONAL = {
    ("function", "spend"),
    ("attempt", "cost"),
    ("attempt", "spend"),
    ("move", "drops"),
    ("support", "double"),
}


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        (kind, field, value)
        for kind, fields in FIELDS.items()
        for field in fields
        for value in WEIRD
        if not (value is None and (kind, field) in OPTIONAL)
    ],
    ids=repr,
)
def test_a_malformed_field_rejects_the_order(kind: str, field: str, value: object) -> None:
    order = {"id": "o1", "kind": kind, **LEGAL[kind], field: value}
    assert status(kind, order) == "rejected"


@pytest.mark.parametrize(("kind", "field"), sorted(OPTIONAL))
def test_null_for_an_optional_field_is_the_default(kind: str, field: str) -> None:
    given = {"id": "o1", "kind": kind, **LEGAL[kind]}
    resolved = {**BOARD, "orders": [{**given, field: None}]}
    omitted = {**BOARD, "orders": [{k: v for k, v in given.items() if k != field}]}

    def outcome(state: dict[str, object]) -> dict[str, object]:
        result = resolve(json.loads(json.dumps(state)))
        return {k: v for k, v in result.items() if k != "orders"}  # orders echo the input

    assert outcome(resolved) == outcome(omitted)

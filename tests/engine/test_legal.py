"""campaigns.engine.legal and attempts on hand-made boards: what one player may order, after
their queued orders, and the attempt pools the preview shows (RULES R6, R10-R14, R41-R47)."""

from __future__ import annotations

import copy
from typing import Any

from campaigns.engine import resolve
from campaigns.engine.attempts import attempt_pools
from campaigns.engine.legal import LinkChoice, legal_choices

Json = dict[str, Any]


def dept(slug: str, owner: str | None, **kw: Any) -> Json:
    base: Json = {"slug": slug, "name": slug, "effect": 0, "obstruct": 0, "impress": 0,
                  "consumes": None, "produces": None, "structure": owner, "home": True,
                  "stash": {}, "capacity": 6}  # fmt: skip
    return {**base, **kw}


def money(amount: int) -> Json:
    return {"type": "money", "amount": amount}


def board(**settings: int) -> Json:
    """alice: mint (produces money) -> bank (consumes money, produces money) -> shop;
    bob: hall (consumes money, 2 suppliers of its own); the tax office consumes people."""
    return {
        "turn": 1,
        "seed": "ab" * 32,
        "settings": {"max_out_links": 2, "max_in_links": 2, "attempts_per_turn": 1, **settings},
        "departments": [
            dept(
                "mint",
                "alice",
                produces=money(2),
                impress=2,
                stash={"money": 3},
                functions={"Linking": 2, "coinage": 1},
                alignments=["Liberal"],
            ),
            dept("bank", "alice", consumes=money(1), produces=money(1), stash={"money": 1}),
            dept("shop", "alice", consumes=money(1), home=False),
            dept(
                "hall",
                "bob",
                consumes=money(1),
                obstruct=1,
                alignments=["Conservative"],
                stash={"people": 2},
                defence={"people": 5},
            ),
            dept("tax", "bob", consumes={"type": "people", "amount": 1}),
        ],  # fmt: skip
        "links": [{"from": "mint", "to": "bank"}, {"from": "bank", "to": "shop"}],
        "orders": [],
    }


def test_add_link_offers_only_r10_r11_legal_pairs_inside_the_structure_r14() -> None:
    legal = legal_choices(board(), "alice")
    assert legal.add_link == [LinkChoice("mint", "shop")]  # bank->mint: mint consumes nothing
    assert legal_choices(board(max_in_links=1), "alice").add_link == []
    assert (
        "every consumer has the most suppliers allowed (1, R11)"
        in legal_choices(board(max_in_links=1), "alice").why_not["add_link"]
    )


def test_queued_link_orders_are_planned_r41_r13() -> None:
    state = board()
    state["orders"] = [{"id": "q", "player": "alice", "kind": "break_link", "from": "bank",
                        "to": "shop", "seq": 0}]  # fmt: skip
    legal = legal_choices(state, "alice")
    assert LinkChoice("bank", "shop") in legal.add_link  # before R13's departures
    assert all(m.path[-1] != "shop" for m in legal.move)  # shop left the structure (R13)


def test_moves_follow_links_within_unmoved_tokens_and_capacity_r42_r36() -> None:
    state = board()
    moves = {(m.start, m.path): m for m in legal_choices(state, "alice").move}
    assert set(moves) == {("mint", ("bank",)), ("mint", ("bank", "shop")), ("bank", ("shop",))}
    assert moves[("mint", ("bank",))].most == 3
    state["departments"][1]["capacity"] = 2  # bank holds 1: room for one more token only
    moves = {(m.start, m.path): m for m in legal_choices(state, "alice").move}
    assert moves[("mint", ("bank",))].most == 1
    assert moves[("mint", ("bank", "shop"))].most == 3


def test_attempts_are_pairs_r43_with_cost_and_the_per_turn_limit() -> None:
    legal = legal_choices(board(), "alice")
    pairs = {(c.attacker, c.target): c for c in legal.attempt}
    assert set(pairs) == {("mint", "hall"), ("bank", "hall")}  # tax consumes people
    assert (pairs[("mint", "hall")].cost, pairs[("mint", "hall")].cost_type) == (2, "money")
    assert "does not consume" in (legal.attempt_refusal("mint", "tax") or "")
    queued = board()
    queued["orders"] = [{"id": "a", "player": "alice", "kind": "attempt", "attacker": "mint",
                         "target": "hall"}]  # fmt: skip
    limited = legal_choices(queued, "alice")
    assert limited.attempt == []
    assert "as many linking attempts as a turn allows (1 of 1, R43)" in limited.why_not["attempt"]


def test_function_rolls_once_per_department_r45() -> None:
    state = board()
    state["orders"] = [{"id": "f", "player": "alice", "kind": "function", "department": "mint",
                        "function": "coinage", "stat": "effect", "seq": 0}]  # fmt: skip
    legal = legal_choices(state, "alice")
    assert [c.department for c in legal.function] == ["bank", "shop"]


def test_empty_lists_say_why_in_one_line() -> None:
    legal = legal_choices(board(), "bob")
    assert legal.priority == [] and "two or more consumers (R12)" in legal.why_not["priority"]
    assert legal.move == [] and "(R42" in legal.why_not["move"]
    assert set(legal.why_not) == {k for k in legal.why_not if not legal.choices(k)}
    assert legal_choices(board(), "carol").why_not["function"] == (
        "you control no department on this board"
    )


def test_attempt_pools_match_r43_r6_r21_r47() -> None:
    state = board()
    pools = attempt_pools(state, "mint", "hall", spend={"authority": 1, "people": 0})
    # Liberal vs Conservative: 1 opposed, TN 8; Impress 2 + 1 Authority; Linking 2.
    assert (pools.attack.tn, pools.attack.dice, pools.attack.skill) == (8, 3, 2)
    assert (pools.defend_dice, pools.defend_skill) == (1, 0)  # defence unknown: none
    known = attempt_pools(state, "mint", "hall", defence_known=True)
    assert known.defend_dice == 3  # R47: 5 People set, 2 held
    assert not pools.covered and pools.short == {"authority": (0, 1)}
    assert attempt_pools(state, "mint", "hall", cost={"money": 1}).cost_problem


def test_resolve_rolls_the_same_pools_as_the_preview() -> None:
    state = board()
    state["orders"] = [{"id": "a", "player": "alice", "kind": "attempt", "attacker": "mint",
                        "target": "hall"}]  # fmt: skip
    rolls = resolve(copy.deepcopy(state))["report"]["orders"]["a"]["rolls"]
    pools = attempt_pools(state, "mint", "hall", defence_known=True)
    assert (rolls[0]["dice"], rolls[0]["skill"], rolls[0]["tn"]) == (2, 2, 8)
    assert (pools.attack.dice, pools.attack.skill, pools.attack.tn) == (2, 2, 8)
    assert (rolls[1]["dice"], rolls[1]["skill"]) == (pools.defend_dice, pools.defend_skill)

"""RULES R40 (orders: sequence, rejection, all-or-nothing) and ENGINE.md's order contract."""

import pytest
from boards import (
    add_link,
    assert_board_unchanged,
    attempt,
    break_link,
    dept,
    links_of,
    move,
    order,
    report_of,
    stash_of,
    state,
    status_of,
)

from campaigns.engine import EngineError, resolve


def board(*orders):
    """alice: mint (makes money, holds 3) and watch (needs money, capacity 5), not linked yet.
    docks: uncontrolled, needs 1 money."""
    return state(
        [
            dept(
                "mint",
                structure="alice",
                home=True,
                produces=("money", 1),
                impress=1,
                functions={"linking": 6},
                stash={"money": 3},
            ),
            dept("watch", structure="alice", home=True, consumes=("money", 1), capacity=5),
            dept("docks", consumes=("money", 1)),
        ],
        (),
        orders,
    )


def test_r40_unknown_order_kind_is_rejected_not_an_input_error():
    """ENGINE.md: an unknown kind is rejected with a reason; the other orders go on."""
    out = resolve(
        board(
            order("x1", "alice", "bribe_the_gm", amount=5), add_link("o1", "alice", "mint", "watch")
        )
    )
    assert status_of(out, "x1") == "rejected"
    assert report_of(out, "x1")["reason"]
    assert status_of(out, "o1") == "succeeded"


def test_r40_every_order_gets_a_report_entry():
    """ENGINE.md: report.orders has one entry per order id."""
    s = board(add_link("o1", "alice", "mint", "watch"), break_link("o2", "alice", "mint", "docks"))
    out = resolve(s)
    assert set(out["report"]["orders"]) == {"o1", "o2"}
    assert status_of(out, "o2") == "rejected"
    assert report_of(out, "o2")["reason"]


def test_r40_rejected_order_does_not_stop_the_rest():
    """R40: o1 is illegal (watch produces nothing); o2 after it still succeeds."""
    out = resolve(
        board(add_link("o1", "alice", "watch", "mint"), add_link("o2", "alice", "mint", "watch"))
    )
    assert status_of(out, "o1") == "rejected"
    assert status_of(out, "o2") == "succeeded"


def test_r40_orders_resolve_by_seq_not_by_listing():
    """R40/ENGINE.md: the add (seq 2) is listed before the break (seq 1). By seq the break comes
    first and is rejected (no link yet); then the add succeeds: mint->watch exists afterwards."""
    out = resolve(
        board(
            add_link("o1", "alice", "mint", "watch", seq=2),
            break_link("o2", "alice", "mint", "watch", seq=1),
        )
    )
    assert status_of(out, "o2") == "rejected"
    assert status_of(out, "o1") == "succeeded"
    assert links_of(out) == {("mint", "watch")}


def test_r40_without_seq_orders_resolve_in_order_of_appearance():
    """ENGINE.md: default seq is the order of appearance: add, then break: no link at the end."""
    out = resolve(
        board(add_link("o1", "alice", "mint", "watch"), break_link("o2", "alice", "mint", "watch"))
    )
    assert [status_of(out, "o1"), status_of(out, "o2")] == ["succeeded", "succeeded"]
    assert links_of(out) == set()


def test_r40_failed_move_changes_nothing():
    """R40/R42: a move over watch's capacity (5) moves no token at all."""
    s = state(
        [
            dept(
                "mint",
                structure="alice",
                home=True,
                produces=("money", 1),
                stash={"money": 3, "people": 3},
            ),
            dept("watch", structure="alice", home=True, consumes=("money", 1), capacity=5),
        ],
        [("mint", "watch")],
        [move("m1", "alice", "mint", ["watch"], {"money": 3, "people": 3})],
    )
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


@pytest.mark.parametrize("field", ["cost", "spend"])
def test_r40_negative_amount_in_an_attempt_is_rejected(field):
    """ENGINE.md: token amounts are whole numbers >= 0: a negative cost or spend is rejected and
    mint keeps its 3 money."""
    amounts = {"cost": {"money": 3, "people": -1}, "spend": {"money": -1}}
    s = board(attempt("a1", "alice", "mint", "docks", **{field: amounts[field]}))
    out = resolve(s)
    assert status_of(out, "a1") == "rejected"
    assert_board_unchanged(s, out)


def test_r40_resolve_does_not_spawn():
    """R31/ENGINE.md: resolve stops at R47; mint does not produce during it."""
    out = resolve(board())
    assert stash_of(out, "mint") == {"money": 3, "people": 0, "authority": 0}


def test_resolve_requires_a_seed():
    """ENGINE.md: the seed is required by resolve; without it the input is bad."""
    s = board()
    del s["seed"]
    with pytest.raises(EngineError):
        resolve(s)


def test_unknown_keys_in_the_state_are_ignored():
    """ENGINE.md: unknown keys are ignored."""
    s = board(add_link("o1", "alice", "mint", "watch"))
    s["weather"] = "foggy"
    s["departments"][0]["colour"] = "gold"
    out = resolve(s)
    assert status_of(out, "o1") == "succeeded"

"""RULES R42 (moves) and its place after the link phase (R31, R41)."""

from boards import (
    add_link,
    assert_board_unchanged,
    break_link,
    dept,
    move,
    moved_of,
    stash_of,
    state,
    status_of,
)

from campaigns.engine import resolve

NONE = {"money": 0, "people": 0, "authority": 0}


def d(slug, **kw):
    """A home department of alice's structure that makes and needs money (so any chain of them
    is legal, R10), with room for 10 tokens unless told otherwise."""
    kw.setdefault("capacity", 10)
    kw.setdefault("produces", ("money", 1))
    kw.setdefault("consumes", ("money", 1))
    return dept(slug, structure="alice", home=True, **kw)


def chain(*orders, b=None, c=None, extra=(), links=(("a", "b"), ("b", "c"), ("c", "d"))):
    """alice: a -> b -> c -> d, plus e unlinked. a holds 3 money, 2 people, 1 authority.
    `b` / `c` replace those departments."""
    return state(
        [
            d("a", consumes=None, stash={"money": 3, "people": 2, "authority": 1}),
            b or d("b"),
            c or d("c"),
            d("d"),
            d("e"),
            dept(
                "vault",
                structure="bob",
                home=True,
                produces=("money", 1),
                stash={"money": 3},
                capacity=10,
            ),
            *extra,
        ],
        links,
        orders,
    )


def test_r42_one_step_move_leaves_all_tokens_at_the_end():
    """R42: 2 money from a down a->b: all of them stay at b (the last department)."""
    out = resolve(chain(move("m1", "alice", "a", ["b"], {"money": 2})))
    assert status_of(out, "m1") == "succeeded"
    assert stash_of(out, "a") == {"money": 1, "people": 2, "authority": 1}
    assert stash_of(out, "b") == {"money": 2, "people": 0, "authority": 0}


def test_r42_dropped_tokens_are_marked_moved():
    """R42: the tokens a move leaves anywhere are marked moved until the turn ends."""
    out = resolve(chain(move("m1", "alice", "a", ["b", "c"], {"money": 3})))
    assert moved_of(out, "b") == {"money": 1, "people": 0, "authority": 0}
    assert moved_of(out, "c") == {"money": 2, "people": 0, "authority": 0}
    assert moved_of(out, "a") == NONE


def test_r42_one_token_is_dropped_at_each_intermediate_department():
    """R42: 2 money down a->b->c: 1 dropped at b, the remaining 1 left at c."""
    out = resolve(chain(move("m1", "alice", "a", ["b", "c"], {"money": 2})))
    assert stash_of(out, "b")["money"] == 1
    assert stash_of(out, "c")["money"] == 1
    assert stash_of(out, "a")["money"] == 1


def test_r42_k_tokens_travel_k_steps():
    """R42: 3 money go three steps: one each at b and c, the last one at d."""
    out = resolve(chain(move("m1", "alice", "a", ["b", "c", "d"], {"money": 3})))
    assert status_of(out, "m1") == "succeeded"
    assert [stash_of(out, x)["money"] for x in "abcd"] == [0, 1, 1, 1]


def test_r42_k_tokens_cannot_travel_more_than_k_steps():
    """R42: 2 tokens cannot go three steps (the last department would get nothing)."""
    s = chain(move("m1", "alice", "a", ["b", "c", "d"], {"money": 2}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_default_drops_take_money_then_people_then_authority():
    """R42: 1 money, 1 people, 1 authority down a->b->c->d with no named drops:
    b gets the money, c the people, d is left the authority."""
    out = resolve(
        chain(move("m1", "alice", "a", ["b", "c", "d"], {"money": 1, "people": 1, "authority": 1}))
    )
    assert stash_of(out, "b") == {"money": 1, "people": 0, "authority": 0}
    assert stash_of(out, "c") == {"money": 0, "people": 1, "authority": 0}
    assert stash_of(out, "d") == {"money": 0, "people": 0, "authority": 1}


def test_r42_default_drops_use_up_money_before_people():
    """R42: 2 money and 1 people down a->b->c->d: each default drop takes the first type still
    carried in the order Money, People, Authority: b money, c money, d the people.
    (Open corner: "drops take types in the order Money, People, Authority" read as "the first type
    still carried", not as a rotation money, people, authority, money, ...)"""
    out = resolve(chain(move("m1", "alice", "a", ["b", "c", "d"], {"money": 2, "people": 1})))
    assert stash_of(out, "b") == {"money": 1, "people": 0, "authority": 0}
    assert stash_of(out, "c") == {"money": 1, "people": 0, "authority": 0}
    assert stash_of(out, "d") == {"money": 0, "people": 1, "authority": 0}


def test_r42_remaining_tokens_of_every_type_stay_at_the_last_department():
    """R42: 3 money and 2 people down a->b->c: b gets 1 money, c keeps 2 money and 2 people."""
    out = resolve(chain(move("m1", "alice", "a", ["b", "c"], {"money": 3, "people": 2})))
    assert stash_of(out, "b") == {"money": 1, "people": 0, "authority": 0}
    assert stash_of(out, "c") == {"money": 2, "people": 2, "authority": 0}
    assert stash_of(out, "a") == {"money": 0, "people": 0, "authority": 1}


def test_r42_named_drops_choose_each_intermediate_token():
    """R42: drops [authority, people] put authority at b, people at c; the money goes on to d."""
    out = resolve(
        chain(
            move(
                "m1",
                "alice",
                "a",
                ["b", "c", "d"],
                {"money": 1, "people": 1, "authority": 1},
                drops=[{"authority": 1}, {"people": 1}],
            )
        )
    )
    assert status_of(out, "m1") == "succeeded"
    assert stash_of(out, "b") == {"money": 0, "people": 0, "authority": 1}
    assert stash_of(out, "c") == {"money": 0, "people": 1, "authority": 0}
    assert stash_of(out, "d") == {"money": 1, "people": 0, "authority": 0}


def test_r42_named_drop_of_a_type_not_carried_is_rejected():
    """R42: the move carries no authority, so it cannot drop one at b."""
    s = chain(move("m1", "alice", "a", ["b", "c"], {"money": 2}, drops=[{"authority": 1}]))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_drops_list_must_have_one_drop_per_intermediate_department():
    """R42/ENGINE.md: drops are "one per intermediate department"; two path steps have one
    intermediate, so two drops is an illegal order. (Open corner: rejected, not ignored.)"""
    s = chain(
        move("m1", "alice", "a", ["b", "c"], {"money": 3}, drops=[{"money": 1}, {"money": 1}])
    )
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_path_must_follow_existing_links():
    """R42: there is no link a->c."""
    s = chain(move("m1", "alice", "a", ["c"], {"money": 1}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_path_must_follow_links_in_their_direction():
    """R42: the link is b->c; a move from c to b goes against it."""
    s = chain(move("m1", "alice", "c", ["b"], {"money": 1}), c=d("c", stash={"money": 2}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def cycle(*orders):
    """alice: p (money out, people in) <-> q (people out, money in) <-> r (money out, people in)."""
    return state(
        [
            d("p", produces=("money", 1), consumes=("people", 1), stash={"money": 5}),
            d("q", produces=("people", 1), consumes=("money", 1)),
            d("r", produces=("money", 1), consumes=("people", 1)),
        ],
        [("p", "q"), ("q", "p"), ("q", "r"), ("r", "q")],
        orders,
    )


def test_r42_path_may_not_return_to_the_start():
    """R42: p->q->p follows links, but p is where the move starts."""
    s = cycle(move("m1", "alice", "p", ["q", "p"], {"money": 2}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_path_departments_are_all_different():
    """R42: p->q->r->q follows links but passes q twice."""
    s = cycle(move("m1", "alice", "p", ["q", "r", "q"], {"money": 3}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_a_path_through_distinct_departments_around_the_cycle_is_fine():
    """R42: p->q->r with 2 money: 1 at q, 1 at r."""
    out = resolve(cycle(move("m1", "alice", "p", ["q", "r"], {"money": 2})))
    assert status_of(out, "m1") == "succeeded"
    assert [stash_of(out, x)["money"] for x in "pqr"] == [3, 1, 1]


def test_r42_move_from_another_players_department_is_rejected():
    """R42: a move picks up tokens from a department of the player's own structure; vault is
    bob's."""
    s = chain(move("m1", "alice", "vault", ["b"], {"money": 1}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_move_of_tokens_that_do_not_exist_is_rejected():
    """R42: a holds 1 authority, not 2."""
    s = chain(move("m1", "alice", "a", ["b"], {"authority": 2}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_negative_token_amount_is_rejected():
    """ENGINE.md: token amounts are whole numbers >= 0; a negative amount is rejected."""
    s = chain(move("m1", "alice", "a", ["b"], {"money": 2, "people": -1}))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_tokens_moved_this_turn_cannot_be_picked_up_again():
    """R42: b's 2 money arrived by m1 this turn, so m2 cannot carry any of them on to c."""
    out = resolve(
        chain(
            move("m1", "alice", "a", ["b"], {"money": 2}, seq=1),
            move("m2", "alice", "b", ["c"], {"money": 1}, seq=2),
        )
    )
    assert status_of(out, "m1") == "succeeded"
    assert status_of(out, "m2") == "rejected"
    assert stash_of(out, "b")["money"] == 2
    assert stash_of(out, "c")["money"] == 0


def test_r42_unmoved_tokens_beside_moved_ones_can_still_be_picked_up():
    """R42: b holds 1 money of its own and receives 2 moved: it can send on exactly 1.
    m2 takes the unmoved one to c; m3 finds only moved money at b and is rejected."""
    out = resolve(
        chain(
            move("m1", "alice", "a", ["b"], {"money": 2}, seq=1),
            move("m2", "alice", "b", ["c"], {"money": 1}, seq=2),
            move("m3", "alice", "b", ["c"], {"money": 1}, seq=3),
            b=d("b", stash={"money": 1}),
        )
    )
    assert [status_of(out, x) for x in ["m1", "m2", "m3"]] == ["succeeded", "succeeded", "rejected"]
    assert stash_of(out, "b")["money"] == 2
    assert moved_of(out, "b")["money"] == 2
    assert stash_of(out, "c")["money"] == 1
    assert moved_of(out, "c")["money"] == 1


def test_r42_moved_marks_in_the_state_are_honoured():
    """R42/ENGINE.md: b's 2 money are already marked moved in the input state."""
    s = chain(
        move("m1", "alice", "b", ["c"], {"money": 1}),
        b=d("b", stash={"money": 2}, moved={"money": 2}),
    )
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_move_over_capacity_at_the_last_department_is_illegal():
    """R42/R36: b has capacity 1; leaving 2 money there is over it."""
    s = chain(move("m1", "alice", "a", ["b"], {"money": 2}), b=d("b", capacity=1))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_drop_over_capacity_at_an_intermediate_department_makes_the_whole_move_illegal():
    """R42: b has capacity 0, so the drop there is illegal, though c has room: nothing moves."""
    s = chain(move("m1", "alice", "a", ["b", "c"], {"money": 2}), b=d("b", capacity=0))
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_capacity_counts_tokens_of_every_type():
    """R36/R42: b (capacity 2) already holds 2 people; one money more would be 3."""
    s = chain(
        move("m1", "alice", "a", ["b"], {"money": 1}), b=d("b", capacity=2, stash={"people": 2})
    )
    out = resolve(s)
    assert status_of(out, "m1") == "rejected"
    assert_board_unchanged(s, out)


def test_r42_move_filling_exactly_to_capacity_is_fine():
    """R42: b (capacity 3) holds 1 people; 2 money bring it to exactly 3."""
    out = resolve(
        chain(
            move("m1", "alice", "a", ["b"], {"money": 2}), b=d("b", capacity=3, stash={"people": 1})
        )
    )
    assert status_of(out, "m1") == "succeeded"
    assert stash_of(out, "b") == {"money": 2, "people": 1, "authority": 0}


def test_r42_missing_capacity_is_the_produced_amount():
    """ENGINE.md: with no `capacity` key, capacity is the produced amount (chain length 1).
    f produces 1 people: 1 money fits, 2 do not."""
    f = dept("f", structure="alice", home=True, consumes=("money", 1), produces=("people", 1))
    out = resolve(
        chain(
            move("m1", "alice", "a", ["f"], {"money": 2}, seq=1),
            move("m2", "alice", "a", ["f"], {"money": 1}, seq=2),
            extra=[f],
            links=(("a", "b"), ("a", "f")),
        )
    )
    assert status_of(out, "m1") == "rejected"
    assert status_of(out, "m2") == "succeeded"
    assert stash_of(out, "f") == {"money": 1, "people": 0, "authority": 0}


def test_r42_a_player_may_make_any_number_of_moves():
    """R42: three moves from a all go through: 1 money to b, 1 people to b, then 1 money and
    1 authority down a->b->c."""
    out = resolve(
        chain(
            move("m1", "alice", "a", ["b"], {"money": 1}),
            move("m2", "alice", "a", ["b"], {"people": 1}),
            move("m3", "alice", "a", ["b", "c"], {"money": 1, "authority": 1}),
        )
    )
    assert [status_of(out, x) for x in ["m1", "m2", "m3"]] == ["succeeded"] * 3
    # m3: one default drop at b takes money (before authority); c is left the authority.
    assert stash_of(out, "a") == {"money": 1, "people": 1, "authority": 0}
    assert stash_of(out, "b") == {"money": 2, "people": 1, "authority": 0}
    assert stash_of(out, "c") == {"money": 0, "people": 0, "authority": 1}


# ---- phases: the link phase comes before the move phase (R31, R41) -------------------------


def test_r31_move_may_follow_a_link_added_this_turn_whatever_its_seq():
    """R31/R41/R42: the link phase resolves first, so a move (seq 1) along a->e, added by seq 2,
    succeeds."""
    out = resolve(
        chain(
            move("m1", "alice", "a", ["e"], {"money": 1}, seq=1),
            add_link("l1", "alice", "a", "e", seq=2),
        )
    )
    assert status_of(out, "l1") == "succeeded"
    assert status_of(out, "m1") == "succeeded"
    assert stash_of(out, "e")["money"] == 1


def test_r31_move_cannot_follow_a_link_broken_this_turn():
    """R31/R41/R42: a->b is broken in the link phase, so a move along it is rejected."""
    out = resolve(
        chain(
            move("m1", "alice", "a", ["b"], {"money": 1}, seq=1),
            break_link("l1", "alice", "a", "b", seq=2),
        )
    )
    assert status_of(out, "l1") == "succeeded"
    assert status_of(out, "m1") == "rejected"
    assert stash_of(out, "a")["money"] == 3

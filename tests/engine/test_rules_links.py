"""RULES R10-R14 and the link phase R41: adding, breaking and ranking links; structures."""

import pytest
from boards import (
    add_link,
    assert_board_unchanged,
    break_link,
    dept,
    depts,
    links_of,
    priority,
    ranked,
    report_of,
    stash_of,
    state,
    status_of,
    structure_of,
)

from campaigns.engine import EngineError, resolve, spawn_consume
from campaigns.engine.legal import LinkChoice, legal_choices


def alice(slug, **kw):
    """A home department of alice's structure."""
    return dept(slug, structure="alice", home=True, **kw)


def board(links=(), orders=(), settings=None, extra=()):
    """Alice: mint and bank produce money; watch, tower, keep consume money; guild consumes people;
    archive consumes nothing. Bob: court consumes money, treasury produces money.
    docks: uncontrolled, consumes money."""
    departments = [
        alice("mint", produces=("money", 1)),
        alice("bank", produces=("money", 1), consumes=("money", 1)),
        alice("watch", consumes=("money", 1)),
        alice("tower", consumes=("money", 1)),
        alice("keep", consumes=("money", 1)),
        alice("guild", consumes=("people", 1)),
        alice("archive"),
        dept("court", structure="bob", home=True, consumes=("money", 1)),
        dept("treasury", structure="bob", home=True, produces=("money", 2)),
        dept("docks", consumes=("money", 1)),
        *extra,
    ]
    return state(departments, links, orders, settings=settings)


# ---- R10: which links are legal -----------------------------------------------------------


def test_r10_add_link_from_producer_to_consumer_of_that_type_succeeds():
    """R10/R41: mint produces money, watch consumes money: the link is made."""
    out = resolve(board(orders=[add_link("o1", "alice", "mint", "watch")]))
    assert status_of(out, "o1") == "succeeded"
    assert links_of(out) == {("mint", "watch")}
    assert ranked(out, "mint") == ["watch"]


@pytest.mark.parametrize(
    ("links", "supplier", "consumer"),
    [
        # mint produces money but guild consumes people.
        pytest.param((), "mint", "guild", id="type-mismatch"),
        # watch produces nothing, so it supplies nobody.
        pytest.param((), "watch", "tower", id="supplier-produces-nothing"),
        # archive consumes nothing, so no link can feed it.
        pytest.param((), "mint", "archive", id="consumer-consumes-nothing"),
        # bank produces and consumes money, but may not link to itself.
        pytest.param((), "bank", "bank", id="self-link"),
        # mint->watch already exists.
        pytest.param((("mint", "watch"),), "mint", "watch", id="duplicate"),
    ],
)
def test_r10_illegal_add_link_is_rejected_with_a_reason(links, supplier, consumer):
    """R10: a link must go from a department producing a type to another department consuming
    it, once: otherwise the order is rejected with a reason and nothing changes."""
    s = board(links=links, orders=[add_link("o1", "alice", supplier, consumer)])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert out["report"]["orders"]["o1"]["reason"]
    assert_board_unchanged(s, out)


def test_r10_reverse_link_is_not_a_duplicate():
    """R10: links are one-way, so bank2->bank is a different link from bank->bank2."""
    bank2 = alice("bank2", produces=("money", 1), consumes=("money", 1))
    out = resolve(
        board(
            links=[("bank", "bank2")],
            orders=[add_link("o1", "alice", "bank2", "bank")],
            extra=[bank2],
        )
    )
    assert status_of(out, "o1") == "succeeded"
    assert links_of(out) == {("bank", "bank2"), ("bank2", "bank")}


@pytest.mark.parametrize(
    "bad_links",
    [
        pytest.param([("mint", "guild")], id="type-mismatch"),
        pytest.param([("bank", "bank")], id="self-link"),
        pytest.param(
            [
                {"from": "mint", "to": "watch", "priority": 0},
                {"from": "mint", "to": "watch", "priority": 1},
            ],
            id="duplicate",
        ),
        pytest.param([("mint", "nowhere")], id="unknown-slug"),
    ],
)
@pytest.mark.parametrize("engine", [spawn_consume, resolve])
def test_r10_state_holding_an_illegal_link_is_an_input_error(engine, bad_links):
    """R10 / ENGINE.md: a rule broken by the state itself (or an unknown slug) is bad input."""
    with pytest.raises(EngineError):
        engine(board(links=bad_links))


# ---- R11: link limits ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("links", "order", "settings"),
    [
        # mint already supplies watch and tower (2 outgoing).
        pytest.param(
            [("mint", "watch"), ("mint", "tower")], ("mint", "keep"), None, id="third-outgoing"
        ),
        # watch is already fed by mint and bank (2 incoming).
        pytest.param(
            [("mint", "watch"), ("bank", "watch")], ("mint2", "watch"), None, id="third-incoming"
        ),
        # with max_in_links 1, a consumer already fed once takes no second link.
        pytest.param(
            [("mint", "watch")], ("bank", "watch"), {"max_in_links": 1}, id="in-limit-setting"
        ),
    ],
)
def test_r11_a_link_over_the_limits_is_rejected(links, order, settings):
    """R11: at most max_out_links (default 2) out of a supplier and max_in_links (default 2)
    into a consumer; a link over either is rejected and the board is unchanged."""
    s = board(
        links=links,
        orders=[add_link("o1", "alice", *order)],
        extra=[alice("mint2", produces=("money", 1))],
        settings=settings,
    )
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert "(R11)" in report_of(out, "o1")["reason"]
    assert_board_unchanged(s, out)


def test_r11_out_limit_is_a_campaign_setting():
    """R11: with max_out_links 3 a third outgoing link is legal."""
    s = board(
        links=[("mint", "watch"), ("mint", "tower")],
        orders=[add_link("o1", "alice", "mint", "keep")],
        settings={"max_out_links": 3},
    )
    out = resolve(s)
    assert status_of(out, "o1") == "succeeded"
    assert ranked(out, "mint") == ["watch", "tower", "keep"]


def test_r11_supplier_may_link_to_more_consumers_than_it_can_feed():
    """R11: mint makes 1 money a turn yet may supply watch and tower (1 money each)."""
    out = resolve(
        board(
            orders=[
                add_link("o1", "alice", "mint", "watch"),
                add_link("o2", "alice", "mint", "tower"),
            ]
        )
    )
    assert [status_of(out, "o1"), status_of(out, "o2")] == ["succeeded", "succeeded"]
    assert ranked(out, "mint") == ["watch", "tower"]


def test_r41_limits_are_checked_in_sequence_so_break_then_add_fits():
    """R41: orders resolve in the player's sequence: breaking mint->watch first frees a slot
    for keep."""
    s = board(
        links=[("mint", "watch"), ("mint", "tower")],
        orders=[
            add_link("o2", "alice", "mint", "keep", seq=2),
            break_link("o1", "alice", "mint", "watch", seq=1),
        ],
    )
    out = resolve(s)
    assert [status_of(out, "o1"), status_of(out, "o2")] == ["succeeded", "succeeded"]
    # tower moves up to rank 0 after watch's link goes; keep is new, so last.
    assert ranked(out, "mint") == ["tower", "keep"]


# ---- R12: funding priority ----------------------------------------------------------------


def test_r12_new_link_is_ranked_last():
    """R12: mint already feeds watch (rank 0); the new link to tower gets rank 1."""
    out = resolve(
        board(links=[("mint", "watch")], orders=[add_link("o1", "alice", "mint", "tower")])
    )
    assert ranked(out, "mint") == ["watch", "tower"]


def test_r12_output_ranks_are_renumbered_from_zero_in_rank_order():
    """R12 / ENGINE.md: input ranks 7 and 3 come back as 0 (tower) and 1 (watch)."""
    s = board(
        links=[
            {"from": "mint", "to": "watch", "priority": 7},
            {"from": "mint", "to": "tower", "priority": 3},
        ]
    )
    out = spawn_consume(s)
    assert ranked(out, "mint") == ["tower", "watch"]


def test_r12_links_without_priority_rank_after_those_with_one_in_listed_order():
    """ENGINE.md: unranked links follow the ranked ones, in the order listed."""
    s = board(
        links=[
            {"from": "mint", "to": "watch"},
            {"from": "mint", "to": "keep"},
            {"from": "mint", "to": "tower", "priority": 0},
        ],
        settings={"max_out_links": 3},
    )
    out = resolve(s)
    assert ranked(out, "mint") == ["tower", "watch", "keep"]


def three_consumer_board(orders):
    return board(
        links=[("mint", "watch"), ("mint", "tower"), ("mint", "keep")],
        orders=orders,
        settings={"max_out_links": 3},
    )


def test_r12_priority_order_puts_named_consumer_first_and_keeps_the_rest_in_order():
    """R12/ENGINE.md: [keep] on watch, tower, keep gives keep, watch, tower."""
    out = resolve(three_consumer_board([priority("o1", "alice", "mint", ["keep"])]))
    assert status_of(out, "o1") == "succeeded"
    assert ranked(out, "mint") == ["keep", "watch", "tower"]


def test_r12_priority_order_with_two_named_consumers():
    """R12: [keep, tower] on watch, tower, keep gives keep, tower, watch."""
    out = resolve(three_consumer_board([priority("o1", "alice", "mint", ["keep", "tower"])]))
    assert ranked(out, "mint") == ["keep", "tower", "watch"]


def test_r12_priority_order_naming_a_non_consumer_is_rejected():
    """ENGINE.md: bank is not one of mint's consumers."""
    s = three_consumer_board([priority("o1", "alice", "mint", ["keep", "bank"])])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


def test_r12_priority_order_naming_a_consumer_twice_is_rejected():
    """ENGINE.md: naming keep twice is rejected."""
    s = three_consumer_board([priority("o1", "alice", "mint", ["keep", "keep"])])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


def test_r12_priority_order_for_another_players_supplier_is_rejected():
    """R12/R14: only the controller reorders; bob cannot reorder alice's mint."""
    s = three_consumer_board([priority("o1", "bob", "mint", ["keep"])])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


def test_r12_priority_order_changes_who_is_fed_next_turn():
    """R12/R33: mint makes 1 money for watch (rank 0) and tower (rank 1), 1 each.

    After priority [tower], spawn-consume feeds tower first: tower funded, watch unfunded.
    """
    after = resolve(
        board(
            links=[("mint", "watch"), ("mint", "tower")],
            orders=[priority("o1", "alice", "mint", ["tower"])],
        )
    )
    next_turn = spawn_consume({k: v for k, v in after.items() if k != "report"})
    assert next_turn["report"]["departments"]["tower"]["status"] == "funded"
    assert next_turn["report"]["departments"]["watch"]["status"] == "unfunded"


# ---- R13 / R41: structures after the link phase ------------------------------------------


def structure_board(orders=(), links=(("hall", "office"),)):
    """Alice: hall (home, produces money 1), office (non-home, consumes money 1, stash 2 people)."""
    return state(
        [
            dept("hall", structure="alice", home=True, produces=("money", 1)),
            dept(
                "office", structure="alice", consumes=("money", 1), stash={"people": 2}, capacity=5
            ),
            dept("annex", structure="alice", home=True, consumes=("money", 1), capacity=5),
        ],
        links,
        orders,
    )


def test_r13_non_home_department_left_without_links_leaves_and_keeps_its_stash():
    """R13/R41: breaking hall->office leaves office with no link in alice's structure:
    it becomes uncontrolled and keeps its 2 people."""
    out = resolve(structure_board([break_link("o1", "alice", "hall", "office")]))
    assert status_of(out, "o1") == "succeeded"
    assert links_of(out) == set()
    assert structure_of(out, "office") is None
    assert stash_of(out, "office") == {"money": 0, "people": 2, "authority": 0}


def test_r13_home_departments_stay_even_when_unlinked():
    """R13: hall and annex are home departments; unlinked, they stay alice's."""
    out = resolve(structure_board([break_link("o1", "alice", "hall", "office")]))
    assert structure_of(out, "hall") == "alice"
    assert structure_of(out, "annex") == "alice"


def test_r41_unlinked_non_home_department_leaves_even_with_no_orders():
    """R41: at the end of every link phase, a non-home department with no link leaves."""
    out = resolve(structure_board(links=()))
    assert structure_of(out, "office") is None
    assert stash_of(out, "office") == {"money": 0, "people": 2, "authority": 0}


def test_r13_linked_non_home_departments_stay_without_a_home_connection():
    """R13: the test is "no link to or from another department of the same structure", not a
    connection to a home department: office2 -> office keeps both, though hall is unlinked."""
    s = state(
        [
            dept("hall", structure="alice", home=True, produces=("money", 1)),
            dept("office", structure="alice", consumes=("money", 1)),
            dept("office2", structure="alice", produces=("money", 1)),
        ],
        [("office2", "office")],
    )
    out = resolve(s)
    assert structure_of(out, "office") == "alice"
    assert structure_of(out, "office2") == "alice"


def test_r41_departure_is_checked_after_all_link_orders():
    """R41: break hall->office then add it back in the same turn: office never leaves."""
    out = resolve(
        structure_board(
            [
                break_link("o1", "alice", "hall", "office", seq=1),
                add_link("o2", "alice", "hall", "office", seq=2),
            ]
        )
    )
    assert [status_of(out, "o1"), status_of(out, "o2")] == ["succeeded", "succeeded"]
    assert structure_of(out, "office") == "alice"


def test_r41_breaking_a_link_that_does_not_exist_is_rejected():
    """R41: there is no hall->annex link to break."""
    s = structure_board([break_link("o1", "alice", "hall", "annex")])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


# ---- R14: links stay inside a structure ---------------------------------------------------


def test_r14_link_to_another_players_department_is_rejected():
    """R14: court is bob's; alice may not link mint->court."""
    s = board(orders=[add_link("o1", "alice", "mint", "court")])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


def test_r14_link_to_an_uncontrolled_department_is_rejected():
    """R14: a department joins a structure only by a linking attempt (or the GM), not by a link."""
    s = board(orders=[add_link("o1", "alice", "mint", "docks")])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)
    assert structure_of(out, "docks") is None


def test_r14_player_cannot_link_departments_of_another_structure():
    """R14: treasury->court are both bob's: alice's order to link them is rejected."""
    s = board(orders=[add_link("o1", "alice", "treasury", "court")])
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


def test_r14_owner_links_their_own_departments():
    """R14: the same link ordered by bob succeeds."""
    out = resolve(board(orders=[add_link("o1", "bob", "treasury", "court")]))
    assert status_of(out, "o1") == "succeeded"
    assert links_of(out) == {("treasury", "court")}


def test_r14_player_cannot_break_another_players_link():
    """R14: treasury->court is bob's link; alice may not break it."""
    s = board(
        links=[("treasury", "court")], orders=[break_link("o1", "alice", "treasury", "court")]
    )
    out = resolve(s)
    assert status_of(out, "o1") == "rejected"
    assert_board_unchanged(s, out)


def test_r14_link_phase_changes_no_structure_membership_of_owned_departments():
    """R14: after alice's legal links, every department keeps its controller."""
    out = resolve(board(orders=[add_link("o1", "alice", "mint", "watch")]))
    assert {slug: d["structure"] for slug, d in depts(out).items()} == {
        "mint": "alice",
        "bank": "alice",
        "watch": "alice",
        "tower": "alice",
        "keep": "alice",
        "guild": "alice",
        "archive": "alice",
        "court": "bob",
        "treasury": "bob",
        "docks": None,
    }


@pytest.mark.parametrize(("supplier", "consumer"), [("mint", "docks"), ("treasury", "watch")])
def test_r50_a_player_may_break_a_link_of_theirs_whoever_holds_its_other_end(supplier, consumer):
    """R50 (issue 25): a link between one of alice's departments and one outside her
    structure (one the GM made) is hers to see and to break; the legal choices offer it."""
    links = [(supplier, consumer)]
    assert LinkChoice(supplier, consumer) in legal_choices(board(links=links), "alice").break_link
    out = resolve(board(links=links, orders=[break_link("o1", "alice", supplier, consumer)]))
    assert status_of(out, "o1") == "succeeded"
    assert links_of(out) == set()

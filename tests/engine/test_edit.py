"""RULES R53 (GM changes, engine/edit.py): the engine's review of a board the GM changed.
R10-R11 bind a link the GM adds as a new link, R14 does not bind the GM, R13 refuses a
department the change strands, R36 warns of tokens a department would discard, R33 notes a
consumer nothing can fund."""

from copy import deepcopy

from boards import dept, state

from campaigns.engine.edit import Discard, Stranded, review, stranded_in


def board(links=(), **settings):
    """Alice holds mint (money 2) and vault (consumes money, not home); bob holds court
    (consumes money); docks consumes money, uncontrolled; press produces authority."""
    return state(
        [
            dept("mint", produces=("money", 2), structure="alice", home=True),
            dept("vault", consumes=("money", 1), structure="alice"),
            dept("court", consumes=("money", 1), structure="bob", home=True),
            dept("docks", consumes=("money", 1)),
            dept("press", produces=("authority", 1)),
        ],
        links,
        settings=settings or None,
    )


def with_link(before, frm, to):
    after = deepcopy(before)
    after["links"].append({"from": frm, "to": to})
    return after


def test_a_link_of_the_wrong_type_is_refused_r10():
    before = board([("mint", "vault")])
    verdict = review(before, with_link(before, "press", "docks"), new_links=[("press", "docks")])
    assert verdict.refused
    assert verdict.refusal == "press does not produce what docks consumes (R10)"
    # A change the GM did not declare as a new link still meets the parser's R10 check.
    unsaid = review(before, with_link(before, "press", "docks"))
    assert unsaid.refusal == "link press->docks: press does not produce what docks consumes (R10)"


def test_a_self_link_and_a_duplicate_are_refused_r10():
    before = board([("mint", "vault")])
    itself = review(before, with_link(before, "mint", "mint"), new_links=[("mint", "mint")])
    assert "cannot link to itself (R10)" in itself.refusal
    # The database holds a link once: the change reads back the same links, and the engine
    # judges the new one against the board before it, where it already exists.
    again = review(before, deepcopy(before), new_links=[("mint", "vault")])
    assert again.refusal == "mint already links to vault (R10)"


def test_r11_binds_a_link_the_gm_adds_but_not_the_links_a_board_already_holds():
    before = board([("mint", "vault"), ("mint", "court")], max_out_links=1)
    assert review(before, deepcopy(before)).refused is False  # two links over a limit of one
    verdict = review(before, with_link(before, "mint", "docks"), new_links=[("mint", "docks")])
    assert verdict.refusal == "mint has no free outgoing link (R11)"


def test_r14_does_not_bind_the_gm_a_link_across_structures_is_kept():
    before = board([("mint", "vault")])
    verdict = review(before, with_link(before, "mint", "court"), new_links=[("mint", "court")])
    assert not verdict.refused and verdict.refusal is None


def test_r13_a_change_that_strands_a_non_home_department_is_refused():
    before = board([("mint", "vault")])
    after = board([])  # the link mint -> vault removed: vault has no link inside alice's
    verdict = review(before, after)
    assert verdict.refused
    assert verdict.stranded == [Stranded("vault", "alice")]


def test_r13_a_department_stranded_before_the_change_does_not_stop_it():
    before = board([])  # vault is stranded already
    after = with_link(before, "mint", "docks")
    verdict = review(before, after, new_links=[("mint", "docks")])
    assert not verdict.refused and verdict.stranded == []
    assert stranded_in(after) == [Stranded("vault", "alice")]


def test_r36_a_stash_the_department_cannot_keep_is_kept_with_what_it_would_discard():
    """The GM may give tokens to be spent this week: R36 discards only at the next spawn."""
    before = board([("mint", "vault")])
    after = deepcopy(before)
    after["departments"][0]["stash"]["money"] = 5  # 5 + 2 spawned - 1 to vault > capacity 2
    verdict = review(before, after, watch=["mint"])
    assert not verdict.refused
    assert verdict.discards == {"mint": Discard({"money": 4, "people": 0, "authority": 0}, 2)}
    after["departments"][0]["stash"]["money"] = 1  # 1 + 2 - 1 = 2: exactly its capacity
    assert review(before, after, watch=["mint"]).discards == {}


def test_r36_a_change_that_adds_to_a_discard_tells_all_of_it():
    before = board([("mint", "vault")])
    before["departments"][0]["stash"]["money"] = 5  # discards 4 already
    after = deepcopy(before)
    after["departments"][0]["stash"]["money"] = 7
    assert review(before, after, watch=["mint"]).discards == {
        "mint": Discard({"money": 6, "people": 0, "authority": 0}, 2)
    }


def test_r36_only_what_the_change_adds_counts():
    before = board([("mint", "vault")])
    before["departments"][0]["stash"]["money"] = 5  # discards 4 already
    after = deepcopy(before)
    after["departments"][0]["name"] = "The Royal Mint"
    assert review(before, after, watch=["mint"]).discards == {}


def test_r33_a_consumer_nothing_on_the_board_produces_for_is_a_note_not_a_refusal():
    before = board([("mint", "vault")])
    after = deepcopy(before)
    after["departments"].append(dept("temple", consumes=("people", 1)))
    verdict = review(before, after, watch=["temple"])
    assert not verdict.refused
    assert verdict.unfunded == {"temple": "people"}


def test_a_state_the_parser_refuses_is_refused_with_its_one_line():
    before = board([("mint", "vault")])
    after = deepcopy(before)
    after["departments"][0]["alignments"] = ["Government", "Communist"]
    verdict = review(before, after, watch=["mint"])
    assert verdict.refusal == "department mint: holds government together with its opposite (R5)"

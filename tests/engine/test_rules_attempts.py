"""RULES R43 (linking attempts), R44 (capture), R46 (reinforcement), R47 (standing defence).

Outcomes are made certain without luck where possible: an attacker with `linking` skill 6 rolls
for TN 7 (no alignments), so every die succeeds (face 1 + 6 >= 7, R20); a defender with
Obstruct 0 and nothing to spend rolls 0 dice, so 0 successes. Where real dice decide, the faces
come from `boards.faces`, an independent copy of R23.
"""

import pytest
from boards import (
    SEED,
    TURN,
    attempt,
    attempt_sequence,
    break_link,
    dept,
    depts,
    faces,
    key,
    links_of,
    move,
    ranked,
    reinforce,
    report_of,
    roll_of,
    stash_of,
    state,
    status_of,
    structure_of,
    successes,
)

from campaigns.engine import resolve


def mint(**kw):
    """Alice's attacker: makes money, Impress 1, linking 6 (every die succeeds at TN 7);
    4 money, 2 people, 2 authority; already feeds watch (rank 0), so one outgoing link is free."""
    base = {
        "structure": "alice",
        "home": True,
        "produces": ("money", 1),
        "impress": 1,
        "functions": {"linking": 6},
        "stash": {"money": 4, "people": 2, "authority": 2},
        "capacity": 10,
    }
    base.update(kw)
    return dept("mint", **base)


def second_attacker(slug="press", structure="alice"):
    """Another attacker like mint (linking 6, so every die succeeds; 2 money), no link out yet:
    alice's press by default."""
    return dept(
        slug,
        structure=structure,
        home=True,
        produces=("money", 1),
        impress=1,
        functions={"linking": 6},
        stash={"money": 2},
    )


def board(
    *orders,
    attacker=None,
    target=None,
    extra=(),
    links=(("mint", "watch"),),
    settings=None,
    seed=SEED,
):
    """alice: mint -> watch. docks: uncontrolled, needs 1 money (cost 2 money), Obstruct 0."""
    return state(
        [
            attacker or mint(),
            dept("watch", structure="alice", home=True, consumes=("money", 1), capacity=10),
            target or dept("docks", consumes=("money", 1)),
            *extra,
        ],
        links,
        orders,
        settings=settings,
        seed=seed,
    )


NOTHING = {"money": 0, "people": 0, "authority": 0}
# Seeds picked (by the independent boards.faces) so that the dice sit on the boundaries:
# SEED_0 = sha256("0"): "3:a1:attack" x3 = 4, 10, 9.  SEED_9 = sha256("9"): 5, 3, 4.
SEED_0 = "5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9"
SEED_9 = "19581e27de7ced00ff1ce50b2047e7a567c76b1cbaebabe5ef03f7c3017bb5b7"


# ---- R43: legality -------------------------------------------------------------------------


def test_r43_successful_attempt_captures_and_pays_the_cost():
    """R43/R44: impress 1 at skill 6 vs TN 7 = 1 success; docks rolls 0 dice = 0. 1 > 0: docks joins
    alice with a new link mint->docks ranked last (after watch). Cost 2 x 1 money: mint 4 -> 2."""
    out = resolve(board(attempt("a1", "alice", "mint", "docks")))
    assert status_of(out, "a1") == "succeeded"
    assert structure_of(out, "docks") == "alice"
    assert ranked(out, "mint") == ["watch", "docks"]
    assert stash_of(out, "mint") == {"money": 2, "people": 2, "authority": 2}


def test_r43_attempt_reports_attack_and_defend_rolls():
    """R43/R23: the attack roll is "3:a1:attack" (1 die, skill 6, TN 7), the defence "3:a1:defend"
    (0 dice, skill 0, TN 7)."""
    out = resolve(board(attempt("a1", "alice", "mint", "docks")))
    att = roll_of(out, "a1", "attack")
    dfn = roll_of(out, "a1", "defend")
    assert (att["key"], att["dice"], att["skill"], att["tn"], att["successes"]) == (
        "3:a1:attack",
        1,
        6,
        7,
        1,
    )
    assert att["faces"] == faces(SEED, "3:a1:attack", 1)
    assert (dfn["key"], dfn["dice"], dfn["skill"], dfn["tn"], dfn["successes"]) == (
        "3:a1:defend",
        0,
        0,
        7,
        0,
    )


def test_r43_defender_wins_ties_and_the_cost_is_still_spent():
    """R43 step 5: mint with Impress 0 rolls 0 dice, docks 0 dice: 0 vs 0 is a tie, the defender
    holds. The cost (step 1) was paid before the rolls: mint 4 -> 2 money."""
    out = resolve(board(attempt("a1", "alice", "mint", "docks"), attacker=mint(impress=0)))
    assert status_of(out, "a1") == "failed"
    assert structure_of(out, "docks") is None
    assert links_of(out) == {("mint", "watch")}
    assert stash_of(out, "mint") == {"money": 2, "people": 2, "authority": 2}


def court(**kw):
    """Bob's court: needs 1 money, Obstruct 1, standing defence 6 money (skill 6: its die always
    succeeds); fed by bob's treasury."""
    base = {
        "structure": "bob",
        "home": True,
        "consumes": ("money", 1),
        "obstruct": 1,
        "defence": {"money": 6},
        "stash": {"money": 6},
        "capacity": 10,
    }
    base.update(kw)
    return dept("court", **base)


def treasury(**kw):
    base = {"structure": "bob", "home": True, "produces": ("money", 2), "capacity": 10}
    base.update(kw)
    return dept("treasury", **base)


def bob_board(*orders, attacker=None, target=None, extra=(), settings=None):
    """alice: mint -> watch. bob: treasury -> court."""
    return board(
        *orders,
        attacker=attacker,
        target=target or court(),
        extra=[treasury(), *extra],
        links=(("mint", "watch"), ("treasury", "court")),
        settings=settings,
    )


def test_r43_one_success_each_is_a_tie_for_the_defender():
    """R43 step 5: mint 1 success (1 die, skill 6) vs court 1 success (1 die, skill 6 from
    6 spent money, R21/R47): tie, bob keeps court."""
    out = resolve(bob_board(attempt("a1", "alice", "mint", "court")))
    assert roll_of(out, "a1", "attack")["successes"] == 1
    assert roll_of(out, "a1", "defend")["successes"] == 1
    assert status_of(out, "a1") == "failed"
    assert structure_of(out, "court") == "bob"


def test_r43_strictly_more_successes_wins():
    """R43 step 5: Impress 2 at skill 6 = 2 successes vs court's 1: alice captures court."""
    out = resolve(bob_board(attempt("a1", "alice", "mint", "court"), attacker=mint(impress=2)))
    assert status_of(out, "a1") == "succeeded"
    assert structure_of(out, "court") == "alice"


def test_r43_outcome_follows_the_dice():
    """R20/R43: Impress 3 at linking skill 1 (TN 7) against Obstruct 3 at skill 0 (TN 7): whoever
    has more successes by the R23 faces wins, ties to the defender."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks"),
            attacker=mint(impress=3, functions={"linking": 1}),
            target=dept("docks", consumes=("money", 1), obstruct=3),
        )
    )
    att = successes(faces(SEED, key("a1", "attack"), 3), 1, 7)
    dfn = successes(faces(SEED, key("a1", "defend"), 3), 0, 7)
    assert roll_of(out, "a1", "attack")["successes"] == att
    assert roll_of(out, "a1", "defend")["successes"] == dfn
    assert status_of(out, "a1") == ("succeeded" if att > dfn else "failed")


def test_r43_cannot_pay_fails_and_spends_nothing():
    """R43 step 1: mint holds 1 money, the cost is 2: "cannot pay", nothing spent, no rolls,
    and the defender spends nothing either."""
    out = resolve(
        bob_board(
            attempt("a1", "alice", "mint", "court"),
            attacker=mint(stash={"money": 1, "authority": 2}),
        )
    )
    assert status_of(out, "a1") == "failed"
    assert report_of(out, "a1")["reason"]
    assert not report_of(out, "a1").get("rolls")
    assert stash_of(out, "mint") == {"money": 1, "people": 0, "authority": 2}
    assert stash_of(out, "court") == {"money": 6, "people": 0, "authority": 0}
    assert structure_of(out, "court") == "bob"


@pytest.mark.parametrize(
    ("spend", "money"),
    [
        # 2 money cover the cost, but the order also spends 1 authority mint lacks.
        pytest.param({"authority": 1}, 2, id="extra-tokens-count-too"),
        # cost 2 money plus 1 extra money needs 3; mint holds 2.
        pytest.param({"money": 1}, 2, id="cost-and-extra-of-one-type-add-up"),
    ],
)
def test_r43_cannot_pay_counts_the_extra_tokens_too(spend, money):
    """R43 step 1: the cost and the tokens the order spends beyond it must all be paid: when
    mint cannot, the attempt fails, mint keeps its money and docks stays free."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks", spend=spend),
            attacker=mint(stash={"money": money}),
        )
    )
    assert status_of(out, "a1") == "failed"
    assert stash_of(out, "mint") == {"money": money, "people": 0, "authority": 0}
    assert structure_of(out, "docks") is None


@pytest.mark.parametrize(
    ("cost", "target", "left"),
    [
        # a target needing 2 money costs 4: mint's 4 money are all spent.
        pytest.param(
            None,
            dept("docks", consumes=("money", 2)),
            {"money": 0, "people": 2, "authority": 2},
            id="twice-the-consumed-amount",
        ),
        # cost {people: 2} instead of the default money: mint's people pay.
        pytest.param(
            {"people": 2},
            None,
            {"money": 4, "people": 0, "authority": 2},
            id="paid-in-the-types-the-order-names",
        ),
    ],
)
def test_r43_cost_is_paid_from_the_attacker(cost, target, left):
    """R43 step 1: the cost is twice the target's consumed amount, in money unless the order
    names the types it pays in; a successful attempt leaves the attacker the rest."""
    order = attempt("a1", "alice", "mint", "docks", **({"cost": cost} if cost else {}))
    out = resolve(board(order, target=target))
    assert status_of(out, "a1") == "succeeded"
    assert stash_of(out, "mint") == left


def test_r43_attack_tn_is_seven_plus_opposed_minus_identical():
    """R43 step 3/R6: Government-Communist, Peaceful-Violent and Fanatic-Fanatic are 3 opposed:
    TN 10. mint has no linking function: skill 0, so only faces of 10 succeed (R20, unclamped).
    With SEED_0 the faces are 4, 10, 9: exactly 1 success."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks"),
            attacker=mint(
                impress=3, functions={}, alignments=["Government", "Peaceful", "Fanatic"]
            ),
            target=dept(
                "docks", consumes=("money", 1), alignments=["Communist", "Violent", "Fanatic"]
            ),
            seed=SEED_0,
        )
    )
    roll = roll_of(out, "a1", "attack")
    assert (roll["tn"], roll["skill"], roll["dice"]) == (10, 0, 3)
    assert roll["faces"] == faces(SEED_0, key("a1", "attack"), 3) == [4, 10, 9]
    assert roll["successes"] == 1


def test_r43_identical_alignments_lower_the_tn():
    """R43/R6: three shared alignments: TN 7 - 3 = 4. With SEED_9 the faces are 5, 3, 4 at
    skill 0: the 5 and the 4 succeed, the 3 does not: 2 successes."""
    shared = ["Government", "Straight", "Criminal"]
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks"),
            attacker=mint(impress=3, functions={}, alignments=shared),
            target=dept("docks", consumes=("money", 1), alignments=list(reversed(shared))),
            seed=SEED_9,
        )
    )
    roll = roll_of(out, "a1", "attack")
    assert roll["tn"] == 4
    assert roll["faces"] == faces(SEED_9, key("a1", "attack"), 3) == [5, 3, 4]
    assert roll["successes"] == 2


def test_r43_one_identical_and_one_opposed_cancel():
    """R43/R6: Government shared (+identical), Liberal vs Conservative (+opposed): TN 7."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks"),
            attacker=mint(alignments=["Government", "Liberal"]),
            target=dept("docks", consumes=("money", 1), alignments=["Conservative", "Government"]),
        )
    )
    assert roll_of(out, "a1", "attack")["tn"] == 7


def test_r43_attack_uses_linking_skill_and_spent_tokens():
    """R43 step 3/R21: Impress 1 + 2 spent authority = 3 dice; linking 2 + 1 spent people = skill 3.
    mint pays 2 money (cost) + 2 authority + 1 people: 2/1/0 left."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks", spend={"authority": 2, "people": 1}),
            attacker=mint(functions={"linking": 2}),
        )
    )
    roll = roll_of(out, "a1", "attack")
    assert (roll["dice"], roll["skill"], roll["tn"]) == (3, 3, 7)
    assert roll["successes"] == successes(faces(SEED, key("a1", "attack"), 3), 3, 7)
    assert stash_of(out, "mint") == {"money": 2, "people": 1, "authority": 0}


def test_r43_attacker_without_linking_function_has_skill_zero():
    """R43 step 3: no `linking` function, nothing spent: skill 0."""
    out = resolve(
        board(attempt("a1", "alice", "mint", "docks"), attacker=mint(functions={"coinage": 4}))
    )
    assert roll_of(out, "a1", "attack")["skill"] == 0


def assert_rejected_untouched(s, oid="a1"):
    out = resolve(s)
    assert status_of(out, oid) == "rejected"
    assert not report_of(out, oid).get("rolls")
    for d in s["departments"]:
        assert stash_of(out, d["slug"]) == {t: d["stash"].get(t, 0) for t in NOTHING}, d["slug"]
        assert structure_of(out, d["slug"]) == d["structure"], d["slug"]
    assert links_of(out) == {(lk["from"], lk["to"]) for lk in s["links"]}
    return out


def _tower_full_board():
    tower = dept("tower", structure="alice", home=True, consumes=("money", 1))
    return board(
        attempt("a1", "alice", "mint", "docks"),
        extra=[tower],
        links=(("mint", "watch"), ("mint", "tower")),
    )


@pytest.mark.parametrize(
    "make_state",
    [
        # bob's treasury is not alice's to attack with.
        pytest.param(
            lambda: board(attempt("a1", "alice", "treasury", "docks"), extra=[treasury()]),
            id="attacker-outside-the-players-structure",
        ),
        # R11: mint already feeds watch and tower (2 of 2 outgoing links).
        pytest.param(_tower_full_board, id="attacker-without-a-free-outgoing-link"),
        # watch is alice's own department.
        pytest.param(
            lambda: board(attempt("a1", "alice", "mint", "watch"), links=()),
            id="target-inside-the-players-structure",
        ),
        # docks consumes people, mint produces money.
        pytest.param(
            lambda: board(
                attempt("a1", "alice", "mint", "docks"),
                target=dept("docks", consumes=("people", 1)),
            ),
            id="target-consumes-another-type",
        ),
        # a department that consumes nothing consumes nothing the attacker produces.
        pytest.param(
            lambda: board(
                attempt("a1", "alice", "mint", "docks"), target=dept("docks", produces=("money", 1))
            ),
            id="target-consumes-nothing",
        ),
        # watch produces nothing, so no target consumes what it produces.
        pytest.param(
            lambda: board(attempt("a1", "alice", "watch", "docks")),
            id="attacker-produces-nothing",
        ),
    ],
)
def test_r43_illegal_attempt_is_rejected_untouched(make_state):
    """R43: the attacker must be the player's, with a free outgoing link (R11), producing what a
    target outside the player's structure consumes; otherwise rejected, nothing rolled or spent."""
    assert_rejected_untouched(make_state())


def test_r43_second_attempt_in_a_turn_is_rejected():
    """R43/ENGINE.md: one attempt per turn; alice's second (by seq) is rejected and only the
    first is in report.attempt_order."""
    pier = dept("pier", consumes=("money", 1))
    out = resolve(
        board(
            attempt("a2", "alice", "mint", "pier", seq=2),
            attempt("a1", "alice", "mint", "docks", seq=1),
            extra=[pier],
        )
    )
    assert status_of(out, "a1") == "succeeded"
    assert status_of(out, "a2") == "rejected"
    assert structure_of(out, "pier") is None
    assert out["report"]["attempt_order"] == ["a1"]


def test_r43_attempt_limit_counts_by_seq_whatever_became_of_the_first():
    """ENGINE.md: the first attempt (seq 1) cannot pay; the second (seq 2) is still over the
    limit and rejected. The first is listed in attempt_order, the second not."""
    pier, press = dept("pier", consumes=("money", 1)), second_attacker()
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks", seq=1),
            attempt("a2", "alice", "press", "pier", seq=2),
            attacker=mint(stash={}),
            extra=[pier, press],
        )
    )
    assert status_of(out, "a1") == "failed"
    assert status_of(out, "a2") == "rejected"
    assert stash_of(out, "press")["money"] == 2
    assert out["report"]["attempt_order"] == ["a1"]


def test_r43_rejected_first_attempt_still_uses_up_the_limit():
    """ENGINE.md: "counted by seq (whatever became of the earlier ones)": a1 targets alice's own
    watch (rejected), yet a2 is over the limit; a1 is listed in attempt_order."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "watch", seq=1),
            attempt("a2", "alice", "mint", "docks", seq=2),
        )
    )
    assert status_of(out, "a1") == "rejected"
    assert status_of(out, "a2") == "rejected"
    assert structure_of(out, "docks") is None
    assert out["report"]["attempt_order"] == ["a1"]


def test_r43_attempts_per_turn_is_a_campaign_setting():
    """R43: with attempts_per_turn 2, mint and press each capture one target."""
    pier, press = dept("pier", consumes=("money", 1)), second_attacker()
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks"),
            attempt("a2", "alice", "press", "pier"),
            extra=[pier, press],
            settings={"attempts_per_turn": 2},
        )
    )
    assert [status_of(out, "a1"), status_of(out, "a2")] == ["succeeded", "succeeded"]
    assert out["report"]["attempt_order"] == attempt_sequence(SEED, TURN, ["a1", "a2"])


def test_r43_attempts_resolve_in_hmac_order_so_the_later_one_takes_the_target():
    """R43: alice's mint (a1) and bob's treasury (b1) both certainly win against docks. They resolve
    sorted by HMAC-SHA256(seed, "3:order:<id>"): the first captures docks, the second then captures
    it from the first (R44 removes the first's link)."""
    bank = second_attacker("treasury", "bob")
    # SEED puts a1 first; sha256("0") puts b1 first (checked with boards.attempt_sequence).
    for seed in (SEED, SEED_0):
        s = board(
            attempt("a1", "alice", "mint", "docks"),
            attempt("b1", "bob", "treasury", "docks"),
            extra=[bank],
            seed=seed,
        )
        out = resolve(s)
        order = attempt_sequence(seed, TURN, ["a1", "b1"])
        assert out["report"]["attempt_order"] == order
        assert [status_of(out, "a1"), status_of(out, "b1")] == ["succeeded", "succeeded"]
        last = {"a1": ("alice", "mint"), "b1": ("bob", "treasury")}[order[-1]]
        assert structure_of(out, "docks") == last[0]
        assert {lk for lk in links_of(out) if lk[1] == "docks"} == {(last[1], "docks")}


def test_r43_attempts_come_after_the_link_phase():
    """R31/R43: mint's two outgoing links are full, but alice breaks mint->tower in the link
    phase, so the attempt (seq 1, before the break by seq) has a free link."""
    tower = dept("tower", structure="alice", home=True, consumes=("money", 1))
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks", seq=1),
            break_link("l1", "alice", "mint", "tower", seq=2),
            extra=[tower],
            links=(("mint", "watch"), ("mint", "tower")),
        )
    )
    assert status_of(out, "l1") == "succeeded"
    assert status_of(out, "a1") == "succeeded"
    assert ranked(out, "mint") == ["watch", "docks"]


def test_r43_attempts_come_after_the_move_phase():
    """R31/R43: mint holds no money, but a move brings 2 from hall first, which pays the cost.
    (Tokens marked moved may be spent: R42 only stops them being picked up again.)"""
    hall = dept("hall", structure="alice", home=True, produces=("money", 2), stash={"money": 2})
    m = mint(stash={}, consumes=("money", 1))
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks", seq=1),
            move("m1", "alice", "hall", ["mint"], {"money": 2}, seq=2),
            attacker=m,
            extra=[hall],
            links=(("mint", "watch"), ("hall", "mint")),
        )
    )
    assert status_of(out, "m1") == "succeeded"
    assert status_of(out, "a1") == "succeeded"
    assert stash_of(out, "mint") == NOTHING


# ---- R44: capture --------------------------------------------------------------------------


def capture_board(target_home=False):
    """bob: treasury (home) -> court (the target) -> jail (non-home, holds 2 people), and
    treasury -> office (non-home). alice's mint attacks court (Obstruct 0, no defence)."""
    return state(
        [
            mint(),
            dept("watch", structure="alice", home=True, consumes=("money", 1)),
            treasury(),
            dept(
                "court",
                structure="bob",
                home=target_home,
                consumes=("money", 1),
                produces=("people", 1),
                stash={"authority": 1},
            ),
            dept("jail", structure="bob", consumes=("people", 1), stash={"people": 2}),
            dept("office", structure="bob", consumes=("money", 1)),
        ],
        [("mint", "watch"), ("treasury", "court"), ("treasury", "office"), ("court", "jail")],
        [attempt("a1", "alice", "mint", "court")],
    )


def test_r44_capture_removes_links_between_target_and_old_structure():
    """R44: treasury->court and court->jail go; mint->court is made; treasury->office stays."""
    out = resolve(capture_board())
    assert status_of(out, "a1") == "succeeded"
    assert links_of(out) == {("mint", "watch"), ("mint", "court"), ("treasury", "office")}


def test_r44_new_link_is_ranked_last_and_old_ranks_close_up():
    """R44/R12: mint->court after mint->watch; treasury's office moves up to rank 0."""
    out = resolve(capture_board())
    assert ranked(out, "mint") == ["watch", "court"]
    assert ranked(out, "treasury") == ["office"]


def test_r44_target_joins_the_attackers_structure_with_its_stash():
    """R44: court is alice's now and keeps its 1 authority."""
    out = resolve(capture_board())
    assert structure_of(out, "court") == "alice"
    assert stash_of(out, "court") == {"money": 0, "people": 0, "authority": 1}


def test_r44_old_structure_loses_non_home_departments_left_unlinked():
    """R44/R13: jail lost its only link (from court): it becomes uncontrolled, keeping its 2 people.
    office is still linked to treasury and stays bob's; treasury is home."""
    out = resolve(capture_board())
    assert structure_of(out, "jail") is None
    assert stash_of(out, "jail") == {"money": 0, "people": 2, "authority": 0}
    assert structure_of(out, "office") == "bob"
    assert structure_of(out, "treasury") == "bob"


def test_r44_captured_home_department_is_not_home_in_its_new_structure():
    """R13/R44: home departments are the ones the GM gave a player at the start; a department won by
    an attempt is not one of alice's. (Open corner: the home flag does not travel with it.)"""
    out = resolve(capture_board(target_home=True))
    assert structure_of(out, "court") == "alice"
    assert not depts(out)["court"].get("home")


# ---- R46: reinforcement --------------------------------------------------------------------


def reinforce_board(
    *orders, attacker=None, court_kw=None, treasury_kw=None, extra=(), settings=None
):
    """alice's mint (1 certain success) attacks bob's court (Obstruct 0, holding nothing; standing
    defence 1 people + 6 money, which would give 1 die at skill 6: 1 certain success).
    bob's treasury (6 money, 1 people) feeds court and annex."""
    court_kw = {
        "obstruct": 0,
        "defence": {"people": 1, "money": 6},
        "stash": {},
        **(court_kw or {}),
    }
    treasury_kw = {"stash": {"money": 6, "people": 1}, **(treasury_kw or {})}
    annex = dept("annex", structure="bob", home=True, consumes=("money", 1), capacity=10)
    return state(
        [
            attacker or mint(),
            dept("watch", structure="alice", home=True, consumes=("money", 1)),
            treasury(**treasury_kw),
            court(**court_kw),
            annex,
            *extra,
        ],
        [("mint", "watch"), ("treasury", "court"), ("treasury", "annex")],
        orders,
        settings=settings,
    )


def test_r46_without_reinforcement_the_empty_court_falls():
    """R46/R47: court holds nothing to spend: 0 dice vs mint's 1 success."""
    out = resolve(reinforce_board(attempt("a1", "alice", "mint", "court")))
    assert status_of(out, "a1") == "succeeded"
    assert structure_of(out, "court") == "alice"


def test_r46_reinforcement_arrives_before_the_defence_roll():
    """R46/R47: bob's move brings 6 money and 1 people to court just before the attempt; the
    standing defence spends them (moved tokens may be spent): 1 die at skill 6 = 1 success, a tie,
    and bob holds. All 7 tokens are spent."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r1", "bob", "a1", "treasury", ["court"], {"money": 6, "people": 1}),
        )
    )
    assert status_of(out, "r1") == "succeeded"
    dfn = roll_of(out, "a1", "defend")
    assert (dfn["dice"], dfn["skill"], dfn["successes"]) == (1, 6, 1)
    assert status_of(out, "a1") == "failed"
    assert structure_of(out, "court") == "bob"
    assert stash_of(out, "court") == NOTHING
    assert stash_of(out, "treasury") == NOTHING


def test_r46_reinforcement_must_end_at_the_target():
    """R46: a move to annex is no reinforcement of court: rejected; court falls; treasury
    keeps all."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r1", "bob", "a1", "treasury", ["annex"], {"money": 6, "people": 1}),
        )
    )
    assert status_of(out, "r1") == "rejected"
    assert status_of(out, "a1") == "succeeded"
    assert stash_of(out, "treasury") == {"money": 6, "people": 1, "authority": 0}
    assert stash_of(out, "annex") == NOTHING


def test_r46_only_the_first_reinforcement_per_attempt_counts():
    """ENGINE.md: r1 (seq 1) brings 1 money (skill 1, no dice: 0 successes); r2 (seq 2) with the
    rest is rejected, so court falls and treasury keeps 5 money and 1 people."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r2", "bob", "a1", "treasury", ["court"], {"money": 5, "people": 1}, seq=2),
            reinforce("r1", "bob", "a1", "treasury", ["court"], {"money": 1}, seq=1),
        )
    )
    assert status_of(out, "r1") == "succeeded"
    assert status_of(out, "r2") == "rejected"
    assert status_of(out, "a1") == "succeeded"
    assert stash_of(out, "treasury") == {"money": 5, "people": 1, "authority": 0}


def test_r46_a_rejected_first_reinforcement_still_blocks_later_ones():
    """ENGINE.md: "any reinforce order other than the first (by seq)": r1 (to annex) is rejected,
    and r2, though legal, is not the first either."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r1", "bob", "a1", "treasury", ["annex"], {"money": 1}, seq=1),
            reinforce("r2", "bob", "a1", "treasury", ["court"], {"money": 6, "people": 1}, seq=2),
        )
    )
    assert [status_of(out, "r1"), status_of(out, "r2")] == ["rejected", "rejected"]
    assert status_of(out, "a1") == "succeeded"
    assert stash_of(out, "treasury") == {"money": 6, "people": 1, "authority": 0}


def test_r46_reinforcement_of_an_attempt_that_cannot_pay_is_rejected():
    """ENGINE.md: mint has 1 money for a cost of 2: the attempt fails, the reinforcement is
    rejected and its tokens stay at treasury."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r1", "bob", "a1", "treasury", ["court"], {"money": 6, "people": 1}),
            attacker=mint(stash={"money": 1}),
        )
    )
    assert status_of(out, "a1") == "failed"
    assert status_of(out, "r1") == "rejected"
    assert stash_of(out, "treasury") == {"money": 6, "people": 1, "authority": 0}
    assert stash_of(out, "court") == NOTHING


def test_r46_reinforcement_of_a_rejected_attempt_is_rejected():
    """ENGINE.md: alice's a2 is her second attempt (rejected by the limit), so bob's answer to it
    is rejected too and nothing moves."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "docks", seq=1),
            attempt("a2", "alice", "mint", "court", seq=2),
            reinforce("r1", "bob", "a2", "treasury", ["court"], {"money": 6, "people": 1}),
            extra=[dept("docks", consumes=("money", 1))],
        )
    )
    assert status_of(out, "a2") == "rejected"
    assert status_of(out, "r1") == "rejected"
    assert stash_of(out, "treasury") == {"money": 6, "people": 1, "authority": 0}


def test_r46_reinforcement_follows_move_rules_capacity():
    """R46/R42: court's capacity is 3, so carrying 7 tokens there is illegal: rejected, and
    court falls."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r1", "bob", "a1", "treasury", ["court"], {"money": 6, "people": 1}),
            court_kw={"capacity": 3},
        )
    )
    assert status_of(out, "r1") == "rejected"
    assert status_of(out, "a1") == "succeeded"
    assert stash_of(out, "treasury") == {"money": 6, "people": 1, "authority": 0}


def test_r46_reinforcement_cannot_pick_up_tokens_moved_this_turn():
    """R46/R42: treasury's tokens are all marked moved: it cannot carry them as reinforcement."""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            reinforce("r1", "bob", "a1", "treasury", ["court"], {"money": 6, "people": 1}),
            treasury_kw={"moved": {"money": 6, "people": 1}},
        )
    )
    assert status_of(out, "r1") == "rejected"
    assert status_of(out, "a1") == "succeeded"


# ---- R47: standing defence -----------------------------------------------------------------


def test_r47_standing_defence_spends_as_far_as_the_stash_allows():
    """R47/R21: defence 3 people + 2 money; court holds 1 people and 5 money: it spends 1 people
    (1 die, Obstruct's type) and 2 money (+2 skill): 1 die, skill 2, TN 7; 0 people and 3 money
    stay.
    (mint, Impress 0, rolls nothing: the defence is spent anyway.)"""
    out = resolve(
        reinforce_board(
            attempt("a1", "alice", "mint", "court"),
            attacker=mint(impress=0),
            court_kw={"defence": {"people": 3, "money": 2}, "stash": {"people": 1, "money": 5}},
        )
    )
    dfn = roll_of(out, "a1", "defend")
    assert (dfn["dice"], dfn["skill"], dfn["tn"]) == (1, 2, 7)
    assert dfn["faces"] == faces(SEED, key("a1", "defend"), 1)
    assert dfn["successes"] == successes(dfn["faces"], 2, 7)
    assert stash_of(out, "court") == {"money": 3, "people": 0, "authority": 0}
    assert status_of(out, "a1") == "failed"


def test_r47_uncontrolled_target_spends_nothing_by_default():
    """R43 step 4: an uncontrolled target with no defence setting spends nothing: Obstruct 2 dice,
    skill 0, and its 3 people stay."""
    out = resolve(
        board(
            attempt("a1", "alice", "mint", "docks"),
            target=dept("docks", consumes=("money", 1), obstruct=2, stash={"people": 3}),
        )
    )
    dfn = roll_of(out, "a1", "defend")
    assert (dfn["dice"], dfn["skill"], dfn["tn"]) == (2, 0, 7)
    assert dfn["successes"] == successes(faces(SEED, key("a1", "defend"), 2), 0, 7)
    assert stash_of(out, "docks") == {"money": 0, "people": 3, "authority": 0}

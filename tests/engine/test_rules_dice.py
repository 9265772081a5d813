"""RULES R20-R23 (dice pools, spending tokens, function TNs, verifiable dice) and R45
(function rolls).

Every expected face comes from `boards.faces`, an independent copy of R23.
"""

import pytest
from boards import (
    SEED,
    dept,
    faces,
    function_roll,
    key,
    report_of,
    roll_of,
    stash_of,
    state,
    status_of,
    successes,
)

from campaigns.engine import resolve, roll_faces


def mint(**kw):
    """Alice's mint: Effect 2, Obstruct 1, Impress 3; coinage (skill 2), gossip (skill 0) and a
    skill-6 forgery (every die succeeds at TN 7); stash 3 money, 2 people, 1 authority."""
    base = {
        "structure": "alice",
        "home": True,
        "effect": 2,
        "obstruct": 1,
        "impress": 3,
        "produces": ("money", 1),
        "functions": {"coinage": 2, "gossip": 0, "forgery": 6},
        "stash": {"money": 3, "people": 2, "authority": 1},
    }
    base.update(kw)
    return dept("mint", **base)


def roll_board(*orders, turn=3, seed=SEED, extra=()):
    return state(
        [mint(), dept("clerk", structure="alice", home=True), *extra],
        orders=orders,
        turn=turn,
        seed=seed,
    )


# ---- R23: verifiable dice -----------------------------------------------------------------


@pytest.mark.parametrize(
    "roll_key,dice",
    [("3:o1:attack", 5), ("3:o1:defend", 3), ("12:x:function", 8), ("1:a:perception", 1)],
)
def test_r23_roll_faces_follow_the_hmac_formula(roll_key, dice):
    """R23: face i = HMAC-SHA256(seed, "<key>:<i>")[:8] big-endian % sides + 1."""
    assert roll_faces(SEED, roll_key, dice) == faces(SEED, roll_key, dice)


def test_r23_roll_faces_with_other_sides():
    """R23: `sides` changes the modulus: d6 faces are 1..6 and follow the same formula."""
    rolled = roll_faces(SEED, "3:o1:perception", 12, sides=6)
    assert rolled == faces(SEED, "3:o1:perception", 12, sides=6)
    assert all(1 <= f <= 6 for f in rolled)


def test_r23_roll_faces_of_zero_dice_is_empty():
    """R20/R23: a roll of 0 dice has no faces."""
    assert roll_faces(SEED, "3:o1:attack", 0) == []


def test_r23_faces_depend_on_the_seed():
    """R23: the die comes from the turn's seed, not a global generator."""
    other = "ab" * 32
    assert roll_faces(other, "3:o1:attack", 6) == faces(other, "3:o1:attack", 6)


def test_r23_function_roll_uses_turn_order_id_function_key():
    """R23: the key is "<turn>:<order id>:function"; the faces are exactly that key's dice."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "coinage", "effect"), turn=7))
    roll = roll_of(out, "f1", "function")
    assert roll["key"] == "7:f1:function"
    assert roll["faces"] == faces(SEED, "7:f1:function", 2)


# ---- R20: dice pool roll ------------------------------------------------------------------


def test_r20_successes_count_faces_plus_skill_meeting_tn():
    """R20/R22: Impress 3 with coinage (skill 2) at TN 7: successes = faces with face + 2 >= 7."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "coinage", "impress")))
    roll = roll_of(out, "f1", "function")
    rolled = faces(SEED, key("f1", "function"), 3)
    assert (roll["dice"], roll["skill"], roll["tn"]) == (3, 2, 7)
    assert roll["faces"] == rolled
    assert roll["successes"] == successes(rolled, 2, 7)


def test_r20_zero_dice_give_zero_successes():
    """R20: clerk has Effect 0 and spends nothing: 0 dice, no faces, 0 successes."""
    out = resolve(roll_board(function_roll("f1", "alice", "clerk", "filing", "effect")))
    roll = roll_of(out, "f1", "function")
    assert (roll["dice"], roll["faces"], roll["successes"]) == (0, [], 0)


def test_r20_skill_of_tn_minus_one_makes_every_die_a_success():
    """R20: forgery has skill 6 at TN 7: even a face of 1 succeeds: Effect 2 gives 2 successes."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "forgery", "effect")))
    roll = roll_of(out, "f1", "function")
    assert (roll["dice"], roll["skill"], roll["tn"], roll["successes"]) == (2, 6, 7, 2)


def test_r20_tn_nine_with_skill_zero_succeeds_only_on_nine_and_ten():
    """R20/R22: a task outside mint's functions is TN 9, skill 0: only faces 9 and 10 succeed."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "bribery", "impress")))
    roll = roll_of(out, "f1", "function")
    rolled = faces(SEED, key("f1", "function"), 3)
    assert roll["successes"] == sum(1 for f in rolled if f >= 9)


# ---- R21: spending tokens on a roll -------------------------------------------------------


def test_r21_tokens_of_the_stats_type_add_dice():
    """R21/R3: Money is Effect's type: 2 money spent on Effect 2 roll 4 dice, skill unchanged."""
    out = resolve(
        roll_board(function_roll("f1", "alice", "mint", "coinage", "effect", spend={"money": 2}))
    )
    roll = roll_of(out, "f1", "function")
    rolled = faces(SEED, key("f1", "function"), 4)
    assert (roll["dice"], roll["skill"], roll["tn"]) == (4, 2, 7)
    assert roll["faces"] == rolled
    assert roll["successes"] == successes(rolled, 2, 7)


def test_r21_tokens_of_other_types_add_skill():
    """R21: 2 people and 1 authority on an Effect roll add 3 skill: coinage 2 + 3 = 5; 2 dice."""
    out = resolve(
        roll_board(
            function_roll(
                "f1", "alice", "mint", "coinage", "effect", spend={"people": 2, "authority": 1}
            )
        )
    )
    roll = roll_of(out, "f1", "function")
    rolled = faces(SEED, key("f1", "function"), 2)
    assert (roll["dice"], roll["skill"], roll["tn"]) == (2, 5, 7)
    assert roll["successes"] == successes(rolled, 5, 7)


@pytest.mark.parametrize(
    "stat,spend,dice,skill",
    [
        # Obstruct 1 is tied to People: 2 people -> 3 dice; 1 money -> +1 skill.
        ("obstruct", {"people": 2, "money": 1}, 3, 3),
        # Impress 3 is tied to Authority: 1 authority -> 4 dice; 2 people -> +2 skill.
        ("impress", {"authority": 1, "people": 2}, 4, 4),
        # Effect 2 is tied to Money: 3 money -> 5 dice; 1 authority -> +1 skill.
        ("effect", {"money": 3, "authority": 1}, 5, 3),
    ],
)
def test_r21_each_stat_has_its_own_associated_type(stat, spend, dice, skill):
    """R21/R3: Money-Effect, People-Obstruct, Authority-Impress (coinage skill 2 as the base)."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "coinage", stat, spend=spend)))
    roll = roll_of(out, "f1", "function")
    assert (roll["dice"], roll["skill"]) == (dice, skill)


def test_r21_spent_tokens_leave_the_game():
    """R21: 2 money and 1 people spent leave mint's stash (3/2/1 -> 1/1/1) and go nowhere else."""
    out = resolve(
        roll_board(
            function_roll(
                "f1", "alice", "mint", "coinage", "effect", spend={"money": 2, "people": 1}
            )
        )
    )
    assert stash_of(out, "mint") == {"money": 1, "people": 1, "authority": 1}
    assert stash_of(out, "clerk") == {"money": 0, "people": 0, "authority": 0}


def test_r21_spending_more_than_the_stash_holds_is_rejected_and_spends_nothing():
    """R21/R40: mint holds 1 authority, so spending 2 is illegal; the roll is not made."""
    s = roll_board(
        function_roll(
            "f1", "alice", "mint", "coinage", "impress", spend={"authority": 2, "money": 1}
        )
    )
    out = resolve(s)
    assert status_of(out, "f1") == "rejected"
    assert not report_of(out, "f1").get("rolls")
    assert stash_of(out, "mint") == {"money": 3, "people": 2, "authority": 1}


def test_r21_negative_spend_is_rejected():
    """ENGINE.md: token amounts in orders are whole numbers >= 0; a negative one is rejected."""
    out = resolve(
        roll_board(function_roll("f1", "alice", "mint", "coinage", "effect", spend={"money": -1}))
    )
    assert status_of(out, "f1") == "rejected"
    assert stash_of(out, "mint") == {"money": 3, "people": 2, "authority": 1}


# ---- R22: function roll TN ----------------------------------------------------------------


def test_r22_own_function_rolls_for_sevens_with_its_skill():
    """R22: coinage is mint's own function: TN 7, skill 2."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "coinage", "effect")))
    roll = roll_of(out, "f1", "function")
    assert (roll["tn"], roll["skill"]) == (7, 2)


def test_r22_function_listed_with_skill_zero_still_rolls_for_sevens():
    """R4/R22: gossip is listed with skill 0: TN 7, skill 0."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "gossip", "effect")))
    roll = roll_of(out, "f1", "function")
    rolled = faces(SEED, key("f1", "function"), 2)
    assert (roll["tn"], roll["skill"]) == (7, 0)
    assert roll["successes"] == successes(rolled, 0, 7)


def test_r22_task_outside_its_functions_rolls_for_nines_with_skill_zero():
    """R22: bribery is not one of mint's functions: TN 9, skill 0."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "bribery", "effect")))
    roll = roll_of(out, "f1", "function")
    assert (roll["tn"], roll["skill"], roll["dice"]) == (9, 0, 2)


def test_r22_outside_task_still_gains_skill_from_spent_tokens():
    """R21/R22: TN 9 and skill 0, plus 2 skill from 2 spent people on an Effect roll."""
    out = resolve(
        roll_board(function_roll("f1", "alice", "mint", "bribery", "effect", spend={"people": 2}))
    )
    roll = roll_of(out, "f1", "function")
    rolled = faces(SEED, key("f1", "function"), 2)
    assert (roll["tn"], roll["skill"]) == (9, 2)
    assert roll["successes"] == successes(rolled, 2, 9)


# ---- R45: function roll -------------------------------------------------------------------


def test_r45_function_roll_succeeds_whatever_its_successes():
    """R45/ENGINE.md: 0 dice give 0 successes, yet the order is `succeeded`."""
    out = resolve(roll_board(function_roll("f1", "alice", "clerk", "bribery", "effect")))
    assert status_of(out, "f1") == "succeeded"
    assert roll_of(out, "f1", "function")["successes"] == 0


def test_r45_function_roll_reports_one_roll_with_all_fields():
    """R45/ENGINE.md: rolls carry key, dice, skill, tn, faces, successes."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "coinage", "impress")))
    rolls = report_of(out, "f1")["rolls"]
    assert len(rolls) == 1
    assert {"key", "dice", "skill", "tn", "faces", "successes"} <= set(rolls[0])


def test_r45_second_function_roll_of_a_department_in_a_turn_is_rejected():
    """R45: at most one function roll per department per turn; the later one (by seq) is
    rejected and its tokens stay."""
    s = roll_board(
        function_roll("f2", "alice", "mint", "gossip", "effect", spend={"people": 1}, seq=2),
        function_roll("f1", "alice", "mint", "coinage", "effect", spend={"money": 1}, seq=1),
    )
    out = resolve(s)
    assert status_of(out, "f1") == "succeeded"
    assert status_of(out, "f2") == "rejected"
    assert stash_of(out, "mint") == {"money": 2, "people": 2, "authority": 1}


def test_r45_each_department_may_roll_once():
    """R45: mint and clerk each make their own function roll."""
    out = resolve(
        roll_board(
            function_roll("f1", "alice", "mint", "coinage", "effect"),
            function_roll("f2", "alice", "clerk", "filing", "obstruct"),
        )
    )
    assert [status_of(out, "f1"), status_of(out, "f2")] == ["succeeded", "succeeded"]


def test_r45_function_roll_for_a_department_outside_the_structure_is_rejected():
    """R45: only a department of the player's own structure rolls; the vault is bob's."""
    vault = dept("vault", structure="bob", home=True, effect=2, stash={"money": 2})
    out = resolve(
        roll_board(
            function_roll("f1", "alice", "vault", "hoarding", "effect", spend={"money": 1}),
            extra=[vault],
        )
    )
    assert status_of(out, "f1") == "rejected"
    assert stash_of(out, "vault") == {"money": 2, "people": 0, "authority": 0}


def test_r45_function_roll_with_an_unknown_stat_is_rejected():
    """R45/ENGINE.md: the stat is effect, obstruct or impress."""
    out = resolve(roll_board(function_roll("f1", "alice", "mint", "coinage", "charm")))
    assert status_of(out, "f1") == "rejected"

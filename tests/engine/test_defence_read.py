"""RULES R21, R43 step 4, R47 read backwards (attempts.defence_read): the tokens a defend roll
spent, from the roll's dice and skill as ENGINE.md reports them, checked against what the
resolution really took from the target's stash.

Alice's mint (linking 6, every die succeeds) attacks bob's watch or the uncontrolled docks;
each case resolves the attempt, then reads its defend roll back on the state as it went in.
"""

from __future__ import annotations

from typing import Any

import pytest
from boards import attempt, dept, report_of, stash_of, state
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engine import resolve
from campaigns.engine.attempts import defence_read

Json = dict[str, Any]
NONE = {"money": 0, "people": 0, "authority": 0}


def mint() -> Json:
    return dept(
        "mint", structure="alice", home=True, produces=("money", 1), impress=1,
        functions={"linking": 6}, stash={"money": 4}, capacity=10,
    )  # fmt: skip


def target(slug: str = "watch", owner: str | None = "bob", **fields: Any) -> Json:
    base: Json = {"consumes": ("money", 1), "obstruct": 2, "capacity": 10}
    if owner:
        base |= {"structure": owner, "home": True}
    return dept(slug, **(base | fields))


def board(defender: Json, *extra: Json, **beside: Any) -> Json:
    told = state(
        [mint(), defender, *extra], orders=[attempt("a1", "alice", "mint", defender["slug"])]
    )
    return told | beside


def read_back(told: Json, slug: str = "watch") -> tuple[Any, dict[str, int]]:
    """(defence_read of the attempt's defend roll, what the stash really lost)."""
    result = resolve(told)
    defend = report_of(result, "a1")["rolls"][1]
    before = next(d for d in told["departments"] if d["slug"] == slug)["stash"]
    after = stash_of(result, slug)
    lost = {t: before.get(t, 0) - after[t] for t in NONE}
    return defence_read(told, slug, dice=defend["dice"], skill=defend["skill"]), lost


def test_mixed_types_each_named_exactly() -> None:
    """People are dice (R3: Obstruct's type), Money and Authority skill; all set, all held."""
    defence = {"money": 2, "people": 1, "authority": 1}
    read, lost = read_back(board(target(stash={"money": 3, "people": 2, "authority": 1},
                                        defence=defence)))  # fmt: skip
    assert read is not None
    assert read.spent == lost == defence
    assert (read.obstruct, read.shtick_dice, read.shtick_skill, read.unsplit) == (2, 0, 0, 0)
    assert read.total == 4 and read.die_type == "people"


def test_nothing_spent_when_the_stash_is_empty() -> None:
    read, lost = read_back(board(target(defence={"money": 2, "people": 2})))
    assert read is not None
    assert read.spent == lost == NONE and read.total == 0


def test_spent_as_far_as_the_stash_allows() -> None:
    """R47: 3 People set, 1 held: 1 die more, read as 1 People."""
    read, lost = read_back(board(target(stash={"people": 1}, defence={"people": 3})))
    assert read is not None and read.spent == lost == {"money": 0, "people": 1, "authority": 0}


@pytest.mark.parametrize(
    ("shtick", "dice", "skill"),
    [
        ({"kind": "dice", "roll": "defend", "department": "watch", "amount": 2}, 2, 0),
        ({"kind": "skill", "roll": "defend", "department": None, "amount": 1}, 0, 1),
    ],
)
def test_a_defenders_shticks_are_not_read_as_tokens(shtick: Json, dice: int, skill: int) -> None:
    told = board(
        target(stash={"people": 1, "authority": 1}, defence={"people": 1, "authority": 1}),
        players={"bob": {"shticks": [shtick]}},
    )
    read, lost = read_back(told)
    assert read is not None
    assert read.spent == lost == {"money": 0, "people": 1, "authority": 1}
    assert (read.shtick_dice, read.shtick_skill) == (dice, skill)


def test_an_office_shtick_counts_while_its_holder_is_the_defenders() -> None:
    """R80: the office's shticks act as its holder's controller's; bob holds it by his
    archive, so his watch's defend roll has 1 die more, which is no token."""
    mayor = {"id": "mayor", "name": "Mayor", "alignment": "Government", "holder": "archive",
             "deputy": None, "shticks": [{"kind": "dice", "roll": "defend", "department": None,
                                          "amount": 1}]}  # fmt: skip
    archive = dept("archive", structure="bob", home=True, produces=("people", 1))
    told = board(target(stash={"people": 2}, defence={"people": 2}), archive, offices=[mayor])
    read, lost = read_back(told)
    assert read is not None
    assert read.spent == lost == {"money": 0, "people": 2, "authority": 0}
    assert read.shtick_dice == 1
    # Read on a state where the archive is not bob's (as if it had left his structure, R13),
    # the same roll would need one People more than the setting allows: no reading at all.
    result = resolve(told)
    defend = report_of(result, "a1")["rolls"][1]
    elsewhere = {**told, "departments": [
        d | {"structure": None} if d["slug"] == "archive" else d for d in told["departments"]
    ]}  # fmt: skip
    assert defence_read(elsewhere, "watch", dice=defend["dice"], skill=defend["skill"]) is None


def test_an_uncontrolled_target_spends_the_gms_defence_setting() -> None:
    """R43 step 4: an uncontrolled target spends by the GM's setting, with no shticks."""
    docks = target(
        "docks", None, stash={"money": 1, "people": 1}, defence={"money": 1, "people": 1}
    )
    told = board(docks, players={"bob": {"shticks": [
        {"kind": "dice", "roll": "defend", "department": None, "amount": 3}]}})  # fmt: skip
    read, lost = read_back(told, "docks")
    assert read is not None
    assert read.spent == lost == {"money": 1, "people": 1, "authority": 0}
    assert read.shtick_dice == 0


def test_the_stash_tells_the_types_apart() -> None:
    """2 Money and 2 Authority set, 1 Money and 2 Authority held: 3 skill, and the stash
    says 1 Money at most, so 2 Authority."""
    read, lost = read_back(board(target(stash={"money": 1, "authority": 2},
                                        defence={"money": 2, "authority": 2})))  # fmt: skip
    assert read is not None
    assert read.spent == lost == {"money": 1, "people": 0, "authority": 2}
    assert read.unsplit == 0


def test_a_split_only_a_bound_of_the_stash_cannot_tell_is_left_unsplit() -> None:
    """The same roll read where only a bound of the stash is known (2 of each, say moves
    may have brought more): at least 1 of each was spent; the third token is Money or
    Authority, and the roll cannot say which."""
    told = board(target(stash={"money": 1, "authority": 2}, defence={"money": 2, "authority": 2}))
    defend = report_of(resolve(told), "a1")["rolls"][1]
    bound = {**told, "departments": [
        d | {"stash": {"money": 2, "authority": 2}} if d["slug"] == "watch" else d
        for d in told["departments"]
    ]}  # fmt: skip
    read = defence_read(bound, "watch", dice=defend["dice"], skill=defend["skill"])
    assert read is not None
    assert read.spent == {"money": 1, "people": 0, "authority": 1}
    assert (read.unsplit, read.among, read.total) == (1, ("money", "authority"), 3)


def test_a_pool_the_setting_cannot_give_is_not_read() -> None:
    told = board(target(defence={"people": 1}))
    assert defence_read(told, "watch", dice=5, skill=0) is None  # Obstruct 2 + 1 at most
    assert defence_read(told, "watch", dice=2, skill=1) is None  # no other type set
    assert defence_read(told, "watch", dice=1, skill=0) is None  # fewer than Obstruct


amounts = st.integers(min_value=0, max_value=3)
token_sets = st.fixed_dictionaries({"money": amounts, "people": amounts, "authority": amounts})


@settings(max_examples=150, deadline=None)
@given(
    stash=token_sets,
    defence=token_sets,
    obstruct=amounts,
    bonus=st.tuples(amounts, amounts),
    owner=st.sampled_from(["bob", None]),
)
def test_the_reading_is_what_the_stash_lost(
    stash: dict[str, int],
    defence: dict[str, int],
    obstruct: int,
    bonus: tuple[int, int],
    owner: str | None,
) -> None:
    """Whatever the stash, setting, Obstruct and shticks, read on the state the roll was
    made on: every type is exactly what the stash lost."""
    shticks = [
        {"kind": kind, "roll": "defend", "department": None, "amount": n}
        for kind, n in zip(("dice", "skill"), bonus, strict=True)
    ]
    defender = target("docks", owner, stash=stash, defence=defence, obstruct=obstruct)
    read, lost = read_back(board(defender, players={"bob": {"shticks": shticks}}), "docks")
    assert read is not None
    assert read.spent == lost and read.unsplit == 0

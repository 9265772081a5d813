"""RULES R60 (shticks), R2 (boards) and R43's per-player limit on hand-made states: what the
golden files do not already show. ENGINE.md part 8."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from campaigns.engine import EngineError, resolve, spawn_consume
from campaigns.engine.attempts import attempt_pools

Json = dict[str, Any]
SEED = "5eed" * 16


def dept(slug: str, owner: str | None, **fields: Any) -> Json:
    card: Json = {
        "slug": slug, "name": slug, "effect": 0, "obstruct": 0, "impress": 0,
        "consumes": None, "produces": None, "functions": {}, "alignments": [],
        "stash": {}, "structure": owner, "home": owner is not None,
    }  # fmt: skip
    return {**card, **fields}


def money(amount: int) -> Json:
    return {"type": "money", "amount": amount}


def state(*departments: Json, links: tuple[tuple[str, str], ...] = (), **extra: Any) -> Json:
    return {
        "turn": 2,
        "seed": SEED,
        "settings": {"max_out_links": 1, "max_in_links": 2, "attempts_per_turn": 1},
        "departments": list(departments),
        "links": [{"from": a, "to": b} for a, b in links],
        "orders": [],
        **extra,
    }


def report(result: Json, order_id: str) -> Json:
    entry: Json = result["report"]["orders"][order_id]
    return entry


# A sure capture: skill 6 makes every face succeed for TN 7, and the target rolls no dice.
RAIDERS = dept("raiders", "alice", impress=1, produces=money(1), functions={"linking": 6},
               stash={"money": 4})  # fmt: skip
VAULT = dept("vault", "bob", consumes=money(1), effect=1, functions={"Filing": 1})
RAID = {"id": "a1", "player": "alice", "kind": "attempt", "attacker": "raiders", "target": "vault"}
FILING = {"id": "f1", "kind": "function", "department": "vault", "function": "Filing"}
FILING |= {"stat": "effect"}


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ({"alice": {"shticks": [{"kind": "flying"}]}}, "unknown shtick kind 'flying'"),
        ({"alice": {"shticks": [{"kind": "dice", "roll": "charm", "amount": 1}]}}, "roll"),
        ({"alice": {"shticks": [{"kind": "skill", "roll": "attack"}]}}, "amount"),
        ({"alice": {"shticks": [{"kind": "production", "amount": 1}]}}, "department"),
        ({"alice": {"shticks": [{"kind": "attempts", "amount": -1}]}}, "amount"),
        ({"alice": {"shticks": [{"kind": "cross_board", "boards": ["city"]}]}}, "two"),
        ({"alice": {"shticks": [{"kind": "link_limit", "department": "x", "out": "3"}]}}, "out"),
        ({"alice": {"perception": -1}}, "perception"),
        ({"alice": {"shticks": "many"}}, "shticks"),
        ({"alice": []}, "players.alice"),
        ([], "players"),
    ],
)
def test_r60_a_shtick_outside_the_catalogue_is_an_input_error(players: object, message: str):
    """ENGINE.md: an unknown kind (or a malformed shtick) is an input error, in both commands."""
    bad = state(RAIDERS, players=players)
    for command in (resolve, spawn_consume):
        with pytest.raises(EngineError, match=message):
            command(copy.deepcopy(bad))


def test_r60_a_shtick_naming_a_department_the_state_lacks_is_no_error_and_no_effect():
    """The engine's reading: the site may pass one board while a player's shticks span the
    campaign; such a shtick never applies."""
    plain = state(RAIDERS, VAULT, orders=[RAID])
    told = copy.deepcopy(plain)
    told["players"] = {"alice": {"shticks": [
        {"kind": "dice", "roll": "attack", "department": "far-away", "amount": 3},
        {"kind": "production", "department": "far-away", "amount": 3},
    ]}}  # fmt: skip
    for command in (resolve, spawn_consume):
        assert {k: v for k, v in command(told).items() if k != "players"} == command(plain)


def test_r60_a_department_shtick_applies_once_the_department_is_captured():
    """R60: 'while that department is in its holder's structure, at the moment it is used':
    alice's skill shtick on bob's vault does nothing for bob's roll, and counts for her own
    function roll after she captures the vault in the same turn (R44 before R45)."""
    players = {"alice": {"shticks": [
        {"kind": "skill", "roll": "function", "department": "vault", "amount": 2}]}}  # fmt: skip
    bobs = state(RAIDERS, VAULT, players=players, orders=[FILING | {"player": "bob"}])
    assert report(resolve(bobs), "f1")["rolls"][0]["skill"] == 1  # Filing 1, no shtick
    raided = state(RAIDERS, VAULT, players=players, orders=[RAID, FILING | {"player": "alice"}])
    result = resolve(raided)
    assert report(result, "a1")["status"] == "succeeded"
    assert report(result, "f1")["rolls"][0]["skill"] == 1 + 2


def test_r60_shticks_without_a_department_count_for_every_department_of_the_holder():
    """R60: `department` null: every department of the player's structures, for that kind of
    roll only."""
    players = {"bob": {"shticks": [
        {"kind": "dice", "roll": "function", "department": None, "amount": 2},
        {"kind": "skill", "roll": "defend", "department": None, "amount": 3}]}}  # fmt: skip
    result = resolve(state(VAULT, players=players, orders=[FILING | {"player": "bob"}]))
    roll = report(result, "f1")["rolls"][0]
    assert (roll["dice"], roll["skill"], roll["tn"]) == (1 + 2, 1, 7)


def test_r60_link_limit_frees_an_attackers_outgoing_link():
    """R11/R43 with R60: raiders already supplies shop and the setting allows 1 outgoing
    link, so the attempt is rejected, unless alice's link_limit gives raiders 2."""
    shop = dept("shop", "alice", consumes=money(1))
    full = state(RAIDERS, VAULT, shop, links=(("raiders", "shop"),), orders=[RAID])
    assert "no free outgoing link" in report(resolve(full), "a1")["reason"]
    raised = copy.deepcopy(full)
    raised["players"] = {"alice": {"shticks": [
        {"kind": "link_limit", "department": "raiders", "out": 2}]}}  # fmt: skip
    result = resolve(raised)
    assert report(result, "a1")["status"] == "succeeded"
    assert [(lk["from"], lk["to"]) for lk in result["links"]] == [
        ("raiders", "shop"), ("raiders", "vault")]  # fmt: skip


def test_r60_the_attack_preview_counts_the_shticks_the_resolution_rolls_with():
    """attempts.attempt_pools (the order form's preview) and resolve share the pools."""
    attack = {"kind": "dice", "roll": "attack", "department": None, "amount": 2}
    defend = {"kind": "dice", "roll": "defend", "department": "vault", "amount": 1}
    players = {"alice": {"shticks": [attack]}, "bob": {"shticks": [defend]}}
    raided = state(RAIDERS, VAULT | {"obstruct": 1}, players=players, orders=[RAID])
    pools = attempt_pools(raided, "raiders", "vault")
    attack_roll, defend_roll = report(resolve(raided), "a1")["rolls"]
    assert (pools.attack.dice, pools.attack.skill) == (3, 6)
    assert (attack_roll["dice"], attack_roll["skill"]) == (3, 6)
    assert (pools.defend_dice, pools.defend_skill) == (2, 0)
    assert (defend_roll["dice"], defend_roll["skill"]) == (2, 0)


def test_r60_production_raises_the_move_capacity_where_the_state_gives_none():
    """ENGINE.md: without `capacity` a move is bounded by the produced amount (L = 1), which a
    production shtick raises: 1 + 2 = 3 tokens may arrive at the well, not 4."""
    well = dept("well", "alice", produces=money(1))
    mint = dept("mint", "alice", produces=money(1), stash={"money": 4}, capacity=9)
    players = {"alice": {"shticks": [{"kind": "production", "department": "well", "amount": 2}]}}
    for carried, status in ((3, "succeeded"), (4, "rejected")):
        move = {"id": "m1", "player": "alice", "kind": "move", "from": "mint", "path": ["well"]}
        move["tokens"] = {"money": carried}
        board = state(mint, well | {"consumes": money(1)}, links=(("mint", "well"),))
        board |= {"players": players, "orders": [move]}
        assert report(resolve(board), "m1")["status"] == status, carried


def test_r60_a_production_shtick_counts_only_for_its_holders_department():
    """Spawn-consume: bob's shtick on alice's mint adds nothing; alice's adds its amount."""
    mint = dept("mint", "alice", produces=money(2))
    for holder, produced in (("bob", 2), ("alice", 5)):
        players = {holder: {"shticks": [{"kind": "production", "department": "mint", "amount": 3}]}}
        result = spawn_consume(state(mint, players=players))
        assert result["report"]["departments"]["mint"]["produced"] == produced
        assert result["departments"][0]["stash"]["money"] == produced
        assert result["departments"][0]["capacity"] == produced


@pytest.mark.parametrize("board", [5, "", ["city"]])
def test_r2_a_department_board_must_be_a_slug(board: object):
    with pytest.raises(EngineError, match="board"):
        spawn_consume(state(dept("mint", "alice", board=board)))


def test_r2_departments_keep_their_board_and_slugs_stay_unique_across_boards():
    """ENGINE.md part 8: several boards in one state; a slug names one department of the
    whole state (the same slug on two boards is an input error, as on one)."""
    city = dept("mint", "alice", board="city", produces=money(1))
    harbour = dept("mint", "bob", board="harbour")
    with pytest.raises(EngineError, match="duplicate department slug 'mint'"):
        spawn_consume(state(city, harbour))
    result = spawn_consume(state(city, harbour | {"slug": "harbour/mint"}))
    assert [(d["slug"], d["board"]) for d in result["departments"]] == [
        ("mint", "city"), ("harbour/mint", "harbour")]  # fmt: skip


def test_r43_one_attempt_per_player_across_every_board_of_the_state():
    """R43: the limit is per player per turn, whatever board each attempt is on (with several
    boards in one state); alice's second attempt is rejected, bob's first is not."""
    cross = {"kind": "cross_board", "boards": ["city", "harbour"]}
    a = dept("a", "alice", impress=1, produces=money(1), stash={"money": 9}, board="city")
    b = dept("b", "alice", impress=1, produces=money(1), stash={"money": 9}, board="harbour")
    c = dept("c", "bob", impress=1, produces=money(1), stash={"money": 9}, board="harbour")
    targets = [dept(t, None, consumes=money(1), board="harbour") for t in ("t1", "t2", "t3")]
    orders = [
        {"id": "x1", "player": "alice", "kind": "attempt", "attacker": "a", "target": "t1"},
        {"id": "x2", "player": "alice", "kind": "attempt", "attacker": "b", "target": "t2"},
        {"id": "x3", "player": "bob", "kind": "attempt", "attacker": "c", "target": "t3"},
    ]
    players = {"alice": {"shticks": [cross]}}
    result = resolve(state(a, b, c, *targets, orders=orders, players=players))
    assert report(result, "x2")["reason"] == "only 1 linking attempt(s) per turn (R43)"
    assert sorted(result["report"]["attempt_order"]) == ["x1", "x3"]

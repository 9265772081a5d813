"""Classic boards (RULES part 10, ENGINE.md part 10): each rule on a small board. The worked
examples are golden files (test_golden_classic.py); the two-way legality test is in
test_classic_legal_properties.py."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classic_boards import SEED, attack, board, group, held, illuminati  # noqa: E402

from campaigns.engine import EngineError, resolve, resolve_then_spawn, spawn_consume  # noqa: E402
from campaigns.engine.classic.attack import Aid  # noqa: E402
from campaigns.engine.classic.legal import legal_choices  # noqa: E402
from campaigns.engine.classic.odds import attack_chance  # noqa: E402
from campaigns.engine.classic.preview import attack_preview  # noqa: E402
from campaigns.engine.classic.state import default_win_groups  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
Json = dict[str, Any]


def orders_of(state: Json) -> dict[str, Json]:
    report: dict[str, Json] = resolve(state)["report"]["orders"]
    return report


def places(result: Json) -> dict[str, tuple[Any, ...]]:
    return {g["slug"]: (g["place"], g["controller"], g["parent"], g["treasury"])
            for g in result["groups"]}  # fmt: skip


# ---- R90-R92: the state ------------------------------------------------------------------------


BAD = {
    "a player without an Illuminati": lambda s: s["groups"].pop(1),
    "more children than arrows": lambda s: s["groups"].extend(
        [held("x", "alice", "one"), held("y", "alice", "one")]
    ),
    "a cycle": lambda s: s["groups"].extend([held("x", "alice", "y"), held("y", "alice", "x")]),
    "duplicate slugs": lambda s: s["groups"].append(group("one")),
    "a parent of another player": lambda s: s["groups"].append(held("x", "bob", "one")),
    "an Illuminati with a parent": lambda s: s["groups"][0].update(parent="one"),
    "a deck not matching": lambda s: s.update(deck=["one"]),
    "a negative number": lambda s: s["groups"][2].update(power=-1),
    "an unknown place": lambda s: s["groups"][2].update(place="limbo"),
    "a group on the table with a controller": lambda s: s["groups"].append(
        group("x", controller="alice")
    ),
}


def valid() -> Json:
    return board(held("one", "alice", "alice-illuminati", arrows=1))


@pytest.mark.parametrize("what", sorted(BAD))
def test_it_refuses_a_bad_classic_board_with_one_line(what: str) -> None:
    """R91/R92 (ENGINE.md part 10 input errors)."""
    state = valid()
    resolve(state)  # the valid board is fine
    BAD[what](state)
    with pytest.raises(EngineError) as error:
        resolve(state)
    assert "\n" not in str(error.value)


def test_the_command_line_exits_2_on_a_cycle() -> None:
    """R92: bad classic input exits 2 with one line on standard error, no traceback."""
    state = valid()
    BAD["a cycle"](state)
    result = subprocess.run(
        [sys.executable, "manage.py", "engine", "resolve", "-"], cwd=ROOT,
        input=json.dumps(state), env={"PATH": os.environ.get("PATH", "")},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "cycle" in result.stderr


def test_win_groups_default_by_the_number_of_players() -> None:
    """R98 / ENGINE.md: 1-3: 13, 4: 12, 5: 10, 6: 9, more: 8."""
    assert [default_win_groups(n) for n in range(1, 9)] == [13, 13, 13, 12, 10, 9, 8, 8]


def test_a_state_without_ruleset_is_not_classic() -> None:
    """R90: without "ruleset" (or "illumineaucracy") the classic part does not apply."""
    state = valid()
    del state["ruleset"]
    with pytest.raises(EngineError):
        spawn_consume(state)  # read as a board of departments, it has none of theirs


# ---- R93: income and draws ---------------------------------------------------------------------


def test_income_then_one_draw_per_player_while_the_deck_lasts() -> None:
    """R93: structures only earn; the deck runs out after one card for two players."""
    state = board(
        held("one", "alice", "alice-illuminati", income=3, treasury=1),
        group("loose", income=5), group("top", place="deck"),
    )  # fmt: skip
    result = spawn_consume(state)
    assert result["report"] == {
        "income": {"alice-illuminati": 9, "bob-illuminati": 9, "one": 3}, "drawn": ["top"],
    }  # fmt: skip
    assert places(result)["one"][3] == 4 and places(result)["loose"][3] == 0
    assert result["deck"] == [] and places(result)["top"][0] == "table"


def test_the_turn_job_resolves_then_opens_the_next_turn() -> None:
    """R93: resolve_then_spawn merges both reports."""
    result = resolve_then_spawn(board(orders=[{"id": "p", "player": "bob", "kind": "pass"}]))
    assert set(result["report"]) == {"seat_order", "orders", "winners", "income", "drawn"}
    assert places(result)["bob-illuminati"][3] == 5 + 9


# ---- R94: seat order, passes, rounds ------------------------------------------------------------


def test_seat_order_is_the_hmac_of_turn_seat_player_lowest_first() -> None:
    """R94: computed by hand from the formula."""
    state = board(players=("alice", "bob", "carol"), turn=4)

    def digest(player: str) -> str:
        msg = f"4:seat:{player}".encode()
        return hmac.new(bytes.fromhex(SEED), msg, hashlib.sha256).hexdigest()

    expected = sorted(["alice", "bob", "carol"], key=digest)
    assert resolve(state)["report"]["seat_order"] == expected


def test_a_pass_rejects_every_other_order_of_its_player() -> None:
    """R94: +5 MB; the second pass and the gift are rejected."""
    report = orders_of(board(orders=[
        {"id": "g", "player": "alice", "kind": "gift", "to_player": "bob", "amount": 0},
        {"id": "p1", "player": "alice", "kind": "pass"},
        {"id": "p2", "player": "alice", "kind": "pass"},
    ]))  # fmt: skip
    assert report["p1"]["status"] == "succeeded"
    assert report["p2"]["reason"] == report["g"]["reason"] == "passed this turn (R94)"


def test_step_0_rejects_unknown_players_kinds_negative_amounts_and_sides() -> None:
    """ENGINE.md part 10 step 0."""
    report = orders_of(board(held("one", "alice", "alice-illuminati"), orders=[
        {"id": "u", "player": "mallory", "kind": "pass"},
        {"id": "k", "player": "alice", "kind": "fly"},
        {"id": "n", "player": "alice", "kind": "gift", "to_player": "bob", "amount": -1},
        {"id": "s", "player": "bob", "kind": "interfere", "target": "one", "side": "both",
         "amount": 1},
        {"id": "f", "player": "bob", "kind": "interfere", "target": "one", "side": "attack",
         "amount": 1, "for": "bob"},
        {"id": "x", "player": "alice", "kind": "drop", "group": "nowhere"},
    ]))  # fmt: skip
    assert all(entry["status"] == "rejected" for entry in report.values())


def test_a_rejected_action_uses_no_slot_and_a_third_is_rejected() -> None:
    """R94: rejected actions are skipped; after two rounds the rest are rejected."""
    state = board(
        held("one", "alice", "alice-illuminati", arrows=1),
        held("two", "alice", "alice-illuminati", arrows=1),
        orders=[
            {"id": "bad", "player": "alice", "kind": "move_group", "group": "one",
             "to": "alice-illuminati"},
            {"id": "m1", "player": "alice", "kind": "move_group", "group": "one", "to": "two"},
            {"id": "m2", "player": "alice", "kind": "move_group", "group": "one",
             "to": "alice-illuminati"},
            {"id": "m3", "player": "alice", "kind": "move_group", "group": "two", "to": "one"},
        ],
    )  # fmt: skip
    report = orders_of(state)
    assert report["bad"]["reason"] == "the group hangs there already (R97)"
    assert [report[i]["status"] for i in ("m1", "m2", "m3")] == [
        "succeeded", "succeeded", "rejected",
    ]  # fmt: skip
    assert report["m3"]["reason"] == "two actions already (R94)"


# ---- R95/R96: attacks -------------------------------------------------------------------------


@pytest.mark.parametrize(("depth", "need"), [(1, -8), (2, -3), (3, 0), (4, 2), (6, 2)])
def test_closeness_by_depth_of_the_bavarian_example(depth: int, need: int) -> None:
    """R95/R96 (reading): P 10 against R 2 + closeness + 2 * 3 MB of its own treasury; the
    rulebook's "deep" group needing 2 is at depth 4 or more, where closeness is 0."""
    chain = [held("b1", "bob", "bob-illuminati")]
    for i in range(2, depth + 1):
        chain.append(held(f"b{i}", "bob", f"b{i - 1}"))
    chain[-1].update(resistance=2, treasury=5)
    state = board(*chain, orders=[
        attack("a1", "alice", "alice-illuminati", f"b{depth}"),
        {"id": "d1", "player": "bob", "kind": "defend", "group": f"b{depth}", "spend": 3},
    ])  # fmt: skip
    assert orders_of(state)["a1"]["need"] == need


def test_a_group_attacks_or_assists_once_per_turn() -> None:
    """R95: the second attack of the same group is rejected."""
    state = board(
        held("one", "alice", "alice-illuminati", power=4, arrows=2),
        group("t1", resistance=9), group("t2", resistance=9),
        orders=[attack("a1", "alice", "one", "t1"), attack("a2", "alice", "one", "t2"),
                attack("a3", "alice", "alice-illuminati", "t2", assist=["one"])],
    )  # fmt: skip
    report = orders_of(state)
    assert report["a1"]["status"] == "failed"
    assert report["a2"]["reason"] == "the group has already attacked or assisted this turn (R95)"
    assert "already" in report["a3"]["reason"]


NOT_ANOTHERS = "only a group in another player's structure can be neutralized (R95)"


@pytest.mark.parametrize(
    ("aim", "target", "reason"),
    [
        ("control", "mine", "you control that group already (R95)"),
        ("neutralize", "loose", NOT_ANOTHERS),
        ("destroy", "weak", "a group without power cannot be destroyed (R95)"),
        ("destroy", "bob-illuminati", "that group cannot be attacked (R91, R95)"),
        ("control", "dead", "that group cannot be attacked (R91, R95)"),
    ],
)  # fmt: skip
def test_the_target_must_fit_the_aim(aim: str, target: str, reason: str) -> None:
    """R95: control: table or another's structure; neutralize: another's; destroy: P > 0."""
    state = board(
        held("mine", "alice", "alice-illuminati", power=3), group("loose", power=1),
        group("weak"), group("dead", place="destroyed"),
        orders=[attack("a1", "alice", "alice-illuminati", target, aim)],
    )  # fmt: skip
    assert orders_of(state)["a1"]["reason"] == reason


def test_a_destroy_of_ones_own_group_sends_its_subtree_to_the_table() -> None:
    """R95: own groups may be destroyed; no closeness, no defence; destroyed_by counts it."""
    state = board(
        held("one", "alice", "alice-illuminati", power=1, treasury=4),
        held("kid", "alice", "one", treasury=3), turn=3,
        orders=[attack("a1", "alice", "alice-illuminati", "one", "destroy")],
    )  # fmt: skip
    result = resolve(state)
    assert result["report"]["orders"]["a1"]["need"] == 10 - 1
    assert places(result)["one"] == ("destroyed", None, None, 0)
    assert places(result)["kid"] == ("table", None, None, 0)
    assert result["destroyed_by"] == {"alice": 1}


def test_a_captured_group_keeps_half_its_treasury_and_its_subtree_keeps_theirs() -> None:
    """R95: control: half (rounded down) stays; the subtree comes along, treasuries intact."""
    state = board(
        held("prey", "bob", "bob-illuminati", resistance=0, treasury=7),
        held("kid", "bob", "prey", treasury=3),
        orders=[attack("a1", "alice", "alice-illuminati", "prey", spend_illuminati=0)],
    )  # fmt: skip
    state["groups"][0]["treasury"] = 0
    result = resolve(state)  # need 10 - (0 + 10) = 0: roll 6 fails
    assert result["report"]["orders"]["a1"]["need"] == 0
    state["groups"][0]["power"] = 20  # need 10: roll 1:a1:attack [3, 3] = 6 succeeds
    result = resolve(state)
    assert places(result)["prey"] == ("structure", "alice", "alice-illuminati", 3)
    assert places(result)["kid"] == ("structure", "alice", "prey", 3)


def test_standing_defence_is_spent_once_and_interference_only_where_it_applies() -> None:
    """R96: the first attack by another player spends the defence; interference for names
    the attacking player; a side-attack interference for someone else is not used."""
    state = board(
        illuminati("bob-illuminati", "bob", treasury=10),
        illuminati("carol-illuminati", "carol", treasury=10),
        held("one", "alice", "alice-illuminati", power=5),
        held("prey", "bob", "bob-illuminati", resistance=1, treasury=10),
        players=("alice", "bob", "carol"),
        orders=[
            attack("a1", "alice", "one", "prey"),
            attack("a2", "alice", "alice-illuminati", "prey"),
            {"id": "d1", "player": "bob", "kind": "defend", "group": "prey", "spend": 20,
             "spend_illuminati": 2},
            {"id": "i1", "player": "carol", "kind": "interfere", "target": "prey",
             "side": "attack", "for": "alice", "amount": 4},
            {"id": "i2", "player": "carol", "kind": "interfere", "target": "prey",
             "side": "attack", "for": "bob", "amount": 4},
        ],
    )  # fmt: skip
    report = orders_of(state)
    # a1: 5 + 4 (for) against 1 + 10 + 2 * 10 + 2 = 33: need -24
    assert (report["a1"]["attack"], report["a1"]["defence"]) == (9, 33)
    assert report["d1"]["spent"] == 12 and report["i1"]["spent"] == 4
    assert report["i2"]["reason"] == "not used"
    # a2: the defence is spent: 10 against 1 + 10
    assert (report["a2"]["attack"], report["a2"]["defence"]) == (10, 11)


def test_bonuses_of_the_structure_and_the_attackers_own() -> None:
    """R91/R95: scope any of every group of the structure; scope own of the attacker only;
    the aim must match (or any) and the alignment be the target's."""
    bonuses = [
        {"aim": "control", "amount": 1, "scope": "any"},
        {"aim": "any", "amount": 2, "scope": "own"},
        {"aim": "control", "amount": 4, "alignment": "Weird"},
        {"aim": "destroy", "amount": 8},
    ]
    state = board(
        held("one", "alice", "alice-illuminati", power=1, bonuses=bonuses),
        held("two", "alice", "alice-illuminati", power=1),
        group("weird", resistance=0, alignments=["Weird"]), group("plain", resistance=0),
        orders=[attack("a1", "alice", "one", "weird"), attack("a2", "alice", "two", "plain")],
    )  # fmt: skip
    report = orders_of(state)
    assert report["a1"]["attack"] == 1 + 1 + 2 + 4
    assert report["a2"]["attack"] == 1 + 1


def test_an_attack_its_player_cannot_pay_is_rejected() -> None:
    """R95: spend + transfer_after from the attacker; the Illuminati pays from one treasury."""
    state = board(
        illuminati("alice-illuminati", "alice", treasury=5), group("t"),
        orders=[attack("a1", "alice", "alice-illuminati", "t", spend=3, spend_illuminati=3)],
    )  # fmt: skip
    assert orders_of(state)["a1"]["reason"] == "you cannot pay for this attack (R95)"


def test_the_exact_chance_of_an_attack() -> None:
    """R95: P(2d6 <= need), 11 and 12 always failing."""
    assert attack_chance(-8) == 0
    assert attack_chance(2) == Fraction(1, 36)
    assert attack_chance(4) == Fraction(6, 36)
    assert attack_chance(7) == Fraction(21, 36)
    assert attack_chance(10) == attack_chance(99) == Fraction(33, 36)


# ---- R97: other orders --------------------------------------------------------------------------


def test_a_give_without_the_receivers_accept_is_rejected() -> None:
    """R97: the receiver must accept the group that turn."""
    state = board(
        held("one", "alice", "alice-illuminati"),
        orders=[{"id": "h", "player": "alice", "kind": "give_group", "group": "one",
                 "to_player": "bob"}],
    )  # fmt: skip
    assert orders_of(state)["h"]["reason"] == "bob did not accept this group on a free arrow (R97)"


# ---- R98: victory -----------------------------------------------------------------------------


GOALS = [
    ({"kind": "power", "amount": 13}, True),
    ({"kind": "power", "amount": 14}, False),
    ({"kind": "transferable", "amount": 12}, True),
    ({"kind": "money", "amount": 6}, True),
    ({"kind": "money", "amount": 7}, False),
    ({"kind": "alignment", "alignment": "Weird", "amount": 2}, True),
    ({"kind": "alignment", "alignment": "weird", "amount": 3}, False),
    ({"kind": "every_alignment", "alignments": ["Weird", "Criminal"]}, True),
    ({"kind": "every_alignment", "alignments": ["Weird", "Liberal"]}, False),
    ({"kind": "destroyed", "amount": 2}, True),
    ({"kind": "destroyed", "amount": 3}, False),
    ({"kind": "in_play", "alignment": "Weird", "amount": 3}, True),
    ({"kind": "in_play", "alignment": "Weird", "amount": 4}, False),
    ({"kind": "groups"}, False),
]


@pytest.mark.parametrize(("goal", "met"), GOALS)
def test_each_goal_kind(goal: Json, met: bool) -> None:
    """R98: counted on alice's structure, her Illuminati (P 10, T 10, 1 MB) included."""
    state = board(
        illuminati("alice-illuminati", "alice", treasury=1),
        held("a", "alice", "alice-illuminati", power=2, transferable=1, treasury=5,
             alignments=["Weird"]),
        held("b", "alice", "alice-illuminati", power=1, transferable=1,
             alignments=["Weird", "Criminal"]),
        group("c", alignments=["Weird"]), group("d", place="destroyed", alignments=["Weird"]),
        destroyed_by={"alice": 2},
    )  # fmt: skip
    state["players"][0]["goal"] = goal
    winners = resolve(state)["report"]["winners"]
    assert winners == ([{"player": "alice", "by": ["goal"]}] if met else [])


def test_several_players_may_win_together_by_goal_and_groups() -> None:
    """R98: both conditions listed, sorted; players sorted."""
    state = board(settings={"win_groups": 1})
    state["players"][1]["goal"] = {"kind": "power", "amount": 1}
    assert resolve(state)["report"]["winners"] == [
        {"player": "alice", "by": ["groups"]}, {"player": "bob", "by": ["goal", "groups"]},
    ]  # fmt: skip


# ---- legal.py ---------------------------------------------------------------------------------


def test_a_kind_without_choices_says_why() -> None:
    """R94-R97: a bare Illuminati has nothing to drop or defend; pass is always there."""
    legal = legal_choices(board(), "alice")
    assert legal.why_not("drop") == "you control no group but your Illuminati (R91)"
    assert legal.why_not("pass") is None and legal.choices("pass")
    assert legal.why_not("attack") == "none of your groups can attack any group now (R95)"
    with pytest.raises(EngineError):
        legal_choices(board(), "mallory")


def test_the_preview_explains_the_cuban_pilots_need_term_by_term() -> None:
    """R95: -8 as power 4 against resistance 4 and two opposed pairs; 10 with 18 MB."""
    pilots = held("pilots", "alice", "alice-illuminati", power=4, treasury=20,
                  alignments=["Conservative", "Communist"])  # fmt: skip
    state = board(pilots, group("insurers", resistance=4, alignments=["Liberal", "Government"]))
    order = {"player": "alice", "kind": "attack", "group": "pilots", "target": "insurers",
             "aim": "control"}  # fmt: skip
    preview = attack_preview(state, order)
    assert preview["need"] == -8 and preview["chance"] == 0
    assert ["alignments", 8] in preview["defence"] and ["power", 4] in preview["attack"]
    preview = attack_preview(state, {**order, "spend": 18}, Aid(defend_group=1))
    assert preview["need"] == 8 and preview["chance"] == Fraction(26, 36)
    with pytest.raises(EngineError):
        attack_preview(state, {**order, "spend": 21})

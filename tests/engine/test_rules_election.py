"""RULES R80 (offices and the election round) on hand-made states: input errors and the
corners the golden files do not show. ENGINE.md part 9."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.engine import EngineError, resolve, spawn_consume

Json = dict[str, Any]
SEED = "5eed" * 16


def dept(slug: str, owner: str | None, **fields: Any) -> Json:
    return {"slug": slug, "structure": owner, "home": owner is not None, **fields}


def office(**fields: Any) -> Json:
    base = {"id": "mayor", "name": "Mayor", "alignment": "Government", "shticks": []}
    return {**base, "holder": None, "deputy": None, **fields}


def state(*departments: Json, orders: list[Json] | None = None, **extra: Any) -> Json:
    return {
        "turn": 5,
        "seed": SEED,
        "departments": list(departments),
        "orders": orders or [],
        "election": {"office": "mayor"},
        "offices": [office()],
        **extra,
    }


def order(oid: str, player: str, kind: str, **fields: Any) -> Json:
    return {"id": oid, "player": player, "kind": kind, **fields}


def election(result: Json) -> Json:
    found: Json = result["report"]["election"]
    return found


MINT = dept("mint", "alice", impress=3)
WATCH = dept("watch", "alice", impress=1)
GUILD = dept("guild", "bob", impress=2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"election": {"office": "king"}}, "election for an unknown office 'king'"),
        ({"election": "mayor"}, "election must be an object"),
        ({"offices": [office(alignment="Purple")]}, "unknown alignment"),
        ({"offices": [office(holder="castle")]}, "holder 'castle' is not a department"),
        ({"offices": [office(shticks=[{"kind": "crown"}])]}, "unknown shtick kind 'crown'"),
        ({"offices": [office(), office()]}, "duplicate id 'mayor'"),
    ],
)
def test_r80_a_malformed_office_or_election_is_an_input_error(change: Json, message: str) -> None:
    for command in (resolve, spawn_consume):
        with pytest.raises(EngineError, match=message):
            command(state(MINT) | change)


def test_r80_office_shticks_count_in_spawn_consume_for_the_holders_controller() -> None:
    """Office effects in every command: a production shtick of the office, held by alice's
    mint, adds to her producing department; once the holder is uncontrolled, to nobody's."""
    mill = dept("mill", "alice", produces={"type": "money", "amount": 1})
    shtick = {"kind": "production", "department": "mill", "amount": 2}
    held = state(MINT, mill, offices=[office(shticks=[shtick], holder="mint")])
    assert spawn_consume(held)["report"]["departments"]["mill"]["produced"] == 3
    loose = state(dept("mint", None), mill, offices=[office(shticks=[shtick], holder="mint")])
    assert spawn_consume(loose)["report"]["departments"]["mill"]["produced"] == 1


def test_r80_the_last_accepted_running_mate_counts() -> None:
    """R80: the candidate's controller (another player nominated it) may name the running
    mate; each accepted order replaces the one before."""
    orders = [
        order("n1", "carol", "nominate", candidate="mint", running_mate="guild", seq=0),
        order("r1", "alice", "running_mate", candidate="mint", running_mate="watch", seq=1),
        order("r2", "alice", "running_mate", candidate="mint", running_mate="guild", seq=2),
        order("r3", "bob", "running_mate", candidate="mint", running_mate="guild", seq=3),
    ]
    result = resolve(state(MINT, WATCH, GUILD, orders=orders))
    statuses = {k: v["status"] for k, v in result["report"]["orders"].items()}
    assert statuses == {"n1": "succeeded", "r1": "succeeded", "r2": "succeeded", "r3": "rejected"}
    assert election(result)["tickets"]["mint"]["running_mate"] == "guild"


def test_r80_an_uncontrolled_member_of_two_tickets_supports_the_stronger_one() -> None:
    """R80 step 3: church is bob's candidate and alice's running mate: it supports the ticket
    with most support so far (mint: 3 against guild: 2)."""
    church = dept("church", None, impress=4)
    orders = [
        order("n1", "alice", "nominate", candidate="mint", running_mate="church"),
        order("n2", "bob", "nominate", candidate="church", running_mate="guild"),
        order("s1", "alice", "support", department="mint", ticket="mint"),
        order("s2", "bob", "support", department="guild", ticket="church"),
    ]
    tickets = election(resolve(state(MINT, GUILD, church, orders=orders)))["tickets"]
    assert (tickets["mint"]["support"], tickets["church"]["support"]) == (3 + 4, 2)
    assert tickets["mint"]["supporters"] == ["church", "mint"]


def test_r80_equal_support_so_far_goes_to_the_lowest_candidate_slug() -> None:
    church = dept("church", None, impress=4)
    orders = [
        order("n1", "alice", "nominate", candidate="mint", running_mate="church"),
        order("n2", "bob", "nominate", candidate="guild", running_mate="church"),
    ]
    tickets = election(resolve(state(MINT, GUILD, church, orders=orders)))["tickets"]
    assert tickets["guild"]["supporters"] == ["church"] and tickets["mint"]["supporters"] == []


def test_r80_a_department_captured_this_turn_supports_for_its_new_controller() -> None:
    """R80: 'a department counts only if the player controls it then': the election comes
    after the linking attempts (a sure capture: skill 6, the target rolls no dice)."""
    raiders = dept("raiders", "alice", impress=1, produces={"type": "money", "amount": 1},
                   functions={"linking": 6}, stash={"money": 2})  # fmt: skip
    farm = dept("farm", None, impress=5, consumes={"type": "money", "amount": 1})
    orders = [
        order("a1", "alice", "attempt", attacker="raiders", target="farm", seq=0),
        order("n1", "alice", "nominate", candidate="raiders", running_mate="guild", seq=1),
        order("s1", "alice", "support", department="farm", ticket="raiders", seq=2),
    ]
    result = resolve(state(raiders, farm, GUILD, orders=orders))
    assert result["report"]["orders"]["s1"]["status"] == "succeeded"
    assert election(result)["tickets"]["raiders"]["support"] == 5


def test_r80_the_uncontrolled_follow_the_exact_chance_without_shticks() -> None:
    """R80 step 3: 'nothing spent, no shticks': alice's dice attack +5 would make mint the
    stronger attacker, but the chances are counted without it: guild's 2 dice beat mint's 1
    (against the field's 0 dice: 1 - (3/5)^2 = 16/25 against 2/5)."""
    mint = dept("mint", "alice", impress=1)
    field = dept("field", None, impress=1)
    players = {"alice": {"shticks": [
        {"kind": "dice", "roll": "attack", "department": None, "amount": 5}]}}  # fmt: skip
    orders = [
        order("n1", "alice", "nominate", candidate="mint", running_mate="watch"),
        order("n2", "bob", "nominate", candidate="guild", running_mate="docks"),
    ]
    docks = dept("docks", "bob")
    result = resolve(state(mint, WATCH, GUILD, docks, field, orders=orders, players=players))
    assert election(result)["tickets"]["guild"]["supporters"] == ["field"]


def test_r80_an_office_board_limits_the_electorate() -> None:
    """The engine's reading for several boards in one state: an office with a `board` takes
    its candidates and its uncontrolled supporters from that board only."""
    mint = MINT | {"board": "city"}
    guild = GUILD | {"board": "city"}
    quay = dept("quay", None, impress=3, board="harbour")
    square = dept("square", None, impress=2, board="city")
    orders = [
        order("n1", "alice", "nominate", candidate="mint", running_mate="quay"),
        order("n2", "alice", "nominate", candidate="mint", running_mate="guild"),
    ]
    result = resolve(state(mint, guild, quay, square, orders=orders,
                           offices=[office(board="city")]))  # fmt: skip
    assert result["report"]["orders"]["n1"]["reason"] == "quay is not on the board of mayor (R80)"
    assert election(result)["tickets"] == {
        "mint": {"running_mate": "guild", "support": 2, "supporters": ["square"]}
    }


@pytest.mark.parametrize(("double", "status"), [(False, "succeeded"), ("yes", "rejected")])
def test_r80_double_is_true_or_false(double: object, status: str) -> None:
    orders = [
        order("n1", "alice", "nominate", candidate="mint", running_mate="watch"),
        order("s1", "alice", "support", department="mint", ticket="mint", double=double),
    ]
    result = resolve(state(MINT, WATCH, orders=orders))
    assert result["report"]["orders"]["s1"]["status"] == status


def test_r80_the_chances_count_the_office_alignments_as_they_were_before_the_election() -> None:
    """R80 step 3: guild holds the Government office before this election, so against the
    Government field it rolls for 6s (identical 1): 1/2 against mint's 2/5. The field goes to
    guild, though mint wins the election and takes the office (bank's 3 and mint's 1
    against guild's 1 and the field's 1); the running mates roll no dice."""
    mint = dept("mint", "alice", impress=1)
    guild = dept("guild", "bob", impress=1)
    field = dept("field", None, impress=1, alignments=["Government"])
    orders = [
        order("n1", "alice", "nominate", candidate="mint", running_mate="watch"),
        order("n2", "bob", "nominate", candidate="guild", running_mate="docks"),
        order("s1", "alice", "support", department="bank", ticket="mint"),
        order("s2", "alice", "support", department="mint", ticket="mint"),
    ]
    bank = dept("bank", "alice", impress=3)
    watch, docks = dept("watch", "alice"), dept("docks", "bob")
    held = [office(holder="guild")]
    result = resolve(state(mint, watch, bank, guild, docks, field, orders=orders, offices=held))
    assert election(result)["tickets"]["guild"]["supporters"] == ["field"]
    assert election(result)["winner"] == "mint"
    assert (result["offices"][0]["holder"], result["offices"][0]["deputy"]) == ("mint", "watch")


def test_r80_ticket_chances_give_the_report_the_fractions_the_election_weighed() -> None:
    """election.ticket_chances on rs_election_uncontrolled's result (offices as they went
    in): the fractions its _why note computes by hand."""
    import json
    from fractions import Fraction
    from pathlib import Path

    from campaigns.engine.election import ticket_chances

    golden = Path(__file__).resolve().parent / "golden"
    given = json.loads((golden / "rs_election_uncontrolled.in.json").read_text())
    result = json.loads((golden / "rs_election_uncontrolled.out.json").read_text())
    before = {**result, "offices": given["offices"]}
    tickets = {c: t["running_mate"] for c, t in result["report"]["election"]["tickets"].items()}
    assert ticket_chances(before, tickets, "barracks") == {
        "mint": Fraction(23, 40), "guild": Fraction(23, 40)}  # fmt: skip
    assert ticket_chances(before, tickets, "chapel") == {
        "mint": Fraction(513, 625), "guild": Fraction(29, 40)}  # fmt: skip
    assert ticket_chances(before, tickets, "orphanage") == {
        "mint": Fraction(7, 8), "guild": Fraction(7, 8)}  # fmt: skip
    with pytest.raises(EngineError):
        ticket_chances(before, {"mint": "nowhere"}, "chapel")


def test_r80_election_chances_read_the_state_once_for_every_department() -> None:
    """election_chances gives each department what ticket_chances gives it alone."""
    import json
    from pathlib import Path

    from campaigns.engine.election import election_chances, ticket_chances

    golden = Path(__file__).resolve().parent / "golden"
    given = json.loads((golden / "rs_election_uncontrolled.in.json").read_text())
    result = json.loads((golden / "rs_election_uncontrolled.out.json").read_text())
    before = {**result, "offices": given["offices"]}
    tickets = {c: t["running_mate"] for c, t in result["report"]["election"]["tickets"].items()}
    slugs = ["barracks", "chapel", "orphanage"]
    assert election_chances(before, tickets, slugs) == {
        slug: ticket_chances(before, tickets, slug) for slug in slugs
    }
    with pytest.raises(EngineError):
        election_chances(before, tickets, ["nowhere"])


def test_r80_support_powers_are_impress_doubled_where_media_doubled() -> None:
    from campaigns.engine.election import support_powers

    given = state(MINT, WATCH, GUILD)
    assert support_powers(given, {"mint": True, "guild": False}) == {"mint": 6, "guild": 2}
    with pytest.raises(EngineError):
        support_powers(given, {"nowhere": False})

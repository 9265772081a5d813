"""History read from the turn records (issue 11, RULES R51-R53), on the demo after three
turns (tests/support/history.py): the level rule at a past turn, a structure's timeline with
the cause of each change, its chart, a department's turns and two turns compared."""

from __future__ import annotations

import pytest

from campaigns.history.selectors.history import structure_history
from campaigns.history.selectors.history_compare import compare_turns
from campaigns.history.selectors.history_department import department_history
from campaigns.history.selectors.history_events import board_moments, hand_change_cause, hand_events
from campaigns.history.selectors.history_records import board_record
from campaigns.models import Campaign, Membership, Order, TurnRecord
from campaigns.selectors.board_map import People
from campaigns.selectors.board_views import record_snapshot
from campaigns.selectors.visibility import Level, level_from, levels_at
from tests.support.demo import member
from tests.support.history import LEARNED_LATER, ThreeTurns, recorded_levels

pytestmark = pytest.mark.django_db


def city_record(campaign: Campaign, number: int) -> TurnRecord:
    return TurnRecord.objects.get(turn__campaign=campaign, turn__number=number, board__slug="city")


def viewer(campaign: Campaign, username: str) -> Membership:
    return member(campaign, username)


# --- R51: the level at a past turn ------------------------------------------------------------


@pytest.mark.parametrize(
    ("everything", "controls", "stored", "level"),
    [
        (True, False, 0, Level.CONTROLLED),
        (False, True, 0, Level.CONTROLLED),
        (False, False, 3, Level.KNOWN),  # a stored `controlled` is capped: control follows
        (False, False, 1, Level.RUMOURED),
        (False, False, -4, Level.UNKNOWN),
    ],
)
def test_r50_level_from(everything: bool, controls: bool, stored: int, level: Level) -> None:
    assert level_from(everything=everything, controls=controls, stored=stored) == level


def test_r51_a_past_turn_is_seen_through_the_levels_stored_then(three_turns: ThreeTurns) -> None:
    alice = viewer(three_turns.campaign, "alice")
    city = three_turns.campaign.boards.get(slug="city")
    for number, expected in [(0, Level.UNKNOWN), (2, Level.UNKNOWN), (3, Level.KNOWN)]:
        record = city_record(three_turns.campaign, number)
        levels = record_snapshot(board_record(city, number), alice).levels
        assert levels[LEARNED_LATER] == expected, number
        # The same rule as computed here from the record alone (tests/support/history.py).
        assert levels == recorded_levels(record, alice.player_id, alice.pk)


def test_r51_control_at_a_past_turn_follows_that_turns_structure(three_turns: ThreeTurns) -> None:
    alice = viewer(three_turns.campaign, "alice")
    city = three_turns.campaign.boards.get(slug="city")
    one, two = board_record(city, 1), board_record(city, 2)
    assert record_snapshot(one, alice).level("city-watch") == Level.KNOWN  # Carol's then
    assert record_snapshot(two, alice).level("city-watch") == Level.CONTROLLED


def test_r51_the_gm_and_an_opened_campaign_see_everything(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    record = city_record(campaign, 1)
    owners = {d["slug"]: d["structure"] for d in record.state["departments"]}
    gm = viewer(campaign, "gm")
    assert set(levels_at(gm, owners, record.knowledge).values()) == {Level.CONTROLLED}
    bob = viewer(campaign, "bob")
    assert Level.UNKNOWN in levels_at(bob, owners, record.knowledge).values()
    campaign.opened = True
    campaign.save(update_fields=["opened"])
    bob = viewer(campaign, "bob")
    assert set(levels_at(bob, owners, record.knowledge).values()) == {Level.CONTROLLED}


# --- A structure's history -------------------------------------------------------------------


def texts(history, number: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.text for e in history.turns[number].events]


def test_a_structures_history_tells_each_change_with_its_cause(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    alice = viewer(campaign, "alice")
    history = structure_history(city, alice, alice)
    assert history is not None and history.numbers == [0, 1, 2, 3]
    assert texts(history, 0) == [
        "The structure starts with The City Watch, The Mint and The Treasury."
    ]
    # R46: the attacker's name is told to the defender, whatever they know of it.
    assert texts(history, 1) == [
        "The Thieves' Guild tried to link The City Watch: it succeeded.",
        "The City Watch was captured by Mother Carol of the Eye (R44).",
        "Link The Mint → The City Watch gone.",
    ]
    assert texts(history, 2) == [
        "The Mint tried to link The City Watch: it succeeded.",
        "Captured The City Watch from Mother Carol of the Eye (R44).",
        "New link The Mint → The City Watch.",
    ]
    # R53: the GM's change between turns 2 and 3 (previous state -> this turn's before).
    [gm_change] = history.turns[3].events
    assert gm_change.kind == "gm"
    assert gm_change.text.startswith("The GM changed the stash of The Mint: Money ")
    assert gm_change.text.endswith(" → 41 (R53).")


def test_an_event_undone_within_the_turn_is_told(three_turns: ThreeTurns) -> None:
    """Carol linked the City Watch to her Temple, then the Mint captured it: the capture
    removed the new link in the same turn (R44), so neither state holds it."""
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    carol = viewer(campaign, "carol")
    history = structure_history(city, carol, carol)
    assert history is not None
    undone = [e for e in history.turns[2].events if e.within_turn]
    assert [e.text for e in undone] == [
        "Link The City Watch → The Temple of the Eye made and gone again within the turn."
    ]
    record = city_record(campaign, 2)
    pairs = [{(lk["from"], lk["to"]) for lk in s["links"]} for s in (record.before, record.state)]
    assert all(("city-watch", "temple") not in p for p in pairs)
    # Alice does not know the Temple `known`, so the link is not hers to see (R50).
    alice = viewer(campaign, "alice")
    mine = structure_history(city, alice, alice)
    assert mine is not None and not any(e.within_turn for t in mine.turns for e in t.events)


def test_a_capture_taken_back_within_the_turn_is_told(three_turns: ThreeTurns) -> None:
    """Two attempts on one department in one turn: the second undoes the first. Built from
    turn 2's moment with one more (made-up) succeeded attempt by Bob after Alice's."""
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    alice = viewer(campaign, "alice")
    moment = board_moments(city, alice)[2]
    bobs = Order(
        turn=moment.orders[0].turn, board=city, player=viewer(campaign, "bob"),
        kind=Order.Kind.ATTEMPT, status=Order.Status.SUCCEEDED,
        payload={"attacker": "guild-hall", "target": "treasury"},
    )  # fmt: skip
    events = hand_events(
        moment.__class__(moment.number, moment.before, moment.after, [*moment.orders, bobs],
                         moment.previous),
        alice.player_id,
        People(names={}, colours={}),
    )  # fmt: skip
    assert [e.text for e in events if e.within_turn] == [
        "The Treasury was captured, and taken back within the turn."
    ]


def test_causes_of_changing_hands() -> None:
    attempt = Order(kind=Order.Kind.ATTEMPT, status=Order.Status.SUCCEEDED,
                    payload={"attacker": "a", "target": "x"})  # fmt: skip
    handover = Order(kind="handover", status=Order.Status.SUCCEEDED, payload={"department": "x"})
    failed = Order(kind=Order.Kind.ATTEMPT, status=Order.Status.FAILED,
                   payload={"attacker": "a", "target": "x"})  # fmt: skip
    assert hand_change_cause("x", "p1", [attempt]) == "capture"
    assert hand_change_cause("x", "p1", [handover]) == "handover"
    assert hand_change_cause("x", None, [failed]) == "unlinked"  # R13
    assert hand_change_cause("x", "p1", []) == "gm"


def test_the_chart_is_the_records_stash_and_production(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    alice = viewer(campaign, "alice")
    history = structure_history(city, alice, alice)
    assert history is not None
    chart = {(s["kind"], s["measure"]): s["data"] for s in history.chart["series"]}
    assert history.chart["labels"] == [0, 1, 2, 3]
    for number in range(4):
        record = city_record(campaign, number)
        mine = [d for d in record.state["departments"] if d["structure"] == alice.player_id]
        held = sum(d["stash"].get("money", 0) for d in mine)
        produced = sum(
            record.report["departments"][d["slug"]]["produced"]
            for d in mine
            if (d.get("produces") or {}).get("type") == "money"
        )
        assert chart[("money", "stash")][number] == held
        assert chart[("money", "produced")][number] == produced
    assert chart[("people", "stash")][1] == 0  # the City Watch (People) was Carol's then


def test_a_player_follows_only_their_own_structure(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    alice, bob, gm = (viewer(campaign, u) for u in ("alice", "bob", "gm"))
    assert structure_history(city, alice, bob) is None
    assert structure_history(city, gm, bob) is not None
    assert structure_history(city, gm, gm) is None  # the GM has no structure


# --- A department's history -------------------------------------------------------------------


def test_a_departments_history_shows_what_each_turn_showed(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    alice = viewer(campaign, "alice")
    history = department_history(city, alice, "city-watch")
    assert history is not None
    turns = {t.number: t for t in history.turns}
    assert turns[0].stash is not None and turns[0].status  # hers then
    assert turns[1].controller == "Mother Carol of the Eye"
    assert turns[1].stash is None and turns[1].status is None  # Carol's stash (R50)
    # The link from the Thieves' Guild is not hers to see: she does not know its card.
    assert turns[1].suppliers == []
    carols = department_history(city, viewer(campaign, "carol"), "city-watch")
    assert carols is not None
    # Hers at turn 1 only; the Mint, which supplies it before and after, is a rumour to her.
    assert [t.suppliers for t in carols.turns][:3] == [[], ["The Thieves' Guild"], []]
    assert turns[2].stash is not None
    assert any("Captured The City Watch" in e.text for e in turns[2].events)


def test_a_department_learned_later_has_no_earlier_turns(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    history = department_history(city, viewer(campaign, "alice"), LEARNED_LATER)
    assert history is not None
    assert [t.number for t in history.turns] == [3]
    # Never seen `known`: no history at all, as if it did not exist.
    assert department_history(city, viewer(campaign, "alice"), "rebel-cell") is None
    assert department_history(city, viewer(campaign, "alice"), "no-such-slug") is None


# --- Compare two turns ------------------------------------------------------------------------


def test_comparing_two_turns_lists_what_changed_between_them(three_turns: ThreeTurns) -> None:
    campaign = three_turns.campaign
    city = campaign.boards.get(slug="city")
    alice = viewer(campaign, "alice")
    comparison = compare_turns(city, alice, 0, 3)
    assert comparison is not None
    assert f"You heard of {'The Printing Press'}." in comparison.changes
    assert comparison.second_map["nodes"]
    one = compare_turns(city, alice, 0, 1)
    assert one is not None
    assert "The City Watch: you → Mother Carol of the Eye." not in one.changes
    assert "The City Watch: Alice Ambergris, Comptroller → Mother Carol of the Eye." in one.changes
    assert "Link gone: The Mint → The City Watch." in one.changes
    marked = [n for n in one.second_map["nodes"] if n.get("changed_hands")]
    assert [n["label"] for n in marked] == ["The City Watch"]
    assert compare_turns(city, alice, 0, 99) is None

"""The GM's services for RULES parts 7-9 on the demo Tourmaline: shticks (R60), secret goals
(R61), intel and contingency envelopes (R71, R72), offices and elections (R80). Each checks
its input with the engine's own parser and refuses bad input with a message and nothing
changed; each change is in the audit log (R53)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from campaigns.elections.services.offices import (
    election_cancel,
    election_schedule,
    office_remove,
    office_save,
)
from campaigns.intrigue.services.characters import (
    goal_remove,
    goal_set,
    shtick_grant,
    shtick_remove,
)
from campaigns.intrigue.services.envelopes import (
    contingency_create,
    contingency_remove,
    envelope_create,
    envelope_remove,
)
from campaigns.models import (
    AuditEntry,
    Campaign,
    ContingencyEnvelope,
    Election,
    Goal,
    IntelEnvelope,
    Notice,
    Office,
    Shtick,
    Turn,
)
from campaigns.selectors.state import board_state
from campaigns.selectors.state_beyond_boards import Names, beside_keys
from campaigns.services.setup import SetupRefused, alignments_set
from tests.support.demo import intrigue_cleared, member
from tests.support.departments import dept

pytestmark = pytest.mark.django_db


def gm(campaign: Campaign) -> Any:
    return member(campaign, "gm").user


def refused(call: Any, *args: Any, match: str, **kwargs: Any) -> None:
    """`call` is refused with `match` in its message, and no row of parts 7-9 changed."""
    models = (Shtick, Goal, IntelEnvelope, ContingencyEnvelope, Office, Election)
    before = [list(m.objects.values()) for m in models]
    with pytest.raises(SetupRefused, match=match):
        call(*args, **kwargs)
    assert [list(m.objects.values()) for m in models] == before


# --- R60 shticks ----------------------------------------------------------------------------


@pytest.fixture
def demo(demo: Campaign) -> Campaign:
    """The demo without its own shticks, goals and envelopes: these tests count the GM's."""
    return intrigue_cleared(demo)


def test_a_shtick_is_granted_through_the_engines_parser_and_audited(demo: Campaign) -> None:
    alice = member(demo, "alice")
    shtick = shtick_grant(member=alice, actor=gm(demo), department=dept(demo, "mint"),
                          data={"kind": "production", "amount": 1})  # fmt: skip
    assert shtick.data == {"kind": "production", "amount": 1, "department": "mint"}
    entry = AuditEntry.objects.get(action=AuditEntry.Action.SHTICKS)
    assert entry.after == {"granted": shtick.data} and entry.target == "alice"
    narrative = shtick_grant(
        member=alice, actor=gm(demo), data={"kind": "text", "text": "  Knows the harbourmaster.  "}
    )
    assert narrative.data == {"kind": "text", "text": "Knows the harbourmaster."}
    # The whole-structure dice shtick names no department.
    dice = shtick_grant(member=alice, actor=gm(demo),
                        data={"kind": "dice", "roll": "attack", "amount": 1})  # fmt: skip
    assert dice.data["department"] is None
    shtick_remove(shtick=shtick, actor=gm(demo))
    assert not Shtick.objects.filter(pk=shtick.pk).exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "luck", "amount": 1}, "unknown shtick kind 'luck'"),
        ({"kind": "production", "amount": 1}, "department"),
        ({"kind": "dice", "roll": "bribe", "amount": 1}, "roll must be one of"),
        ({"kind": "attempts", "amount": -1}, "amount"),
        ({"kind": "cross_board", "boards": ["city", "city"]}, "two different boards"),
        ({"kind": "cross_board", "boards": ["city", "moon"]}, "two boards of this campaign"),
        ({"kind": "text", "text": ""}, "1 to 1000 characters"),
    ],
)
def test_a_bad_shtick_is_refused_and_nothing_changes(
    demo: Campaign, data: dict[str, Any], message: str
) -> None:
    refused(shtick_grant, member=member(demo, "alice"), actor=gm(demo), data=data, match=message)


def test_only_a_players_character_holds_shticks(demo: Campaign) -> None:
    refused(shtick_grant, member=member(demo, "gm"), actor=gm(demo),
            data={"kind": "perception", "amount": 1}, match="Only a player")  # fmt: skip


def test_the_state_carries_perception_and_shticks_with_the_boards_names(demo: Campaign) -> None:
    alice = member(demo, "alice")
    shtick_grant(member=alice, actor=gm(demo), department=dept(demo, "spice-house"),
                 data={"kind": "production", "amount": 2})  # fmt: skip
    city = demo.boards.get(slug="city")
    sheet = board_state(city)["players"][alice.player_id]
    assert sheet == {"perception": 2, "shticks": [
        {"kind": "production", "amount": 2, "department": "harbour/spice-house"}]}  # fmt: skip
    harbour = demo.boards.get(slug="harbour")
    assert board_state(harbour)["players"][alice.player_id]["shticks"][0]["department"] == (
        "spice-house"
    )


# --- R61 goals -----------------------------------------------------------------------------


def test_a_goal_is_set_changed_and_removed(demo: Campaign) -> None:
    bob = member(demo, "bob")
    goal = goal_set(member=bob, actor=gm(demo), data={"kind": "attempts_won", "n": 3})
    Goal.objects.filter(pk=goal.pk).update(count=2)
    goal = goal_set(member=bob, actor=gm(demo), goal=goal,
                    data={"kind": "attempts_won", "n": 4})  # fmt: skip
    goal.refresh_from_db()
    assert (goal.kind, goal.data, goal.count) == ("attempts_won", {"n": 4}, 2)
    goal = goal_set(
        member=bob,
        actor=gm(demo),
        goal=goal,
        data={"kind": "hold", "n": 9, "type": "money", "stat": "ignored"},
    )
    goal.refresh_from_db()
    assert (goal.kind, goal.data, goal.count) == ("hold", {"n": 9, "type": "money"}, 0)
    keys = beside_keys(demo, boards=list(demo.boards.all()), names=Names(None))
    assert keys["goals"] == [{"n": 9, "type": "money", "id": goal.engine_id,
                              "player": bob.player_id, "kind": "hold"}]  # fmt: skip
    goal_remove(goal=goal, actor=gm(demo))
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GOALS).count() == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "control"}, "n"),
        ({"kind": "rule_the_world", "n": 1}, "unknown goal kind"),
        ({"kind": "control_aligned", "n": 2, "alignment": "Sparkly"}, "unknown alignment"),
        ({"kind": "stat_total", "n": 2, "stat": "charm"}, "stat must be one of"),
    ],
)
def test_a_bad_goal_is_refused(demo: Campaign, data: dict[str, Any], message: str) -> None:
    refused(goal_set, member=member(demo, "bob"), actor=gm(demo), data=data, match=message)


def test_the_catalogue_cannot_lose_an_alignment_a_goal_needs(demo: Campaign) -> None:
    catalogue = [a.as_engine() for a in demo.alignments.all()]
    alignments_set(campaign=demo, actor=gm(demo), entries=[*catalogue, {"name": "Nautical"}])
    goal_set(member=member(demo, "bob"), actor=gm(demo),
             data={"kind": "control_aligned", "n": 2, "alignment": "Nautical"})  # fmt: skip
    # No department holds Nautical: only the goal stands in the way (the engine reads it).
    with pytest.raises(SetupRefused, match="Nautical"):
        alignments_set(campaign=demo, actor=gm(demo), entries=catalogue)
    assert demo.alignments.filter(name="Nautical").exists()


# --- R71, R72 envelopes ----------------------------------------------------------------------


def test_an_envelope_is_attached_with_its_audience_and_grant(demo: Campaign) -> None:
    carol = member(demo, "carol")
    envelope = envelope_create(department=dept(demo, "temple"), actor=gm(demo), text=" a secret ",
                               target=12, audience=[carol], grants=2)  # fmt: skip
    assert (envelope.text, envelope.everyone, envelope.grants) == ("a secret", False, 2)
    (entry,) = beside_keys(demo, boards=[demo.boards.get(slug="city")], names=Names("city"))[
        "envelopes"
    ]
    assert entry == {"id": envelope.engine_id, "department": "temple", "target": 12,
                     "audience": [carol.player_id], "grants": "known"}  # fmt: skip
    assert "a secret" not in str(AuditEntry.objects.get(action="envelopes").after)
    envelope_remove(envelope=envelope, actor=gm(demo))
    assert not IntelEnvelope.objects.exists()


def test_an_envelope_for_nobody_stays_closed_to_everyone(demo: Campaign) -> None:
    envelope = envelope_create(department=dept(demo, "temple"), actor=gm(demo), text="x",
                               target=3, audience=[])  # fmt: skip
    keys = beside_keys(demo, boards=list(demo.boards.all()), names=Names(None))
    assert keys["envelopes"][0]["audience"] == [] and not envelope.everyone


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"text": "", "target": 3}, "1 to 4000 characters"),
        ({"text": "x", "target": -1}, "target"),
        ({"text": "x", "target": 3, "grants": 3}, "grants"),
    ],
)
def test_a_bad_envelope_is_refused(demo: Campaign, kwargs: dict[str, Any], message: str) -> None:
    refused(envelope_create, department=dept(demo, "temple"), actor=gm(demo), match=message,
            **kwargs)  # fmt: skip


def test_an_envelope_is_addressed_to_players_of_its_campaign_only(demo: Campaign) -> None:
    refused(
        envelope_create,
        department=dept(demo, "temple"),
        actor=gm(demo),
        text="x",
        target=3,
        audience=[member(demo, "gm")],
        match="players of this campaign",
    )


def test_contingency_envelopes_of_every_condition_and_their_refusals(demo: Campaign) -> None:
    alice, temple = member(demo, "alice"), dept(demo, "temple")
    at = dt.datetime(2026, 12, 24, 18, tzinfo=dt.UTC)
    made = [
        contingency_create(member=alice, actor=gm(demo), text="t", condition="turn",
                           turn_number=3),
        contingency_create(member=alice, actor=gm(demo), text="d", condition="date", date=at),
        contingency_create(member=alice, actor=gm(demo), text="j", condition="joins",
                           department=temple),
        contingency_create(member=alice, actor=gm(demo), text="k", condition="knowledge",
                           department=temple, level=2),
    ]  # fmt: skip
    assert [(c.turn_number, c.date, c.department, c.level) for c in made] == [
        (3, None, None, None), (None, at, None, None), (None, None, temple, None),
        (None, None, temple, 2),
    ]  # fmt: skip
    refused(contingency_create, member=alice, actor=gm(demo), text="x", condition="someday",
            match="unknown condition")  # fmt: skip
    refused(contingency_create, member=alice, actor=gm(demo), text="x", condition="leaves",
            match="needs a department")  # fmt: skip
    refused(contingency_create, member=alice, actor=gm(demo), text="x", condition="date",
            date=dt.datetime(2026, 12, 24), match="time zone")  # fmt: skip
    ContingencyEnvelope.objects.filter(pk=made[0].pk).update(opened_turn=demo.turns.get(number=0))
    refused(contingency_remove, envelope=made[0], actor=gm(demo), match="has opened")
    contingency_remove(envelope=made[1], actor=gm(demo))
    assert ContingencyEnvelope.objects.count() == 3


# --- R80 offices and elections ---------------------------------------------------------------


def test_an_office_is_made_changed_and_carried_in_its_boards_state(demo: Campaign) -> None:
    city = demo.boards.get(slug="city")
    office = office_save(board=city, actor=gm(demo), name="Lord Mayor", alignment="Government",
                         shticks=[{"kind": "dice", "roll": "attack", "department": None,
                                   "amount": 1}], holder=dept(demo, "mint"))  # fmt: skip
    office = office_save(board=city, actor=gm(demo), office=office, name="Lord Mayor",
                         alignment="Government", holder=dept(demo, "temple"),
                         deputy=dept(demo, "mint"))  # fmt: skip
    offices = board_state(city)["offices"]  # with the demo's Mayor of Tourmaline
    assert [o for o in offices if o["id"] == office.engine_id] == [{
        "id": office.engine_id, "name": "Lord Mayor", "alignment": "Government", "shticks": [],
        "holder": "temple", "deputy": "mint"}]  # fmt: skip
    assert board_state(demo.boards.get(slug="harbour"))["offices"] == []
    entry = AuditEntry.objects.filter(action="offices").first()
    assert entry.before["holder"] == "mint" and entry.after["holder"] == "temple"
    office_remove(office=office, actor=gm(demo))
    assert not Office.objects.filter(pk=office.pk).exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "", "alignment": "Government"}, "name"),
        ({"name": "Mayor", "alignment": "Sparkly"}, "unknown alignment"),
        ({"name": "Mayor", "alignment": "Government", "shticks": [{"kind": "luck"}]},
         "unknown shtick kind"),
        ({"name": "Mayor", "alignment": "Government", "holder": "spice-house"},
         "departments of its board"),
        ({"name": "Mayor", "alignment": "Government", "holder": "mint", "deputy": "mint"},
         "two different"),
    ],
)  # fmt: skip
def test_a_bad_office_is_refused(demo: Campaign, kwargs: dict[str, Any], message: str) -> None:
    for post in ("holder", "deputy"):
        if post in kwargs:
            kwargs[post] = dept(demo, kwargs[post])
    refused(office_save, board=demo.boards.get(slug="city"), actor=gm(demo), match=message,
            **kwargs)  # fmt: skip


def test_one_election_per_turn_announced_in_the_open_turn(demo: Campaign) -> None:
    city, harbour = demo.boards.get(slug="city"), demo.boards.get(slug="harbour")
    mayor = office_save(board=city, actor=gm(demo), name="Mayor", alignment="Government")
    admiral = office_save(board=harbour, actor=gm(demo), name="Admiral", alignment="Peaceful")
    election = election_schedule(office=mayor, number=1, actor=gm(demo))
    told = Notice.objects.filter(text__contains="election for Mayor", turn__number=1)
    assert told.count() == 3  # alice, bob, carol
    refused(election_schedule, office=admiral, number=1, actor=gm(demo),
            match="already holds an election")  # fmt: skip
    refused(election_schedule, office=admiral, number=0, actor=gm(demo),
            match="open turn or a later one")  # fmt: skip
    election_schedule(office=admiral, number=3, actor=gm(demo))
    assert board_state(city, turn=demo.turns.get(status=Turn.Status.OPEN))["election"] == {
        "office": mayor.engine_id
    }
    Election.objects.filter(pk=election.pk).update(result={"office": mayor.engine_id})
    refused(election_cancel, election=election, actor=gm(demo), match="has been held")

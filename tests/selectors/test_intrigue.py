"""What the pages of RULES parts 7-9 read (intrigue/selectors/intrigue.py), on the demo Tourmaline:
a
character's shticks, goals and dossier reach only them and the GM (R50, R51); departments are
named only where the viewer knows them; an election's support so far hides what the viewer's
levels hide (R80 with R50); and each reader's queries do not grow with its rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.elections.services.offices import election_schedule, office_save
from campaigns.intrigue.selectors.intrigue import (
    Supporter,
    board_offices,
    character_goals,
    character_shticks,
    dossier,
    election_so_far,
)
from campaigns.intrigue.services.characters import goal_set, shtick_grant
from campaigns.intrigue.services.envelopes import contingency_create, envelope_create
from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Election,
    GoalProgress,
    Order,
)
from campaigns.selectors.report_view_models import UNNAMED
from tests.support.demo import intrigue_cleared, member, open_turn
from tests.support.departments import dept

pytestmark = pytest.mark.django_db
SECRET = "ALICE-SECRET-SENTINEL"


def queries(call: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


@pytest.fixture
def secrets(demo: Campaign) -> Campaign:
    """Alice's character: a narrative shtick and a production shtick, a goal with progress
    after turn 0, an intel envelope on the Temple (which she has heard of) in her dossier and
    an opened contingency envelope."""
    intrigue_cleared(demo)  # the demo's own
    alice, gm = member(demo, "alice"), member(demo, "gm").user
    shtick_grant(member=alice, actor=gm, data={"kind": "text", "text": SECRET})
    shtick_grant(member=alice, actor=gm, department=dept(demo, "mint"),
                 data={"kind": "production", "amount": 1})  # fmt: skip
    goal = goal_set(member=alice, actor=gm, data={"kind": "control", "n": 5})
    start = demo.turns.get(number=0)
    GoalProgress.objects.create(goal=goal, turn=start, value=4, met=False)
    envelope = envelope_create(department=dept(demo, "temple"), actor=gm, text=SECRET, target=9)
    DossierEntry.objects.create(member=alice, envelope=envelope, turn=start)
    sealed = contingency_create(member=alice, actor=gm, text=f"{SECRET} sealed", condition="turn",
                                turn_number=0)  # fmt: skip
    ContingencyEnvelope.objects.filter(pk=sealed.pk).update(opened_turn=start)
    return demo


def test_a_character_reads_their_own_sheet_goals_and_dossier(secrets: Campaign) -> None:
    alice = member(secrets, "alice")
    shticks = character_shticks(alice, alice)
    assert [(s.kind, s.department) for s in shticks] == [("text", None), ("production", "The Mint")]
    assert shticks[0].data["text"] == SECRET
    (goal,) = character_goals(alice, alice)
    assert (goal.kind, goal.n, goal.latest.value, goal.latest.met) == ("control", 5, 4, False)
    items = dossier(alice, alice)
    # Newest first; in one turn, intel before the sealed envelopes.
    assert [(i.kind, i.text, i.department) for i in items] == [
        ("intel", SECRET, "The Temple of the Eye"), ("contingency", f"{SECRET} sealed", None)
    ]  # fmt: skip


def test_another_player_reads_nothing_of_them_and_the_gm_everything(secrets: Campaign) -> None:
    alice, bob, gm = (member(secrets, n) for n in ("alice", "bob", "gm"))
    for reader in (character_shticks, character_goals, dossier):
        assert reader(alice, bob) == []
        assert reader(alice, gm) != []


def test_a_department_the_reader_no_longer_knows_is_not_named(secrets: Campaign) -> None:
    alice = member(secrets, "alice")
    alice.knowledge.filter(department__slug="temple").delete()
    intel = next(i for i in dossier(alice, alice) if i.kind == "intel")
    assert intel.department == UNNAMED


def test_an_offices_holder_is_named_only_to_who_knows_it(demo: Campaign) -> None:
    city = demo.boards.get(slug="city")
    office_save(board=city, actor=member(demo, "gm").user, name="Mayor", alignment="Government",
                holder=dept(demo, "tax-office"), deputy=dept(demo, "mint"))  # fmt: skip
    # (The demo's Mayor of Tourmaline, vacant, comes after it by name.)
    bobs, vacant = board_offices(city, member(demo, "bob"))
    assert (bobs.holder, bobs.deputy) == ("The Tax Office", "The Mint")  # bob knows both
    assert (vacant.name, vacant.holder, vacant.deputy) == ("Mayor of Tourmaline", None, None)
    carols, __ = board_offices(city, member(demo, "carol"))
    assert carols.deputy == "The Mint"  # carol has heard of the mint
    office = Department.objects.get(slug="tax-office")
    member(demo, "bob").knowledge.filter(department=office).delete()
    assert board_offices(city, member(demo, "bob"))[0].holder == UNNAMED


def test_the_election_so_far_hides_what_the_viewer_does_not_know(demo: Campaign) -> None:
    city = demo.boards.get(slug="city")
    mayor = office_save(board=city, actor=member(demo, "gm").user, name="Mayor",
                        alignment="Government")  # fmt: skip
    turn = open_turn(demo)
    election_schedule(office=mayor, number=turn.number, actor=member(demo, "gm").user)
    alice, carol = member(demo, "alice"), member(demo, "carol")
    orders = [
        (alice, "nominate", {"candidate": "mint", "running_mate": "treasury"}),
        (alice, "support", {"department": "mint", "ticket": "mint"}),
        (carol, "support", {"department": "seminary", "ticket": "mint"}),
        (carol, "vote", {"ticket": "mint"}),
    ]
    for seq, (player, kind, payload) in enumerate(orders):
        Order.objects.create(turn=turn, board=city, player=player, kind=kind, payload=payload,
                             seq=seq)  # fmt: skip
    mine = election_so_far(turn, alice)
    assert mine is not None and mine.office == "Mayor"
    (ticket,) = mine.tickets
    assert (ticket.candidate, ticket.running_mate, ticket.votes) == ("The Mint", "The Treasury", 1)
    mint = dept(demo, "mint")
    # Her own mint at full power; carol's seminary she does not know at all.
    assert ticket.supporters == [
        Supporter(name="The Mint", power=mint.impress), Supporter(name=UNNAMED, power=None)
    ]  # fmt: skip
    assert ticket.support_seen == mint.impress
    gms = election_so_far(turn, member(demo, "gm"))
    assert None not in [s.power for s in gms.tickets[0].supporters]


def test_no_election_this_turn_reads_as_none(demo: Campaign) -> None:
    assert election_so_far(open_turn(demo), member(demo, "alice")) is None
    assert not Election.objects.filter(number=open_turn(demo).number).exists()


def test_the_readers_queries_do_not_grow_with_their_rows(secrets: Campaign) -> None:
    alice = member(secrets, "alice")
    counts = [queries(lambda: (character_shticks(alice, alice), character_goals(alice, alice),
                               dossier(alice, alice)))]  # fmt: skip
    gm = member(secrets, "gm").user
    for i in range(5):
        shtick_grant(member=alice, actor=gm, department=dept(secrets, "treasury"),
                     data={"kind": "production", "amount": i})  # fmt: skip
        goal = goal_set(member=alice, actor=gm, data={"kind": "control", "n": i})
        GoalProgress.objects.create(goal=goal, turn=secrets.turns.get(number=0), value=i,
                                    met=True)  # fmt: skip
        envelope = envelope_create(department=dept(secrets, "mint"), actor=gm, text=str(i),
                                   target=9)  # fmt: skip
        DossierEntry.objects.create(member=alice, envelope=envelope,
                                    turn=secrets.turns.get(number=0))  # fmt: skip
    counts.append(
        queries(
            lambda: (
                character_shticks(alice, alice),
                character_goals(alice, alice),
                dossier(alice, alice),
            )
        )
    )
    assert counts[0] == counts[1]

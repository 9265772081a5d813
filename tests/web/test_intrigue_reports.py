"""A turn of the demo with an order of every kind of RULES parts 7-9 (a perception check, a
gift, a hand-over and its accept, an election's nomination, support and vote) and a
contingency envelope: the turn report answers every member (how it shows them is issue 12's
and 14's), no envelope's text reaches a report page or a mail, and the reader whose envelopes
opened finds the notice in their report."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.models import Campaign, Order, Turn
from campaigns.services.envelopes import contingency_create, envelope_create
from campaigns.services.offices import election_schedule, office_save
from campaigns.services.turns import turn_process
from tests.support.demo import member
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SECRET = "SEALED-TEXT-SENTINEL"


@pytest.fixture
def intrigued(demo: Campaign, django_capture_on_commit_callbacks: Any) -> Campaign:
    gm = member(demo, "gm").user
    city = demo.boards.get(slug="city")
    temple = city.departments.get(slug="temple")
    envelope_create(department=temple, actor=gm, text=SECRET, target=3, audience=[])
    envelope_create(department=temple, actor=gm, text=f"{SECRET} for all", target=3)
    contingency_create(member=member(demo, "bob"), actor=gm, text=SECRET, condition="turn",
                       turn_number=1)  # fmt: skip
    mayor = office_save(board=city, actor=gm, name="Mayor", alignment="Government")
    election_schedule(office=mayor, number=1, actor=gm)
    alice, bob, carol = (member(demo, n) for n in ("alice", "bob", "carol"))
    turn = demo.turns.get(status=Turn.Status.OPEN)
    orders = [
        (alice, "perceive", {"department": "temple"}),
        (alice, "gift", {"from": "mint", "to": "guild-hall", "tokens": {"money": 1}}),
        (alice, "handover", {"department": "city-watch", "to": bob.player_id}),
        (bob, "accept", {"department": "city-watch", "from": alice.player_id}),
        (carol, "nominate", {"candidate": "temple", "running_mate": "seminary"}),
        (carol, "support", {"department": "seminary", "ticket": "temple"}),
        (bob, "vote", {"ticket": "temple"}),
    ]
    for seq, (player, kind, payload) in enumerate(orders):
        Order.objects.create(turn=turn, board=city, player=player, kind=kind, payload=payload,
                             seq=seq)  # fmt: skip
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_process(campaign_id=demo.pk, number=1) is not None
    return demo


@pytest.mark.parametrize("user", ["alice", "bob", "carol", "gm"])
def test_the_report_of_an_intrigue_turn_answers_and_keeps_the_envelopes_sealed(
    intrigued: Campaign, client_for: ClientFor, user: str
) -> None:
    response = client_for(user).get(reverse("turn_report", args=[intrigued.slug, 1]))
    assert response.status_code == 200
    page = response.content.decode()
    assert SECRET not in page
    if user in ("alice", "bob"):  # alice's check opened one; bob's sealed envelope opened
        assert "envelope" in page


def test_the_mail_says_an_envelope_opened_and_never_what_it_says(intrigued: Campaign) -> None:
    assert mail.outbox
    for message in mail.outbox:
        assert SECRET not in message.subject and SECRET not in message.body
        opened = "A sealed envelope opened for you" in message.body
        assert opened == (message.to[0] in ("alice@example.com", "bob@example.com"))

"""A turn of the demo with an order of every kind of RULES parts 7-9 (a perception check, a
gift, a hand-over and its accept, an election's nomination, support and vote) and a
contingency envelope: the turn report answers every member; no intel envelope's text reaches
a report page or a mail (it is in the dossier); a sealed envelope is delivered in its own
player's report only (R72); the perception check shows its roll and what it opened; the
deals read in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.elections.services.offices import election_schedule, office_save
from campaigns.intrigue.services.envelopes import contingency_create, envelope_create
from campaigns.models import Campaign, Order, Turn
from campaigns.services.turns import turn_process
from tests.support.demo import intrigue_cleared, member
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SECRET = "INTEL-TEXT-SENTINEL"
SEALED = "SEALED-FOR-BOB-SENTINEL"


@pytest.fixture
def intrigued(demo: Campaign, django_capture_on_commit_callbacks: Any) -> Campaign:
    intrigue_cleared(demo)  # the demo's own envelopes would open or not by the turn's dice
    gm = member(demo, "gm").user
    city = demo.boards.get(slug="city")
    temple = city.departments.get(slug="temple")
    envelope_create(department=temple, actor=gm, text=SECRET, target=3, audience=[])
    envelope_create(department=temple, actor=gm, text=f"{SECRET} for all", target=3)
    contingency_create(member=member(demo, "bob"), actor=gm, text=SEALED, condition="turn",
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
    assert (SEALED in page) == (user in ("bob", "gm"))  # R72: bob's, delivered to him
    if user in ("alice", "bob"):  # alice's check opened one; bob's sealed envelope opened
        assert "envelope" in page
        assert reverse("dossier", args=[intrigued.slug]) in page


def test_the_report_shows_the_perception_roll_and_the_deals_in_words(
    intrigued: Campaign, client_for: ClientFor
) -> None:
    page = client_for("alice").get(reverse("turn_report", args=[intrigued.slug, 1]))
    text = page.content.decode()
    (roll,) = [r for r in page.context["report"].rolls if r.key.endswith(":perception")]
    assert roll.dice == 3 and len(roll.faces) == 3 and all(1 <= f <= 6 for f in roll.faces)
    assert f"Total {sum(roll.faces) + roll.skill} = " in text
    assert "It opened 1 envelope." in text
    assert "Perception check on The Temple of the Eye" in text
    assert "The Mint gives 1 Money to The Guild Hall" in text
    assert "The City Watch is handed over to Bob Brackwater, Guildmaster" in text
    bobs = client_for("bob").get(reverse("turn_report", args=[intrigued.slug, 1])).content
    assert "Accept The City Watch from Alice Ambergris, Comptroller" in bobs.decode()
    # R62: bob knows the Mint's card, so he is told who gave; the hand-over reads as one.
    assert "The Mint (Alice Ambergris, Comptroller) gave 1 Money to The Guild Hall" in bobs.decode()
    handed = "The City Watch was handed over to Bob Brackwater, Guildmaster by Alice"
    assert handed in text and handed in bobs.decode()
    carols = client_for("carol").get(reverse("turn_report", args=[intrigued.slug, 1])).content
    assert "gave 1 Money" not in carols.decode()


def test_the_mail_says_an_envelope_opened_and_never_what_it_says(intrigued: Campaign) -> None:
    assert mail.outbox
    for message in mail.outbox:
        for secret in (SECRET, SEALED):
            assert secret not in message.subject and secret not in message.body
        opened = "A sealed envelope opened for you" in message.body
        assert opened == (message.to[0] in ("alice@example.com", "bob@example.com"))


def test_the_verify_page_recomputes_a_perception_roll_as_d6_r23_r70(
    intrigued: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    report = alice.get(reverse("turn_report", args=[intrigued.slug, 1])).context["report"]
    (roll,) = [r for r in report.rolls if r.key.endswith(":perception")]
    page = alice.get(roll.verify_url)
    assert page.context["faces"] == roll.faces and page.context["matches"]
    text = page.content.decode()
    assert f"{roll.dice} d6:" in text and "Matches the faces in your report (summed" in text

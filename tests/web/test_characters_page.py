"""Every character on one page (RULES R51, R60, R61, R71, R72): the GM's overview of every
player's shticks, secret goals and dossier; players and observers are refused until the GM
opens the campaign, and then every member reads it, each character's secrets in full."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, DossierEntry, Goal, IntelEnvelope, Membership, Shtick
from campaigns.services.campaigns import campaign_end, campaign_open
from tests.factories import CampaignFactory, MembershipFactory
from tests.support.demo import member
from tests.support.handmade import ClientFor
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"
URL = reverse("characters", args=[SLUG])
ALICES_SHTICK = "Audited the Temple's books once"


@pytest.fixture
def others(demo: Campaign) -> None:
    """olga observes the demo; gm2 runs another campaign."""
    MembershipFactory(campaign=demo, role=Membership.Role.OBSERVER, user__username="olga")
    elsewhere = CampaignFactory(name="Elsewhere", slug="elsewhere")
    MembershipFactory(campaign=elsewhere, role=Membership.Role.GM, user__username="gm2")


def opened(campaign: Campaign) -> None:
    gm = member(campaign, "gm").user
    campaign_end(campaign=campaign, actor=gm)
    campaign_open(campaign=Campaign.objects.get(pk=campaign.pk), actor=gm)


def an_envelope_opened_by(campaign: Campaign, username: str, text: str) -> None:
    temple = campaign.boards.get(slug="city").departments.get(slug="temple")
    envelope = IntelEnvelope.objects.create(department=temple, text=text, target=3)
    turn = campaign.turns.get(number=0)
    DossierEntry.objects.create(member=member(campaign, username), envelope=envelope, turn=turn)


def test_before_the_campaign_is_opened_only_the_gm_reads_every_character(
    demo: Campaign, others: None, client_for: ClientFor
) -> None:
    an_envelope_opened_by(demo, "alice", "The vestry key is under the third pew.")
    gm = text_of(client_for("gm").get(URL))
    assert ALICES_SHTICK in gm and "The vestry key is under the third pew." in gm
    assert "+1 production for The Shipwright" in gm  # bob's
    assert "Control 6 departments" in gm  # alice's goal

    for who in ("alice", "bob", "olga"):
        refused = client_for(who).get(URL)
        assert refused.status_code == 403, who
        assert ALICES_SHTICK not in refused.content.decode()
        assert "once the GM opens the campaign" in text_of(refused), who  # the reason, not a guess
    assert client_for("gm2").get(URL).status_code == 404  # the GM of another campaign


def test_once_opened_every_member_reads_every_character(
    demo: Campaign, others: None, client_for: ClientFor
) -> None:
    an_envelope_opened_by(demo, "alice", "The vestry key is under the third pew.")
    opened(demo)

    for who in ("bob", "olga"):
        page = text_of(client_for(who).get(URL))
        assert ALICES_SHTICK in page, who
        assert "The vestry key is under the third pew." in page, who
        assert "Control 6 departments" in page and "Hold 8 Money across" in page, who
    campaign_page = client_for("bob").get(reverse("campaign", args=[SLUG])).content.decode()
    assert URL in campaign_page


def test_the_page_costs_the_same_queries_however_many_characters_and_secrets(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    an_envelope_opened_by(demo, "alice", "Secret 0")  # one of each kind of row to start with

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert gm.get(URL).status_code == 200
        return len(captured)

    few = queries()
    for i in range(1, 9):
        player = Membership.objects.create(
            campaign=demo, role=Membership.Role.PLAYER,
            user=Membership.user.field.related_model.objects.create(username=f"extra{i}"),
        )  # fmt: skip
        Shtick.objects.create(member=player, kind="text", data={"kind": "text", "text": f"S{i}"})
        Goal.objects.create(member=player, kind="control", data={"n": 3})
        an_envelope_opened_by(demo, f"extra{i}", f"Secret {i}")
    assert queries() == few

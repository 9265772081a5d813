"""Start the campaign (RULES R13, R31): the campaign page's button first checks the campaign
can run and lists what is missing instead of starting. Each message is checked as the GM
reads it, and that nothing started."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import strip_tags

from campaigns.models import Campaign, Department, Membership
from tests.factories import (
    BoardFactory,
    CampaignFactory,
    DepartmentFactory,
    LinkFactory,
    MembershipFactory,
    StructureFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(client: Client) -> tuple[Campaign, Client]:
    """A new campaign with its GM logged in: no board, no player yet."""
    gm = MembershipFactory(
        role=Membership.Role.GM, campaign=CampaignFactory(name="Fresh", slug="fresh")
    )
    client.force_login(gm.user)
    return gm.campaign, client


def start(client: Client) -> tuple[int, str]:
    response = client.post(reverse("campaign_start", args=["fresh"]))
    text = " ".join(html.unescape(strip_tags(response.content.decode())).split())
    return response.status_code, text


def not_started(campaign: Campaign) -> bool:
    campaign.refresh_from_db()
    return campaign.status == Campaign.Status.DRAFT and not campaign.turns.exists()


def player(campaign: Campaign, name: str) -> Membership:
    return MembershipFactory(campaign=campaign, user__username=name, character_name=name.title())


def test_an_empty_campaign_lists_the_board_and_the_players_it_lacks(draft) -> None:
    campaign, client = draft
    status, page = start(client)
    assert status == 200
    assert "Fresh cannot start yet" in page and "Nothing has started." in page
    assert "There is no board yet: add a board or import one." in page
    assert "There are no players yet: invite some (Players and invitations)." in page
    assert not_started(campaign)


def test_a_player_without_a_department_is_named(draft) -> None:
    campaign, client = draft
    board = BoardFactory(campaign=campaign, name="Old Town")
    player(campaign, "bob")
    structure = StructureFactory(board=board, player=player(campaign, "alice"))
    DepartmentFactory(board=board, structure=structure, home=True)
    status, page = start(client)
    assert (
        "Bob holds no department on any board: give them their starting departments on a "
        "board's Structures page (R13)."
    ) in page
    assert "Alice holds no department" not in page
    assert not_started(campaign)


def test_a_department_that_would_leave_its_structure_is_named(draft) -> None:
    campaign, client = draft
    board = BoardFactory(campaign=campaign, name="Old Town")
    structure = StructureFactory(board=board, player=player(campaign, "alice"))
    DepartmentFactory(board=board, structure=structure, home=True, name="The Mint")
    DepartmentFactory(board=board, structure=structure, home=False, name="The Watch")
    status, page = start(client)
    assert (
        "Old Town: The Watch would stay in Alice's structure without being a home department "
        "or linked to another department of it, and would leave the structure at the next "
        "link phase (R13)."
    ) in page
    assert not_started(campaign)


def test_a_board_the_engine_refuses_is_named_with_its_reason(draft) -> None:
    campaign, client = draft
    board = BoardFactory(campaign=campaign, name="Old Town")
    structure = StructureFactory(board=board, player=player(campaign, "alice"))
    DepartmentFactory(board=board, structure=structure, home=True, name="The Mint",
                      alignments=["Government", "Communist"])  # fmt: skip
    status, page = start(client)
    assert (
        "Old Town: Department The Mint: holds government together with its opposite (R5)." in page
    )
    assert not_started(campaign)


def test_a_campaign_that_can_run_starts(draft) -> None:
    campaign, client = draft
    board = BoardFactory(campaign=campaign)
    structure = StructureFactory(board=board, player=player(campaign, "alice"))
    home = DepartmentFactory(board=board, structure=structure, home=True, produces_type="money")
    linked = DepartmentFactory(board=board, structure=structure, consumes_type="money")
    LinkFactory(board=board, supplier=home, consumer=linked)
    response = client.post(reverse("campaign_start", args=["fresh"]), follow=True)
    assert [str(m) for m in response.context["messages"]] == ["The campaign has started."]
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    assert Department.objects.get(pk=linked.pk).structure_id == structure.pk  # it stayed

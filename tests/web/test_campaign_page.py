"""The campaign page: turn, deadline, dice commitment (R23), the viewer's structures."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Turn
from campaigns.selectors.pages import campaigns_for_user
from campaigns.services.turns import turn_process
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.support.handmade import ClientFor


@pytest.mark.parametrize("username", ["gm", "alice", "bob", "carol"])
def test_campaign_page_is_200_for_members(
    demo: Campaign, client_for: ClientFor, username: str
) -> None:
    assert client_for(username).get(demo.get_absolute_url()).status_code == 200


def test_campaign_page_is_404_for_a_non_member_even_a_superuser(
    demo: Campaign, client: Client
) -> None:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.get(demo.get_absolute_url()).status_code == 404


def test_campaign_page_is_404_for_an_unknown_slug(demo: Campaign, client_for: ClientFor) -> None:
    assert client_for("alice").get(reverse("campaign", args=["nowhere"])).status_code == 404


def test_campaign_page_sends_a_visitor_to_log_in(demo: Campaign, client: Client) -> None:
    response = client.get(demo.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_campaign_page_does_not_accept_posts(demo: Campaign, client_for: ClientFor) -> None:
    assert client_for("alice").post(demo.get_absolute_url()).status_code == 405


def test_campaign_page_shows_the_deadline_instant_and_the_commitment(
    demo: Campaign, client_for: ClientFor
) -> None:
    turn = demo.turns.get(number=1)
    html = client_for("alice").get(demo.get_absolute_url()).content.decode()
    assert "Turn 1" in html
    assert f'<time datetime="{turn.deadline.isoformat()}"' in html
    assert f'data-countdown="{turn.deadline.isoformat()}"' in html
    assert turn.commitment in html
    assert "Europe/Berlin" in html  # the campaign's own zone, for readers without JS
    assert "campaigns/deadline.js" in html


def test_r23_the_open_turns_seed_stays_secret(demo: Campaign, client_for: ClientFor) -> None:
    open_turn = demo.turns.get(number=1)
    for username in ["alice", "gm"]:
        html = client_for(username).get(demo.get_absolute_url()).content.decode()
        assert open_turn.seed not in html


def test_r23_a_processed_turns_seed_is_published(demo: Campaign, client_for: ClientFor) -> None:
    turn_process(campaign_id=demo.pk, number=1)
    html = client_for("bob").get(demo.get_absolute_url()).content.decode()
    assert demo.turns.get(number=1).seed in html
    assert demo.turns.get(number=2).seed not in html
    assert demo.turns.get(number=2).commitment in html


def test_campaign_page_lists_the_viewers_departments_and_boards(
    demo: Campaign, client_for: ClientFor
) -> None:
    html = client_for("alice").get(demo.get_absolute_url()).content.decode()
    structures = html[html.index('id="structures"') :].split("</section>")[0]
    assert "The Mint" in structures and "The Spice House" in structures
    assert "Guild Hall" not in structures
    assert reverse("board", args=["tourmaline", "city"]) in html
    assert reverse("board", args=["tourmaline", "harbour"]) in html


def test_campaign_page_lists_past_turns(demo: Campaign, client_for: ClientFor) -> None:
    html = client_for("alice").get(demo.get_absolute_url()).content.decode()
    past = html[html.index('id="past-turns"') :].split("</section>")[0]
    assert "Start (turn 0)" in past
    assert demo.turns.get(number=0).seed in past


def test_players_see_no_gm_controls(demo: Campaign, client_for: ClientFor) -> None:
    html = client_for("alice").get(demo.get_absolute_url()).content.decode()
    assert "gm-controls" not in html
    assert reverse("turn_process", args=["tourmaline"]) not in html


def test_the_gm_sees_the_controls_a_running_campaign_allows(
    demo: Campaign, client_for: ClientFor
) -> None:
    html = client_for("gm").get(demo.get_absolute_url()).content.decode()
    assert reverse("turn_process", args=["tourmaline"]) in html
    assert reverse("campaign_pause", args=["tourmaline"]) in html
    assert reverse("campaign_resume", args=["tourmaline"]) not in html
    assert reverse("campaign_start", args=["tourmaline"]) not in html


def test_my_campaigns_lists_role_and_current_turn(demo: Campaign, client_for: ClientFor) -> None:
    Campaign.objects.create(name="Elsewhere", slug="elsewhere")
    response = client_for("alice").get(reverse("home"))
    html = response.content.decode()
    assert "Tourmaline" in html and "Player" in html
    assert "Turn 1 open until" in html
    assert demo.turns.get(number=1, status=Turn.Status.OPEN).deadline.isoformat() in html
    assert "Elsewhere" not in html
    assert demo.get_absolute_url() in html


def test_my_campaigns_is_one_query_for_the_list(
    demo: Campaign, django_assert_max_num_queries: Any
) -> None:
    alice = get_user_model().objects.get(username="alice")
    with django_assert_max_num_queries(1):
        rows = campaigns_for_user(alice)
    assert [(r.name, r.role, r.turn_number) for r in rows] == [("Tourmaline", "player", 1)]


def test_a_player_of_a_draft_campaign_is_not_sent_to_order(demo: Campaign) -> None:
    """Before the campaign starts there is no turn to order in (and often no board): the
    campaign page offers no "Your orders" until a turn is open."""
    draft = CampaignFactory(status=Campaign.Status.DRAFT)
    player = MembershipFactory(campaign=draft)
    client = Client()
    client.force_login(player.user)
    page = client.get(reverse("campaign", args=[draft.slug])).content.decode()
    assert "Your orders" not in page and reverse("orders", args=[draft.slug]) not in page
    alice = Client()
    alice.force_login(get_user_model().objects.get(username="alice"))
    running = alice.get(reverse("campaign", args=[demo.slug])).content.decode()
    assert f'href="{reverse("orders", args=[demo.slug])}">Your orders' in running

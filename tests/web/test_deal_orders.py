"""The order forms of RULES parts 7 and 8 on the demo (alice, bob, carol): a perception check
(R70), a gift and a hand-over (R62), and the receiver's one-button accept. Every choice comes
from the engine's legal choices, kept to what the player may see (R50); the receiver of a
hand-over is told at once and learns the department's name only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from campaigns.models import Campaign, Knowledge, Notice, Order
from tests.support.demo import member, open_turn
from tests.support.handmade import ClientFor
from tests.support.order_posts import choices, new_url, post

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def pk_of(campaign: Campaign, slug: str) -> int:
    return campaign.boards.get(slug="city").departments.get(slug=slug).pk


def test_a_perception_check_offers_departments_known_at_least_as_rumoured_r70(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    offered = set(choices(alice, "perceive", "department").values())
    # The demo's alice knows the Temple as rumoured and the Guild Hall as known; she has
    # never heard of the Rebel Cell.
    assert {"The Temple of the Eye", "The Guild Hall", "The Mint"} <= offered
    assert "The Rebel Cell" not in offered and "The Street Preachers" not in offered
    page = alice.get(new_url("perceive")).content.decode()
    assert "3d6" in page and "Nothing is known of its envelopes" in page


def test_a_queued_perception_check_reads_in_words_and_is_not_offered_twice(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    temple = pk_of(demo, "temple")
    response = post(alice, "perceive", {"department": temple})
    assert response.status_code == 302
    order = Order.objects.get(player=member(demo, "alice"), kind="perceive")
    assert order.payload == {"department": "temple"}
    page = alice.get(reverse("orders", args=[SLUG])).content.decode()
    assert "Perception check on The Temple of the Eye" in page
    assert str(temple) not in choices(alice, "perceive", "department")


def test_a_gift_goes_only_to_a_known_department_of_another_players_structure_r62(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    givers = choices(alice, "gift", "giver")
    receivers = choices(alice, "gift", "receiver")
    assert set(givers) <= {"mint", "treasury", "city-watch"} and givers
    # Alice knows the card of bob's Guild Hall; the Tax Office is nobody's; the Temple is
    # carol's but only rumoured to her.
    assert "guild-hall" in receivers
    assert not {"tax-office", "temple", "mint"} & set(receivers)
    response = post(alice, "gift", {"giver": "treasury", "receiver": "guild-hall",
                                    "tokens_authority": "1"})  # fmt: skip
    assert response.status_code == 302
    order = Order.objects.get(player=member(demo, "alice"), kind="gift")
    assert order.payload == {"from": "treasury", "to": "guild-hall", "tokens": {"authority": 1}}


def test_a_gift_of_nothing_or_of_tokens_the_giver_lacks_is_refused_with_a_reason(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    nothing = post(alice, "gift", {"giver": "treasury", "receiver": "guild-hall"})
    assert "Give at least one token." in nothing.content.decode()
    lacking = post(alice, "gift", {"giver": "treasury", "receiver": "guild-hall",
                                   "tokens_money": "40"})  # fmt: skip
    assert "that have not moved this turn" in lacking.content.decode()
    assert not Order.objects.filter(kind="gift").exists()


def test_a_hand_over_tells_the_receiver_at_once_and_they_accept_with_one_button(
    demo: Campaign, client_for: ClientFor, django_capture_on_commit_callbacks: Any
) -> None:
    alice, bob = client_for("alice"), client_for("bob")
    assert set(choices(alice, "handover", "receiver")) == {
        member(demo, "bob").player_id,
        member(demo, "carol").player_id,
    }
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = post(alice, "handover", {"department": "city-watch",
                                            "receiver": member(demo, "bob").player_id})  # fmt: skip
    assert response.status_code == 302
    # R62: bob learns the department's name (rumoured), nothing more of it.
    level = Knowledge.objects.get(player=member(demo, "bob"), department__slug="city-watch")
    assert level.level == Knowledge.Level.RUMOURED
    notice = Notice.objects.get(player=member(demo, "bob"))
    assert "offers to hand The City Watch (The City of Tourmaline) over to you" in notice.text
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    campaign_page = bob.get(reverse("campaign", args=[SLUG])).content.decode()
    orders_page = bob.get(reverse("orders", args=[SLUG])).content.decode()
    for page in (campaign_page, orders_page):
        assert 'id="offers"' in page and page.count(">Accept</button>") == 1
    token = re.search(r'name="client_token" value="(\w+)"', orders_page)
    assert token is not None
    accepted = bob.post(new_url("accept"), {
        "offer": f"{pk_of(demo, 'city-watch')}|{member(demo, 'alice').player_id}",
        "client_token": token.group(1), "turn": open_turn(demo).number,
    })  # fmt: skip
    assert accepted.status_code == 302
    order = Order.objects.get(player=member(demo, "bob"), kind="accept")
    assert order.payload == {"department": "city-watch", "from": member(demo, "alice").player_id}
    # Accepted: the button is gone, the order reads in words.
    page = bob.get(reverse("orders", args=[SLUG])).content.decode()
    assert 'id="offers"' not in page
    assert "Accept The City Watch from Alice Ambergris, Comptroller" in page


def test_withdrawing_a_hand_over_tells_the_receiver(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    post(alice, "handover", {"department": "city-watch",
                             "receiver": member(demo, "carol").player_id})  # fmt: skip
    order = Order.objects.get(kind="handover")
    alice.post(reverse("order_cancel", args=[SLUG, order.pk]))
    texts = list(Notice.objects.filter(player=member(demo, "carol")).values_list("text", flat=True))
    assert any("no longer offers you The City Watch" in t for t in texts)
    page = client_for("carol").get(reverse("orders", args=[SLUG])).content.decode()
    assert 'id="offers"' not in page


def test_an_accept_with_nothing_offered_is_refused_and_nothing_is_stored(
    demo: Campaign, client_for: ClientFor
) -> None:
    bob = client_for("bob")
    offer = f"{pk_of(demo, 'mint')}|{member(demo, 'alice').player_id}"
    response = bob.post(new_url("accept"), {"offer": offer})
    assert response.status_code == 200
    page = response.content.decode()
    assert "no longer offered" in page and "valid choice" not in page
    assert not Order.objects.filter(kind="accept").exists()


def test_the_orders_page_offers_the_deal_kinds_or_says_why_not(
    demo: Campaign, client_for: ClientFor
) -> None:
    page = client_for("alice").get(reverse("orders", args=[SLUG])).content.decode()
    for kind in ("perceive", "gift", "handover"):
        assert new_url(kind) in page
    assert new_url("accept") not in page  # an accept answers an offer, with its own button


def test_the_receiver_links_the_department_they_accept_and_it_stays_in_their_structure_r13(
    demo: Campaign, client_for: ClientFor
) -> None:
    from campaigns.models import Department
    from campaigns.services.turns import turn_process

    alice, bob = client_for("alice"), client_for("bob")
    post(alice, "handover", {"department": "city-watch",
                             "receiver": member(demo, "bob").player_id})  # fmt: skip
    offer = f"{pk_of(demo, 'city-watch')}|{member(demo, 'alice').player_id}"
    assert post(bob, "accept", {"offer": offer}).status_code == 302
    # Accepted, the City Watch is bob's on the board his forms plan on (R62), so he may tie
    # it in with a link before R13 would send it away at the end of the link phase.
    # Until the turn gives it to him, Bob knows the City Watch only by rumour (R50): the
    # form names it and gives it by id ("#<pk>"), not by slug.
    offered = {label: value for value, label in choices(bob, "add_link", "link").items()}
    value = offered["The City Watch → The Guild Hall"]
    assert value == f"#{pk_of(demo, 'city-watch')}|guild-hall"
    assert post(bob, "add_link", {"link": value}).status_code == 302
    turn_process(campaign_id=demo.pk, number=open_turn(demo).number)
    watch = Department.objects.select_related("structure__player").get(slug="city-watch")
    assert watch.structure is not None and watch.structure.player == member(demo, "bob")
    report = bob.get(reverse("turn_report", args=[SLUG, 1])).content.decode()
    assert "The City Watch was handed over to Bob Brackwater, Guildmaster by Alice" in report
    assert "left the structure" not in report


def test_a_choice_a_second_tab_used_up_says_what_changed_not_select_a_valid_choice(
    demo: Campaign, client_for: ClientFor
) -> None:
    """Two tabs hold the gift form; the first gives every unmoved token of the Treasury, so
    the second's giver is no longer offered: it is told which and why, in the engine's words
    (R42, R62), and nothing is stored."""
    alice = client_for("alice")
    gift = {"giver": "treasury", "receiver": "guild-hall"}
    first, second = (alice.get(new_url("gift")).context["form"] for _ in range(2))
    token = second.fields["client_token"].initial
    assert post(alice, "gift", {**gift, "tokens_authority": "2"}).status_code == 302
    page = alice.post(
        new_url("gift"), {"client_token": token, **gift, "tokens_authority": "1"}
    ).content.decode()
    gone = "The Treasury is no longer offered: The Treasury has only 0 unmoved Authority"
    assert gone in page and "valid choice" not in page
    assert Order.objects.filter(kind="gift").count() == 1

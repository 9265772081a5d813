"""The attempt form says what it does (RULES R43, R21, R6): an attempt that cannot win is
queued only when confirmed, the preview names the stat each side rolls and why a pool has
no dice, the cost shows the player's own split, each problem is one plain error, and the
report tells the cost apart from what was spent on the roll. Demo campaign: the City Watch
(alice, Impress 1, 2 People) on the Guild Hall (bob, Obstruct 1, consumes 1 People)."""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.engine.attempts import AttackPool, AttemptPools
from campaigns.models import Campaign, Department, Order
from campaigns.services.turns import turn_process
from campaigns.web.attempt_preview import hopeless_text
from tests.support.demo import ATTACK, open_turn, submit
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
URL = reverse("order_new", args=["tourmaline", "city", "attempt"])
ZERO = "This attempt cannot win (0%)"
NO_ATTACK_DICE = (
    "The City Watch rolls no dice: its Impress is 0 and no Authority is spent on the roll"
)


def post(client: Client, data: dict[str, Any]) -> tuple[int, str]:
    response = client.post(URL, {"client_token": "", **ATTACK, **data})
    return response.status_code, html.unescape(response.content.decode())


def set_department(slug: str, **fields: int) -> None:
    Department.objects.filter(board__slug="city", slug=slug).update(**fields)


def attempts() -> int:
    return Order.objects.filter(kind=Order.Kind.ATTEMPT).count()


def test_an_attempt_that_cannot_win_is_queued_only_when_confirmed(
    demo: Campaign, client_for: ClientFor
) -> None:
    """Impress 0 and nothing spent: 0 dice, 0 %. "Queue order" refuses it with one error
    that says why and offers "Queue it anyway"; that button queues it."""
    set_department("city-watch", impress=0)
    alice = client_for("alice")
    status, page = post(alice, {})
    assert status == 200 and attempts() == 0
    assert page.count(ZERO) == 1 and page.count(NO_ATTACK_DICE) == 1
    assert "data-queue-anyway" in page and "Queue it anyway" in page
    assert "Queue order" not in page  # one button to queue it, not two that look alike
    status, _ = post(alice, {"anyway": "1"})
    assert status == 302 and attempts() == 1
    # Its row on the orders page is marked: it cannot win, and why.
    orders = alice.get(reverse("orders", args=["tourmaline"])).content.decode()
    row = orders.split("data-hopeless>", 1)[1].split("</div>", 1)[0]
    assert "cannot win" in row and ZERO in row and NO_ATTACK_DICE in row


def test_the_preview_warns_of_a_zero_chance_once_and_offers_to_queue_it_anyway(
    demo: Campaign, client_for: ClientFor
) -> None:
    set_department("city-watch", impress=0)
    status, page = post(client_for("alice"), {"preview": "1"})
    assert status == 200 and attempts() == 0
    assert "data-zero-chance" in page and "data-queue-anyway" in page
    assert page.count(ZERO) == 1 and page.count(NO_ATTACK_DICE) == 1


def test_an_attempt_that_can_win_needs_no_confirmation(
    demo: Campaign, client_for: ClientFor
) -> None:
    status, page = post(client_for("alice"), {"preview": "1"})
    assert "data-zero-chance" not in page and "data-queue-anyway" not in page
    status, _ = post(client_for("alice"), {})
    assert status == 302 and attempts() == 1


def test_the_preview_names_the_stat_each_side_rolls(demo: Campaign, client_for: ClientFor) -> None:
    _, page = post(client_for("alice"), {"preview": "1"})
    assert "Your roll: Impress" in page and "Defender's roll: Obstruct" in page


def test_a_defender_without_dice_is_said_why(demo: Campaign, client_for: ClientFor) -> None:
    set_department("guild-hall", obstruct=0)
    _, page = post(client_for("alice"), {"preview": "1"})
    assert (
        "The Guild Hall rolls no dice: its Obstruct is 0 and, as far as you know, it spends "
        "no People." in page
    )
    assert "data-attack-empty" not in page  # the City Watch rolls its 1 die


def test_an_attacker_without_dice_is_said_why_even_when_it_cannot_pay(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The cost problem is the page's error; the empty pool is still explained."""
    set_department("city-watch", impress=0, people=0)
    _, page = post(client_for("alice"), {"preview": "1"})
    assert "data-attack-empty" in page and page.count(NO_ATTACK_DICE) == 1
    assert "data-missing" in page and "data-queue-anyway" not in page


def test_the_cost_shows_the_players_own_split(demo: Campaign, client_for: ClientFor) -> None:
    set_department("city-watch", money=1)
    alice = client_for("alice")
    _, default = post(alice, {"preview": "1"})
    assert "2 tokens: 2 People (the default: the type the target consumes)" in default
    _, split = post(alice, {"preview": "1", "cost_money": 1, "cost_people": 1})
    assert "2 tokens: 1 Money and 1 People (as you split it)" in split
    assert "default: people" not in split and "the default" not in split.split("data-cost>")[1][:80]


def test_a_cost_of_the_wrong_size_is_one_plain_error(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    for extra in ({}, {"preview": "1"}):
        status, page = post(alice, {"cost_money": 3, **extra})
        assert status == 200
        assert page.count("The cost is 2 tokens; you named 3.") == 1, extra
        assert "different sum" not in page and "Cannot pay" not in page
    assert attempts() == 0


def test_a_stash_too_small_is_said_once_in_the_preview(
    demo: Campaign, client_for: ClientFor
) -> None:
    _, page = post(client_for("alice"), {"preview": "1", "spend_authority": 1})
    assert page.count("The City Watch holds 0 Authority; the attempt needs 1.") == 1


def test_the_form_tells_the_cost_from_what_is_spent_on_the_roll(
    demo: Campaign, client_for: ClientFor
) -> None:
    page = html.unescape(client_for("alice").get(URL).content.decode())
    assert "Cost paid: the price of trying" in page
    assert "Spent for dice and skill: extra tokens on your Impress roll" in page


def test_the_report_tells_the_cost_from_what_was_spent_on_the_roll(
    demo: Campaign, client_for: ClientFor
) -> None:
    set_department("city-watch", authority=1)
    submit(demo, "alice", Order.Kind.ATTEMPT,
           {**ATTACK, "cost": {"people": 2}, "spend": {"authority": 1}})  # fmt: skip
    turn_process(campaign_id=demo.pk, number=open_turn(demo).number)
    report = client_for("alice").get(reverse("turn_report", args=[demo.slug, 1]))
    text = html.unescape(report.content.decode())
    assert "paying 2 People, spending 1 Authority" in text
    assert "Paying is the attempt's cost, the price of trying" in text


def test_a_die_that_cannot_reach_the_target_number_is_said_why() -> None:
    """R20: TN 11 with skill 0: two dice, no face reaches it."""
    pools = AttemptPools(
        attack=AttackPool(dice=2, skill=0, tn=11, identical=0, opposed=4),
        defend_dice=1, defend_skill=0, defence_known=False, cost=2, cost_type="people",
        cost_problem=None, short={}, paid={"money": 0, "people": 2, "authority": 0},
        cost_named=None, spent={"money": 0, "people": 0, "authority": 0},
    )  # fmt: skip
    text = hopeless_text(pools, Fraction(0), None) or ""
    assert "no face of a die plus skill 0 reaches 11." in text
    assert hopeless_text(pools, Fraction(1, 2), None) is None

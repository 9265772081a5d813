"""The classic demo beside Tourmaline (services/demo_classic.py, RULES part 10): made from
campaigns/demo/classic.json through the classic importer and started, so turn 1 is open with
income paid and one group drawn per player; its players' orders page offers the classic order
kinds (RULES R94-R97), not department orders on a board without departments."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import ClassicBoard, Turn
from campaigns.services.demo_classic import CLASSIC_DEMO_SLUG, classic_demo_create
from tests.support.page_text import text_of


def test_the_classic_demo_starts_with_income_paid_and_three_groups_drawn(db: None) -> None:
    campaign = classic_demo_create()
    assert campaign.turns.get(number=1).status == Turn.Status.OPEN
    board = campaign.boards.get()
    assert board.is_classic
    state: dict[str, Any] = ClassicBoard.objects.get(board=board).state
    treasuries = {g["slug"]: g["treasury"] for g in state["groups"]}
    assert treasuries["grey-chancery"] == 18  # 9 in the file, 9 of income at the start
    assert sum(1 for g in state["groups"] if g["place"] == "table") == 6 + 3
    assert len(state["deck"]) == 18 - 3


def test_a_player_of_the_classic_demo_is_offered_the_classic_orders(
    db: None, client: Client
) -> None:
    classic_demo_create()
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(reverse("orders", args=[CLASSIC_DEMO_SLUG]))
    assert page.status_code == 200
    words = text_of(page)
    assert "This board is played by the card game's rules" in words
    # R94-R97: the classic kinds' buttons (an attack and a pass at least are always open to
    # a player with a group that has power), not department orders on a board without any.
    html = page.content.decode()
    assert 'data-classic-kind="attack"' in html and 'data-classic-kind="pass"' in html
    assert "The site does not take orders for such boards yet" not in words
    assert "You control no department on this board" not in words
    assert "/new/" not in html  # no standard order form (web/orders.py order_new)

"""The election under the fog of war (RULES R80, R50, R51) in the crawl's world
(tests/support/crawl.py): the Mayor elected in turn 1 and its election open in turn 2, with
the Printing Press (bob's; carol knows its card, alice has never heard of it) doubling its
support with a sentinel Impress. A supporter's power reaches only those who know its card;
its name only those who have heard of it; and no page of the election names a department
by slug below `known`. (test_crawl.py searches every page for the rest.)"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.support.crawl import OBSERVER, OUTSIDER, SLUG, World, crawl_world
from tests.support.election import POWER_SHOWN
from tests.support.fog import shows

pytestmark = pytest.mark.django_db
PAGES = [
    reverse("election", args=[SLUG]),
    reverse("turn_report", args=[SLUG, 1]),
    reverse("verify_dice", args=[SLUG, 1]),
    reverse("board_history", args=[SLUG, "city"]),
]
# Who may see the Printing Press's power: bob controls it, carol knows its card.
SEES_POWER = {"bob": True, "carol": True, "gm": True, "alice": False, OBSERVER: False}


@pytest.fixture
def crawled(db: None) -> World:
    return crawl_world()


def client(username: str) -> Client:
    c = Client()
    c.force_login(get_user_model().objects.get(username=username))
    return c


@pytest.mark.parametrize("username", list(SEES_POWER))
def test_a_supporters_power_reaches_only_who_knows_its_card(crawled: World, username: str) -> None:
    text = {url: client(username).get(url).content.decode() for url in PAGES}
    election, report = text[PAGES[0]], text[PAGES[1]]
    assert shows(POWER_SHOWN, election) == SEES_POWER[username], username
    assert shows(POWER_SHOWN, report) == SEES_POWER[username], username
    if username == "alice":
        # She has heard of it since bob's attempt on her Mint named it (R46): named, no more.
        assert "unknown support" in election and "unknown support" in report
    if username == OBSERVER:  # an observer knows no department: counted, never named
        assert "The Printing Press" not in election + report
        assert "you do not know" in report


def test_the_gm_of_another_campaign_sees_no_election(crawled: World) -> None:
    for url in PAGES:
        assert client(OUTSIDER).get(url).status_code == 404

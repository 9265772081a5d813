"""Offices on the site (RULES R80, R53, R50, R51): the GM's offices of a board (add, change,
remove, schedule and cancel an election, every change refused with its reason where the
service refuses it), and the holder and deputy on the board's cards, its map and its key, and
in the board's history, for each viewer as far as they knew the departments."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Election, Office
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.services.turns import turn_process
from tests.support.election import SUPPORT, TICKETS, election_turn, queue_election
from tests.support.handmade import ClientFor
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def offices_url(board: str = "city") -> str:
    return reverse("board_offices", args=[SLUG, board])


def mayor() -> Office:
    return Office.objects.get(name="Mayor of Tourmaline")


def messages_of(client: Client, response: Any) -> str:
    assert response.status_code == 302
    return text_of(client.get(response["Location"]))


# --- The GM's offices ------------------------------------------------------------------------


def test_the_gm_sees_the_mayor_and_its_election_scheduled_in_turn_2(
    demo: Campaign, client_for: ClientFor
) -> None:
    page = text_of(client_for("gm").get(offices_url()))
    assert "Mayor of Tourmaline" in page and "Government" in page
    assert "Turn 2: scheduled" in page and "nobody (vacant)" in page
    harbour = text_of(client_for("gm").get(offices_url("harbour")))
    assert "This board has no office yet." in harbour


def test_the_gm_adds_changes_and_removes_an_office(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    data = {"name": "Harbour Warden", "alignment": "Peaceful", "holder": "harbour-master"}
    page = messages_of(gm, gm.post(offices_url("harbour"), data))
    assert "Harbour Warden is added." in page
    warden = Office.objects.get(name="Harbour Warden")
    assert warden.holder.slug == "harbour-master" and warden.deputy is None
    edit = reverse("office_edit", args=[SLUG, "harbour", warden.pk])
    assert gm.get(edit).context["form"].initial["holder"] == "harbour-master"
    change = {**data, "alignment": "Violent", "deputy": "harbour-master"}
    response = gm.post(edit, change)  # the holder and the deputy: two departments
    assert response.status_code == 200 and "two different departments" in text_of(response)
    page = messages_of(gm, gm.post(edit, {**data, "alignment": "Violent", "holder": ""}))
    assert "Harbour Warden is saved." in page
    warden.refresh_from_db()
    assert (warden.alignment, warden.holder) == ("Violent", None)
    audited = AuditEntry.objects.filter(action="offices", target__contains="Harbour Warden")
    assert audited.count() == 2
    remove = reverse("office_remove", args=[SLUG, "harbour", warden.pk])
    assert "Harbour Warden is removed." in messages_of(gm, gm.post(remove))
    assert not Office.objects.filter(name="Harbour Warden").exists()


def test_an_office_keeps_its_shticks_when_the_gm_changes_it_and_shows_them_in_words(
    demo: Campaign, client_for: ClientFor
) -> None:
    shtick = {"kind": "dice", "roll": "attack", "department": None, "amount": 1}
    Office.objects.filter(pk=mayor().pk).update(shticks=[shtick])
    gm = client_for("gm")
    words = "+1 die on linking attempts by every department of the holder's controller"
    assert words in text_of(gm.get(offices_url()))
    edit = reverse("office_edit", args=[SLUG, "city", mayor().pk])
    gm.post(edit, {"name": "Mayor of Tourmaline", "alignment": "Straight"})
    assert (mayor().alignment, mayor().shticks) == ("Straight", [shtick])


def test_the_gm_schedules_and_cancels_elections_and_is_told_what_is_refused(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    schedule = reverse("election_schedule", args=[SLUG, "city", mayor().pk])
    page = messages_of(gm, gm.post(schedule, {"number": "2"}))
    assert "Turn 2 already holds an election: one election per turn." in page
    page = messages_of(gm, gm.post(schedule, {"number": "junk"}))
    assert "Give the number of a turn" in page
    page = messages_of(gm, gm.post(schedule, {"number": "5"}))
    assert "An election for Mayor of Tourmaline is scheduled in turn 5." in page
    fifth = Election.objects.get(number=5)
    cancel = reverse("election_cancel", args=[SLUG, fifth.pk])
    assert "is cancelled" in messages_of(gm, gm.post(cancel))
    assert not Election.objects.filter(number=5).exists()


def test_a_held_election_cannot_be_cancelled_and_links_its_report(
    demo: Campaign, client_for: ClientFor
) -> None:
    election_turn(demo)
    queue_election(demo, TICKETS)
    assert turn_process(campaign_id=demo.pk, number=2) is not None
    gm = client_for("gm")
    response = gm.get(offices_url())
    assert "Turn 2: won by" in text_of(response)
    assert reverse("turn_report", args=[SLUG, 2]) + "#election-city" in response.content.decode()
    held = Election.objects.get(number=2)
    refused = messages_of(gm, gm.post(reverse("election_cancel", args=[SLUG, held.pk])))
    assert "That election has been held" in refused


def test_players_and_other_campaigns_cannot_reach_the_offices(
    demo: Campaign, client_for: ClientFor
) -> None:
    assert client_for("alice").get(offices_url()).status_code == 403
    post = client_for("alice").post(offices_url(), {"name": "X", "alignment": "Government"})
    assert post.status_code == 403 and Office.objects.count() == 1
    other = reverse("office_edit", args=[SLUG, "harbour", mayor().pk])  # not the harbour's
    assert client_for("gm").get(other).status_code == 404


# --- Holders and deputies on the board, the map and the history ------------------------------


@pytest.fixture
def elected(demo: Campaign) -> Campaign:
    """The Guild Hall (bob's) holds the Mayor after turn 2, his Printing Press the deputy."""
    election_turn(demo)
    queue_election(demo, TICKETS + SUPPORT)
    assert turn_process(campaign_id=demo.pk, number=2) is not None
    assert (mayor().holder.slug, mayor().deputy.slug) == ("guild-hall", "printing-press")
    return demo


def map_nodes(response: Any) -> dict[str, dict[str, Any]]:
    found = re.search(r'<script id="map-data-city" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)  # fmt: skip
    assert found is not None
    return {n["label"]: n for n in json.loads(found.group(1))["nodes"]}


def test_the_board_marks_the_holder_and_the_deputy_on_cards_map_and_key(
    elected: Campaign, client_for: ClientFor
) -> None:
    response = client_for("bob").get(reverse("board", args=[SLUG, "city"]))
    page = text_of(response)
    assert "★ holds Mayor of Tourmaline (Government)" in page
    assert "☆ deputy of Mayor of Tourmaline (Government)" in page
    assert "held by The Guild Hall, deputy The Printing Press" in page
    assert "holds an office" in page  # the map's key
    nodes = map_nodes(response)
    assert nodes["The Guild Hall"]["office"] == "holder"
    assert nodes["The Printing Press"]["posts"] == ["deputy of Mayor of Tourmaline (Government)"]
    # Alice has never heard of the Printing Press: no node, no mark, no name.
    alices = client_for("alice").get(reverse("board", args=[SLUG, "city"]))
    assert "The Printing Press" not in text_of(alices)
    assert f"held by The Guild Hall, deputy {UNNAMED}" in text_of(alices)
    assert "deputy of Mayor" not in text_of(alices)


def test_the_board_after_turn_1_shows_the_office_vacant(
    elected: Campaign, client_for: ClientFor
) -> None:
    response = client_for("bob").get(reverse("board", args=[SLUG, "city"]), {"turn": 1})
    assert "holds Mayor" not in text_of(response)
    assert not any("office" in n for n in map_nodes(response).values())


def test_the_history_shows_who_held_each_office_when(
    elected: Campaign, client_for: ClientFor
) -> None:
    bobs = text_of(client_for("bob").get(reverse("board_history", args=[SLUG, "city"])))
    assert "Turns 0–1: vacant" in bobs
    assert "Turn 2: held by The Guild Hall, deputy The Printing Press" in bobs
    alices = text_of(client_for("alice").get(reverse("board_history", args=[SLUG, "city"])))
    assert f"Turn 2: held by The Guild Hall, deputy {UNNAMED}" in alices


def test_the_attempt_preview_counts_the_deputys_office_alignment(
    elected: Campaign, client_for: ClientFor
) -> None:
    """R80/R6: the Printing Press (Liberal, Weird), deputy of the Mayor (Government), on the
    Mint (Government, Straight): one opposed pair and, since turn 2, one identical: TN 7."""
    bob = client_for("bob")
    url = reverse("order_new", args=[SLUG, "city", "attempt"])
    data = {"attacker": "printing-press", "target": "mint", "preview": "1", "turn": "3"}
    page = text_of(bob.post(url, data))
    assert "7 = 7 + 1 opposed − 1 identical" in page
    assert "The Printing Press deputy of Mayor of Tourmaline (Government)" in page


def test_a_department_holding_an_office_can_be_removed_and_the_post_falls_vacant(
    elected: Campaign, client_for: ClientFor
) -> None:
    """The removal page reviews the board as the removal leaves it (R53): the deputy's post
    vacant, as the office keeps it, not a post naming a department that is gone."""
    gm = client_for("gm")
    url = reverse("department_delete", args=[SLUG, "city", "printing-press"])
    page = text_of(gm.get(url))
    assert "not a department of the state" not in page
    gm.post(url)
    assert mayor().deputy is None and mayor().holder.slug == "guild-hall"

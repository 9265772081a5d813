"""The board page at any turn, its map's data, and the history pages (issue 11): who may open
what (404 for non-members and for what is not theirs, as if it did not exist), bad input
answered with a message and the board now, never a 500, and the maps' marks."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from tests.factories import MembershipFactory
from tests.support.handmade import ClientFor
from tests.support.history import LEARNED_LATER, ThreeTurns

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def pk_of(campaign: Campaign, username: str) -> int:
    return Membership.objects.get(campaign=campaign, user__username=username).pk


def board_url(turn: object = None, board: str = "city") -> str:
    url = reverse("board", args=[SLUG, board])
    return url if turn is None else f"{url}?turn={turn}"


def maps_in(html: str) -> dict[str, dict[str, Any]]:
    """map id -> the map data a page holds (its json_script elements)."""
    found = re.findall(r'<script id="map-data-([^"]+)" type="application/json">(.*?)</script>',
                       html, re.S)  # fmt: skip
    return {name: json.loads(text) for name, text in found}


def labels(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["label"]: n for n in data["nodes"]}


# --- The board at any turn -----------------------------------------------------------------------


def test_the_board_after_a_turn_is_that_turns_board(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    client = client_for("alice")
    one = client.get(board_url(1))
    assert one.status_code == 200
    html = one.content.decode()
    assert "after turn 1" in html
    watch = labels(maps_in(html)["city"])["The City Watch"]
    assert watch["controller"] == "Mother Carol of the Eye" and watch["mine"] is False
    assert watch["changed_hands"] is True  # marked: it changed hands in turn 1
    assert "stash" not in watch and "status" not in watch  # Carol's, so hidden (R50)
    edges = maps_in(html)["city"]["edges"]
    assert [e["change"] for e in edges if e.get("change")] == ["broken"]  # Mint -> Watch
    # Turn 2: hers again, and the cards say so.
    two = client.get(board_url(2)).content.decode()
    assert labels(maps_in(two)["city"])["The City Watch"]["mine"] is True
    assert 'id="dept-city-watch"' in two.split('id="mine"')[1].split('id="known"')[0]


def test_the_failed_attempt_is_a_dashed_arrow_for_its_attacker_and_the_gm(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    for username, sees in [("bob", True), ("gm", True), ("alice", False)]:
        data = maps_in(client_for(username).get(board_url(3)).content.decode())["city"]
        attempts = [e for e in data["edges"] if e.get("change") == "attempt"]
        assert bool(attempts) == sees, username
        if sees:
            assert [a["status"] for a in attempts] == ["failed"]


@pytest.mark.parametrize("asked", ["abc", "-1", "99999", "1e3", "１", "9" * 40, " ", "2.5"])
def test_a_turn_that_cannot_be_shown_gives_the_board_now_and_says_why(
    three_turns: ThreeTurns, client_for: ClientFor, asked: str
) -> None:
    response = client_for("alice").get(reverse("board", args=[SLUG, "city"]), {"turn": asked})
    assert response.status_code == 200
    html = response.content.decode()
    assert ">now</span>" in html
    if asked.strip():
        assert "this is the board now" in html


def test_the_board_page_before_the_campaign_starts_has_no_turns(
    client_for: ClientFor, demo: Campaign
) -> None:
    from campaigns.models import TurnRecord

    TurnRecord.objects.all().delete()
    html = client_for("alice").get(board_url(0)).content.decode()
    assert "Turn 0 has no record on this board" in html
    assert "data-turn-scrubber" not in html


def test_the_scrubber_links_the_turns_around_the_one_shown(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    html = client_for("alice").get(board_url(2)).content.decode()
    assert 'href="?turn=1" rel="prev"' in html and 'href="?turn=3" rel="next"' in html
    now = client_for("alice").get(board_url()).content.decode()
    assert 'href="?turn=3" rel="prev"' in now and 'rel="next"' not in now


# --- The map's layout graph ---------------------------------------------------------------------


def test_the_layout_graph_is_opaque_and_covers_what_the_viewer_has_seen(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    url = reverse("board_map_layout", args=[SLUG, "city"])
    alice = client_for("alice").get(url)
    assert alice.status_code == 200 and alice["Content-Type"] == "application/json"
    text = alice.content.decode()
    assert "The " not in text and "mint" not in text and LEARNED_LATER not in text
    graph = json.loads(text)
    # Every node of every map Alice was shown, and no more.
    shown = set()
    for turn in [0, 1, 2, 3, None]:
        html = client_for("alice").get(board_url(turn)).content.decode()
        shown |= {n["id"] for n in maps_in(html)["city"]["nodes"]}
    assert set(graph["nodes"]) == shown
    gm = json.loads(client_for("gm").get(url).content)
    assert len(gm["nodes"]) == 14 and len(graph["nodes"]) < 14


# --- Who may open what ------------------------------------------------------------------------


def history_urls(campaign: Campaign, owner: str = "alice") -> list[str]:
    return [
        board_url(1),
        reverse("board_map_layout", args=[SLUG, "city"]),
        reverse("board_history", args=[SLUG, "city"]),
        reverse("structure_history", args=[SLUG, "city", pk_of(campaign, owner)]),
        reverse("department_history", args=[SLUG, "city", "mint"]),
        reverse("compare_turns", args=[SLUG, "city"]),
        reverse("history_export", args=[SLUG]),
    ]


def test_every_history_page_is_404_for_a_non_member(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    from django.test import Client

    MembershipFactory(user__username="dave")  # of another campaign
    for url in history_urls(three_turns.campaign):
        assert client_for("dave").get(url).status_code == 404, url
        assert client_for("alice").post(url).status_code == 405, url
        anonymous = Client().get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_history_pages_of_another_campaigns_board_are_404(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    from tests.factories import BoardFactory

    BoardFactory(slug="elsewhere")
    for name in ["board_history", "compare_turns", "board_map_layout"]:
        url = reverse(name, args=[SLUG, "elsewhere"])
        assert client_for("alice").get(url).status_code == 404


def test_a_player_opens_only_their_own_structure(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    campaign = three_turns.campaign
    alice = client_for("alice")
    own = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, "alice")])
    assert alice.get(own).status_code == 200
    for other in ["bob", "gm"]:
        url = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, other)])
        assert alice.get(url).status_code == 404
    for pk in [0, 10**6, 2**63 - 1]:
        assert alice.get(reverse("structure_history", args=[SLUG, "city", pk])).status_code == 404
    gm = client_for("gm")
    bob = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, "bob")])
    assert gm.get(bob).status_code == 200
    gms_own = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, "gm")])
    assert gm.get(gms_own).status_code == 404  # the GM has no structure


def test_an_observer_reads_the_board_history_but_follows_no_structure(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    campaign = three_turns.campaign
    MembershipFactory(campaign=campaign, user__username="olga", role=Membership.Role.OBSERVER)
    olga = client_for("olga")
    index = olga.get(reverse("board_history", args=[SLUG, "city"]))
    assert index.status_code == 200
    assert "no structure whose history you may follow" in index.content.decode()
    url = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, "alice")])
    assert olga.get(url).status_code == 404


def test_a_department_never_known_has_no_history_page(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    for slug in ["rebel-cell", "temple", "no-such-department"]:  # unknown, rumoured, missing
        url = reverse("department_history", args=[SLUG, "city", slug])
        assert alice.get(url).status_code == 404, slug
    learned = reverse("department_history", args=[SLUG, "city", LEARNED_LATER])
    html = alice.get(learned).content.decode()
    assert 'id="turn-3"' in html and 'id="turn-2"' not in html


def test_r51_an_opened_campaign_shows_every_member_everything(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    campaign = three_turns.campaign
    campaign.opened = True
    campaign.save(update_fields=["opened"])
    alice = client_for("alice")
    bob = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, "bob")])
    assert alice.get(bob).status_code == 200
    html = alice.get(board_url(0)).content.decode()
    assert "The GM has opened this campaign" in html
    assert len(maps_in(html)["city"]["nodes"]) == 14
    rebel = reverse("department_history", args=[SLUG, "city", "rebel-cell"])
    assert alice.get(rebel).status_code == 200


def test_r51_an_observer_sees_nothing_hidden_until_the_campaign_is_opened_then_everything(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    """Olga observes with no knowledge granted (R50: nothing hidden is shown); once the GM
    opens the campaign (R51) she sees every board, every turn, every history and every
    order, and her CSV is the GM's."""
    campaign = three_turns.campaign
    MembershipFactory(campaign=campaign, role=Membership.Role.OBSERVER, user__username="olga")
    olga, gm = client_for("olga"), client_for("gm")
    rebel = reverse("department_history", args=[SLUG, "city", "rebel-cell"])
    bob = reverse("structure_history", args=[SLUG, "city", pk_of(campaign, "bob")])
    report = reverse("turn_report", args=[SLUG, 1])
    csv = reverse("history_export", args=[SLUG])

    def seen() -> tuple[int, int, int, int, bool, bool]:
        now = maps_in(olga.get(board_url()).content.decode())
        past = maps_in(olga.get(board_url(1)).content.decode())
        return (
            len(now["city"]["nodes"]),
            len(past["city"]["nodes"]),
            olga.get(rebel).status_code,
            olga.get(bob).status_code,
            "BOB-INTENT-SENTINEL" in olga.get(report).content.decode(),
            olga.get(csv).content == gm.get(csv).content,
        )

    hidden = seen()
    assert hidden[0] < 14 and hidden[1] < 14 and hidden[2:] == (404, 404, False, False), hidden
    campaign.opened = True
    campaign.save(update_fields=["opened"])
    assert seen() == (14, 14, 200, 200, True, True)
    assert "The GM has opened this campaign" in olga.get(board_url(0)).content.decode()


def test_r51_an_opened_campaigns_turn_reports_show_every_order_but_no_gm_draft(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    from campaigns.models import Order

    campaign = three_turns.campaign
    bob_roll = Order.objects.get(
        turn__campaign=campaign, player__user__username="bob", kind=Order.Kind.FUNCTION
    )
    bob_roll.gm_note = "GM-DRAFT-SENTINEL"
    bob_roll.save(update_fields=["gm_note"])
    url = reverse("turn_report", args=[SLUG, 1])
    assert "BOB-INTENT-SENTINEL" not in client_for("alice").get(url).content.decode()
    campaign.opened = True
    campaign.save(update_fields=["opened"])
    response = client_for("alice").get(url)
    html = response.content.decode()
    assert "BOB-INTENT-SENTINEL" in html and "Opened by the GM: everything" in html
    assert "GM-DRAFT-SENTINEL" not in html  # unpublished: the GM's own
    assert not any(entry["form"] for s in response.context["sections"] for entry in s["orders"])
    gm = client_for("gm").get(url)
    assert "GM-DRAFT-SENTINEL" in gm.content.decode()
    assert any(entry["form"] for s in gm.context["sections"] for entry in s["orders"])


# --- Compare ----------------------------------------------------------------------------------


def test_compare_takes_two_turns_in_either_order(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    url = reverse("compare_turns", args=[SLUG, "city"])
    gm = client_for("gm")
    plain = gm.get(url)
    assert plain.context["comparison"].first == 2 and plain.context["comparison"].second == 3
    swapped = gm.get(url, {"first": "3", "second": "1"})
    assert (swapped.context["comparison"].first, swapped.context["comparison"].second) == (1, 3)
    assert "Compared in time order: turn 1, then turn 3." in swapped.content.decode()
    for first, second, error in [
        ("1", "1", "Pick two different turns to compare."),
        ("0", "99999", "There is no record of turn 99999."),
        ("x", "1", "There is no record of turn x."),
    ]:
        response = gm.get(url, {"first": first, "second": second})
        assert response.status_code == 200
        html = response.content.decode()
        assert error in html and "Showing turns 2 and 3 instead." in html


# --- The turn report's map ------------------------------------------------------------------


def test_the_turn_report_embeds_each_boards_map_of_that_turn(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    html = client_for("alice").get(reverse("turn_report", args=[SLUG, 2])).content.decode()
    maps = maps_in(html)
    assert set(maps) == {"report-city", "report-harbour"}
    city = maps["report-city"]
    assert labels(city)["The City Watch"]["changed_hands"] is True
    assert [e["change"] for e in city["edges"] if e.get("change")] == ["new"]  # Mint -> Watch
    # Through the knowledge of turn 2: the Printing Press, learned before turn 3, is absent.
    assert "The Printing Press" not in labels(city)
    later = maps_in(
        client_for("alice").get(reverse("turn_report", args=[SLUG, 3])).content.decode()
    )
    assert "The Printing Press" in labels(later["report-city"])

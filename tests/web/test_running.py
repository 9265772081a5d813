"""The GM's pages for running a campaign: preview the open turn, undo the last turn (R52),
end the campaign and open it (R51). Only the campaign's GM reaches them."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Membership, Order, Turn
from campaigns.services.turns import turn_process
from tests.factories import MembershipFactory
from tests.support.demo import Played, submit
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

PAGES = ["turn_preview", "turn_rollback", "campaign_end", "campaign_open", "campaign_archive"]


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def page_text(response: Any) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def tries(client: Any, name: str, url: str, data: dict[str, Any]) -> list[Any]:
    """A GET, and a POST for the pages that take one (the preview only shows)."""
    if name in ("turn_preview", "campaign_archive"):
        return [client.get(url)]
    return [client.get(url), client.post(url, data)]


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("username", ["alice", "olga"])
def test_players_and_observers_get_403_and_nothing_changes(
    played: Played, client_for: ClientFor, name: str, username: str
) -> None:
    MembershipFactory(campaign=played.campaign, user__username="olga", role="observer")
    url = reverse(name, args=[played.campaign.slug])
    data = {"number": 1, "confirm": "on", "discard": "on"}
    for response in tries(client_for(username), name, url, data):
        assert response.status_code == 403
    assert played.campaign.turns.get(number=1).status == Turn.Status.PROCESSED
    played.campaign.refresh_from_db()
    assert played.campaign.status == Campaign.Status.RUNNING


@pytest.mark.parametrize("name", PAGES)
def test_a_gm_of_another_campaign_and_outsiders_get_404(
    played: Played, client_for: ClientFor, name: str
) -> None:
    other = Campaign.objects.create(name="Other", slug="other")
    MembershipFactory(campaign=other, user__username="zed", role=Membership.Role.GM)
    url = reverse(name, args=[played.campaign.slug])
    for response in tries(client_for("zed"), name, url, {"confirm": "on", "number": 1}):
        assert response.status_code == 404


def test_the_gm_previews_the_open_turn_marked_as_a_preview(
    demo: Campaign, client_for: ClientFor
) -> None:
    submit(demo, "carol", Order.Kind.ATTEMPT, {"attacker": "thieves-guild", "target": "city-watch"})
    response = client_for("gm").get(reverse("turn_preview", args=[demo.slug]))
    assert response.status_code == 200
    text = page_text(response)
    assert "Preview, nothing is saved." in text
    assert "Preview of Turn 1 report" in text
    assert "Thieves' Guild" in text
    assert demo.turns.get(number=1).status == Turn.Status.OPEN
    assert Order.objects.get().status == Order.Status.QUEUED


def test_the_undo_page_says_what_will_happen_then_undoes(
    played: Played, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    url = reverse("turn_rollback", args=[played.campaign.slug])
    text = page_text(gm.get(url))
    assert "Undo turn 1 of Tourmaline?" in text
    assert "The 5 orders of turn 1 are queued again as they were" in text
    assert "Turn 2, open now, goes away." in text
    response = gm.post(url, {"number": 1}, follow=True)  # not confirmed
    assert "Tick the box to confirm." in page_text(response)
    assert played.campaign.turns.get(number=1).status == Turn.Status.PROCESSED
    response = gm.post(url, {"number": 1, "confirm": "on"}, follow=True)
    assert messages_of(response) == [
        "Turn 1 is undone and open again with new dice; every player has been told."
    ]
    assert played.campaign.turns.get(number=1).status == Turn.Status.OPEN


def test_the_undo_page_asks_to_discard_the_open_turns_orders(
    played: Played, client_for: ClientFor
) -> None:
    submit(played.campaign, "alice", Order.Kind.FUNCTION, {
        "department": "mint", "function": "coinage", "stat": "effect"
    })  # fmt: skip
    gm = client_for("gm")
    url = reverse("turn_rollback", args=[played.campaign.slug])
    assert "with the 1 order already queued for it" in page_text(gm.get(url))
    response = gm.post(url, {"number": 1, "confirm": "on"})
    assert "confirm that it is discarded" in page_text(response)
    assert played.campaign.turns.filter(number=2).exists()
    gm.post(url, {"number": 1, "confirm": "on", "discard": "on"})
    assert not played.campaign.turns.filter(number=2).exists()


def test_a_stale_undo_page_undoes_nothing(played: Played, client_for: ClientFor) -> None:
    gm = client_for("gm")
    url = reverse("turn_rollback", args=[played.campaign.slug])
    turn_process(campaign_id=played.campaign.pk, number=2)  # meanwhile, turn 2 ran
    response = gm.post(url, {"number": 1, "confirm": "on"})
    assert "Turn 1 is not the last processed turn (turn 2 is)" in page_text(response)
    assert played.campaign.turns.get(number=2).status == Turn.Status.PROCESSED


def test_before_turn_one_is_processed_there_is_nothing_to_undo(
    demo: Campaign, client_for: ClientFor
) -> None:
    response = client_for("gm").get(reverse("turn_rollback", args=[demo.slug]), follow=True)
    assert any("turn 0" in m for m in messages_of(response))
    assert "Undo turn" not in page_text(client_for("gm").get(demo.get_absolute_url()))


def test_the_gm_ends_the_campaign_then_opens_it(played: Played, client_for: ClientFor) -> None:
    gm = client_for("gm")
    slug = played.campaign.slug
    page = page_text(gm.get(played.campaign.get_absolute_url()))
    assert "End the campaign…" in page and "Open it to every member…" not in page
    assert "Turn 2, open now, closes without being processed" in page_text(
        gm.get(reverse("campaign_end", args=[slug]))
    )
    response = gm.post(reverse("campaign_end", args=[slug]), {"confirm": "on"}, follow=True)
    assert messages_of(response)[0].startswith("The campaign has ended.")
    played.campaign.refresh_from_db()
    assert played.campaign.status == Campaign.Status.FINISHED
    assert list(played.campaign.turns.values_list("number", flat=True)) == [0, 1]
    assert "Open it to every member…" in page_text(response)

    response = gm.post(reverse("campaign_open", args=[slug]), {"confirm": "on"}, follow=True)
    assert messages_of(response) == [
        "The campaign is open: every member now sees everything of every turn."
    ]
    played.campaign.refresh_from_db()
    assert played.campaign.opened
    assert "Open: everyone sees everything" in page_text(response)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CAMPAIGN).count() == 2


def test_a_running_campaign_cannot_be_opened(played: Played, client_for: ClientFor) -> None:
    response = client_for("gm").post(
        reverse("campaign_open", args=[played.campaign.slug]), {"confirm": "on"}, follow=True
    )
    assert messages_of(response) == ["Only an ended campaign can be opened: end it first."]
    played.campaign.refresh_from_db()
    assert not played.campaign.opened


def test_the_preview_and_undo_pages_cost_the_same_queries_on_a_bigger_campaign(
    played: Played, client_for: ClientFor
) -> None:
    """Constant in departments and orders: the turn job and the report read in bulk."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaigns.models import Department

    gm = client_for("gm")
    urls = [reverse(n, args=[played.campaign.slug]) for n in ("turn_preview", "turn_rollback")]

    def counts() -> list[int]:
        found = []
        for url in urls:
            with CaptureQueriesContext(connection) as captured:
                assert gm.get(url).status_code == 200
            found.append(len(captured))
        return found

    submit(played.campaign, "alice", Order.Kind.FUNCTION, {
        "department": "mint", "function": "coinage", "stat": "effect"
    })  # fmt: skip
    small = counts()
    city = played.campaign.boards.get(slug="city")
    Department.objects.bulk_create(
        Department(board=city, slug=f"extra-{i}", name=f"Extra {i}", produces_type="money",
                   produces_amount=1)
        for i in range(30)
    )  # fmt: skip
    turn = played.campaign.turns.get(number=2)
    alice = played.members["alice"]
    Order.objects.bulk_create(
        Order(turn=turn, board=city, player=alice, kind=Order.Kind.FUNCTION, seq=10 + i,
              payload={"department": "mint", "function": "coinage", "stat": "effect"})
        for i in range(30)
    )  # fmt: skip
    assert counts() == small


def test_the_gm_downloads_the_whole_campaign(played: Played, client_for: ClientFor) -> None:
    import json

    from campaigns.archive.selectors.archive import checksum

    response = client_for("gm").get(reverse("campaign_archive", args=[played.campaign.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="tourmaline-campaign.json"'
    archive = json.loads(response.content)
    assert archive["checksum"] == checksum(archive)
    assert [t["number"] for t in archive["turns"]] == [0, 1, 2]

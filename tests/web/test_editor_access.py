"""Nobody but the campaign's GM reaches the editor's pages (web/editor.py, web/members.py):
404 for someone not in the campaign (or removed from it), 403 for its players and
observers, the log-in page for a visitor; and a refused post changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Department, Knowledge, Link, Membership
from campaigns.web import editor, members
from campaigns.web.urls import urlpatterns
from tests.factories import MembershipFactory
from tests.support.demo import member
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def mint_link(campaign: Campaign) -> int:
    return Link.objects.get(supplier__slug="mint", consumer__slug="treasury").pk


# name -> (the URL's arguments after the campaign slug, a post that would change something)
PAGES: dict[str, tuple[Callable[[Campaign], list[Any]], dict[str, str]]] = {
    "board_new": (lambda c: [], {"name": "Docks", "slug": "docks"}),
    "board_edit": (lambda c: ["city"], {"name": "Renamed"}),
    "board_delete": (lambda c: ["city"], {}),
    "department_new": (lambda c: ["city"], {"name": "X", "slug": "x"}),
    "department_edit": (lambda c: ["city", "mint"], {"name": "Renamed"}),
    "department_delete": (lambda c: ["city", "archives"], {}),
    "link_new": (lambda c: ["city", "mint"], {"direction": "out", "partner": "1"}),
    "link_delete": (lambda c: ["city", "mint", mint_link(c)], {}),
    "link_move": (lambda c: ["city", "mint", mint_link(c)], {"direction": "down"}),
    "board_structures": (lambda c: ["city"], {}),
    "board_knowledge": (lambda c: ["city"], {}),
    "board_knowledge_bulk": (
        lambda c: ["city"],
        {"member": "", "department": "", "level": "2", "how": "set"},
    ),
    "member_edit": (
        lambda c: [member(c, "bob").pk],
        {"character_name": "Mine", "perception": "9", "role": "player"},
    ),
    "member_replace": (lambda c: [member(c, "bob").pk], {"successor": "1"}),
    "member_remove": (lambda c: [member(c, "bob").pk], {}),
}
POST_ONLY = {"link_new", "link_delete", "link_move", "board_knowledge_bulk", "member_replace"}


def everything(campaign: Campaign) -> tuple:
    return (
        list(Department.objects.order_by("pk").values()),
        list(Link.objects.order_by("pk").values()),
        list(Knowledge.objects.order_by("pk").values()),
        list(Membership.objects.order_by("pk").values()),
        list(campaign.boards.values()),
        AuditEntry.objects.count(),
    )


def test_every_editor_url_is_checked_here() -> None:
    names = {
        p.name for p in urlpatterns if p.callback.__module__ in (editor.__name__, members.__name__)
    }
    assert names == set(PAGES)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_only_the_gm_reaches_the_page(demo: Campaign, client_for: ClientFor, name: str) -> None:
    MembershipFactory(campaign=demo, user__username="olga", role=Membership.Role.OBSERVER)
    MembershipFactory(user__username="dave")  # in another campaign
    args, data = PAGES[name]
    url = reverse(name, args=[SLUG, *args(demo)])
    # An action's GET is sent on to its page (web/post_only.py), which checks who may see it.
    if name not in POST_ONLY:
        assert client_for("gm").get(url).status_code == 200
    else:
        assert client_for("gm").get(url).status_code == 302
    before = everything(demo)
    for who, status in [("alice", 403), ("olga", 403), ("dave", 404)]:
        client = client_for(who)
        assert client.get(url).status_code == (302 if name in POST_ONLY else status), who
        assert client.post(url, data).status_code == status, who
    anonymous = Client().post(url, data)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert everything(demo) == before


def test_a_removed_member_gets_404_like_a_stranger(demo: Campaign, client_for: ClientFor) -> None:
    alice = member(demo, "alice")
    alice.role = Membership.Role.REMOVED
    alice.save()
    for name in ("campaign", "board"):
        args = [SLUG] if name == "campaign" else [SLUG, "city"]
        assert client_for("alice").get(reverse(name, args=args)).status_code == 404
    assert client_for("alice").get(reverse("orders", args=[SLUG])).status_code == 404


def test_the_gm_finds_the_editor_from_the_campaign_and_board_pages_and_players_do_not(
    demo: Campaign, client_for: ClientFor
) -> None:
    links = [
        reverse("board_new", args=[SLUG]),
        reverse("board_edit", args=[SLUG, "city"]),
        reverse("board_structures", args=[SLUG, "city"]),
        reverse("board_knowledge", args=[SLUG, "harbour"]),
    ]
    gm_page = client_for("gm").get(reverse("campaign", args=[SLUG])).content.decode()
    assert all(link in gm_page for link in links)
    board_page = client_for("gm").get(reverse("board", args=[SLUG, "city"])).content.decode()
    assert all(link in board_page for link in links[1:3])
    players = client_for("gm").get(reverse("players", args=[SLUG])).content.decode()
    assert reverse("member_edit", args=[SLUG, member(demo, "bob").pk]) in players
    for page in ("campaign", "board"):
        args = [SLUG] if page == "campaign" else [SLUG, "city"]
        html = client_for("alice").get(reverse(page, args=args)).content.decode()
        assert not any(link in html for link in links), page

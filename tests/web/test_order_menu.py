"""Orders from the map (issue 25): the board map's menu of the orders each of the player's
departments can give now (web/order_menu.py), each a link to its form prefilled, and for an
order that needs another department, the map's departments that complete it. Only the
player reads it (RULES R40); it holds nothing the forms do not offer them (R50)."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, Turn
from tests.support.handmade import ClientFor
from tests.support.own_links import FAR, gm_links_alices_watch, stat_sentinels

SLUG = "tourmaline"
CITY = [SLUG, "city"]


def menu_of(client: Client, board: str = "city") -> dict[str, Any]:
    response = client.get(reverse("order_map_menu", args=[SLUG, board]))
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def node_ids(client: Client, board: str = "city") -> dict[str, str]:
    """Each department's map id, by name, from the map the same viewer is drawn."""
    data = client.get(reverse("board_map_data", args=[SLUG, board])).json()
    return {n["label"]: n["id"] for n in data["nodes"]}


def actions_of(menu: dict[str, Any], node: str) -> dict[str, dict[str, Any]]:
    return {a["kind"]: a for a in menu["departments"][node]["actions"]}


def every_href(menu: dict[str, Any]) -> list[str]:
    hrefs = []
    for department in menu["departments"].values():
        for action in department["actions"]:
            hrefs.append(action["href"])
            hrefs += [t["href"] for t in action.get("targets", [])]
            hrefs += [r["href"] for r in action.get("routes", [])]
    return hrefs


def test_it_lists_alices_own_departments_with_the_orders_each_can_give(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    menu, ids = menu_of(alice), node_ids(alice)
    hers = ("The Mint", "The Treasury", "The City Watch")
    assert set(menu["departments"]) == {ids[name] for name in hers}
    assert menu["orders"] == reverse("orders", args=[SLUG])
    watch = actions_of(menu, ids["The City Watch"])
    # R43: the City Watch may try to link Bob's Guild Hall; tapping it opens the form with both.
    (target,) = watch["attempt"]["targets"]
    assert target == {
        "node": ids["The Guild Hall"],
        "label": "The Guild Hall",
        "href": reverse("order_new", args=[*CITY, "attempt"])
        + "?attacker=city-watch&target=guild-hall",
    }
    assert watch["attempt"]["prompt"].startswith("Tap the department to try to link")
    # R45: a function roll needs no other department: a link to its form, nothing to tap.
    assert watch["function"]["href"].endswith("?function=city-watch|patrol")
    assert "targets" not in watch["function"] and "prompt" not in watch["function"]
    # R42: the Mint's moves, each a path of map ids.
    moves = actions_of(menu, ids["The Mint"])["move"]["routes"]
    routes = {tuple(r["path"]): r["href"] for r in moves}
    assert routes[(ids["The Treasury"],)].endswith("/move/?route=mint,treasury")


def test_every_link_of_the_menu_opens_its_form_with_its_fields_chosen(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The menu offers only what the forms offer: each prefilled value is one of the form's
    own choices, shown selected."""
    for username in ("alice", "bob", "carol"):
        client = client_for(username)
        for board in ("city", "harbour"):
            hrefs = every_href(menu_of(client, board))
            assert hrefs, (username, board)
            for href in hrefs:
                page = html.unescape(client.get(href).content.decode())
                for name, value in parse_qsl(urlsplit(href).query):
                    chosen = rf'<option value="{re.escape(value)}"[^>]*\bselected\b'
                    assert re.search(chosen, page), (username, href, name)


def test_a_menu_link_lands_on_a_form_that_queues_the_order(
    demo: Campaign, client_for: ClientFor
) -> None:
    alice = client_for("alice")
    ids = node_ids(alice)
    watch = actions_of(menu_of(alice), ids["The City Watch"])
    href = watch["attempt"]["targets"][0]["href"]
    form = alice.get(href).context["form"]
    data = {**form.initial, "turn": form.fields["turn"].initial, "client_token": "map-1"}
    response = alice.post(href, data)
    assert response.status_code == 302, response.context["form"].errors if response.context else ""
    queued = demo.turns.get(status=Turn.Status.OPEN).orders.get()
    assert (queued.kind, queued.payload["attacker"], queued.payload["target"]) == (
        "attempt", "city-watch", "guild-hall"
    )  # fmt: skip


def test_a_link_to_a_department_known_only_by_rumour_names_it_by_id_never_by_slug_or_card(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R50: the GM linked her City Watch to the Temple (a rumour to her) and the Thieves'
    Guild (unknown): she may break both links from the map, and the menu names their far
    ends as the break-link form does, with nothing of their cards."""
    gm_links_alices_watch(demo)
    markers = stat_sentinels(demo)
    alice = client_for("alice")
    response = alice.get(reverse("order_map_menu", args=CITY))
    text = response.content.decode()
    ids = node_ids(alice)
    breaks = actions_of(response.json(), ids["The City Watch"])["break_link"]["targets"]
    for slug, name in FAR.items():
        (target,) = [t for t in breaks if t["node"] == ids[name]]
        assert target["label"] == f"The City Watch → {name}"
        assert re.search(r"\?link=city-watch\|%23\d+$", target["href"]), target["href"]
        found = re.search(rf"(?<![\w-]){slug}(?![\w-])", text)
        assert not found, text[found.start() - 300 : found.end() + 100]
    assert [m for m in markers if m in text] == []


def test_only_the_player_reads_their_own_menu(demo: Campaign, client_for: ClientFor) -> None:
    url = reverse("order_map_menu", args=CITY)
    assert Client().get(url).status_code == 302  # to log in
    assert client_for("gm").get(url).status_code == 403  # the GM gives no orders (R40)
    alice_ids = set(menu_of(client_for("alice"))["departments"])
    bob = menu_of(client_for("bob"))
    assert bob["departments"] and not alice_ids & set(bob["departments"])
    assert client_for("alice").post(url).status_code == 405


def test_the_menu_is_empty_while_no_turn_is_open(demo: Campaign, client_for: ClientFor) -> None:
    demo.turns.update(status=Turn.Status.PROCESSED)
    assert menu_of(client_for("alice")) == {"departments": {}}


def test_the_board_page_asks_for_it_only_for_a_player_on_the_board_now(
    demo: Campaign, client_for: ClientFor
) -> None:
    url = reverse("board", args=CITY)
    menu_url = reverse("order_map_menu", args=CITY)
    alice = client_for("alice").get(url).content.decode()
    assert f'data-orders-url="{menu_url}"' in alice and "map_orders.js" in alice
    for page in (client_for("gm").get(url), client_for("alice").get(f"{url}?turn=0")):
        assert "data-orders-url" not in page.content.decode()
        assert "map_orders.js" not in page.content.decode()


def test_it_answers_in_the_readers_language(demo: Campaign, client_for: ClientFor) -> None:
    alice = client_for("alice")
    url = reverse("order_map_menu", args=CITY)
    menu = alice.get(url, HTTP_ACCEPT_LANGUAGE="de").json()
    ids = node_ids(alice)
    attempt = actions_of(menu, ids["The City Watch"])["attempt"]
    assert attempt["label"] == "Angriff"
    assert attempt["prompt"] == "Tippen Sie auf die Abteilung, die angegriffen werden soll (R43)."
    assert menu["words"]["title"] == "Befehle für %(department)s"


def test_its_cost_in_queries_does_not_grow_with_the_board(client_for: ClientFor) -> None:
    """A quarter of each board is alice's, the rest known, rumoured or unknown to her, all
    in one chain of links (tests/web/test_board_queries.py): 10 departments or 200, the
    same queries, and a menu for each of hers."""
    from tests.support.big_boards import board_of

    counts, sizes = [], []
    for size in (10, 200):
        board = board_of(size)
        client = client_for(f"alice{size}")
        url = reverse("order_map_menu", args=[board.campaign.slug, board.slug])
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
        sizes.append(len(response.json()["departments"]))
    assert sizes == [3, 50]
    assert counts[0] == counts[1], counts

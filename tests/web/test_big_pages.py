"""Big boards and big reports a page at a time (issue 15): the board page of a board the
viewer sees more than 120 departments of lists them in a searchable table, 50 rows a page
(`?q=`, `?page=`, without JavaScript), the map comes from its own URL, and a big turn report
shows one board a page and that board's orders and departments a page at a time. Searching
and paging never show what RULES R50 hides."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from campaigns.models import Board, Department, Knowledge, Link, Membership, Order
from campaigns.selectors import reports
from tests.support.big_boards import board_of
from tests.support.demo import Played
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db


def rows_of(page: str) -> list[str]:
    """The department names in the page's table, in order."""
    table = page.split('id="departments"')[1].split("</table>")[0]
    return re.findall(r'<th scope="row" class="fw-semibold">([^<]*)</th>', table)


def get(client_for: ClientFor, user: str, url: str, **params: object) -> str:
    response = client_for(user).get(url, params)
    assert response.status_code == 200, (url, params, response.status_code)
    return html.unescape(response.content.decode())


@pytest.fixture
def big() -> Board:
    """200 departments: alice holds d0, d4, d8, ... (50), knows a third of the rest as
    `known`, a third as `rumoured`; bob holds d1, d5, ... (tests/web/test_board_queries.py)."""
    board = board_of(200)
    # Bob by a name of no digits: a search for "17" must not find his departments by it.
    bob = Department.objects.get(board=board, slug="d1").structure.player
    bob.character_name = "Bob"
    bob.save()
    return board


def board_url(board: Board) -> str:
    return reverse("board", args=[board.campaign.slug, board.slug])


def seen_by_alice(board: Board) -> set[str]:
    alice = Membership.objects.get(user__username="alice200")
    levels = dict(
        Knowledge.objects.filter(player=alice, level__gt=0).values_list("department__name", "level")
    )
    owned = board.departments.filter(structure__player=alice)
    mine = set(owned.values_list("name", flat=True))
    # R50: the far end of a link of one of hers is named to her, whatever she knows of it.
    links = Link.objects.filter(board=board)
    far = set(links.filter(supplier__in=owned).values_list("consumer__name", flat=True))
    far |= set(links.filter(consumer__in=owned).values_list("supplier__name", flat=True))
    return mine | set(levels) | far


def test_a_big_board_lists_50_rows_a_page_the_players_own_first(
    big: Board, client_for: ClientFor
) -> None:
    first = get(client_for, "alice200", board_url(big))
    assert 'class="card h-100' not in first and 'id="mine"' not in first
    mine = rows_of(first)
    assert len(mine) == 50 and all(int(name.split()[1]) % 4 == 0 for name in mine)
    assert first.count("chain 1") == 50  # her own: status and chain (R50 `controlled`)
    shown = []
    page = 1
    while True:
        text = get(client_for, "alice200", board_url(big), page=page)
        shown += rows_of(text)
        if 'rel="next"' not in text:
            break
        page += 1
    assert len(shown) == len(set(shown)) and set(shown) == seen_by_alice(big)
    later = get(client_for, "alice200", board_url(big), page=2)
    assert "chain" not in later.split('id="departments"')[1].split("</table>")[0]
    assert "only rumours" in later


def test_the_gm_pages_through_every_department_and_a_bad_page_is_the_nearest(
    big: Board, client_for: ClientFor
) -> None:
    pages = [rows_of(get(client_for, "gm200", board_url(big), page=n)) for n in (1, 2, 3, 4)]
    assert [len(p) for p in pages] == [50, 50, 50, 50]
    assert len({name for p in pages for name in p}) == 200
    assert rows_of(get(client_for, "gm200", board_url(big), page="x")) == pages[0]
    assert rows_of(get(client_for, "gm200", board_url(big), page="999")) == pages[3]
    assert "200 departments" in get(client_for, "gm200", board_url(big))


def test_the_search_finds_every_word_and_its_pages_keep_the_search(
    big: Board, client_for: ClientFor
) -> None:
    text = get(client_for, "gm200", board_url(big), q="  department   17 ")
    assert sorted(rows_of(text)) == sorted(f"Department {n}" for n in [17, 117, *range(170, 180)])
    assert "12 of the 200 departments you see match." in text
    assert 'value="department 17"' in text
    many = get(client_for, "gm200", board_url(big), q="Department 1")
    matching = sum(1 for n in range(200) if "1" in str(n))
    assert f"{matching} of the 200" in many
    assert 'href="?q=Department+1&page=2"' in many  # the pages keep the search
    assert rows_of(get(client_for, "gm200", board_url(big), q="nothing like it")) == []
    long = get(client_for, "gm200", board_url(big), q="x" * 5000, page="-1")
    assert rows_of(long) == []


def test_a_search_by_controller_or_status_finds_only_what_the_table_shows(
    big: Board, client_for: ClientFor
) -> None:
    """R50: a controller is part of a `known` card and a status is `controlled` only, so a
    search for bob finds the departments of his that alice knows, not his rumoured ones,
    and a search for a status finds only her own."""
    bob_structure = Department.objects.get(board=big, slug="d1").structure
    bob = bob_structure.player.display_name
    alice = Membership.objects.get(user__username="alice200")
    known = set(
        Knowledge.objects.filter(
            player=alice, level=Knowledge.Level.KNOWN, department__structure=bob_structure
        ).values_list("department__name", flat=True)
    )
    assert (
        known
        and Knowledge.objects.filter(
            player=alice, level=Knowledge.Level.RUMOURED, department__structure=bob_structure
        ).exists()
    )
    assert set(rows_of(get(client_for, "alice200", board_url(big), q=bob))) == known
    Department.objects.filter(board=big).update(status="unfunded")
    found = rows_of(get(client_for, "alice200", board_url(big), q="unfunded"))
    assert len(found) == 50 and all(int(name.split()[1]) % 4 == 0 for name in found)
    assert len(rows_of(get(client_for, "alice200", board_url(big), q="you"))) == 50


def test_the_big_boards_map_is_fetched_from_its_own_url_with_only_what_the_viewer_sees(
    big: Board, client_for: ClientFor
) -> None:
    page = get(client_for, "alice200", board_url(big))
    assert 'id="map-data-' not in page
    url = reverse("board_map_data", args=[big.campaign.slug, big.slug])
    assert f'data-map-url="{url}"' in page
    data = json.loads(get(client_for, "alice200", url))
    assert {n["label"] for n in data["nodes"]} == seen_by_alice(big)
    rumours = [n for n in data["nodes"] if n["level"] == "rumoured"]
    assert rumours and all("controller" not in n and "stash" not in n for n in rumours)
    assert len(json.loads(get(client_for, "gm200", url))["nodes"]) == 200
    # The links listed are those of the departments on the page.
    links = page.split('id="links"')[1].split("</ul>")[0]
    assert links.count("data-edge=") < 200


def test_a_small_board_keeps_its_cards_and_its_map_in_the_page(
    played: Played, client_for: ClientFor
) -> None:
    page = get(client_for, "alice", reverse("board", args=[played.campaign.slug, "city"]))
    assert 'id="mine"' in page and 'id="map-data-city"' in page
    assert 'id="department-search"' not in page and "data-map-url" not in page


# --- The turn report a board and a page at a time ---------------------------------------------


@pytest.fixture
def paged(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's report (20 departments) treated as a big one, 2 orders a page."""
    monkeypatch.setattr(reports, "REPORT_BIG", 10)
    monkeypatch.setattr(reports, "REPORT_PAGE_SIZE", 2)


def report_url(played: Played, **params: object) -> str:
    return reverse("turn_report", args=[played.campaign.slug, 1])


def test_a_big_report_shows_one_board_a_page_with_tabs(
    played: Played, client_for: ClientFor, paged: None
) -> None:
    first = get(client_for, "gm", report_url(played))
    assert 'id="report-boards"' in first and 'id="board-city"' in first
    assert 'id="board-harbour"' not in first  # boards by name: "City" before "Harbour"
    harbour = get(client_for, "gm", report_url(played), board="harbour")
    assert 'id="board-harbour"' in harbour and 'id="board-city"' not in harbour
    # An unknown board gives the first.
    assert 'id="board-city"' in get(client_for, "gm", report_url(played), board="nowhere")


def test_each_page_of_a_board_holds_the_next_orders_and_departments(
    played: Played, client_for: ClientFor, paged: None
) -> None:
    city = played.campaign.boards.get(slug="city")
    orders = Order.objects.filter(turn=played.turn, board=city).exclude(
        status=Order.Status.CANCELLED
    )
    count = orders.count()
    assert count > 2
    seen: list[str] = []
    page = 1
    while True:
        text = get(client_for, "gm", report_url(played), board="city", page=page)
        seen += re.findall(r'id="order-([^"]+)"', text)
        departments = text.split('id="spawn-city"')[1].split("</table>")[0] if page == 1 else ""
        if page == 1:
            assert departments.count("<tr>") == 1 + 2  # the head and two departments
            assert "data-map-section" in text
        else:
            assert "data-map-section" not in text and "Captures and links" not in text
        if 'rel="next"' not in text:
            break
        page += 1
    assert len(seen) == count == len(set(seen))
    assert page == Department.objects.filter(board=city).count() // 2  # 14 departments


def test_a_small_report_shows_every_board_on_one_page(
    played: Played, client_for: ClientFor
) -> None:
    text = get(client_for, "gm", report_url(played))
    assert 'id="board-city"' in text and 'id="board-harbour"' in text
    assert 'id="report-boards"' not in text and "data-report-page" not in text


def test_a_gm_note_returns_to_the_page_of_its_order(
    played: Played, client_for: ClientFor, paged: None
) -> None:
    order = played.order("alice_roll")
    url = reverse("turn_report_note", args=[played.campaign.slug, 1, order.pk])
    response = client_for("gm").post(url, {f"note-{order.pk}-gm_note": "Well done"})
    expected = reports.report_page_of(order)
    assert response.status_code == 302
    assert response["Location"].endswith(
        f"?board={order.board.slug}&page={expected}#order-{order.pk}"
    )
    text = get(client_for, "gm", report_url(played), board=order.board.slug, page=expected)
    assert "Well done" in text

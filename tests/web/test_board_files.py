"""The GM imports a board from a file (JSON or CSV) and exports it the same way. The import is
checked whole by the engine first: every problem is listed with its line or department, and
nothing is saved. Only the campaign's GM reaches these pages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Department
from campaigns.selectors.board_files import board_csv, board_file, board_from_csv
from campaigns.services.setup import board_import_by_gm
from tests.support.board_files import counts, fresh_campaign, upload
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

SLUG = "tourmaline"


def test_a_board_exported_as_json_imports_again_as_the_same_board(demo: Campaign) -> None:
    original = board_file(demo.boards.get(slug="city"))
    assert len(original["departments"]) == 14 and original["links"]
    copy = fresh_campaign()
    board = board_import_by_gm(campaign=copy, actor=None, data=json.loads(json.dumps(original)))
    assert board_file(board) == original


def test_a_board_exported_as_csv_imports_again_as_the_same_board(demo: Campaign) -> None:
    original = board_file(demo.boards.get(slug="city"))
    data = board_from_csv(board_csv(original), slug="city", name=original["name"])
    board = board_import_by_gm(campaign=fresh_campaign(), actor=None, data=data)
    assert board_file(board) == original


def test_the_gm_imports_a_json_file_from_the_page(demo: Campaign, client_for: ClientFor) -> None:
    data = board_file(demo.boards.get(slug="harbour"))
    copy = fresh_campaign()
    gm = client_for("gm")
    # The Warehouse has Impress 0: the GM hears it first, and confirms.
    first = upload(gm, copy, "harbour.json", json.dumps(data))
    assert first.status_code == 200 and not copy.boards.exists()
    url = reverse("board_import", args=[copy.slug])
    text = first.context["form"]["text"].value()
    response = gm.post(url, {"text": text, "confirmed": first.context["confirm"]})
    assert response.status_code == 302
    assert response["Location"] == reverse("board", args=[copy.slug, "harbour"])
    board = copy.boards.get()
    assert board.departments.count() == 6
    (entry,) = AuditEntry.objects.filter(campaign=copy)
    assert (entry.action, entry.target, entry.actor.username) == (
        "board",
        "board The Merchant Harbour",
        "gm",
    )
    assert entry.after["departments"] == 6
    page = client_for("gm").get(response["Location"]).content.decode()
    assert reverse("board_export", args=[copy.slug, "harbour", "csv"]) in page


def test_the_gm_imports_a_csv_file_with_a_name_and_address(
    demo: Campaign, client_for: ClientFor
) -> None:
    text = board_csv(board_file(demo.boards.get(slug="harbour")))
    copy = fresh_campaign()
    gm = client_for("gm")
    first = upload(gm, copy, "harbour.csv", text, name="Docks", slug="docks")
    assert first.context["warnings"]  # the Warehouse's Impress 0, confirmed below
    response = gm.post(
        reverse("board_import", args=[copy.slug]),
        {"text": text, "name": "Docks", "slug": "docks", "confirmed": first.context["confirm"]},
    )
    assert response.status_code == 302
    assert copy.boards.get().name == "Docks"
    assert Department.objects.filter(board__campaign=copy).count() == 6


CSV_HEADER = "slug,name,effect,consumes,produces,functions,structure,home,supplies\n"


@pytest.mark.parametrize(
    ("name", "content", "fields", "expected"),
    [
        ("b.json", "{not json", {}, "file: not valid JSON"),
        ("b.json", "[1, 2]", {}, "file: a board file must be a JSON object"),
        ("b.csv", "", {"name": "B", "slug": "b"}, "The submitted file is empty."),
        ("b.csv", "slug,name,colour\n", {"name": "B", "slug": "b"}, "unknown column(s) colour"),
        (
            "b.csv",
            CSV_HEADER + "mint,The Mint,two,,,,,,\n",
            {"name": "B", "slug": "b"},
            "line 2 (mint), effect: 'two' is not a whole number 0 or more (R4)",
        ),
        (
            "b.csv",
            CSV_HEADER + "mint,The Mint,1,gold 2,,,,,\n",
            {"name": "B", "slug": "b"},
            "line 2 (mint), consumes: 'gold 2' should read like 'money 2' (money, people or "
            "authority, then a whole number; R3, R4)",
        ),
        (
            "b.csv",
            CSV_HEADER + "mint,The Mint,1,,,Coinage,,,\n",
            {"name": "B", "slug": "b"},
            "line 2 (mint), functions: 'Coinage' should read like 'Smuggling: 2' (R4)",
        ),
        (
            "b.csv",
            CSV_HEADER + "mint,The Mint,1,,money 2,,alice,yes,press\n"
            "press,The Press,1,people 1,,,alice,no,\n",
            {"name": "B", "slug": "b"},
            "line 2, link mint->press: mint does not produce what press consumes (R10)",
        ),
        (
            "b.csv",
            CSV_HEADER + "mint,The Mint,1,,money 2,,mallory,yes,\n",
            {"name": "B", "slug": "b"},
            "line 2, department mint: structure 'mallory' is not a player of this campaign (its "
            "players: alice, bob, carol). Invite 'mallory' as a player first, or leave the "
            "structure empty for a department no one holds (R13).",
        ),
        (
            "b.csv",
            CSV_HEADER + "mint,The Mint,1,,,,alice,maybe,\n",
            {"name": "B", "slug": "b"},
            "line 2 (mint), home: 'maybe' should be yes or no (R13)",
        ),
        ("b.csv", CSV_HEADER + "mint,The Mint,1,,,,,,\n", {}, "A CSV file has no board name"),
        (
            "b.json",
            json.dumps({"slug": "b", "name": "B", "departments": [{"slug": "m"}], "links": []}),
            {},
            "department m: name must be a text of 1 to 120 characters (R4)",
        ),
    ],
)
def test_a_bad_file_is_refused_with_every_problem_and_imports_nothing(
    demo: Campaign,
    client_for: ClientFor,
    name: str,
    content: str,
    fields: dict[str, str],
    expected: str,
) -> None:
    copy = fresh_campaign()
    before = counts()
    response = upload(client_for("gm"), copy, name, content, **fields)
    assert response.status_code == 200
    page = response.content.decode().replace("&#x27;", "'").replace("&gt;", ">")
    # Each rule id on the page is a link to How to play: read it as the text it shows.
    assert expected in re.sub(r"<a [^>]*>(R\d+)</a>", r"\1", page)
    assert counts() == before


def test_a_second_board_with_the_same_address_is_refused(
    demo: Campaign, client_for: ClientFor
) -> None:
    data = board_file(demo.boards.get(slug="harbour"))
    before = counts()
    response = upload(client_for("gm"), demo, "harbour.json", json.dumps(data))
    assert "already has a board 'harbour'" in response.content.decode().replace("&#x27;", "'")
    assert counts() == before


@pytest.mark.parametrize(
    "url_of",
    [
        lambda: reverse("board_import", args=[SLUG]),
        lambda: reverse("board_export", args=[SLUG, "city", "json"]),
        lambda: reverse("board_export", args=[SLUG, "city", "csv"]),
    ],
)
def test_only_the_gm_imports_or_exports(demo: Campaign, client_for: ClientFor, url_of: Any) -> None:
    url = url_of()
    assert client_for("gm").get(url).status_code == 200
    assert client_for("alice").get(url).status_code == 403
    stranger = get_user_model().objects.create_user("dave", "d@example.com", "x")
    client = Client()
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert Client().get(url).status_code == 302


def test_an_export_in_another_format_is_not_found(demo: Campaign, client_for: ClientFor) -> None:
    assert (
        client_for("gm").get(reverse("board_export", args=[SLUG, "city", "xml"])).status_code == 404
    )


def test_the_export_is_a_download_of_every_department(
    demo: Campaign, client_for: ClientFor
) -> None:
    response = client_for("gm").get(reverse("board_export", args=[SLUG, "city", "csv"]))
    assert response["Content-Disposition"] == 'attachment; filename="city.csv"'
    lines = response.content.decode().splitlines()
    assert len(lines) == 15 and lines[0].startswith("slug,name,description,flaws")


def test_exporting_a_board_costs_the_same_queries_whatever_its_size(demo: Campaign) -> None:
    small = demo.boards.get(slug="harbour")
    big = demo.boards.get(slug="city")
    with CaptureQueriesContext(connection) as few:
        board_file(small)
    with CaptureQueriesContext(connection) as many:
        board_file(big)
    assert Department.objects.filter(board=big).count() > 2 * small.departments.count()
    assert len(few) == len(many) == 3

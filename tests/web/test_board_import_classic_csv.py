"""The GM imports a classic board (RULES R90-R92) as a spreadsheet on the board-import page
(campaigns/classic/selectors/board_files.py): the CSV becomes the same board file a JSON
import makes and goes through the same review and write; a malformed file is refused with
each problem's line and column, and nothing is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.classic.selectors.board_files import COLUMNS
from campaigns.models import AuditEntry, Campaign, ClassicBoard
from tests.support.board_files import counts, fresh_campaign, upload
from tests.support.classic_files import CLASSIC_CSV, classic_csv_with, classic_file
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db


def csv_imported(client: Any, campaign: Campaign, text: str, slug: str = "cabal-csv") -> Any:
    return upload(client, campaign, "cabal.csv", text, slug=slug, name="The Cabal")


def test_a_classic_csv_makes_the_same_board_as_the_json_file(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R90: the spreadsheet of classic_file() stores exactly the document the JSON import
    stores (players, groups, deck order, destroyed counts, goals), and is logged (R53)."""
    copy = fresh_campaign()
    client = client_for("gm")
    upload(client, copy, "cabal.json", json.dumps(classic_file()))
    response = csv_imported(client, copy, CLASSIC_CSV)
    assert response.status_code == 302, response.context and response.context["problems"]
    assert response["Location"] == f"/c/{copy.slug}/board/cabal-csv/"
    board = copy.boards.get(slug="cabal-csv")
    assert board.ruleset == "classic" and board.name == "The Cabal"
    from_json = ClassicBoard.objects.get(board__campaign=copy, board__slug="cabal").state
    from_csv = ClassicBoard.objects.get(board=board).state
    assert from_csv == from_json
    entry = AuditEntry.objects.filter(action="board").latest("pk")
    assert entry.after == {"imported": "The Cabal", "ruleset": "classic", "groups": 8}


def test_a_pasted_classic_csv_is_read_as_one(demo: Campaign, client_for: ClientFor) -> None:
    """The text field takes a CSV too: a first line naming `place` makes it a classic one."""
    copy = fresh_campaign()
    url_fields = {"text": CLASSIC_CSV, "slug": "pasted", "name": "Pasted"}
    from django.urls import reverse

    response = client_for("gm").post(reverse("board_import", args=[copy.slug]), url_fields)
    assert response.status_code == 302
    assert copy.boards.get(slug="pasted").ruleset == "classic"


BAD_FILES = [
    pytest.param(CLASSIC_CSV.replace("goal,", "goal,colour,", 1), "line 1: unknown column(s) colour",  # noqa: E501
                 id="unknown column"),
    pytest.param(CLASSIC_CSV.replace("slug,name,", "slug,", 1).replace(",Bavarian Illuminati", "", 1),  # noqa: E501
                 "line 1: missing column(s) name", id="missing column"),
    pytest.param(classic_csv_with("mafia", "power", "lots"),
                 "line 4 (mafia), power: 'lots' is not a whole number 0 or more", id="not a number"),  # noqa: E501
    pytest.param(classic_csv_with("mafia", "treasury", "-3"),
                 "line 4 (mafia), treasury: '-3' is not a whole number", id="negative"),
    pytest.param(classic_csv_with("mafia", "illuminati", "perhaps"),
                 "line 4 (mafia), illuminati: 'perhaps' should be yes or no", id="yes or no"),
    pytest.param(classic_csv_with("bavarians", "goal", "world domination"),
                 "line 2 (bavarians), goal: 'world domination' is no goal", id="bad goal"),
    pytest.param(classic_csv_with("mafia", "goal", "power 3"),
                 "line 4 (mafia), goal: only a player's Illuminati", id="goal off an Illuminati"),
    pytest.param(classic_csv_with("mafia", "bonuses", "control lots"),
                 "line 4 (mafia), bonuses: 'control lots' should read like", id="bad bonus"),
    pytest.param(CLASSIC_CSV + 'zeta,"Zeta\n', "line 10: a quote (\") opens a cell", id="open quote"),  # noqa: E501
    pytest.param(CLASSIC_CSV + "zeta,Zeta,,1,1,1,1,1,,,table,,,0,,,x,y\n",
                 "line 10: more cells than columns", id="too many cells"),
    pytest.param(CLASSIC_CSV.splitlines()[0] + "\n", "the file has no groups", id="no groups"),
    pytest.param(classic_csv_with("mafia", "controller", "zed"),
                 "line 4, group mafia: 'zed' is not a player", id="not a player"),
    pytest.param(classic_csv_with("mafia", "place", "pocket"),
                 "line 4, ", id="engine: unknown place"),
    pytest.param(classic_csv_with("cia", "arrows", "0").replace(
                     "yuppies,Yuppies,,1,1,4,5,1,Conservative,,table,,",
                     "yuppies,Yuppies,,1,1,4,5,1,Conservative,,structure,bob,cia"),
                 "line 5, group cia: more children than arrows", id="engine: more children than arrows"),  # noqa: E501
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), BAD_FILES)
def test_a_malformed_classic_csv_lists_its_problems_and_writes_nothing(
    demo: Campaign, client_for: ClientFor, text: str, expected: str
) -> None:
    copy = fresh_campaign()
    before = counts()
    response = csv_imported(client_for("gm"), copy, text)
    assert response.status_code == 200
    problems = response.context["problems"]
    assert any(expected in p for p in problems), problems
    assert counts() == before
    assert not ClassicBoard.objects.filter(board__campaign=copy).exists()


def test_a_formula_written_by_hand_is_refused_with_its_line_and_column(
    demo: Campaign, client_for: ClientFor
) -> None:
    """campaigns/csv_cells.py: a text cell beginning with =, +, - or @ would run in a
    spreadsheet; it is refused, naming where, and nothing is written."""
    copy = fresh_campaign()
    before = counts()
    text = classic_csv_with("mafia", "name", '"=HYPERLINK(""http://x"")"')
    text = text.replace("Government; Violent", "@Government")
    response = csv_imported(client_for("gm"), copy, text)
    problems = response.context["problems"]
    assert any(p.startswith("line 4 (mafia), name: '=HYPERLINK") for p in problems), problems
    assert any(p.startswith("line 5 (cia), alignments: '@Government'") for p in problems)
    assert counts() == before


def test_a_quoted_formula_is_imported_as_text_without_its_quote(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The quote the export puts before a formula is taken off: the name is kept as text."""
    copy = fresh_campaign()
    text = classic_csv_with("yuppies", "name", "'=Yuppies+1")
    response = csv_imported(client_for("gm"), copy, text)
    assert response.status_code == 302, response.context["problems"]
    state = ClassicBoard.objects.get(board__campaign=copy).state
    assert next(g for g in state["groups"] if g["slug"] == "yuppies")["name"] == "=Yuppies+1"


def test_the_import_pages_example_imports_as_it_is(demo: Campaign, client_for: ClientFor) -> None:
    """The example the page gives is a file the import takes (docs and reader agree)."""
    import html
    import re

    from django.urls import reverse

    copy = fresh_campaign()
    client = client_for("gm")
    page = client.get(reverse("board_import", args=[copy.slug])).content.decode()
    example = re.search(
        r'<pre class="small border rounded p-2"><code>(.*?)</code></pre>', page, re.S
    )
    assert example is not None
    text = html.unescape(example.group(1)) + "\n"
    response = csv_imported(client, copy, text, slug="example")
    assert response.status_code == 302, response.context and response.context["problems"]
    state = ClassicBoard.objects.get(board__slug="example").state
    assert [g["place"] for g in state["groups"]] == ["structure", "structure", "table", "deck"]
    assert state["players"][0]["goal"] == {"kind": "power", "amount": 35}
    mafia = state["groups"][1]
    assert mafia["bonuses"] == [
        {"aim": "control", "amount": 3, "scope": "own", "alignment": "Criminal"}
    ]


CELLS = st.one_of(
    st.sampled_from(["", "0", "-1", "=1+1", "+3", "@x", "'=x", "yes", "deck", "structure",
                     "alice", "zed", "bavarians", "mafia", "power 3", "control 3 own Criminal",
                     "every_alignment ;;", "9" * 30, "²", '"', "\x00", "a\nb", "ünï"]),
    st.text(max_size=12),
)  # fmt: skip


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(["bavarians", "mafia", "cia", "kgb"]), st.sampled_from(COLUMNS),
                  CELLS),
        min_size=1, max_size=3,
    )
)  # fmt: skip
def test_a_hostile_classic_csv_is_answered_never_a_500(
    demo: Campaign, client_for: ClientFor, edits: list[tuple[str, str, str]]
) -> None:
    """Any text in any cell: a problem listed, or a board both the site and the engine take."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(CLASSIC_CSV)))
    for slug, column, value in edits:
        for row in rows[1:]:
            if row[0] == slug and column in rows[0]:
                row[rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    client = client_for("gm")
    with transaction.atomic():
        response = csv_imported(client, demo, out.getvalue(), slug="hostile")
        assert response.status_code in (200, 302)
        if response.status_code == 200:
            assert response.context["problems"] or response.context["form"].errors
        transaction.set_rollback(True)

"""The history pages of a classic board (RULES R51, R90-R99): the overview turn by turn,
two turns compared and the CSV, read from the turn records of a board played by the real
turn job (tests/support/classic_history.py). Every place and controller is public; a
treasury is its controller's and the GM's (R99): another player's sentinel treasuries
(tests/support/classic_files.py) and their totals never reach a page or a file."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.history.selectors.history_classic import classic_compare, classic_history
from campaigns.models import Board, Campaign, TurnRecord
from campaigns.services.setup import board_import_by_gm
from tests.support.classic_files import (
    ALICE_TREASURY,
    BOB_TREASURY,
    MAFIA_TREASURY,
    classic_file,
)
from tests.support.classic_history import classic_played, start_recorded
from tests.support.demo import member
from tests.support.handmade import ClientFor
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db

CSV_HEADER = ["turn", "board", "group", "name", "controller", "parent", "place", "treasury_mb"]


@pytest.fixture
def cabal(demo: Campaign) -> Board:
    return classic_played(demo)


def secrets_of(board: Board, player: str) -> set[str]:
    """Every treasury of `player`'s groups and their total, at every recorded turn."""
    found = set()
    for record in TurnRecord.objects.filter(board=board):
        mine = [
            g["treasury"] for g in record.state["groups"]
            if g["place"] == "structure" and g["controller"] == player
        ]  # fmt: skip
        found |= {str(n) for n in mine} | {str(sum(mine))}
    return {s for s in found if len(s) >= 4}  # the sentinels, not the CIA's 3 MB


def bobs_secrets_in(board: Board, text: str) -> list[str]:
    secrets = secrets_of(board, member(board.campaign, "bob").player_id)
    # Turn 0: the Gnomes and the total with the CIA; turn 1: the Gnomes alone (their total).
    assert secrets == {str(BOB_TREASURY), str(BOB_TREASURY + 3), str(BOB_TREASURY + 12)}
    return [s for s in secrets if s in text]


def urls(board: Board) -> dict[str, str]:
    slug = board.campaign.slug
    return {
        "overview": reverse("board_history", args=[slug, board.slug]),
        "compare": reverse("compare_turns", args=[slug, board.slug]),
        "csv": f"{reverse('history_export', args=[slug])}?board={board.slug}",
    }


def test_the_overview_counts_each_players_groups_and_totals_only_their_own_treasuries(
    cabal: Board,
) -> None:
    alice = member(cabal.campaign, "alice")
    history = classic_history(cabal, alice)
    assert history.numbers == [0, 1]
    start, first = history.turns
    counts = {t.number: {p.name: (p.groups, p.treasury) for p in t.players} for t in history.turns}
    a, b = alice.display_name, member(cabal.campaign, "bob").display_name
    # Turn 0 as imported; turn 1: the Mafia paid 20 MB for its attack, then income (R93).
    assert counts[0] == {a: (2, ALICE_TREASURY + MAFIA_TREASURY), b: (2, None)}
    assert counts[1] == {a: (2, ALICE_TREASURY + 9 + MAFIA_TREASURY - 20 + 6), b: (1, None)}
    # The Moonies; then the Yuppies too. The deck: two groups, both drawn at turn 1's end.
    assert (start.destroyed, first.destroyed) == (1, 2)
    assert (start.deck, first.deck) == (2, 0)
    assert (start.table, first.table) == (1, 3)  # the Yuppies; the CIA, the KGB, the gangs

    gm = classic_history(cabal, member(cabal.campaign, "gm"))
    assert [p.treasury for p in gm.turns[0].players] == [
        ALICE_TREASURY + MAFIA_TREASURY,
        BOB_TREASURY + 3,
    ]


def test_the_overview_page_shows_alice_her_totals_and_never_bobs(
    cabal: Board, client_for: ClientFor
) -> None:
    page = client_for("alice").get(urls(cabal)["overview"])
    assert page.status_code == 200
    words = text_of(page)
    assert f"{ALICE_TREASURY + MAFIA_TREASURY} MB" in words
    assert "The start (turn 0)" in words and "Turn 1" in words
    html = page.content.decode()
    assert bobs_secrets_in(cabal, html) == []
    # No department page of a standard board's history: a classic board has none.
    assert "Departments you have known" not in words
    # Each turn links to the board as it was then (the classic board page's ?turn=N).
    board_url = reverse("board", args=[cabal.campaign.slug, cabal.slug])
    assert f'href="{board_url}?turn=1"' in html and f'href="{board_url}?turn=0"' in html

    gm_page = client_for("gm").get(urls(cabal)["overview"]).content.decode()
    assert f"{BOB_TREASURY + 3} MB" in gm_page


def test_comparing_the_turns_names_the_moved_the_destroyed_and_the_drawn(cabal: Board) -> None:
    alice = member(cabal.campaign, "alice")
    comparison = classic_compare(cabal, alice, 0, 1)
    assert comparison is not None
    bob = member(cabal.campaign, "bob").display_name
    assert [(c.slug, c.before, c.after) for c in comparison.moved] == [
        ("cia", f"in {bob}'s power structure, under Gnomes of Zurich", "on the table")
    ]
    assert [(c.slug, c.after) for c in comparison.destroyed] == [("yuppies", "destroyed")]
    assert [(c.slug, c.before, c.after) for c in comparison.drawn] == [
        ("cycle-gangs", "in the deck", "on the table"),
        ("kgb", "in the deck", "on the table"),
    ]
    assert classic_compare(cabal, alice, 0, 7) is None  # no record of turn 7


def test_the_compare_page_keeps_bobs_treasuries_from_alice(
    cabal: Board, client_for: ClientFor
) -> None:
    alice, bob = client_for("alice"), client_for("bob")
    page = alice.get(urls(cabal)["compare"])  # the last two turns: 0 and 1
    assert page.status_code == 200
    words = text_of(page)
    assert "Entered from the deck" in words and "KGB" in words and "Cycle Gangs" in words
    assert "CIA: in" in words and "Yuppies" in words
    html = page.content.decode()
    assert bobs_secrets_in(cabal, html) == []
    assert f"{ALICE_TREASURY + MAFIA_TREASURY} MB" in words
    assert f"{BOB_TREASURY + 3} MB" in text_of(bob.get(urls(cabal)["compare"]))


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?first=abc&second=1", "Showing turns 0 and 1 instead."),
        ("?first=0&second=99", "There is no record of turn 99."),
        ("?first=1&second=1", "Pick two different turns to compare."),
        ("?first=%00&second=", "Showing turns 0 and 1 instead."),
    ],
)
def test_a_bad_choice_of_turns_says_so_and_shows_the_last_two(
    cabal: Board, client_for: ClientFor, query: str, message: str
) -> None:
    page = client_for("alice").get(urls(cabal)["compare"] + query)
    assert page.status_code == 200
    words = text_of(page)
    assert message in words
    assert "From turn 0 to turn 1" in words


def test_turns_given_backwards_are_compared_in_time_order(
    cabal: Board, client_for: ClientFor
) -> None:
    page = client_for("bob").get(urls(cabal)["compare"] + "?first=1&second=0")
    words = text_of(page)
    assert "Compared in time order: turn 0, then turn 1." in words
    assert "From turn 0 to turn 1" in words


def csv_rows(client: Client, board: Board) -> list[dict[str, str]]:
    response = client.get(urls(board)["csv"])
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == CSV_HEADER
    return [dict(zip(CSV_HEADER, row, strict=True)) for row in rows[1:]]


def test_the_csv_has_a_row_per_group_per_turn_and_only_the_viewers_treasuries(
    cabal: Board, client_for: ClientFor
) -> None:
    campaign = cabal.campaign
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    rows = csv_rows(client_for("alice"), cabal)
    by_turn = {(r["turn"], r["group"]): r for r in rows}
    # Turn 0: every group but the deck's two (R99: the deck is nobody's); turn 1: all eight.
    assert sorted(g for t, g in by_turn if t == "0") == [
        "bavarians", "cia", "gnomes", "mafia", "moonies", "yuppies"
    ]  # fmt: skip
    assert len([1 for t, _ in by_turn if t == "1"]) == 8
    assert by_turn[("0", "mafia")] == {
        "turn": "0", "board": "cabal", "group": "mafia", "name": "The Mafia",
        "controller": alice.display_name, "parent": "bavarians", "place": "structure",
        "treasury_mb": str(MAFIA_TREASURY),
    }  # fmt: skip
    assert by_turn[("0", "gnomes")]["controller"] == bob.display_name
    assert by_turn[("0", "gnomes")]["treasury_mb"] == ""  # bob's
    assert by_turn[("0", "yuppies")]["treasury_mb"] == ""  # on the table: nobody's
    assert by_turn[("1", "cia")]["place"] == "table" and by_turn[("1", "cia")]["controller"] == ""
    assert by_turn[("1", "yuppies")]["place"] == "destroyed"
    text = client_for("alice").get(urls(cabal)["csv"]).content.decode()
    assert bobs_secrets_in(cabal, text) == []

    gm_rows = {(r["turn"], r["group"]): r for r in csv_rows(client_for("gm"), cabal)}
    assert gm_rows[("0", "gnomes")]["treasury_mb"] == str(BOB_TREASURY)
    assert set(gm_rows) == set(by_turn)  # the GM's file has no deck rows either


def test_a_group_named_like_a_formula_is_written_as_text(
    demo: Campaign, client_for: ClientFor
) -> None:
    data = classic_file()
    for raw in data["groups"]:
        if raw["slug"] == "yuppies":
            raw["name"] = '=HYPERLINK("http://example.invalid","x")'
    gm = member(demo, "gm").user
    board = board_import_by_gm(campaign=demo, actor=gm, data=data)
    start_recorded(board)
    row = next(r for r in csv_rows(client_for("alice"), board) if r["group"] == "yuppies")
    assert row["name"] == '\'=HYPERLINK("http://example.invalid","x")'


def test_a_classic_board_has_no_structure_or_department_history(
    cabal: Board, client_for: ClientFor
) -> None:
    slug = cabal.campaign.slug
    alice = member(cabal.campaign, "alice")
    client = client_for("alice")
    structure = reverse("structure_history", args=[slug, cabal.slug, alice.pk])
    department = reverse("department_history", args=[slug, cabal.slug, "mafia"])
    assert client.get(structure).status_code == 404
    assert client.get(department).status_code == 404


def test_a_classic_board_without_records_says_so(demo: Campaign, client_for: ClientFor) -> None:
    board = board_import_by_gm(campaign=demo, actor=member(demo, "gm").user, data=classic_file())
    client = client_for("bob")
    assert "No turn has been processed yet." in text_of(client.get(urls(board)["overview"]))
    page = client.get(urls(board)["compare"] + "?first=0&second=1")
    assert page.status_code == 200
    assert "There are not two processed turns to compare yet." in text_of(page)
    response = client.get(urls(board)["csv"])
    assert response.content.decode().strip() == ",".join(CSV_HEADER)


def test_the_whole_campaigns_file_is_the_departments_file_as_before(
    cabal: Board, client_for: ClientFor
) -> None:
    """Without ?board=, the file of the standard boards' departments: a classic board, which
    has none, adds no row and no column."""
    response = client_for("gm").get(reverse("history_export", args=[cabal.campaign.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["turn", "board", "department"]
    assert {r[1] for r in rows[1:]} == {"city", "harbour"}


def test_the_export_command_writes_a_classic_boards_file_as_the_gm_reads_it(
    cabal: Board, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("export_history", cabal.campaign.slug, "-", "--board", cabal.slug)
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == CSV_HEADER
    gnomes = next(r for r in rows[1:] if r[:3] == ["0", "cabal", "gnomes"])
    assert gnomes[-1] == str(BOB_TREASURY)


def test_once_the_gm_opens_the_campaign_every_member_reads_every_treasury(
    cabal: Board, client_for: ClientFor
) -> None:
    """R51, R99: an opened campaign hides nothing, of every turn; the deck still has no row."""
    Campaign.objects.filter(pk=cabal.campaign.pk).update(opened=True)
    words = text_of(client_for("alice").get(urls(cabal)["overview"]))
    assert f"{BOB_TREASURY + 3} MB" in words
    rows = {(r["turn"], r["group"]): r for r in csv_rows(client_for("carol"), cabal)}
    assert rows[("0", "gnomes")]["treasury_mb"] == str(BOB_TREASURY)
    assert ("0", "kgb") not in rows

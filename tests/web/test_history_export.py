"""The history as CSV (issue 11): `manage.py export_history` and the download button. The
GM's file holds every department of every processed turn, its values those of the turn
records; a player's holds what they saw at each turn (R50, R51; see
history/selectors/history_export.py for what exactly)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from campaigns.models import Campaign, Membership, TurnRecord
from tests.support.handmade import ClientFor
from tests.support.history import KNOWN, LEARNED_LATER, ThreeTurns, recorded_levels

pytestmark = pytest.mark.django_db

HEADER = (
    "turn,board,department,controller,status,chain_length,capacity,money,people,authority,"
    "suppliers,consumers"
).split(",")


def read(text: str) -> list[dict[str, str]]:
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == HEADER
    return [dict(zip(HEADER, row, strict=True)) for row in rows[1:]]


def expected_row(record: TurnRecord, data: dict, names: dict[str, str]) -> dict[str, str]:
    """One department of one record, every column, straight from the record."""
    slug = data["slug"]
    figures = record.report["departments"][slug]
    links = record.state["links"]
    return {
        "turn": str(record.turn.number),
        "board": record.board.slug,
        "department": slug,
        "controller": names.get(data["structure"], "") if data["structure"] else "",
        "status": figures["status"],
        "chain_length": str(figures["chain_length"]),
        "capacity": str(data["capacity"]),
        **{kind: str(data["stash"].get(kind, 0)) for kind in ("money", "people", "authority")},
        "suppliers": ";".join(sorted(lk["from"] for lk in links if lk["to"] == slug)),
        "consumers": ";".join(
            lk["to"] for lk in sorted(links, key=lambda k: k["priority"]) if lk["from"] == slug
        ),
    }


def names_of(campaign: Campaign) -> dict[str, str]:
    return {m.player_id: m.display_name for m in campaign.memberships.select_related("user")}


def test_the_gms_csv_after_three_turns_has_every_turn_and_department_as_recorded(
    three_turns: ThreeTurns, tmp_path: Path
) -> None:
    campaign = three_turns.campaign
    out = tmp_path / "history.csv"
    call_command("export_history", campaign.slug, str(out))
    rows = read(out.read_text())
    records = TurnRecord.objects.filter(turn__campaign=campaign).select_related("turn", "board")
    expected = [
        expected_row(record, data, names_of(campaign))
        for record in records
        for data in record.state["departments"]
    ]
    assert len(rows) == 4 * 20 == len(expected)  # turns 0-3, 14 city and 6 harbour departments
    key = lambda r: (int(r["turn"]), r["board"], r["department"])  # noqa: E731
    assert sorted(rows, key=key) == sorted(expected, key=key)
    assert [key(r) for r in rows] == sorted(key(r) for r in rows)  # by turn, board, department


def test_the_command_writes_one_board_and_to_standard_output(three_turns: ThreeTurns) -> None:
    stdout = io.StringIO()
    call_command("export_history", three_turns.campaign.slug, "-", "--board", "harbour",
                 stdout=stdout)  # fmt: skip
    rows = read(stdout.getvalue())
    assert len(rows) == 4 * 6 and {r["board"] for r in rows} == {"harbour"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", "-"], "no campaign 'nowhere'"),
        (["tourmaline", "-", "--board", "moon"], "tourmaline has no board 'moon'"),
        (["tourmaline", "/no/such/folder/x.csv"], "cannot write /no/such/folder/x.csv"),
    ],
)
def test_the_command_refuses_plainly(
    three_turns: ThreeTurns, args: list[str], message: str
) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("export_history", *args)


def download(client_for: ClientFor, username: str, slug: str, board: str = "") -> str:
    url = reverse("history_export", args=[slug]) + (f"?board={board}" if board else "")
    response = client_for(username).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    return response.content.decode()


@pytest.mark.parametrize("username", ["alice", "bob", "carol"])
def test_r51_a_players_csv_holds_what_they_saw_at_each_turn(
    three_turns: ThreeTurns, client_for: ClientFor, username: str
) -> None:
    campaign = three_turns.campaign
    player = Membership.objects.get(campaign=campaign, user__username=username)
    rows = read(download(client_for, username, campaign.slug))
    assert rows
    by_key = {(int(r["turn"]), r["board"], r["department"]): r for r in rows}
    for record in TurnRecord.objects.filter(turn__campaign=campaign).select_related(
        "turn", "board"
    ):
        levels = recorded_levels(record, player.player_id, player.pk)
        for data in record.state["departments"]:
            row = by_key.get((record.turn.number, record.board.slug, data["slug"]))
            level = levels[data["slug"]]
            if level < KNOWN:
                assert row is None, (record.turn.number, data["slug"])  # no row below `known`
                continue
            assert row is not None
            full = expected_row(record, data, names_of(campaign))
            private = ["status", "chain_length", "capacity", "money", "people", "authority"]
            if level > KNOWN:
                assert row == full
            else:
                assert all(row[c] == "" for c in private), row
                assert row["controller"] == full["controller"]
            # Only links whose both ends the player saw `known` then.
            for column in ("suppliers", "consumers"):
                for other in filter(None, row[column].split(";")):
                    assert levels[other] >= KNOWN, (record.turn.number, data["slug"], other)


def test_r51_a_department_learned_later_has_no_row_before(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    rows = read(download(client_for, "alice", three_turns.campaign.slug, "city"))
    turns = sorted(int(r["turn"]) for r in rows if r["department"] == LEARNED_LATER)
    assert turns == [3]


def test_r51_an_opened_campaigns_csv_holds_everything_for_every_member(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    campaign = three_turns.campaign
    gms = download(client_for, "gm", campaign.slug)
    assert download(client_for, "alice", campaign.slug) != gms
    campaign.opened = True
    campaign.save(update_fields=["opened"])
    assert download(client_for, "alice", campaign.slug) == gms


def test_a_name_a_spreadsheet_would_run_is_quoted(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    Membership.objects.filter(user__username="carol").update(character_name="=HYPERLINK(1)")
    rows = read(download(client_for, "gm", three_turns.campaign.slug))
    assert "'=HYPERLINK(1)" in {r["controller"] for r in rows}
    assert "=HYPERLINK(1)" not in {r["controller"] for r in rows}


def test_a_board_that_is_not_there_downloads_nothing_and_says_so(
    three_turns: ThreeTurns, client_for: ClientFor
) -> None:
    from tests.factories import BoardFactory

    BoardFactory(slug="elsewhere")  # another campaign's
    url = reverse("history_export", args=[three_turns.campaign.slug])
    for board in ["moon", "city\x00", "../x", "elsewhere", "x" * 500]:
        response = client_for("alice").get(url, {"board": board}, follow=True)
        assert response.redirect_chain == [(three_turns.campaign.get_absolute_url(), 302)]
        assert "There is no such board: nothing was downloaded." in response.content.decode()

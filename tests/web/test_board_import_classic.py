"""The GM imports a classic board (RULES R90-R92, issue 27): a JSON file in the engine's
format with `"ruleset": "classic"` on the board-import page, players named by user name.
A file the site or the engine refuses lists its problems and writes nothing; hostile files
never give a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import AuditEntry, Board, Campaign, ClassicBoard, Membership
from tests.support.board_files import counts, fresh_campaign, upload
from tests.support.classic_files import ALICE_TREASURY, classic_file
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db


def imported(client: Any, campaign: Campaign, data: object) -> Any:
    return upload(client, campaign, "cabal.json", json.dumps(data))


def test_a_classic_file_makes_a_classic_board_with_its_state(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R90: the board is classic; the state is the file's, players by engine id."""
    copy = fresh_campaign()
    response = imported(client_for("gm"), copy, classic_file())
    assert response.status_code == 302
    board = copy.boards.get(slug="cabal")
    assert response["Location"] == f"/c/{copy.slug}/board/cabal/"
    assert board.ruleset == "classic" and board.name == "The Cabal"
    assert not board.departments.exists()
    state = ClassicBoard.objects.get(board=board).state
    alice = Membership.objects.get(campaign=copy, user__username="alice")
    bob = Membership.objects.get(campaign=copy, user__username="bob")
    assert [p["id"] for p in state["players"]] == [f"p{alice.pk}", f"p{bob.pk}"]
    bavarians = next(g for g in state["groups"] if g["slug"] == "bavarians")
    assert bavarians["controller"] == f"p{alice.pk}"
    assert bavarians["treasury"] == ALICE_TREASURY
    assert state["deck"] == ["kgb", "cycle-gangs"]
    assert state["destroyed_by"] == {f"p{alice.pk}": 1}
    assert not {"slug", "name", "ruleset", "seed", "turn", "orders"} & set(state)
    entry = AuditEntry.objects.filter(action="board").latest("pk")
    assert entry.after == {"imported": "The Cabal", "ruleset": "classic", "groups": 8}


def with_changes(**changes: Any) -> dict[str, Any]:
    data = classic_file()
    data.update(changes)
    return data


def edited_group(which: str, **fields: Any) -> dict[str, Any]:
    data = classic_file()
    for group in data["groups"]:
        if group["slug"] == which:
            group.update(fields)
    return data


def without_illuminati() -> dict[str, Any]:
    data = classic_file()
    data["groups"] = [g for g in data["groups"] if g["slug"] not in ("gnomes", "cia")]
    return data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            with_changes(players=[{"id": "alice"}, {"id": "zed"}]),
            "player zed: 'zed' is not a player",
        ),
        (edited_group("mafia", controller="zed"), "group mafia: 'zed' is not a player"),
        (edited_group("mafia", slug="the mafia"), "group the mafia: slug must be letters"),
        (edited_group("mafia", name=""), "group mafia: name must be a text"),
        (edited_group("mafia", name="M" * 121), "group mafia: name must be a text"),
        (edited_group("mafia", power=2**80), "group mafia: power must be at most"),
        (edited_group("mafia", colour="red"), "group mafia: unknown field 'colour'"),
        (with_changes(slug="city"), None),  # taken in the copy? no: checked below
        (with_changes(name=None), "board: name must be a text"),
        (with_changes(extra=1), "file: unknown field 'extra'"),
        # The engine's own review (ENGINE.md part 10's input errors), one line.
        (edited_group("mafia", parent="cia"), "parent"),
        (edited_group("mafia", power=-1), "power"),
        (edited_group("mafia", power=1.5), "power"),
        (edited_group("mafia", power="6"), "power"),
        (without_illuminati(), "player bob needs exactly one Illuminati (R91)"),
        (with_changes(deck=["kgb"]), "deck"),
        (edited_group("bavarians", arrows=0), "arrows"),
        (with_changes(players="alice"), "players"),
        (with_changes(groups={"a": 1}), "groups"),
        (with_changes(groups=[1, [2], None]), "groups"),
        (with_changes(players=[{"id": ["alice"]}]), "player"),
        (with_changes(destroyed_by=[1]), "destroyed_by"),
        (with_changes(settings={"win_groups": "many"}), "win_groups"),
    ],
)
def test_a_bad_classic_file_lists_its_problems_and_writes_nothing(
    demo: Campaign, client_for: ClientFor, data: dict[str, Any], expected: str | None
) -> None:
    copy = fresh_campaign()
    before = counts()
    if expected is None:  # a board address already taken in the campaign (R2)
        imported(client_for("gm"), copy, classic_file(slug="city"))
        before = counts()
        expected = "already has a board 'city' (R2)"
    response = imported(client_for("gm"), copy, data)
    assert response.status_code == 200
    problems = response.context["problems"]
    assert problems and any(expected in p for p in problems), problems
    assert counts() == before
    assert ClassicBoard.objects.count() == (1 if "city" in expected else 0)


def test_a_cycle_is_refused_by_the_engine(demo: Campaign, client_for: ClientFor) -> None:
    """ENGINE.md part 10: a cycle of parents is an input error."""
    data = edited_group("mafia", parent="cia", controller="bob")
    for group in data["groups"]:
        if group["slug"] == "cia":
            group.update(parent="mafia")
    copy = fresh_campaign()
    response = imported(client_for("gm"), copy, data)
    assert response.status_code == 200 and response.context["problems"]
    assert not Board.objects.filter(campaign=copy).exists()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
TOP = ["ruleset", "slug", "name", "settings", "players", "groups", "deck", "destroyed_by"]
GROUP = ["slug", "name", "illuminati", "power", "transferable", "resistance", "income",
         "arrows", "alignments", "treasury", "place", "controller", "parent",
         "bonuses"]  # fmt: skip


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    top=st.lists(st.tuples(st.sampled_from(TOP[1:]), JSON_VALUES), max_size=2),
    edits=st.lists(
        st.tuples(st.integers(0, 7), st.sampled_from(GROUP), JSON_VALUES), min_size=1, max_size=3
    ),
)
def test_a_hostile_classic_file_is_answered_never_a_500(
    demo: Campaign, client_for: ClientFor, top: list[Any], edits: list[Any]
) -> None:
    """Any value in any field of the engine's format: the page answers (a problem listed, or
    a board made of a file both the site and the engine accept), never a crash."""
    data = classic_file(slug="hostile")
    for index, key, value in edits:
        data["groups"][index][key] = value
    for key, value in top:
        data[key] = value
    client = client_for("gm")
    with transaction.atomic():
        response = imported(client, demo, data)
        assert response.status_code in (200, 302)
        if response.status_code == 200:
            assert response.context["problems"]
        transaction.set_rollback(True)


def test_the_classic_demo_board_file_imports_as_it_is(
    demo: Campaign, client_for: ClientFor
) -> None:
    """campaigns/demo/classic.json (the engine's format, with an `_about` note for people)
    given a board address and name: alice, bob and carol are the demo's players."""
    data = json.loads(
        (django_settings.BASE_DIR / "campaigns" / "demo" / "classic.json").read_text()
    )
    data.update(slug="underside", name="The Underside")
    response = imported(client_for("gm"), demo, data)
    assert response.status_code == 302, response.context and response.context["problems"]
    state = ClassicBoard.objects.get(board__slug="underside").state
    assert "_about" not in state
    assert len(state["groups"]) == len(data["groups"]) and state["deck"] == data["deck"]


def test_a_json_files_group_problem_names_the_line_the_group_begins_on(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The engine's problem about one group is led by that group's line in the file, as a
    department's is in a standard board's file."""
    data = edited_group("cia", arrows=0, parent="gnomes")
    for group in data["groups"]:
        if group["slug"] == "yuppies":
            group.update(place="structure", controller="bob", parent="cia")
    text = json.dumps(data, indent=1)
    rows = text.splitlines()
    cia_line = rows.index('   "slug": "cia",')  # the line before it, counted from 1: its "{"
    assert rows[cia_line - 1] == "  {"
    response = upload(client_for("gm"), fresh_campaign(), "cabal.json", text)
    assert (
        f"line {cia_line}, group cia: more children than arrows (R92)"
        in response.context["problems"]
    ), response.context["problems"]

"""The GM's editor of a classic board (RULES R91, R92, R98, R53; classic/web/editor.py): one
group's figures, place, parent and treasury, one player's Illuminati treasury and goal. Every
save is the whole board reviewed by the engine as the import reviews a file: saved and
logged, or refused with the engine's reason and nothing changed. The GM's only."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import AuditEntry, Board, Campaign, ClassicBoard, Membership
from tests.support.classic_files import ALICE_GOAL, ALICE_TREASURY, classic_board_in, group
from tests.support.handmade import ClientFor
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db

MAFIA = {"power": "6", "transferable": "0", "resistance": "7", "income": "6", "arrows": "3",
         "treasury": "7303", "place": "structure", "parent": "bavarians"}  # fmt: skip


def group_url(board: Board, slug: str) -> str:
    return reverse("classic_group_edit", args=[board.campaign.slug, board.slug, slug])


def player_url(board: Board, username: str) -> str:
    member = Membership.objects.get(campaign=board.campaign, user__username=username)
    return reverse("classic_player_edit", args=[board.campaign.slug, board.slug, member.player_id])


def state_of(board: Board) -> dict[str, Any]:
    return ClassicBoard.objects.get(board=board).state


def group_in(board: Board, slug: str) -> dict[str, Any]:
    return next(g for g in state_of(board)["groups"] if g["slug"] == slug)


def pid(board: Board, username: str) -> str:
    return Membership.objects.get(campaign=board.campaign, user__username=username).player_id


def test_the_gm_saves_a_groups_figures_and_it_is_logged(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    client = client_for("gm")
    page = client.get(group_url(board, "mafia"))
    assert page.status_code == 200 and page.context["form"].initial["treasury"] == 7303
    response = client.post(group_url(board, "mafia"), {**MAFIA, "power": "8", "treasury": "12"})
    assert response.status_code == 302
    assert response["Location"] == reverse("board", args=[demo.slug, "cabal"]) + "#classic-gm"
    mafia = group_in(board, "mafia")
    assert (mafia["power"], mafia["treasury"], mafia["parent"]) == (8, 12, "bavarians")
    entry = AuditEntry.objects.latest("pk")
    assert entry.action == "board" and entry.board == "cabal" and entry.target == "group The Mafia"
    assert entry.before == {"power": 6, "treasury": 7303}
    assert entry.after == {"power": 8, "treasury": 12}
    log = client.get(reverse("audit_log", args=[demo.slug]))
    assert log.status_code == 200 and "group The Mafia" in text_of(log)


def test_saving_the_same_values_changes_and_logs_nothing(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    before = (state_of(board), AuditEntry.objects.count())
    response = client_for("gm").post(group_url(board, "mafia"), MAFIA, follow=True)
    assert "Nothing was changed." in text_of(response)
    assert (state_of(board), AuditEntry.objects.count()) == before


def test_a_group_moved_to_another_player_takes_its_subtree_r92(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The CIA (bob's) hangs on the Mafia first; the Mafia then goes to bob's Gnomes, the
    CIA with it; then off to the table, the CIA to the table too, its treasury to the bank."""
    board = classic_board_in(demo)
    client = client_for("gm")
    cia = {"power": "6", "transferable": "4", "resistance": "5", "income": "0", "arrows": "2",
           "treasury": "3", "place": "structure", "parent": "mafia"}  # fmt: skip
    assert client.post(group_url(board, "cia"), cia).status_code == 302
    assert group_in(board, "cia")["controller"] == pid(board, "alice")
    assert client.post(group_url(board, "mafia"), {**MAFIA, "parent": "gnomes"}).status_code == 302
    assert group_in(board, "mafia")["controller"] == pid(board, "bob")
    assert group_in(board, "cia")["controller"] == pid(board, "bob")
    table = {**MAFIA, "place": "table", "parent": ""}
    assert client.post(group_url(board, "mafia"), table).status_code == 302
    cia_now = group_in(board, "cia")
    assert (cia_now["place"], cia_now["controller"], cia_now["treasury"]) == ("table", None, 0)


def test_a_group_put_in_the_deck_goes_to_its_bottom_and_has_no_page_then(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    client = client_for("gm")
    yuppies = {"power": "1", "transferable": "1", "resistance": "4", "income": "5",
               "arrows": "1", "treasury": "0", "place": "deck", "parent": ""}  # fmt: skip
    assert client.post(group_url(board, "yuppies"), yuppies).status_code == 302
    assert state_of(board)["deck"] == ["kgb", "cycle-gangs", "yuppies"]
    assert client.get(group_url(board, "yuppies")).status_code == 404


@pytest.mark.parametrize(
    ("slug", "changes", "reason"),
    [
        ("bavarians", {"arrows": "0"}, "more children than arrows"),
        ("bavarians", {"resistance": "3"}, "an Illuminati has no resistance"),
        ("mafia", {"parent": ""}, "its parent must be a group in the same structure"),
    ],
)
def test_what_the_engine_refuses_is_shown_in_words_and_nothing_changes(
    demo: Campaign, client_for: ClientFor, slug: str, changes: dict[str, str], reason: str
) -> None:
    board = classic_board_in(demo)
    current = group_in(board, slug)
    values = {k: "" if current.get(k) is None else str(current.get(k)) for k in MAFIA}
    values["parent"] = current.get("parent") or ""
    before = (state_of(board), AuditEntry.objects.count())
    response = client_for("gm").post(group_url(board, slug), {**values, **changes})
    assert response.status_code == 200
    refused = response.context["refused"]
    assert refused and any(reason in line for line in refused), refused
    assert "Nothing was saved" in text_of(response)
    assert (state_of(board), AuditEntry.objects.count()) == before


def test_the_gm_sets_a_players_illuminati_treasury_and_goal(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    client = client_for("gm")
    page = client.get(player_url(board, "alice"))
    assert page.context["form"].initial == {
        "treasury": ALICE_TREASURY, "goal": "power", "amount": ALICE_GOAL, "alignment": "",
        "alignments": "",
    }  # fmt: skip
    posted = {"treasury": "40", "goal": "alignment", "amount": "3", "alignment": "Criminal"}
    assert client.post(player_url(board, "alice"), posted).status_code == 302
    state = state_of(board)
    alice = next(p for p in state["players"] if p["id"] == pid(board, "alice"))
    assert alice["goal"] == {"kind": "alignment", "alignment": "Criminal", "amount": 3}
    assert group_in(board, "bavarians")["treasury"] == 40
    entry = AuditEntry.objects.latest("pk")
    assert entry.target == "Illuminati Bavarian Illuminati"
    assert entry.before == {
        "treasury": ALICE_TREASURY,
        "goal": {"kind": "power", "amount": ALICE_GOAL},
    }
    assert (
        client.post(player_url(board, "alice"), {"treasury": "40", "goal": ""}).status_code == 302
    )
    assert "goal" not in next(
        p for p in state_of(board)["players"] if p["id"] == pid(board, "alice")
    )


def test_a_goal_the_engine_refuses_is_not_saved(demo: Campaign, client_for: ClientFor) -> None:
    board = classic_board_in(demo)
    before = (state_of(board), AuditEntry.objects.count())
    posted = {"treasury": "1", "goal": "in_play", "amount": "2", "alignment": "Nonsense"}
    response = client_for("gm").post(player_url(board, "bob"), posted)
    assert response.status_code == 200
    assert any("Nonsense" in line for line in response.context["refused"])
    assert (state_of(board), AuditEntry.objects.count()) == before


def test_a_goal_without_its_amount_is_sent_back_to_the_form(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    response = client_for("gm").post(player_url(board, "bob"), {"treasury": "1", "goal": "money"})
    assert response.status_code == 200 and "amount" in response.context["form"].errors


def test_only_the_gm_edits_and_a_deck_group_or_a_standard_board_has_no_editor(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    before = state_of(board)
    for username in ("alice", "bob"):
        client = client_for(username)
        assert client.get(group_url(board, "mafia")).status_code == 403
        assert client.post(group_url(board, "mafia"), {**MAFIA, "power": "9"}).status_code == 403
        assert client.get(player_url(board, "alice")).status_code == 403
    gm = client_for("gm")
    assert gm.get(group_url(board, "kgb")).status_code == 404  # face down (R99)
    assert gm.get(group_url(board, "no-such-group")).status_code == 404
    assert (
        gm.get(reverse("classic_player_edit", args=[demo.slug, "cabal", "p0"])).status_code == 404
    )
    city = reverse("classic_group_edit", args=[demo.slug, "city", "mint"])
    assert gm.get(city).status_code == 404
    assert state_of(board) == before


def test_the_board_page_links_the_editor_for_the_gm_only(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    url = reverse("board", args=[demo.slug, board.slug])
    gm_page = client_for("gm").get(url).content.decode()
    assert 'id="classic-gm"' in gm_page
    assert group_url(board, "mafia") in gm_page and player_url(board, "bob") in gm_page
    assert group_url(board, "moonies") in gm_page and group_url(board, "kgb") not in gm_page
    alice_page = client_for("alice").get(url).content.decode()
    assert 'id="classic-gm"' not in alice_page and group_url(board, "mafia") not in alice_page


def test_the_editor_pages_read_as_many_queries_on_a_larger_board(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    client = client_for("gm")
    urls = [group_url(board, "mafia"), player_url(board, "alice")]

    def count() -> list[int]:
        counted = []
        for url in urls:
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counted.append(len(queries))
        return counted

    small = count()
    row = ClassicBoard.objects.get(board=board)
    row.state["groups"] += [
        group(f"extra-{n}", name=f"Extra {n}", place="structure", controller=pid(board, "alice"),
              parent="bavarians")
        for n in range(40)
    ]  # fmt: skip
    row.save()
    assert count() == small


def test_an_illuminati_has_no_place_to_choose_and_stays_the_root_r91(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    client = client_for("gm")
    form = client.get(group_url(board, "bavarians")).context["form"]
    assert "place" not in form.fields and "parent" not in form.fields
    posted = {**MAFIA, "resistance": "", "treasury": "5", "place": "table", "parent": "gnomes"}
    assert client.post(group_url(board, "bavarians"), posted).status_code == 302
    bavarians = group_in(board, "bavarians")
    assert (bavarians["place"], bavarians["parent"], bavarians["treasury"]) == (
        "structure",
        None,
        5,
    )
    assert bavarians["controller"] == pid(board, "alice")


def test_the_gm_edits_a_groups_alignments_and_bonuses_the_engine_checks_them(
    demo: Campaign, client_for: ClientFor
) -> None:
    board = classic_board_in(demo)
    client = client_for("gm")
    form = client.get(group_url(board, "mafia")).context["form"]
    assert form.initial["alignments"] == "Criminal" and form.initial["bonuses"] == ""
    saved = {**MAFIA, "alignments": "Criminal; Violent", "bonuses": "control 3 own Criminal"}
    assert client.post(group_url(board, "mafia"), saved).status_code == 302
    mafia = group_in(board, "mafia")
    assert mafia["alignments"] == ["Criminal", "Violent"]
    assert mafia["bonuses"] == [
        {"aim": "control", "amount": 3, "scope": "own", "alignment": "Criminal"}
    ]
    assert client.get(group_url(board, "mafia")).context["form"].initial["bonuses"] == (
        "control 3 own Criminal"
    )
    before = (state_of(board), AuditEntry.objects.count())
    # Words that are no bonus: the form says how one reads. An unknown alignment: the engine.
    bad = client.post(group_url(board, "mafia"), {**saved, "bonuses": "lots of luck"})
    assert "should read like" in text_of(bad)
    unknown = client.post(group_url(board, "mafia"), {**saved, "alignments": "Pirate"})
    assert any("unknown alignment 'pirate'" in line for line in unknown.context["refused"])
    assert (state_of(board), AuditEntry.objects.count()) == before

"""The GM's board and department editor (RULES R2, R4, R10-R13, R36, R51, R53), on the demo
with turn 1 open: every save is reviewed by the engine; a refusal is shown in the words the
GM reads (names, not slugs, with the rule) and changes nothing; what is kept is in the audit
log with before and after."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils.html import strip_tags

from campaigns.models import AuditEntry, Board, Campaign, ClassicBoard, Department, Link
from tests.support.editor_cards import card, city, dept_url
from tests.support.handmade import ClientFor

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def page_of(response: Any) -> str:
    """The page's text as the GM reads it (tags out, entities decoded)."""
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())


def board_rows(demo: Campaign) -> tuple:
    """Everything the editor could change on the city board, to check nothing did."""
    departments = Department.objects.filter(board__campaign=demo).order_by("pk")
    links = Link.objects.filter(board__campaign=demo).order_by("pk")
    return (
        list(departments.values()),
        list(links.values()),
        list(Board.objects.filter(campaign=demo).values()),
    )


# --- boards -------------------------------------------------------------------------------------


def test_the_gm_adds_renames_and_removes_a_board(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    response = gm.post(reverse("board_new", args=[SLUG]), {"name": "The Docks", "slug": "docks"})
    assert response["Location"] == reverse("board_edit", args=[SLUG, "docks"])
    response = gm.post(reverse("board_edit", args=[SLUG, "docks"]), {"name": "The Old Docks"})
    assert Board.objects.get(slug="docks").name == "The Old Docks"
    confirm = page_of(gm.get(reverse("board_delete", args=[SLUG, "docks"])))
    assert "0 departments and 0 links" in confirm and "no queued orders" in confirm
    gm.post(reverse("board_delete", args=[SLUG, "docks"]))
    assert not Board.objects.filter(slug="docks").exists()
    entries = AuditEntry.objects.filter(action="board").order_by("pk")
    assert [(e.before, e.after) for e in entries] == [
        ({}, {"created": "The Docks"}),
        ({"name": "The Docks"}, {"name": "The Old Docks"}),
        ({"slug": "docks", "departments": 0, "links": 0}, {"removed": True}),
    ]


def test_a_board_address_twice_is_refused(demo: Campaign, client_for: ClientFor) -> None:
    response = client_for("gm").post(
        reverse("board_new", args=[SLUG]), {"name": "Another city", "slug": "city"}
    )
    assert "Tourmaline already has a board at the address 'city' (R2)." in page_of(response)
    assert Board.objects.filter(campaign=demo).count() == 2


def test_a_played_board_cannot_be_removed_r51(demo: Campaign, client_for: ClientFor) -> None:
    before = board_rows(demo)
    gm = client_for("gm")
    assert "it cannot be removed" in page_of(gm.get(reverse("board_delete", args=[SLUG, "city"])))
    response = gm.post(reverse("board_delete", args=[SLUG, "city"]), follow=True)
    assert "has been played, and every processed turn keeps its state (R51" in page_of(response)
    assert board_rows(demo) == before


# --- departments ------------------------------------------------------------------------------


def test_the_gm_adds_a_department_with_every_field_and_it_is_logged(
    demo: Campaign, client_for: ClientFor
) -> None:
    bob = city("guild-hall").structure.player
    post = card(
        name="The Lighthouse", slug="lighthouse", description="A tall tower.", effect=2,
        obstruct=1, impress=3, consumes_type="money", consumes_amount=1,
        produces_type="people", produces_amount=2, functions={"Signal": 2, "linking": 1},
        alignments=["Peaceful", "Straight"], flaws="Sees everything", money=1,
        controller=str(bob.pk), home=True,
    )  # fmt: skip
    response = client_for("gm").post(reverse("department_new", args=[SLUG, "city"]), post)
    assert response["Location"] == dept_url("department_edit", "lighthouse")
    made = city("lighthouse")
    assert (made.name, made.effect, made.obstruct, made.impress) == ("The Lighthouse", 2, 1, 3)
    assert (made.consumes_type, made.consumes_amount) == ("money", 1)
    # A Money token in its stash: it funds itself at the next spawn (R33), so it keeps it.
    assert (made.produces_type, made.produces_amount, made.money) == ("people", 2, 1)
    assert made.functions == {"Signal": 2, "linking": 1}
    assert made.alignments == ["Peaceful", "Straight"]
    assert (made.structure.player, made.home, made.flaws) == (bob, True, "Sees everything")
    entry = AuditEntry.objects.get(action="department")
    assert entry.before == {} and entry.after["controller"] == "bob"
    assert (
        entry.after["produces"] == "People 2"
        and entry.target == "The City of Tourmaline: The Lighthouse"
    )


def test_a_department_address_twice_is_refused(demo: Campaign, client_for: ClientFor) -> None:
    before = board_rows(demo)
    response = client_for("gm").post(
        reverse("department_new", args=[SLUG, "city"]), card(name="Second Mint", slug="mint")
    )
    page = page_of(response)
    assert "Nothing was saved" in page
    assert "already has a department at the address 'mint': choose another" in page
    assert board_rows(demo) == before and not AuditEntry.objects.exists()


def test_editing_a_card_logs_only_what_changed(demo: Campaign, client_for: ClientFor) -> None:
    mint = city("mint")
    post = card(mint, effect=4, description="Coins, and more coins.")
    response = client_for("gm").post(dept_url("department_edit", "mint"), post, follow=True)
    assert "The Mint is saved." in page_of(response)
    assert city("mint").effect == 4
    entry = AuditEntry.objects.get(action="department")
    assert entry.before == {"slug": "mint", "effect": 2, "description": mint.description}
    assert entry.after == {"slug": "mint", "effect": 4, "description": "Coins, and more coins."}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # The Mint supplies the Treasury and the City Watch with Money (R10).
        (
            {"produces_type": "people"},
            "Link The Mint->The Treasury: The Mint does not produce what The Treasury "
            "consumes (R10).",
        ),
        (
            {"alignments": ["Government", "Communist"]},
            "Department The Mint: holds government together with its opposite (R5).",
        ),
        (
            {"alignments": ["Government", "Straight", "Liberal", "Peaceful"]},
            "Department The Mint: at most three alignments (R4).",
        ),
        (
            {"home": False},
            "The Treasury would stay in Alice Ambergris, Comptroller's structure without being "
            "a home department or linked to another department of it, and would leave the "
            "structure at the next link phase (R13). Make it a home department, link it to one "
            "of Alice Ambergris, Comptroller's departments, or take it out of the structure "
            "first.",
        ),
    ],
    ids=["link-type", "opposites", "four-alignments", "strands"],
)
def test_an_edit_the_engine_refuses_changes_nothing_and_says_why(
    demo: Campaign, client_for: ClientFor, changes: dict[str, Any], message: str
) -> None:
    before = board_rows(demo)
    slug = "treasury" if "home" in changes else "mint"
    if slug == "treasury":
        # The Treasury stops being home and its link with the Mint goes: it is stranded.
        Link.objects.filter(Q(supplier__slug="treasury") | Q(consumer__slug="treasury")).delete()
        before = board_rows(demo)
    response = client_for("gm").post(dept_url("department_edit", slug), card(city(slug), **changes))
    assert response.status_code == 200
    page = page_of(response)
    assert "Nothing was saved" in page and message in page, page[page.find("Nothing was") :][:600]
    assert response.context["refused"] == [message]  # the whole reason, naming its rule
    assert board_rows(demo) == before and not AuditEntry.objects.exists()


def test_a_consumer_nothing_can_fund_is_saved_with_a_note_r33(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    gm.post(reverse("board_new", args=[SLUG]), {"name": "The Docks", "slug": "docks"})
    post = card(name="The Crane", slug="crane", consumes_type="authority", consumes_amount=1)
    response = gm.post(reverse("department_new", args=[SLUG, "docks"]), post, follow=True)
    page = page_of(response)
    assert "The Crane is added to The Docks." in page
    assert (
        "Nothing on this board produces Authority: The Crane can be funded only from its own "
        "stash (R33)." in page
    )


def test_a_stash_beyond_capacity_is_saved_with_a_warning_of_the_r36_discard(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The GM may give tokens for the department to spend this week: R36 discards only
    what is still there at the next spawn, and the warning says how much that would be."""
    response = client_for("gm").post(
        dept_url("department_edit", "mint"), card(city("mint"), money=50), follow=True
    )
    page = page_of(response)
    assert "The Mint is saved." in page
    assert (
        "The Mint now holds more than it can keep: unless it spends them this turn, it will "
        "discard 44 Money at the next spawn and consume, keeping 6 tokens, its capacity (its "
        "production times its chain length, R36)." in page
    )
    assert city("mint").money == 50
    assert AuditEntry.objects.get(action="department").after["stash"]["money"] == 50


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"consumes_type": "money", "consumes_amount": 0}, "At least 1, or choose"),
        ({"produces_type": "", "produces_amount": 2}, "Choose a resource for this amount (R4)."),
        ({"functions": {"Audit": 1, "audit": 2}}, "audit is listed twice: one line each."),
        ({"effect": -1}, "greater than or equal to 0"),
        ({"name": ""}, "This field is required."),
    ],
)
def test_bad_card_input_is_refused_by_the_form(
    demo: Campaign, client_for: ClientFor, changes: dict[str, Any], message: str
) -> None:
    before = board_rows(demo)
    response = client_for("gm").post(
        dept_url("department_edit", "mint"), card(city("mint"), **changes)
    )
    assert response.status_code == 200 and message in page_of(response)
    assert board_rows(demo) == before


# --- links -----------------------------------------------------------------------------------


def link_post(client: Any, dept: str, partner: str, direction: str = "out") -> str:
    response = client.post(
        dept_url("link_new", dept),
        {"direction": direction, "partner": city(partner).pk},
        follow=True,
    )
    return page_of(response)


def test_links_are_added_ranked_last_reordered_and_removed(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    # The Guild Hall (Money) supplies the Printing Press and the Dock Workers; a third link
    # needs room (R11): the GM raises its limit first.
    demo.max_out_links = 3
    demo.save()
    assert "The Guild Hall now supplies The City Watch." in link_post(
        gm, "guild-hall", "city-watch"
    )
    consumers = lambda: list(  # noqa: E731
        Link.objects.filter(supplier__slug="guild-hall")
        .order_by("priority")
        .values_list("consumer__slug", "priority")
    )
    assert consumers() == [("printing-press", 0), ("dock-workers", 1), ("city-watch", 2)]
    watch = Link.objects.get(supplier__slug="guild-hall", consumer__slug="city-watch")
    gm.post(dept_url("link_move", "guild-hall", "city", watch.pk), {"direction": "up"})
    assert consumers() == [("printing-press", 0), ("city-watch", 1), ("dock-workers", 2)]
    gm.post(dept_url("link_delete", "guild-hall", "city", watch.pk))
    assert consumers() == [("printing-press", 0), ("dock-workers", 1)]
    actions = list(AuditEntry.objects.order_by("pk").values_list("target", "after"))
    # R53: the log names the departments, as the GM reads them.
    link = "The Guild Hall → The City Watch"
    assert actions[0] == (link, {"link": link})
    assert actions[1][1] == {
        "order": ["The Printing Press", "The City Watch", "The Dock Workers' Union"]
    }
    assert actions[2][1] == {"removed": True}


def offered(response: Any, label: str) -> list[str]:
    """The departments an add-link list offers (its options but the prompt)."""
    page = response.content.decode()
    select = page[page.index(f'aria-label="{label}"') :]
    select = select[: select.index("</select>")]
    options = re.findall(r'<option value="\d+">([^<]*)</option>', select)
    return [html.unescape(option) for option in options]


def test_the_add_link_lists_offer_only_departments_of_the_fitting_type(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R10: the Guild Hall produces Money; of the Money consumers it already supplies the
    Printing Press and the Dock Workers. It consumes People."""
    response = client_for("gm").get(dept_url("department_edit", "guild-hall"))
    supplies = offered(response, "A department The Guild Hall supplies")
    assert supplies == [
        "The City Watch (consumes Money 1, produces People 2)",
        "The Orphanage (consumes Money 1, produces People 1)",
        "The Rebel Cell (consumes Money 1, produces People 2)",
        "The Treasury (consumes Money 2, produces Authority 2)",
    ]
    suppliers = offered(response, "A department that supplies The Guild Hall")
    assert all("produces People" in line for line in suppliers) and suppliers
    assert not any(line.startswith("The Dock Workers") for line in suppliers)  # linked already


def test_a_department_that_produces_nothing_says_it_supplies_no_one(
    demo: Campaign, client_for: ClientFor
) -> None:
    Department.objects.filter(slug="guild-hall").update(produces_type="", produces_amount=0)
    Link.objects.filter(supplier__slug="guild-hall").delete()
    response = client_for("gm").get(dept_url("department_edit", "guild-hall"))
    assert "The Guild Hall produces nothing, so it supplies no department (R10)." in page_of(
        response
    )
    assert 'aria-label="A department The Guild Hall supplies"' not in response.content.decode()


@pytest.mark.parametrize(
    ("dept", "partner", "message"),
    [
        (
            "temple",
            "guild-hall",
            "The Temple of the Eye does not produce what The Guild Hall consumes (R10)",
        ),
        ("guild-hall", "city-watch", "The Guild Hall has no free outgoing link (R11)"),
        ("mint", "treasury", "The Mint already links to The Treasury (R10)"),
        ("mint", "mint", "cannot link to itself (R10)"),
    ],
)
def test_an_illegal_link_is_refused_with_its_rule(
    demo: Campaign, client_for: ClientFor, dept: str, partner: str, message: str
) -> None:
    before = board_rows(demo)
    if partner == "mint":
        response = client_for("gm").post(
            dept_url("link_new", dept),
            {"direction": "out", "partner": city(partner).pk},
            follow=True,
        )
        page = page_of(response)
        assert "Choose a department of this board to link (R2, R10)." in page  # not offered
    else:
        page = link_post(client_for("gm"), dept, partner)
        assert f"No link was made: {message}" in page
    assert board_rows(demo) == before and not AuditEntry.objects.exists()


def test_removing_the_only_link_of_a_non_home_department_is_refused_r13(
    demo: Campaign, client_for: ClientFor
) -> None:
    before = board_rows(demo)
    link = Link.objects.get(supplier__slug="mint", consumer__slug="city-watch")
    response = client_for("gm").post(dept_url("link_delete", "mint", "city", link.pk), follow=True)
    page = page_of(response)
    assert (
        "The link stays: The City Watch would stay in Alice Ambergris, Comptroller's "
        "structure without being a home department or linked to another department of it"
    ) in page
    assert board_rows(demo) == before


# --- removing a department --------------------------------------------------------------------


def test_removing_a_department_says_what_goes_and_removes_it_with_its_links(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    confirm = page_of(gm.get(dept_url("department_delete", "archives")))
    assert (
        "its 2 links: The City Archives → The Street Preachers, The Orphanage → The City Archives"
        in confirm
    )
    response = gm.post(dept_url("department_delete", "archives"))
    assert response["Location"] == reverse("board_edit", args=[SLUG, "city"])
    assert not Department.objects.filter(slug="archives").exists()
    assert not Link.objects.filter(supplier__slug="orphanage").exists()
    entry = AuditEntry.objects.get(action="department")
    assert entry.before["links"] == [
        "The City Archives → The Street Preachers",
        "The Orphanage → The City Archives",
    ]


def test_a_removal_that_strands_a_department_is_shown_before_and_refused_r13(
    demo: Campaign, client_for: ClientFor
) -> None:
    before = board_rows(demo)
    gm = client_for("gm")
    confirm = page_of(gm.get(dept_url("department_delete", "mint")))
    assert "It cannot be removed yet" in confirm and "The City Watch would stay in" in confirm
    gm.post(dept_url("department_delete", "mint"))
    assert board_rows(demo) == before


def test_queued_orders_naming_a_department_are_counted_before_it_goes(
    demo: Campaign, client_for: ClientFor
) -> None:
    from campaigns.models import Order, Turn

    Order.objects.create(
        turn=demo.turns.get(status=Turn.Status.OPEN), board=Board.objects.get(slug="city"),
        player=city("mint").structure.player, kind=Order.Kind.ATTEMPT,
        payload={"attacker": "city-watch", "target": "orphanage"},
    )  # fmt: skip
    confirm = page_of(client_for("gm").get(dept_url("department_delete", "orphanage")))
    assert (
        "1 queued order of this turn names it: it will be rejected when the turn is processed"
        in confirm
    )


def test_the_gm_chooses_a_classic_ruleset_when_adding_a_board_r90(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R90: the ruleset is chosen when the board is made, explained on the form, and kept."""
    gm = client_for("gm")
    form = page_of(gm.get(reverse("board_new", args=[SLUG])))
    assert "Classic (groups, after the card game Illuminati, RULES part 10)" in form
    assert "It cannot change later" in form
    post = {"name": "The Cabal", "slug": "cabal", "ruleset": "classic"}
    response = gm.post(reverse("board_new", args=[SLUG]), post)
    assert response["Location"] == reverse("board", args=[SLUG, "cabal"])
    # Its page tells the GM where its groups come from, and how to remove the empty board.
    empty = gm.get(response["Location"]).content.decode()
    assert "This classic board has no groups yet" in empty
    assert reverse("board_import", args=[SLUG]) in empty
    assert reverse("board_delete", args=[SLUG, "cabal"]) in empty
    board = Board.objects.get(slug="cabal")
    assert board.ruleset == "classic"
    assert ClassicBoard.objects.get(board=board).state == {
        "players": [], "groups": [], "deck": [], "destroyed_by": {}
    }  # fmt: skip
    entry = AuditEntry.objects.filter(action="board").latest("pk")
    assert entry.after == {"created": "The Cabal", "ruleset": "classic"}
    # Renaming it keeps its ruleset: no form offers to change it.
    gm.post(
        reverse("board_edit", args=[SLUG, "cabal"]),
        {"name": "The Old Cabal", "ruleset": "standard"},
    )
    assert Board.objects.get(slug="cabal").ruleset == "classic"


def test_an_unknown_ruleset_is_refused_and_no_board_is_made(
    demo: Campaign, client_for: ClientFor
) -> None:
    post = {"name": "The Cabal", "slug": "cabal", "ruleset": "chess"}
    response = client_for("gm").post(reverse("board_new", args=[SLUG]), post)
    assert response.status_code == 200
    assert "Select a valid choice" in page_of(response)
    assert not Board.objects.filter(slug="cabal").exists()

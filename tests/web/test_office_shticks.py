"""The GM grants an office shticks and takes them away (RULES R60, R80, R53): the same form
per kind as a character's shticks, the office's list in words, the engine's state carrying
them for the holder's controller, the audit log, refusals that change nothing, and a removed
department taking the office shticks that name it along."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import AuditEntry, Campaign, Office
from campaigns.selectors.state import board_state
from tests.support.handmade import ClientFor
from tests.support.page_text import text_of

pytestmark = pytest.mark.django_db
SLUG = "tourmaline"


def mayor() -> Office:
    return Office.objects.select_related("board").get(name="Mayor of Tourmaline")


def new_url(kind: str) -> str:
    return reverse("office_shtick_new", args=[SLUG, "city", mayor().pk, kind])


def test_the_gm_grants_the_mayor_a_die_on_every_attack_and_takes_it_away(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    office_page = reverse("office_edit", args=[SLUG, "city", mayor().pk])
    assert "Shticks of the office" in text_of(gm.get(office_page))
    assert "None yet." in text_of(gm.get(office_page))

    response = gm.post(new_url("dice"), {"roll": "attack", "department": "", "amount": "1"})

    assert response.status_code == 302 and response["Location"] == office_page
    shtick = {"kind": "dice", "roll": "attack", "amount": 1, "department": None}
    assert mayor().shticks == [shtick]
    page = text_of(gm.get(office_page))
    assert "+1 die on linking attempts by every department of the holder's controller" in page
    offices = text_of(gm.get(reverse("board_offices", args=[SLUG, "city"])))
    assert "+1 die on linking attempts by every department of the holder's controller" in offices
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.OFFICES).latest("pk")
    assert entry.before["shticks"] == [] and entry.after["shticks"] == [shtick]
    # R80: the state the turn job resolves carries it, for the holder's controller.
    state = board_state(mayor().board)
    assert [o["shticks"] for o in state["offices"]] == [[shtick]]

    removed = gm.post(reverse("office_shtick_remove", args=[SLUG, "city", mayor().pk, 0]))

    assert removed.status_code == 302 and mayor().shticks == []
    assert "Shtick removed." in text_of(gm.get(removed["Location"]))


def test_a_department_shtick_names_one_of_the_offices_board(
    demo: Campaign, client_for: ClientFor
) -> None:
    """The form offers the city's departments only (the state names an office's shticks
    by its board's slugs), and sends the engine the slug."""
    gm = client_for("gm")
    page = gm.get(new_url("production")).content.decode()
    assert "The Mint" in page and "The Spice House" not in page  # harbour's
    mint = mayor().board.departments.get(slug="mint")

    gm.post(new_url("production"), {"department": str(mint.pk), "amount": "2"})

    assert mayor().shticks == [{"kind": "production", "department": "mint", "amount": 2}]


def test_a_shtick_the_form_refuses_changes_nothing_and_says_why(
    demo: Campaign, client_for: ClientFor
) -> None:
    gm = client_for("gm")
    response = gm.post(new_url("cross_board"), {"board_a": "city", "board_b": "city"})

    assert response.status_code == 200
    assert "Choose two different boards." in text_of(response)
    assert mayor().shticks == []
    missing = gm.post(new_url("link_limit"), {"department": "", "out": "", "into": ""})
    assert missing.status_code == 200 and mayor().shticks == []


def test_an_unknown_kind_or_place_is_not_found(demo: Campaign, client_for: ClientFor) -> None:
    gm = client_for("gm")
    assert gm.get(new_url("teleport")).status_code == 404
    gone = reverse("office_shtick_remove", args=[SLUG, "city", mayor().pk, 3])
    assert gm.post(gone).status_code == 404
    assert mayor().shticks == []


def test_removing_a_department_takes_the_office_shticks_naming_it(
    demo: Campaign, client_for: ClientFor
) -> None:
    """R60/R80: a shtick naming a department gone from the board would name nothing the
    turn job's state holds; it goes with the department, and the audit log says so."""
    office = mayor()
    keep = {"kind": "attempts", "amount": 1}
    office.shticks = [{"kind": "production", "department": "orphanage", "amount": 1}, keep]
    office.save()
    orphanage = office.board.departments.get(slug="orphanage")
    assert orphanage.structure_id is None  # uncontrolled: nothing stranded by its removal

    response = client_for("gm").post(reverse("department_delete", args=[SLUG, "city", "orphanage"]))

    assert response.status_code == 302
    assert mayor().shticks == [keep]
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.OFFICES).latest("pk")
    assert entry.after == {"shticks": [keep]}

"""The GM builds and fixes a board in a real browser (Debian's chromium), mistakes included:
adds a board and its departments (a consumer nothing can fund, a stash beyond capacity, a
department whose Money nothing consumes), places a player's structure (a department that
would leave it), reveals the board to everyone as rumoured, edits a player, and presses
Start on a campaign that is not ready. Screenshots in tests/test-output/."""

from __future__ import annotations

from typing import Any

from campaigns.models import AuditEntry, Department, Knowledge
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def add_department(gm: Any, base: str, **fields: str) -> None:
    gm.goto(f"{base}/c/tourmaline/board/docks/departments/new/")
    for name, value in fields.items():
        if name.endswith("_type"):
            gm.select_option(f"#id_{name}", value)
        else:
            gm.fill(f"#id_{name}", value)
    gm.get_by_role("button", name="Add the department").click()


def test_a_gm_builds_a_board_and_places_a_player(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    gm.goto(f"{base}/c/tourmaline/")
    gm.get_by_role("link", name="Add a board").click()
    gm.fill("#id_name", "The Docks")
    gm.fill("#id_slug", "docks")
    gm.get_by_role("button", name="Add the board").click()
    expect(gm.locator(".alert-success")).to_contain_text("The Docks is added")

    # A crane that consumes Authority, which nothing on the new board produces: kept, noted.
    add_department(gm, base, name="The Crane", slug="crane", consumes_type="authority",
                   consumes_amount="1", produces_type="money", produces_amount="2")  # fmt: skip
    expect(gm.locator(".alert-warning")).to_contain_text("Nothing on this board produces Authority")
    shot(gm, "editor-department-note-gm-desktop")

    # An office with more tokens than it can keep (R36): kept, with what the next spawn
    # would discard (the GM may mean them to be spent this week).
    add_department(gm, base, name="The Harbour Office", slug="office", produces_type="authority",
                   produces_amount="1", people="9")  # fmt: skip
    expect(gm.locator(".alert-success")).to_contain_text("The Harbour Office is added")
    expect(gm.locator(".alert-warning")).to_contain_text(
        "it will discard 8 People and 1 Authority at the next spawn"
    )
    shot(gm, "editor-department-discard-warning-gm-desktop")
    assert Department.objects.get(slug="office").people == 9

    # Links: the office supplies the crane (Authority); the crane cannot supply the office.
    gm.goto(f"{base}/c/tourmaline/board/docks/edit/crane/")
    supplied = gm.get_by_label("A department that supplies The Crane")
    supplied.select_option(label="The Harbour Office (consumes nothing, produces Authority 1)")
    supplied.locator("xpath=..").get_by_role("button", name="Add link").click()
    expect(gm.locator(".alert-success")).to_contain_text(
        "The Harbour Office now supplies The Crane"
    )
    # Nothing on the board consumes the crane's Money: no list, and the page says why.
    expect(gm.get_by_label("A department The Crane supplies")).to_have_count(0)
    expect(gm.locator("main")).to_contain_text(
        "No other department of this board consumes Money without it (R10)."
    )
    shot(gm, "editor-links-gm-desktop")

    # Structures: the crane to Alice, not home and with no link to another of hers (R13).
    gm.get_by_role("link", name="Structures").click()
    gm.get_by_label("The Crane is held by").select_option(label="Alice Ambergris, Comptroller")
    gm.get_by_role("button", name="Save the structures").click()
    expect(gm.locator("#refused")).to_contain_text(
        "would leave the structure at the next link phase"
    )
    shot(gm, "editor-structures-refused-gm-desktop")
    gm.get_by_label("The Crane is a home department").check()
    gm.get_by_role("button", name="Save the structures").click()
    expect(gm.locator(".alert-success")).to_contain_text("The structures are saved")
    shot(gm, "editor-structures-gm-desktop")

    # Knowledge: reveal the city to everyone as rumoured.
    gm.goto(f"{base}/c/tourmaline/board/city/knowledge/")
    gm.get_by_role("button", name="Apply").click()
    expect(gm.locator(".alert-success")).to_contain_text("changed")
    assert Knowledge.objects.filter(department__slug="rebel-cell", level=1).count() == 3
    shot(gm, "editor-knowledge-gm-desktop")

    # A player's page: Perception.
    gm.goto(f"{base}/c/tourmaline/players/")
    gm.get_by_role("row", name="bob").get_by_role("link", name="Change…").click()
    gm.fill("#id_perception", "3")
    gm.get_by_role("button", name="Save", exact=True).click()
    expect(gm.locator(".alert-success")).to_contain_text("Saved.")
    shot(gm, "editor-member-gm-desktop")
    gm.get_by_role("link", name="Remove Bob Brackwater, Guildmaster…").click()
    shot(gm, "editor-member-remove-gm-desktop")

    gm.goto(f"{base}/c/tourmaline/board/docks/edit/")
    shot(gm, "editor-board-gm-desktop")
    assert AuditEntry.objects.filter(action="department").count() == 2

    # Removing: the crane says what goes with it; then the whole (unplayed) board.
    gm.get_by_role("link", name="The Crane").click()
    gm.get_by_role("link", name="Remove The Crane…").click()
    expect(gm.locator("#what-goes")).to_contain_text("The Harbour Office → The Crane")
    shot(gm, "editor-department-remove-gm-desktop")
    gm.get_by_role("button", name="Remove The Crane").click()
    expect(gm.locator(".alert-success")).to_contain_text("The Crane is removed from The Docks")
    gm.get_by_role("link", name="Remove The Docks…").click()
    expect(gm.locator("#what-goes")).to_contain_text("1 department and 0 links")
    shot(gm, "editor-board-remove-gm-desktop")
    gm.get_by_role("button", name="Remove The Docks").click()
    expect(gm.locator(".alert-success")).to_contain_text("The Docks is removed")

    # On a phone: the department page and the grid.
    phone = log_in(browser, base, "gm", PHONE)
    phone.goto(f"{base}/c/tourmaline/board/city/edit/mint/")
    shot(phone, "editor-department-gm-phone")
    phone.goto(f"{base}/c/tourmaline/board/city/knowledge/")
    shot(phone, "editor-knowledge-gm-phone")


def test_start_lists_what_a_new_campaign_lacks(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()  # for the GM's account
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    gm.get_by_role("link", name="New campaign…").click()
    gm.fill("#id_name", "The Iron Bureau")
    gm.fill("#id_time_zone", "Europe/Berlin")
    gm.get_by_role("button", name="Create the campaign").click()
    gm.get_by_role("button", name="Start the campaign").click()
    expect(gm.locator("#start-problems")).to_contain_text("There is no board yet")
    expect(gm.locator("#start-problems")).to_contain_text("There are no players yet")
    shot(gm, "editor-start-problems-gm-desktop")

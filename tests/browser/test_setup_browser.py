"""A GM sets a campaign up in a real browser (Debian's chromium): creates it from "My
campaigns", finds the set-up links on its page, changes a setting, adds an alignment pair
(RULES R5), and reads both changes in the audit log (R53)."""

from __future__ import annotations

from typing import Any

from campaigns.models import AuditEntry, Board, Campaign
from campaigns.selectors.board_files import board_csv, board_file
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot

pytestmark = BROWSER_MARKS


def csv_file(name: str, text: str) -> dict[str, Any]:
    return {"name": name, "mimeType": "text/csv", "buffer": text.encode()}


def test_a_gm_creates_a_campaign_and_sets_it_up(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()  # for its users; the GM makes a new campaign of their own
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)

    gm.get_by_role("link", name="New campaign…").click()
    gm.fill("#id_name", "The Iron Bureau")
    # No zone in the GM's profile: the browser's (New York, tests/support/browser.py), not UTC.
    expect(gm.locator("#id_time_zone")).to_have_value("America/New_York")
    gm.select_option("#id_deadline_weekday", label="Thursday")
    gm.fill("#id_deadline_time", "20:30")
    shot(gm, "setup-new-campaign-gm-desktop")
    gm.get_by_role("button", name="Create the campaign").click()
    expect(gm.locator(".alert-success")).to_contain_text("you are its GM")
    campaign = Campaign.objects.get(name="The Iron Bureau")
    assert campaign.memberships.get().user.username == "gm"
    shot(gm, "setup-campaign-page-gm-desktop")

    gm.get_by_role("link", name="Campaign settings").click()
    gm.fill("#id_reminder_hours", "6")
    gm.get_by_role("button", name="Save the settings").click()
    expect(gm.locator(".alert-success")).to_contain_text("Saved: Reminder, hours before")

    gm.goto(f"{base}/c/{campaign.slug}/alignments/")
    empty = gm.locator("tbody tr").nth(6)  # six lines of the default catalogue, then blanks
    empty.locator("input[type=text]").nth(0).fill("Nautical")
    empty.locator("input[type=text]").nth(1).fill("Landlocked")
    gm.get_by_role("button", name="Save the catalogue").click()
    expect(gm.locator(".alert-success")).to_contain_text("Alignment catalogue saved")
    shot(gm, "setup-alignments-gm-desktop")

    # A board from a file: first one with a mistake, listed; then the right one.
    gm.goto(f"{base}/c/{campaign.slug}/")
    gm.get_by_role("link", name="Import a board").click()
    # No players yet (invitations come later): the departments are all uncontrolled.
    harbour = board_file(Board.objects.get(slug="harbour"))
    for dept in harbour["departments"]:
        dept.update(structure=None, home=False)
    good = board_csv(harbour)
    bad = good.replace("warehouse,", "warehouse,,", 1)  # a cell too many on one line
    gm.set_input_files("#id_file", files=[csv_file("harbour.csv", bad)])
    gm.fill("#id_name", "The Docks")
    gm.fill("#id_slug", "docks")
    gm.get_by_role("button", name="Import the board").click()
    expect(gm.locator("#import-problems")).to_contain_text("Nothing was imported")
    shot(gm, "setup-board-import-problems-gm-desktop")
    gm.set_input_files("#id_file", files=[csv_file("harbour.csv", good)])
    gm.fill("#id_name", "The Docks")
    gm.fill("#id_slug", "docks")
    gm.get_by_role("button", name="Import the board").click()
    # A department with Impress or Obstruct 0 is named first, and the GM confirms it.
    expect(gm.locator("#import-warnings")).to_contain_text("Nothing is imported yet")
    shot(gm, "setup-board-import-warnings-gm-desktop")
    gm.get_by_role("button", name="Import it as it is").click()
    expect(gm.locator(".alert-success")).to_contain_text("Imported The Docks: 6 departments")
    shot(gm, "setup-board-imported-gm-desktop")

    gm.goto(f"{base}/c/{campaign.slug}/audit/")
    # Each entry's action, said once ("Settings", not "Settings: campaign settings").
    whats = gm.locator("tbody tr td:nth-child(3)").all_inner_texts()
    assert [w.strip() for w in whats] == ["Board: The Docks", "Alignment catalogue", "Settings"]
    shot(gm, "setup-audit-log-gm-desktop")
    assert AuditEntry.objects.filter(campaign=campaign).count() == 3
    # Filtered to the imported board: its import alone (R53).
    gm.select_option("#id_board", "docks")
    gm.get_by_role("button", name="Filter").click()
    expect(gm.locator("tbody tr")).to_have_count(1)
    expect(gm.locator("tbody")).to_contain_text("Board: The Docks")
    expect(gm.locator("#id_board")).to_have_value("docks")
    shot(gm, "setup-audit-log-filtered-gm-desktop")

    # On a phone, the settings page of the demo with a refusal the GM can read.
    phone = log_in(browser, base, "gm", PHONE)
    phone.goto(f"{base}/c/tourmaline/alignments/")
    criminal = phone.locator("tbody tr").nth(4)
    criminal.get_by_label("Remove line 5").check()
    phone.get_by_role("button", name="Save the catalogue").click()
    expect(phone.locator(".alert-danger")).to_contain_text("unknown alignment 'criminal'")
    shot(phone, "setup-alignments-refused-gm-phone")

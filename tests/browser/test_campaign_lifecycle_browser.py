"""A campaign from nothing to its end in a real browser (Debian's chromium), as new people
would do it (issue "A GM sets up and runs a long campaign"): grace signs up and creates a
campaign, imports a board from a file, invites two players who sign up through the link,
gives them their departments and starts; both queue an order, the turn is processed, the
GM edits a department (logged), undoes the turn (R52), processes it again, ends the campaign
and opens it (R51). Screenshots in tests/test-output/."""

from __future__ import annotations

import json
import re
from typing import Any

from campaigns.models import AuditEntry, Campaign, Order, Turn, TurnRecord
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot

pytestmark = BROWSER_MARKS

PASSWORD = "a-long-pass-phrase-9"
BOARD = {
    "slug": "harbour",
    "name": "The Harbour",
    "departments": [
        {"slug": "spice-house", "name": "The Spice House", "effect": 2, "obstruct": 1,
         "impress": 1, "consumes": {"type": "people", "amount": 1},
         "produces": {"type": "money", "amount": 2}, "functions": {"haggle": 2},
         "alignments": ["Criminal"], "stash": {"people": 2}, "description": "Spices."},
        {"slug": "shipwright", "name": "The Shipwright", "effect": 1, "obstruct": 2,
         "impress": 1, "consumes": {"type": "money", "amount": 1},
         "produces": {"type": "people", "amount": 2}, "functions": {"build": 2},
         "alignments": ["Straight"], "stash": {"money": 2}, "description": "Ships."},
        {"slug": "warehouse", "name": "The Warehouse", "effect": 1, "obstruct": 1,
         "impress": 0, "consumes": None, "produces": {"type": "money", "amount": 1},
         "functions": {}, "alignments": [], "description": "Crates."},
    ],
    "links": [],
}  # fmt: skip


def sign_up(page: Any, base: str, username: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)


def queue_function_roll(page: Any, base: str, slug: str) -> None:
    page.goto(f"{base}/c/{slug}/orders/harbour/new/function/")
    page.locator("#id_function").select_option(index=0)
    page.fill("#id_intent", "Keep the books straight")
    page.get_by_role("button", name="Queue order").click()


def process_turn(gm: Any, base: str, slug: str, number: int) -> None:
    from playwright.sync_api import expect

    gm.goto(f"{base}/c/{slug}/process/")
    gm.get_by_label(re.compile("resolve every queued order")).check()
    gm.get_by_role("button", name=f"Process turn {number}").click()
    expect(gm.locator(".alert-success")).to_contain_text(f"Turn {number} processed")


def test_a_campaign_from_sign_up_to_its_opening(
    live_server: Any, transactional_db: None, browser: Any, tmp_path: Any
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    gm = browser.new_context(viewport=DESKTOP).new_page()
    gm.goto(f"{base}/")
    gm.get_by_role("link", name="Make an account").click()
    sign_up(gm, base, "grace")
    shot(gm, "lifecycle-sign-up-desktop")
    gm.get_by_role("button", name="Make my account").click()
    gm.get_by_role("link", name="New campaign…").click()
    gm.fill("#id_name", "The Iron Bureau")
    gm.fill("#id_time_zone", "Europe/Berlin")
    gm.get_by_role("button", name="Create the campaign").click()
    expect(gm.locator(".alert-success")).to_contain_text("you are its GM")
    campaign = Campaign.objects.get(name="The Iron Bureau")
    slug = campaign.slug

    # A board from a file.
    path = tmp_path / "harbour.json"
    path.write_text(json.dumps(BOARD))
    gm.get_by_role("link", name="Import a board").click()
    gm.set_input_files("#id_file", str(path))
    gm.get_by_role("button", name="Import the board").click()
    # The Warehouse's Impress is 0: the GM is asked first, and confirms.
    expect(gm.locator("#import-warnings")).to_contain_text("warehouse")
    gm.get_by_role("button", name="Import it as it is").click()
    expect(gm.locator(".alert-success")).to_contain_text("Imported The Harbour: 3 departments")

    # Two players through one link for two people.
    gm.goto(f"{base}/c/{slug}/players/")
    gm.fill("#id_uses", "2")
    gm.get_by_role("button", name="Make an invitation link").click()
    link = re.search(r"http\S+/join/\S+/", gm.locator(".alert-success").inner_text())
    assert link is not None
    for name in ("pat", "quinn"):
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(link.group(0))
        sign_up(page, base, name)
        if name == "pat":
            shot(page, "lifecycle-join-phone")
        page.get_by_role("button", name="Make my account and join").click()
        expect(page.locator(".alert-success")).to_contain_text("you joined as a player")

    # Their structures: one home department each; then start.
    gm.goto(f"{base}/c/{slug}/board/harbour/structures/")
    for dept, player in (("The Spice House", "pat"), ("The Shipwright", "quinn")):
        gm.get_by_label(f"{dept} is held by").select_option(label=player)
        gm.get_by_label(f"{dept} is a home department").check()
    gm.get_by_role("button", name="Save the structures").click()
    expect(gm.locator(".alert-success")).to_contain_text("The structures are saved")
    gm.goto(f"{base}/c/{slug}/")
    gm.get_by_role("button", name="Start the campaign").click()
    expect(gm.locator(".alert-success")).to_contain_text("The campaign has started")
    shot(gm, "lifecycle-started-gm-desktop")

    # Both players queue a function roll for their department.
    players = {}
    for name in ("pat", "quinn"):
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", name)
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        queue_function_roll(page, base, slug)
        expect(page.locator("#queued")).to_contain_text("Function roll")
        players[name] = page
    shot(players["pat"], "lifecycle-orders-pat-desktop")
    process_turn(gm, base, slug, 1)
    assert Order.objects.filter(turn__campaign=campaign, status="succeeded").count() == 2

    # A GM change between turns, in the audit log.
    gm.goto(f"{base}/c/{slug}/board/harbour/edit/warehouse/")
    gm.fill("#id_effect", "3")
    gm.get_by_role("button", name="Save the department").click()
    expect(gm.locator(".alert-success")).to_contain_text("saved")
    gm.goto(f"{base}/c/{slug}/audit/")
    expect(gm.locator("table")).to_contain_text("The Warehouse")

    # Undo turn 1: the confirmation says what happens; the orders come back.
    gm.goto(f"{base}/c/{slug}/")
    gm.get_by_role("link", name="Undo turn 1…").click()
    expect(gm.locator("main")).to_contain_text("The 2 orders of turn 1 are queued again")
    shot(gm, "lifecycle-undo-confirm-gm-desktop")
    gm.get_by_label(re.compile("Yes, undo this turn")).check()
    gm.get_by_role("button", name="Undo turn 1").click()
    expect(gm.locator(".alert-success")).to_contain_text("Turn 1 is undone")
    assert campaign.turns.get(number=1).status == Turn.Status.OPEN
    assert Order.objects.filter(turn__campaign=campaign, status="queued").count() == 2
    players["pat"].goto(f"{base}/c/{slug}/")
    expect(players["pat"].locator("body")).to_contain_text("The GM undid turn 1")
    shot(players["pat"], "lifecycle-undone-pat-desktop")

    # Processed again, then ended and opened.
    process_turn(gm, base, slug, 1)
    assert TurnRecord.objects.filter(turn__campaign=campaign, turn__number=1).count() == 1
    gm.get_by_role("link", name="End the campaign…").click()
    gm.get_by_label(re.compile("cannot be undone")).check()
    gm.get_by_role("button", name="End the campaign").click()
    expect(gm.locator(".alert-success")).to_contain_text("The campaign has ended")
    gm.get_by_role("link", name="Open it to every member…").click()
    gm.get_by_label(re.compile("cannot be undone")).check()
    gm.get_by_role("button", name="Open the campaign").click()
    expect(gm.locator(".alert-success")).to_contain_text("The campaign is open")
    shot(gm, "lifecycle-opened-gm-desktop")
    campaign.refresh_from_db()
    assert (campaign.status, campaign.opened) == (Campaign.Status.FINISHED, True)
    actions = set(AuditEntry.objects.filter(campaign=campaign).values_list("action", flat=True))
    assert {"board", "members", "department", "rollback", "campaign"} <= actions

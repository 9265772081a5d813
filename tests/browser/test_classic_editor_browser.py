"""The GM's classic editor and the classic CSV import in a real browser: the GM opens a group
of the classic demo from the board page, saves a treasury, has a change refused by the engine
with its reason, sets a player's goal; then pastes a classic CSV with a mistake and reads the
problem by line and column. Screenshots go to test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import ClassicBoard
from campaigns.services.demo import demo_create
from campaigns.services.demo_classic import classic_demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot, watch_for_errors
from tests.support.classic_files import classic_csv_with

pytestmark = BROWSER_MARKS


def test_the_gm_edits_a_classic_group_and_a_goal_and_imports_a_classic_csv(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()
    campaign = classic_demo_create()
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    problems = watch_for_errors(gm)
    gm.goto(f"{base}{reverse('board', args=[campaign.slug, 'underside'])}")
    section = gm.locator("#classic-gm")
    expect(section).to_contain_text("Edit the board (GM)")
    section.locator('[data-edit-group="salt-tax-office"]').click()
    expect(gm.locator("h1")).to_contain_text("salt-tax-office")
    gm.fill("#id_treasury", "17")
    gm.get_by_role("button", name="Save").click()
    expect(gm.locator(".alert-success")).to_be_visible()
    state = ClassicBoard.objects.get(board__campaign=campaign).state
    assert next(g for g in state["groups"] if g["slug"] == "salt-tax-office")["treasury"] == 17
    shot(gm, "classic-editor-saved-gm-desktop")

    gm.locator('#classic-gm [data-edit-group="grey-chancery"]').click()
    gm.fill("#id_arrows", "0")
    gm.get_by_role("button", name="Save").click()
    expect(gm.locator("#refused")).to_contain_text("Nothing was saved")
    shot(gm, "classic-editor-refused-gm-desktop")

    gm.goto(f"{base}{reverse('board', args=[campaign.slug, 'underside'])}")
    gm.locator("#classic-gm a", has_text="Bob").first.click()
    gm.select_option("#id_goal", "power")
    gm.fill("#id_amount", "30")
    shot(gm, "classic-editor-player-gm-desktop")
    gm.get_by_role("button", name="Save").click()
    expect(gm.locator(".alert-success")).to_contain_text("goal are saved")
    assert not problems, problems

    phone = log_in(browser, base, "gm", PHONE)
    phone.goto(f"{base}{reverse('board_import', args=[campaign.slug])}")
    phone.fill("#id_text", classic_csv_with("mafia", "power", "lots"))
    phone.fill("#id_name", "The Cabal")
    phone.fill("#id_slug", "cabal")
    phone.get_by_role("button", name="Import the board").click()
    expect(phone.locator("#import-problems")).to_contain_text("line 4 (mafia), power")
    shot(phone, "classic-csv-problem-gm-phone")

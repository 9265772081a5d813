"""The board import's progress in a real browser (Debian's chromium, issue 10): chosen, a
file of 1,000 departments is described at once (name, size, departments); on "Import" the
page says at once what is happening, with the seconds gone by, while the server works; the
answer replaces it: here the list of problems, since one department of the file is wrong.
Screenshots go to test-output/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.urls import reverse

from campaigns.models import Board
from campaigns.services.demo import demo_create
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, shot, watch_for_errors

pytestmark = BROWSER_MARKS

DEPARTMENTS = 1_000


def big_board_file(folder: Path) -> Path:
    """1,000 departments in a chain of Money, the last with a negative Effect (R4)."""
    departments = [
        {"slug": f"d{i}", "name": f"Department {i}", "effect": 1,
         "produces": {"type": "money", "amount": 1},
         "consumes": {"type": "money", "amount": 1} if i else None}
        for i in range(DEPARTMENTS)
    ]  # fmt: skip
    departments[-1]["effect"] = -1
    links = [{"from": f"d{i}", "to": f"d{i + 1}"} for i in range(DEPARTMENTS - 1)]
    path = folder / "big-city.json"
    path.write_text(json.dumps({"slug": "big-city", "name": "Big City",
                                "departments": departments, "links": links}))  # fmt: skip
    return path


def test_the_import_of_a_big_file_says_what_it_does_until_the_problems_replace_it(
    live_server: Any, transactional_db: None, browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    path = big_board_file(tmp_path)
    kilobytes = f"{path.stat().st_size / 1024:,.1f} KB"
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    problems = watch_for_errors(gm)
    gm.goto(f"{base}{reverse('board_import', args=[campaign.slug])}")
    progress = gm.locator("[data-import-progress]")
    expect(progress).to_be_hidden()

    gm.set_input_files("#id_file", str(path))
    expect(gm.locator("[data-import-file]")).to_have_text(
        f"big-city.json: {kilobytes}, departments: 1,000."
    )
    # First "Import" is only shown, not sent: a listener added after the page's own keeps
    # the form from leaving, so the page can be read while it would be waiting.
    gm.evaluate(
        "() => { window.held = (event) => event.preventDefault();"
        " document.querySelector('form[data-board-import]').addEventListener('submit', held); }"
    )
    gm.get_by_role("button", name="Import the board").click()
    expect(progress).to_be_visible()
    expect(gm.locator("[data-import-status]")).to_have_text(
        f"Importing big-city.json ({kilobytes}, departments: 1,000): sending the file, then "
        "checking every department by the rules; nothing is saved unless all of them pass."
    )
    expect(gm.locator("[data-import-elapsed]")).to_have_text("0 s so far.")
    expect(gm.locator("[data-import-elapsed]")).to_have_text("1 s so far.", timeout=3000)
    expect(gm.get_by_role("button", name="Import the board")).to_be_disabled()
    assert gm.locator("form[data-board-import]").get_attribute("aria-busy") == "true"
    shot(gm, "board-import-progress-gm-desktop")

    # Now sent: the server's answer replaces the page, the indicator with it.
    with gm.expect_navigation():
        gm.evaluate(
            "() => { const form = document.querySelector('form[data-board-import]');"
            " form.removeEventListener('submit', held); form.submit(); }"
        )
    expect(gm.locator("#import-problems")).to_contain_text(
        "department d999: effect must be a whole number >= 0 (R4)"
    )
    expect(gm.locator("#import-problems")).to_contain_text("Nothing was imported. 1 problem")
    expect(progress).to_be_hidden()
    assert not Board.objects.filter(campaign=campaign, slug="big-city").exists()
    shot(gm, "board-import-problems-big-gm-desktop")
    assert problems == []

"""The rest of the site in German in a real browser (issue 13, second part; Debian's chromium
via Playwright), on the demo after three turns (tests/support/history.py): Alice, with German
in her profile, reads her board's history, her structure's timeline and chart, the map's
tooltips and How to play; the GM, German too, reads the editor (a department's card, the
structures, the knowledge grid) and imports a board file with a mistake in it. On a desktop
and on a phone: German words are long, so nothing may stick out sideways. Screenshots go to
test-output/ for a human to look at."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns.models import Board, Profile
from campaigns.selectors.board_files import board_csv, board_file
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    OUTPUT,
    PHONE,
    log_in,
    map_ready,
    no_overflow,
    shot,
    watch_for_errors,
)
from tests.support.history import play_three_turns

pytestmark = BROWSER_MARKS


def german_session(browser: Any, base: str, username: str) -> tuple[Any, str, list[str]]:
    """The demo after three turns, `username` with German in their profile and logged in:
    (their page, the campaign's slug, the console errors as they come)."""
    slug = play_three_turns().campaign.slug
    user = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=user, defaults={"language": "de"})
    page = log_in(browser, base, username, DESKTOP)
    return page, slug, watch_for_errors(page)


def test_a_german_player_reads_the_history_the_map_and_how_to_play(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    alice, slug, problems = german_session(browser, base, "alice")

    alice.goto(f"{base}{reverse('board', args=[slug, 'city'])}")
    map_ready(alice)
    # The map's words are the page's: a link's detail line (type, priority, funding) is German.
    alice.locator("#links [data-edge]").first.focus()
    expect(alice.locator("[data-map-detail]")).to_contain_text("→")
    detail = alice.locator("[data-map-detail]").inner_text()
    assert "consumer" not in detail and "priority" not in detail, detail
    alice.get_by_role("link", name="Geschichte dieses Spielplans").click()
    expect(alice.get_by_role("heading", level=1)).to_contain_text("Geschichte von")
    expect(alice.locator("#history-turns")).to_contain_text("Der Beginn (Runde 0)")
    expect(alice.locator("main")).to_contain_text("Abteilungen, die Sie kannten")
    shot(alice, "german-history-index-desktop")

    alice.locator("#history-structures a", has_text="(Ihre)").click()
    expect(alice.get_by_role("heading", level=1)).to_contain_text("Ihre Machtstruktur auf")
    alice.locator("[data-history-chart][data-chart-ready]").wait_for()
    labels = alice.evaluate("() => window.historyCharts[0].data.labels")
    datasets = alice.evaluate("() => window.historyCharts[0].data.datasets.map(d => d.label)")
    assert labels[:2] == ["Runde 0", "Runde 1"] and datasets[:2] == [
        "Geld im Vorrat",
        "Geld produziert",
    ]
    expect(alice.locator("#structure-timeline")).to_contain_text("Runde für Runde")
    shot(alice, "german-structure-history-desktop")
    alice.set_viewport_size(PHONE)
    alice.reload()  # the chart sizes itself when drawn
    alice.locator("[data-history-chart][data-chart-ready]").wait_for()
    no_overflow(alice)
    shot(alice, "german-structure-history-phone")

    alice.goto(f"{base}{reverse('how_to_play')}")
    expect(alice.get_by_role("heading", level=1)).to_have_text("Spielanleitung")
    expect(alice.locator("#R43")).to_contain_text("Bei Gleichstand gewinnt der Verteidiger")
    expect(alice.locator("#contents")).to_contain_text("Wissen: der Nebel des Krieges")
    no_overflow(alice)
    shot(alice, "german-how-to-play-phone")
    alice.screenshot(path=str(OUTPUT / "german-how-to-play-phone-top.png"))
    alice.locator("#R43").scroll_into_view_if_needed()
    alice.screenshot(path=str(OUTPUT / "german-how-to-play-phone-r43.png"))
    alice.set_viewport_size(DESKTOP)
    alice.locator("#contents a[href='#part-5']").click()
    shot(alice, "german-how-to-play-desktop")
    assert problems == []


def test_a_german_gm_edits_a_board_and_imports_one(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    gm, slug, problems = german_session(browser, base, "gm")

    gm.goto(f"{base}{reverse('board_edit', args=[slug, 'city'])}")
    expect(gm.locator("#departments")).to_contain_text("Kontrolliert von")
    expect(gm.locator("main")).to_contain_text("Spielplan umbenennen")
    shot(gm, "german-editor-board-desktop")
    gm.locator("#departments a").first.click()
    expect(gm.locator("#card")).to_contain_text("Werte")
    expect(gm.locator("#links")).to_contain_text("Sie beliefert")
    gm.get_by_role("button", name="Abteilung speichern").wait_for()
    shot(gm, "german-editor-department-desktop")
    gm.set_viewport_size(PHONE)
    no_overflow(gm)
    shot(gm, "german-editor-department-phone")
    gm.set_viewport_size(DESKTOP)

    gm.goto(f"{base}{reverse('board_structures', args=[slug, 'city'])}")
    expect(gm.get_by_role("heading", level=1)).to_contain_text("Machtstrukturen auf")
    shot(gm, "german-editor-structures-desktop")
    gm.goto(f"{base}{reverse('board_knowledge', args=[slug, 'city'])}")
    expect(gm.locator("#bulk")).to_contain_text("Viele auf einmal")
    shot(gm, "german-editor-knowledge-desktop")

    # A board file with a mistake: the problem is listed, in German, by line.
    gm.goto(f"{base}{reverse('board_import', args=[slug])}")
    expect(gm.get_by_role("heading", level=1)).to_have_text("Spielplan importieren")
    harbour = board_file(Board.objects.get(campaign__slug=slug, slug="harbour"))
    for dept in harbour["departments"]:
        dept.update(structure=None, home=False)
    bad = board_csv(harbour).replace("warehouse,", "warehouse,,", 1)
    gm.set_input_files(
        "#id_file", files=[{"name": "docks.csv", "mimeType": "text/csv", "buffer": bad.encode()}]
    )
    gm.fill("#id_name", "Die Docks")
    gm.fill("#id_slug", "docks")
    gm.get_by_role("button", name="Spielplan importieren").click()
    expect(gm.locator("#import-problems")).to_contain_text("Nichts wurde importiert")
    expect(gm.locator("#import-problems")).to_contain_text("mehr Zellen als Spalten")
    shot(gm, "german-board-import-problems-desktop")
    gm.set_viewport_size(PHONE)
    no_overflow(gm)
    shot(gm, "german-board-import-problems-phone")
    assert problems == []

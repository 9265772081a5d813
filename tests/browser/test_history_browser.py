"""The board map, the turn scrubber and the history pages in a real browser (Debian's
chromium, issue 11), on the demo after three turns (tests/support/history.py): Alice scrubs
the City board through turns 0-2 and sees her City Watch captured and taken back; she opens
her structure's history and its chart; the GM compares two turns. No page may break the
Content-Security-Policy. Screenshots (desktop and phone) go to test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    PHONE,
    log_in,
    map_ready,
    shot,
    shot_map,
    watch_for_errors,
)
from tests.support.history import play_three_turns

pytestmark = BROWSER_MARKS


def node(nodes: list[dict[str, Any]], label: str) -> dict[str, Any]:
    found = [n for n in nodes if n["label"] == label]
    assert len(found) == 1, (label, [n["label"] for n in nodes])
    return found[0]


def test_a_player_scrubs_the_map_through_three_turns_and_sees_a_capture(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = play_three_turns().campaign
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    problems = watch_for_errors(alice)
    alice.goto(f"{base}{reverse('board', args=[campaign.slug, 'city'])}?turn=0")
    expect(alice.locator("[data-shown-turn]")).to_contain_text("turn 0")
    start = node(map_ready(alice), "The City Watch")
    assert start["mine"] is True and "changed" not in start["classes"]
    shot(alice, "board-map-alice-turn0-desktop")

    # Next: turn 1, the Thieves' Guild captured it; it is Carol's, marked as changed hands.
    alice.locator("[data-turn-nav] a[rel=next]").click()
    expect(alice.locator("[data-shown-turn]")).to_contain_text("after turn 1")
    nodes = map_ready(alice)
    captured = node(nodes, "The City Watch")
    assert captured["mine"] is False
    assert captured["controller"] == "Mother Carol of the Eye"
    assert "changed" in captured["classes"]
    assert "stash" not in captured  # R50: no longer hers, so no stash
    # The layout is stable: the department stays where it was.
    assert (captured["x"], captured["y"]) == (start["x"], start["y"])
    alice.locator("[data-board-map]").scroll_into_view_if_needed()
    shot(alice, "board-map-alice-turn1-desktop")
    shot_map(alice, "board-map-alice-turn1-desktop-map")
    # Tapping it shows its card beside the map.
    alice.evaluate(
        "() => window.boardMaps[0].nodes().filter(n => n.data('label') === 'The City Watch')"
        ".emit('tap')"
    )
    expect(alice.locator("[data-map-detail]")).to_contain_text("Mother Carol of the Eye")

    # The slider: let go at turn 2 and the page shows turn 2 (the Mint took it back).
    alice.locator("#turn-slider").fill("2")
    alice.locator("#turn-slider").dispatch_event("change")
    expect(alice.locator("[data-shown-turn]")).to_contain_text("after turn 2")
    back = node(map_ready(alice), "The City Watch")
    assert back["mine"] is True and "changed" in back["classes"]
    # A link in the list, reached by the keyboard, is shown on the map.
    alice.locator("#links [data-edge]").first.focus()
    expect(alice.locator("[data-map-detail]")).to_contain_text("→")
    shot(alice, "board-map-alice-turn2-desktop")
    alice.set_viewport_size(PHONE)
    alice.reload()
    map_ready(alice)
    shot(alice, "board-map-alice-turn2-phone")
    shot_map(alice, "board-map-alice-turn2-phone-map")
    assert problems == []


def test_a_player_opens_their_structure_history_and_its_chart(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = play_three_turns().campaign
    base = live_server.url
    alice = log_in(browser, base, "alice", PHONE)
    problems = watch_for_errors(alice)
    alice.goto(f"{base}{reverse('board', args=[campaign.slug, 'city'])}")
    alice.get_by_role("link", name="History of this board").click()
    alice.locator("#history-structures a", has_text="(yours)").click()
    expect(alice.get_by_role("heading", level=1)).to_contain_text("Your structure")
    alice.locator("[data-history-chart][data-chart-ready]").wait_for()
    datasets = alice.evaluate(
        "() => window.historyCharts[0].data.datasets.map(d => [d.label, d.data])"
    )
    assert [label for label, _ in datasets][:2] == ["Money held", "Money produced"]
    assert all(len(values) == 4 for _, values in datasets)  # turns 0-3
    expect(alice.locator("#turn-1")).to_contain_text("The City Watch was captured by")
    expect(alice.locator("#turn-2")).to_contain_text("Captured The City Watch")
    expect(alice.locator("#turn-3")).to_contain_text("The GM changed the stash of The Mint")
    shot(alice, "structure-history-alice-phone")
    alice.set_viewport_size(DESKTOP)
    alice.reload()
    alice.locator("[data-history-chart][data-chart-ready]").wait_for()
    shot(alice, "structure-history-alice-desktop")
    assert problems == []


def test_the_gm_compares_two_turns(live_server: Any, transactional_db: None, browser: Any) -> None:
    from playwright.sync_api import expect

    campaign = play_three_turns().campaign
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    problems = watch_for_errors(gm)
    gm.goto(f"{base}{reverse('board_history', args=[campaign.slug, 'city'])}")
    gm.select_option("#id_first", "0")
    gm.select_option("#id_second", "1")
    gm.get_by_role("button", name="Compare").click()
    expect(gm.locator("#comparison-changes h2")).to_contain_text("From turn 0 to turn 1")
    expect(gm.locator("#comparison-changes")).to_contain_text(
        "The City Watch: Alice Ambergris, Comptroller → Mother Carol of the Eye."
    )
    first, second = map_ready(gm, 0), map_ready(gm, 1)
    assert "changed" in node(second, "The City Watch")["classes"]
    assert "changed" not in node(first, "The City Watch")["classes"]
    # Both maps show the same part of the board, and follow each other.
    viewports = "() => window.boardMaps.map(cy => [cy.zoom(), cy.pan().x, cy.pan().y])"
    one, two = gm.evaluate(viewports)
    assert one == two
    gm.locator("#compare-first [data-map-zoom=in]").click()
    zoomed, follower = gm.evaluate(viewports)
    assert zoomed == follower and zoomed[0] > one[0]
    shot(gm, "compare-gm-desktop")
    gm.set_viewport_size(PHONE)
    gm.reload()
    map_ready(gm, 1)
    shot(gm, "compare-gm-phone")
    shot_map(gm, "compare-gm-phone-second-map", 1)
    # Reversed turns are compared in time order, and said so.
    gm.goto(f"{base}{reverse('compare_turns', args=[campaign.slug, 'city'])}?first=3&second=1")
    expect(gm.locator(".alert")).to_contain_text("Compared in time order: turn 1, then turn 3.")
    assert problems == []

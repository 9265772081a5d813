"""Every map opens fitted to all its departments (issue 25, blocker 3): Bob's harbour and
city boards and his turn 1 report, on a desktop and on a 390 px phone, and after the window
is narrowed under an open page. Before, a map whose whole would be drawn smaller than
"readable" opened on the viewer's own departments instead, and the rest sat outside the
frame until *Whole map* was pressed. Checked through Cytoscape itself: every department's
drawn box lies inside the map's container as the page lays it out. Screenshots go to
test-output/."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.support.browser import BROWSER_MARKS, OUTPUT, log_in, watch_for_errors
from tests.support.demo import play_turn_one

pytestmark = BROWSER_MARKS

WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 390, "height": 844}

# Each map of the page: its container's id, the container's size as laid out now, the size
# Cytoscape draws at, and the labels of the departments whose drawn box (label and border
# included) leaves the container.
OUTSIDE = """() => window.boardMaps.map(cy => {
    const box = cy.container();
    const w = box.clientWidth, h = box.clientHeight;
    const out = cy.nodes().filter(n => {
        const b = n.renderedBoundingBox();
        return b.x1 < 0 || b.y1 < 0 || b.x2 > w || b.y2 > h;
    });
    return {id: box.id, size: [w, h], drawn: [cy.width(), cy.height()],
            nodes: cy.nodes().length, outside: out.map(n => n.data('label'))};
})"""


def maps_drawn(page: Any) -> list[dict[str, Any]]:
    """Wait until every map of the page is drawn; what OUTSIDE says of each."""
    from playwright.sync_api import expect

    expect(page.locator("[data-board-map][data-map-ready]")).to_have_count(
        page.locator("[data-board-map]").count()
    )
    return list(page.evaluate(OUTSIDE))


def assert_whole(maps: list[dict[str, Any]], ids: set[str], where: str) -> None:
    assert {m["id"] for m in maps} == ids, where
    for m in maps:
        assert m["nodes"] > 0 and m["size"][0] > 0 and m["size"][1] > 0, (where, m)
        assert m["drawn"] == m["size"], (where, m)  # Cytoscape knows the container's size
        assert m["outside"] == [], (where, m)


def resize_to(page: Any, width: int) -> None:
    """The window `width` px wide, once Cytoscape has followed its containers (it does a
    moment after the window changes) and the page's observer has framed the maps again."""
    page.set_viewport_size({"width": width, "height": WIDE["height"]})
    page.wait_for_function(
        "() => window.boardMaps.every(cy => cy.width() === cy.container().clientWidth)"
    )
    page.wait_for_timeout(300)


def test_every_map_opens_with_all_its_departments_in_the_frame(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    campaign = play_turn_one().campaign
    pages = {
        "harbour": (reverse("board", args=[campaign.slug, "harbour"]), {"map-harbour"}),
        "city": (reverse("board", args=[campaign.slug, "city"]), {"map-city"}),
        "report": (
            reverse("turn_report", args=[campaign.slug, 1]),
            {"map-report-city", "map-report-harbour"},
        ),
    }
    for label, viewport in (("desktop", WIDE), ("phone", NARROW)):
        bob = log_in(browser, live_server.url, "bob", viewport)
        problems = watch_for_errors(bob)
        for name, (url, ids) in pages.items():
            bob.goto(f"{live_server.url}{url}")
            assert_whole(maps_drawn(bob), ids, f"{name} at {label}")
        assert problems == []
        if label == "phone":
            bob.goto(f"{live_server.url}{pages['harbour'][0]}")
            maps_drawn(bob)
            section = bob.locator("[data-map-section]").first
            section.scroll_into_view_if_needed()
            section.screenshot(path=str(OUTPUT / "map-fit-harbour-bob-phone-map.png"))


def test_a_map_stays_whole_when_the_window_changes_under_it(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    campaign = play_turn_one().campaign
    bob = log_in(browser, live_server.url, "bob", NARROW)
    problems = watch_for_errors(bob)
    report = reverse("turn_report", args=[campaign.slug, 1])
    bob.goto(f"{live_server.url}{report}")
    ids = {"map-report-city", "map-report-harbour"}
    assert_whole(maps_drawn(bob), ids, "report at 390 px")
    # Laid out for a phone (top to bottom), then widened to a desktop, then narrowed to a
    # 320 px phone and back.
    for width in (WIDE["width"], 320, NARROW["width"]):
        resize_to(bob, width)
        assert_whole(maps_drawn(bob), ids, f"report resized to {width} px")
    section = bob.locator("#board-city [data-map-section]")
    section.scroll_into_view_if_needed()
    section.screenshot(path=str(OUTPUT / "map-fit-report-city-bob-phone-map.png"))
    # A map in a part of the page hidden meanwhile (as in a tab not shown) while the window
    # changes, then shown again: framed whole at the size it is shown at.
    bob.evaluate("() => { document.getElementById('board-city').hidden = true; }")
    resize_to(bob, WIDE["width"])
    bob.evaluate("() => { document.getElementById('board-city').hidden = false; }")
    bob.wait_for_function(
        "() => window.boardMaps.every(cy => cy.width() === cy.container().clientWidth)"
    )
    bob.wait_for_timeout(300)
    assert_whole(maps_drawn(bob), ids, "report's city map shown again at 1280 px")
    bob.set_viewport_size(WIDE)
    bob.goto(f"{live_server.url}{report}")
    maps_drawn(bob)
    section = bob.locator("#board-city [data-map-section]")
    section.scroll_into_view_if_needed()
    section.screenshot(path=str(OUTPUT / "map-fit-report-city-bob-desktop-map.png"))
    assert problems == []

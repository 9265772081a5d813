"""The board map's details in a real browser (Debian's chromium, issue 11), checked both in
the map's data (the page's json_script) and in what Cytoscape drew: the home marker, one
colour per structure with grey for the uncontrolled, the viewer's own departments
highlighted, each arrow labelled with its type (and its priority for the supplier's
controller), an unfunded link dotted, the stash only on the viewer's own departments; every
department reached with the keyboard alone; and the failed attempt drawn as a dashed arrow
on the turn report's own map. Screenshots go to test-output/."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

from campaigns.models import Campaign, Department
from campaigns.services.turns import turn_process
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    OUTPUT,
    log_in,
    map_ready,
    shot,
    shot_map,
    watch_for_errors,
)
from tests.support.history import play_three_turns

pytestmark = BROWSER_MARKS

# map.css: the fill of an uncontrolled department and the border of the viewer's own.
GREY, BLUE = "rgb(206,212,218)", "rgb(13,110,253)"
# What Cytoscape drew on the map in container `id` (a page's maps are drawn in any order).
DRAWN = """(id) => window.boardMaps.find(cy => cy.container().id === id).elements().map(e => ({
    label: e.data('label'), text: e.data('text') || '', classes: e.classes(),
    fill: e.isNode() ? e.style('background-color') : null,
    border: e.isNode() ? [e.style('border-color'), e.style('border-width')] : null,
    line: e.isEdge() ? [e.style('line-style'), e.style('line-color')] : null,
    source: e.isEdge() ? e.source().data('label') : null,
    target: e.isEdge() ? e.target().data('label') : null }))"""


def opened(
    browser: Any, live_server: Any, username: str, url: Any, before: Any = None
) -> tuple[Any, list[str]]:
    """The demo after three turns (`before` it may change it), `username` logged in on a
    desktop, at `url` (of the campaign); the page, and the errors it will report."""
    campaign = play_three_turns().campaign
    if before is not None:
        before(campaign)
    page = log_in(browser, live_server.url, username, DESKTOP)
    problems = watch_for_errors(page)
    page.goto(f"{live_server.url}{url(campaign)}")
    return page, problems


def json_map(page: Any, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(page.locator(f"#map-data-{name}").text_content())
    return data


def drawn_edge(drawn: list[dict[str, Any]], source: str, target: str) -> dict[str, Any]:
    (edge,) = [e for e in drawn if (e["source"], e["target"]) == (source, target)]
    return edge


def test_the_map_shows_homes_structures_yours_links_funding_and_only_your_stash(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    def city_watch_goes_short(campaign: Campaign) -> None:
        # The City Watch asks for more Money than the Mint has left for it after the
        # Treasury (R12, R33): after turn 4 its link from the Mint is unfunded.
        Department.objects.filter(board__slug="city", slug="city-watch").update(consumes_amount=20)
        turn_process(campaign_id=campaign.pk, number=4)

    alice, problems = opened(
        browser, live_server, "alice", lambda c: reverse("board", args=[c.slug, "city"]),
        before=city_watch_goes_short,
    )  # fmt: skip
    nodes = {n["label"]: n for n in map_ready(alice)}
    data = {n["label"]: n for n in json_map(alice, "city")["nodes"]}

    # Home departments: marked in the data, drawn with ⌂ and a double border.
    assert [label for label, n in data.items() if n.get("home")] == ["The Mint", "The Treasury"]
    assert "⌂" in nodes["The Mint"]["text"] and "home" in nodes["The Mint"]["classes"]
    assert "⌂" not in nodes["The City Watch"]["text"]
    drawn = {d["label"]: d for d in alice.evaluate(DRAWN, "map-city") if d["fill"]}
    # One colour per structure, the same for all its departments; the uncontrolled grey.
    colours = {label: n.get("colour") for label, n in data.items() if n["level"] != "rumoured"}
    assert colours["The Mint"] == colours["The City Watch"] != colours["The Guild Hall"]
    assert colours["The Guild Hall"] == colours["The Printing Press"]
    assert colours["The Tax Office"] is None
    fills = {label: drawn[label]["fill"].replace(" ", "") for label in colours}
    assert fills["The Tax Office"] == GREY
    assert fills["The Mint"] == fills["The City Watch"] != fills["The Guild Hall"] != GREY
    # Alice's own: highlighted by a thick blue border; Bob's are not.
    assert [drawn["The Mint"]["border"][0].replace(" ", ""), drawn["The Mint"]["border"][1]] == [
        BLUE, "7px"  # and double: a home department of hers
    ]  # fmt: skip
    assert drawn["The City Watch"]["border"][0].replace(" ", "") == BLUE
    assert drawn["The City Watch"]["border"][1] == "5px"
    assert drawn["The Guild Hall"]["border"][0].replace(" ", "") != BLUE
    # The stash: on her own departments only (R50), in the data and in the drawing.
    assert [label for label, n in data.items() if "stash" in n] == [
        "The City Watch", "The Mint", "The Treasury"
    ]  # fmt: skip
    money, people, authority = data["The Mint"]["stash"]
    assert f"M {money} · P {people} · A {authority}" in nodes["The Mint"]["text"]
    assert "M " not in nodes["The Guild Hall"]["text"]

    edges = alice.evaluate(DRAWN, "map-city")
    # Each arrow: its type, and its priority where Alice controls the supplier (R12).
    assert drawn_edge(edges, "The Mint", "The Treasury")["text"] == "Money · 0"
    assert drawn_edge(edges, "The Mint", "The City Watch")["text"] == "Money · 1"
    assert drawn_edge(edges, "The Guild Hall", "The Printing Press")["text"] == "Money"
    # Funded or not: the City Watch went short this turn, the Treasury did not.
    edge_data = {(e["source"], e["target"]): e for e in json_map(alice, "city")["edges"]}
    ids = {label: n["id"] for label, n in data.items()}
    assert edge_data[ids["The Mint"], ids["The City Watch"]]["funded"] is False
    assert edge_data[ids["The Mint"], ids["The Treasury"]]["funded"] is True
    assert edge_data[ids["The Guild Hall"], ids["The Printing Press"]]["funded"] is None  # Bob's
    short = drawn_edge(edges, "The Mint", "The City Watch")
    assert "unfunded" in short["classes"] and short["line"][0] == "dotted"
    assert drawn_edge(edges, "The Mint", "The Treasury")["line"][0] == "solid"
    alice.locator("[data-board-map]").scroll_into_view_if_needed()
    shot_map(alice, "board-map-details-alice-desktop-map")
    shot(alice, "board-map-details-alice-desktop")
    assert problems == []


def test_every_department_of_the_map_is_reached_with_the_keyboard_alone(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    alice, problems = opened(
        browser, live_server, "alice", lambda c: f"{reverse('board', args=[c.slug, 'city'])}?turn=1"
    )
    labels = sorted(n["label"] for n in map_ready(alice))
    buttons = alice.locator("[data-map-nodes] button")
    expect(buttons).to_have_count(len(labels))
    assert buttons.all_text_contents() == labels  # every department, alphabetically

    def focused() -> str:
        return str(alice.evaluate("() => document.activeElement.dataset.mapNode || ''"))

    def selected() -> list[str]:
        return list(alice.evaluate("() => window.boardMaps[0].$(':selected').map(n => n.id())"))

    # From the top of the page, Tab until a department of the map has the focus.
    for _ in range(80):
        alice.keyboard.press("Tab")
        if focused():
            break
    first = focused()
    assert first, "Tab never reached a department of the map"
    assert selected() == [first]
    expect(alice.locator("[data-map-detail]")).to_contain_text(labels[0])
    # The next one with Tab: its node selected, its card shown.
    alice.keyboard.press("Tab")
    assert selected() == [focused()] != [first]
    watch = labels.index("The City Watch")
    for _ in range(watch - 1):
        alice.keyboard.press("Tab")
    detail = alice.locator("[data-map-detail]")
    expect(detail).to_contain_text("The City Watch")
    expect(detail).to_contain_text("Mother Carol of the Eye")  # hers after turn 1
    # Enter brings it into view at a readable size, in the middle of the map.
    alice.keyboard.press("Enter")
    zoom, x, y, width, height = alice.evaluate(
        "() => { const cy = window.boardMaps[0]; const p = cy.$(':selected').renderedPosition();"
        " return [cy.zoom(), p.x, p.y, cy.width(), cy.height()]; }"
    )
    assert zoom >= 0.8 and abs(x - width / 2) < 2 and abs(y - height / 2) < 2
    assert alice.locator("[data-map-nodes] button[aria-pressed=true]").all_text_contents() == [
        "The City Watch"
    ]
    alice.locator("[data-map-section]").scroll_into_view_if_needed()
    shot(alice, "board-map-keyboard-alice-desktop")
    assert problems == []


def test_the_turn_reports_map_draws_the_failed_attempt_as_a_dashed_arrow(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    bob, problems = opened(
        browser, live_server, "bob", lambda c: reverse("turn_report", args=[c.slug, 3])
    )
    attempts = [e for e in json_map(bob, "report-city")["edges"] if e.get("change") == "attempt"]
    assert [a["status"] for a in attempts] == ["failed"]
    bob.locator("#map-report-city[data-map-ready]").wait_for()
    (arrow,) = [e for e in bob.evaluate(DRAWN, "map-report-city") if "attempt" in e["classes"]]
    assert (arrow["source"], arrow["target"]) == ("The Printing Press", "The Tax Office")
    assert arrow["text"] == "attempt failed" and arrow["line"][0] == "dashed"
    bob.evaluate(
        "() => window.boardMaps.find(cy => cy.container().id === 'map-report-city')"
        ".edges('.attempt').emit('tap')"
    )
    expect(bob.locator("#board-city [data-map-detail]")).to_have_text(
        "The Printing Press tried to link The Tax Office: failed"
    )
    city = bob.locator("#board-city [data-map-section]")
    city.scroll_into_view_if_needed()
    city.screenshot(path=str(OUTPUT / "report-map-attempt-bob-desktop-map.png"))
    assert problems == []

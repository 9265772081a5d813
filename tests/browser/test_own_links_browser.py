"""Issue 25, blocker 4 (RULES R50) in a real browser: the GM links Alice's City Watch to
Carol's Temple of the Eye (a rumour to Alice) and Thieves' Guild (unknown to her). Alice
sees both links on the board map, drawn to name-only nodes, and in the links list, and
queues a break_link for one. The map's screenshot: test-output/own-links-map-alice.png."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns.models import Order
from campaigns.services.demo import demo_create
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    log_in,
    map_ready,
    shot,
    shot_map,
    watch_for_errors,
)
from tests.support.own_links import FAR, gm_links_alices_watch

pytestmark = BROWSER_MARKS

EDGES = """() => window.boardMaps[0].edges().map(e => [e.source().data('label'),
    e.target().data('label'), e.data('label') || e.data('type') || ''])"""


def test_alice_sees_and_breaks_the_links_the_gm_made_to_departments_she_does_not_know(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    gm_links_alices_watch(campaign)
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    problems = watch_for_errors(alice)
    alice.goto(f"{base}{reverse('board', args=[campaign.slug, 'city'])}")

    nodes = {n["label"]: n for n in map_ready(alice)}
    for name in FAR.values():
        assert nodes[name]["level"] == "rumoured"
        assert "stash" not in nodes[name] and "controller" not in nodes[name]
    drawn = {(s, t) for s, t, _ in alice.evaluate(EDGES)}
    assert {("The City Watch", name) for name in FAR.values()} <= drawn
    links = alice.locator("#links")
    for name in FAR.values():
        expect(links).to_contain_text(f"The City Watch → {name}")
    alice.locator("[data-board-map]").scroll_into_view_if_needed()
    shot_map(alice, "own-links-map-alice")
    shot(alice, "own-links-board-alice")

    alice.goto(f"{base}{reverse('order_new', args=[campaign.slug, 'city', 'break_link'])}")
    alice.locator("#id_link").select_option(label="The City Watch → The Temple of the Eye")
    alice.get_by_role("button", name="Queue order").click()
    expect(alice.locator(".alert-success")).to_contain_text("queued")
    order = Order.objects.get(kind=Order.Kind.BREAK_LINK)
    assert order.payload == {"from": "city-watch", "to": "temple"}
    assert problems == []

"""The classic demo (RULES part 10) in a real browser: alice reads the board, queues an
attack from its form after a preview of the need and the chance, the turn is processed, and
she reads the report; bob, on a phone, sees every group but no treasury other than his own
(R99). Screenshots go to test-output/."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns.models import ClassicBoard
from campaigns.services.demo import demo_create
from campaigns.services.demo_classic import classic_demo_create
from campaigns.services.turns import turn_process
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot, watch_for_errors

pytestmark = BROWSER_MARKS


def test_alice_attacks_on_the_classic_demo_and_bob_sees_no_treasury_but_his_own(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    demo_create()  # the users, as ./run makes them
    campaign = classic_demo_create()
    base = live_server.url
    alice = log_in(browser, base, "alice", DESKTOP)
    problems = watch_for_errors(alice)

    alice.goto(f"{base}{reverse('board', args=[campaign.slug, 'underside'])}")
    expect(alice.locator("body")).to_contain_text("The Grey Chancery")
    expect(alice.locator("body")).to_contain_text("Goal: at least 60 MB")
    shot(alice, "classic-board-alice-desktop")

    alice.goto(f"{base}{reverse('orders', args=[campaign.slug])}")
    alice.locator('[data-classic-kind="attack"]').click()
    options = alice.locator("#id_choice option")
    chosen = next(
        options.nth(i).get_attribute("value")
        for i in range(options.count())
        if options.nth(i).get_attribute("value")
    )
    alice.select_option("#id_choice", chosen)
    alice.get_by_role("button", name="Preview").click()
    preview = alice.locator("#preview")
    expect(preview.locator("[data-need]")).to_contain_text("or less on two dice")
    expect(preview.locator("[data-chance]")).to_contain_text(re.compile(r"\d"))
    expect(preview).to_contain_text("secret")
    shot(alice, "classic-attack-preview-alice-desktop")
    alice.get_by_role("button", name="Queue order").click()
    expect(alice.locator(".alert-success")).to_be_visible()
    expect(alice.locator("#queued")).to_contain_text("attacks")
    shot(alice, "classic-orders-queued-alice-desktop")

    bob = log_in(browser, base, "bob", PHONE)
    bob.goto(f"{base}{reverse('board', args=[campaign.slug, 'underside'])}")
    state = ClassicBoard.objects.get(board__campaign=campaign).state
    treasury = {g["slug"]: g["treasury"] for g in state["groups"]}
    alice_row = bob.locator('[data-group="grey-chancery"]')
    expect(alice_row).to_contain_text("?")
    expect(alice_row).not_to_contain_text(str(treasury["grey-chancery"]))
    expect(bob.locator('[data-group="order-of-lantern"]')).to_contain_text(
        str(treasury["order-of-lantern"])
    )
    shot(bob, "classic-board-bob-phone")

    turn_process(campaign_id=campaign.pk, number=1)
    alice.goto(f"{base}{reverse('turn_report', args=[campaign.slug, 1])}")
    expect(alice.locator("body")).to_contain_text("Turn 1 report")
    expect(alice.locator("[data-seat-order]")).to_contain_text("Alice Ambergris")
    expect(alice.locator("[data-figures]")).to_contain_text("or less on two dice")
    alice.locator("[data-classic-event] a", has_text="verify").first.click()
    expect(alice.locator("body")).to_contain_text("2 d6")
    expect(alice.locator("body")).to_contain_text("matches")
    shot(alice, "classic-verify-alice-desktop")
    alice.go_back()
    shot(alice, "classic-report-alice-desktop")
    assert problems == []


# Each map of the page: its size as laid out, the size Cytoscape draws at, its nodes, and the
# labels of those whose drawn box (label and border included) leaves the container.
OUTSIDE = """() => window.boardMaps.map(cy => {
    const box = cy.container();
    const w = box.clientWidth, h = box.clientHeight;
    const out = cy.nodes().filter(n => {
        const b = n.renderedBoundingBox();
        return b.x1 < 0 || b.y1 < 0 || b.x2 > w || b.y2 > h;
    });
    return {size: [w, h], drawn: [cy.width(), cy.height()],
            ids: cy.nodes().map(n => n.id()), outside: out.map(n => n.data('label'))};
})"""


def test_alice_sees_the_classic_map_whole_on_a_desktop_and_a_phone(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    """The classic board's map (classic/selectors/map.py) opens fitted to all its nodes at
    1280 and at 390 px: every structure, the table, the deck, the free arrows; and alice's
    map holds her treasuries only."""
    from playwright.sync_api import expect

    from tests.support.browser import OUTPUT, shot_map

    demo_create()
    campaign = classic_demo_create()
    state = ClassicBoard.objects.get(board__campaign=campaign).state
    shown = {g["slug"] for g in state["groups"] if g["place"] in ("structure", "table")}
    treasury = {g["slug"]: g["treasury"] for g in state["groups"]}
    url = f"{live_server.url}{reverse('board', args=[campaign.slug, 'underside'])}"
    for label, viewport in (("desktop", DESKTOP), ("phone", {"width": 390, "height": 844})):
        alice = log_in(browser, live_server.url, "alice", viewport)
        problems = watch_for_errors(alice)
        alice.goto(url)
        expect(alice.locator("[data-board-map][data-map-ready]")).to_have_count(1)
        (drawn,) = alice.evaluate(OUTSIDE)
        assert drawn["size"][0] > 0 and drawn["drawn"] == drawn["size"], (label, drawn)
        assert drawn["outside"] == [], (label, drawn)
        assert {f"group-{slug}" for slug in shown} <= set(drawn["ids"]), label
        assert {"pile-table", "pile-deck", "free-grey-chancery"} <= set(drawn["ids"]), label
        assert not any(i.startswith("group-") and i[6:] not in shown for i in drawn["ids"])
        # The map's text as drawn: alice's Illuminati's treasury, not bob's.
        texts = alice.evaluate("() => window.boardMaps[0].nodes().map(n => n.data('text'))")
        assert any(f"{treasury['grey-chancery']} MB" in t for t in texts), label
        assert not any(str(treasury["order-of-lantern"]) in t for t in texts), label
        alice.locator("[data-map-section]").scroll_into_view_if_needed()
        shot_map(alice, f"classic-map-alice-{label}")
        shot(alice, f"classic-board-map-alice-{label}")
        # The board at the start (turn 0, the demo's first record), from the scrubber: its
        # map whole too; nothing was played since, so the same groups as now.
        alice.get_by_role("link", name="← Start").click()
        expect(alice.locator("[data-shown-turn]")).to_have_text("at the start (turn 0)")
        expect(alice.locator("[data-board-map][data-map-ready]")).to_have_count(1)
        (start,) = alice.evaluate(OUTSIDE)
        assert start["outside"] == [] and start["drawn"] == start["size"], (label, start)
        assert set(start["ids"]) == set(drawn["ids"]), label
        shot_map(alice, f"classic-map-start-alice-{label}")
        assert problems == [], label
        assert (OUTPUT / f"classic-map-alice-{label}.png").exists()
        alice.close()

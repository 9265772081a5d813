"""What a report's map and a structure's chart draw when things pile up, in a real browser
(Debian's chromium), on the demo after three turns (tests/support/history.py): a failed
attempt's label is drawn only while it is pointed at, so the labels of several failed
attempts never lie over each other; and chart series with equal values each stay visible
(the lower one is wider, its colour showing beside the one on top)."""

from __future__ import annotations

import math
from typing import Any

from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, shot, watch_for_errors
from tests.support.history import play_three_turns

pytestmark = BROWSER_MARKS

MAP = "window.boardMaps.find(cy => cy.container().id === 'map-report-city')"

# A point of the failed attempt's line where nothing else lies (it may pass under a
# department), in the map's own pixels.
ON_THE_LINE = f"""() => {{
  const cy = {MAP};
  const edge = cy.edges('.attempt')[0];
  const a = edge.sourceEndpoint(), b = edge.targetEndpoint();
  for (let t = 0.5; t > 0.05; t -= 0.05) for (const u of [t, 1 - t]) {{
    const p = {{ x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u }};
    const hit = cy.renderer().findNearestElement(p.x, p.y, true, false);
    if (hit && hit.id() === edge.id()) {{
      return {{ x: p.x * cy.zoom() + cy.pan().x, y: p.y * cy.zoom() + cy.pan().y }};
    }}
  }}
  return null;
}}"""

# Two more failed attempts between the same departments as turn 3's (one each way), with
# the data and classes the page's own code gave turn 3's.
CROWD = f"""() => {{
  const cy = {MAP};
  const real = cy.edges('.attempt')[0];
  const data = real.data();
  cy.add([
    {{ group: 'edges', classes: real.classes().join(' '),
      data: Object.assign({{}}, data, {{ id: 'again-1' }}) }},
    {{ group: 'edges', classes: real.classes().join(' '),
      data: Object.assign({{}}, data,
        {{ id: 'again-2', source: data.target, target: data.source }}) }},
  ]);
}}"""

# Every label drawn, as the renderer last computed it: its centre, its size with the
# background's padding, its angle (the labels turn with their line), and the two
# departments its line joins.
LABELS = f"""() => {{
  const cy = {MAP};
  const padding = (e) => e.pstyle('text-background-padding').pfValue;
  return cy.edges().filter(e => e.style('label')).map(e => {{
    const r = e._private.rscratch;
    return [e.id(), r.labelX, r.labelY, r.labelWidth + 2 * padding(e),
            r.labelHeight + 2 * padding(e), r.labelAngle || 0,
            [e.source().id(), e.target().id()].sort().join(' ')];
  }});
}}"""

FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def corners(box: list[Any]) -> list[tuple[float, float]]:
    _, x, y, width, height, angle, _ = box
    cos, sin = math.cos(angle), math.sin(angle)
    return [
        (x + dx * cos - dy * sin, y + dx * sin + dy * cos)
        for dx, dy in ((-width / 2, -height / 2), (width / 2, -height / 2),
                       (width / 2, height / 2), (-width / 2, height / 2))
    ]  # fmt: skip


def separated(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Two turned rectangles do not overlap when, along the direction of one of their sides,
    their shadows leave a gap (the separating axis test)."""
    for shape in (a, b):
        for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1], strict=True):
            axis = (y1 - y2, x2 - x1)
            on_a = [axis[0] * x + axis[1] * y for x, y in a]
            on_b = [axis[0] * x + axis[1] * y for x, y in b]
            if max(on_a) <= min(on_b) or max(on_b) <= min(on_a):
                return True
    return False


def overlapping(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    """The pairs of labels on lines between the same two departments that overlap. (Labels
    of lines between different departments can still meet where a layout brings the lines
    close; nothing in the map's style can rule that out, so it is not claimed.)"""
    return [
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[-1] == b[-1] and not separated(corners(a), corners(b))
    ]


def point_at_the_line(page: Any) -> None:
    """Move the mouse onto the failed attempt's line. The spot is scrolled to the middle of
    the window first (on a tall map it can lie below the fold, where a mouse cannot point),
    and computed afresh until the map says the line is pointed at: the map may be framed
    again after the spot is computed (its ResizeObserver fires when the page settles), and a
    loaded machine can take seconds to turn a mouse move into Cytoscape's mouseover."""
    labelled = f"() => {MAP}.edges('.attempt')[0].style('label') !== ''"
    for _ in range(6):
        spot = page.evaluate(ON_THE_LINE)
        assert spot is not None, "no free point on the failed attempt's line"
        page.evaluate(
            """(y) => { const top = document.getElementById('map-report-city')
                          .getBoundingClientRect().top;
                        window.scrollBy(0, top + y - window.innerHeight / 2); }""",
            spot["y"],
        )
        box = page.locator("#map-report-city").bounding_box()
        page.mouse.move(box["x"] + spot["x"], box["y"] + spot["y"], steps=5)
        try:
            page.wait_for_function(labelled, timeout=5000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the pointer never landed on the failed attempt's line")


def test_failed_attempts_labels_show_on_pointing_and_never_overlap(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    campaign = play_three_turns().campaign
    gm = log_in(browser, live_server.url, "gm", DESKTOP)
    problems = watch_for_errors(gm)
    gm.goto(f"{live_server.url}{reverse('turn_report', args=[campaign.slug, 3])}")
    gm.locator("#map-report-city[data-map-ready]").wait_for()
    attempt = f"{MAP}.edges('.attempt')[0]"
    assert gm.evaluate(f"() => {attempt}.data('text')") == "attempt failed"
    assert gm.evaluate(f"() => {attempt}.style('label')") == ""

    # Pointed at with the mouse, its label shows; the pointer gone, it hides again.
    gm.locator("#map-report-city").scroll_into_view_if_needed()
    point_at_the_line(gm)
    gm.wait_for_function(f"() => {attempt}.style('label') === 'attempt failed'")
    shot(gm, "report-map-failed-attempt-pointed")
    box = gm.locator("#map-report-city").bounding_box()
    gm.mouse.move(box["x"] + 2, box["y"] + 2)
    gm.wait_for_function(f"() => {attempt}.style('label') === ''")

    # Three failed attempts between the same two departments: none shows its label unpointed;
    # shown all at once, they (and a link between the two, if any) bow apart and never touch.
    gm.evaluate(CROWD)
    gm.evaluate(FRAMES)
    boxes = gm.evaluate(LABELS)
    attempts = {"again-1", "again-2", gm.evaluate(f"() => {attempt}.id()")}
    assert [b[0] for b in boxes if b[0] in attempts] == []
    gm.evaluate(f"() => {MAP}.edges('.attempt').addClass('hover')")
    gm.evaluate(FRAMES)
    boxes = gm.evaluate(LABELS)
    assert {b[0] for b in boxes} >= attempts
    assert overlapping(boxes) == []
    assert problems == []


# Each pair of series with equal values on a segment of the chart: in a strip across that
# segment, is each series' colour drawn somewhere? (A series drawn exactly under another of
# the same width would not be.)
SEEN = """() => {
  const chart = window.historyCharts[0];
  const canvas = chart.canvas;
  const scale = canvas.width / canvas.clientWidth;
  const context = canvas.getContext('2d');
  const rgb = (css) => { const probe = document.createElement('canvas').getContext('2d');
    probe.fillStyle = css; probe.fillRect(0, 0, 1, 1);
    return Array.from(probe.getImageData(0, 0, 1, 1).data.slice(0, 3)); };
  const near = (p, c) => Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]) < 60;
  const sets = chart.data.datasets;
  const found = [];
  for (let a = 0; a < sets.length; a++) for (let b = a + 1; b < sets.length; b++) {
    for (let j = 0; j + 1 < sets[a].data.length; j++) {
      const same = (i) => sets[a].data[i] === sets[b].data[i];
      if (!same(j) || !same(j + 1)) continue;
      const at = (k, t) => {
        const p = chart.getDatasetMeta(k).data[j], q = chart.getDatasetMeta(k).data[j + 1];
        return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
      };
      // Only where no other series passes near (one of the same colour would fool it).
      const clear = (t) => sets.every((_, k) => k === a || k === b
        || Math.abs(at(k, t).y - at(a, t).y) > 14);
      const seen = [a, b].map((k) => {
        const colour = rgb(sets[k].borderColor);
        for (let t = 0.2; t <= 0.8; t += 0.05) {
          if (!clear(t)) continue;
          const x = Math.round(at(a, t).x * scale);
          const y = Math.round(at(a, t).y * scale);
          const column = context.getImageData(x, y - 5 * scale, 1, 10 * scale).data;
          for (let i = 0; i < column.length; i += 4) {
            if (near([column[i], column[i + 1], column[i + 2]], colour)) return true;
          }
        }
        return false;
      });
      if ([0.2, 0.5, 0.8].some(clear)) found.push([sets[a].label, sets[b].label, j, seen]);
    }
  }
  return found;
}"""


def test_chart_series_with_equal_values_each_stay_visible(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    campaign = play_three_turns().campaign
    alice = log_in(browser, live_server.url, "alice", DESKTOP)
    problems = watch_for_errors(alice)
    alice.goto(f"{live_server.url}{reverse('board_history', args=[campaign.slug, 'city'])}")
    alice.locator("#history-structures a", has_text="(yours)").click()
    alice.locator("[data-history-chart][data-chart-ready]").wait_for()
    pairs = alice.evaluate(SEEN)
    assert pairs, "the demo's chart has no series with equal values to look at"
    hidden = [(a, b, j) for a, b, j, seen in pairs if seen != [True, True]]
    assert hidden == []
    alice.locator("[data-history-chart]").scroll_into_view_if_needed()
    shot(alice, "structure-chart-equal-series")
    assert problems == []

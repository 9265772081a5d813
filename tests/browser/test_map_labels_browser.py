"""What a report's map and a structure's chart draw when things pile up, in a real browser
(Debian's chromium), on the demo after three turns (tests/support/history.py): a failed
attempt's label is drawn only while it is pointed at, so the labels of several failed
attempts never lie over each other; and chart series with equal values each stay visible
(the lower one is wider, its colour showing beside the one on top)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

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
# the data and classes the page's own code gave turn 3's; then every label drawn, as a box.
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
  return cy.edges().filter(e => e.style('label')).map(e => {{
    const b = e.boundingBox({{ includeNodes: false, includeEdges: false, includeLabels: true }});
    return [e.id(), b.x1, b.y1, b.x2, b.y2];
  }});
}}"""


def overlapping(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    found = []
    for i, (a, ax1, ay1, ax2, ay2) in enumerate(boxes):
        for b, bx1, by1, bx2, by2 in boxes[i + 1 :]:
            if ax1 < bx2 and bx1 < ax2 and ay1 < by2 and by1 < ay2:
                found.append((a, b))
    return found


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
    box = gm.locator("#map-report-city").bounding_box()
    spot = gm.evaluate(ON_THE_LINE)
    gm.mouse.move(box["x"] + spot["x"], box["y"] + spot["y"], steps=5)
    gm.wait_for_function(f"() => {attempt}.style('label') === 'attempt failed'")
    shot(gm, "report-map-failed-attempt-pointed")
    gm.mouse.move(box["x"] + 2, box["y"] + 2)
    gm.wait_for_function(f"() => {attempt}.style('label') === ''")

    boxes = gm.evaluate(CROWD)
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

// A structure's stash and production per turn, drawn with Chart.js from the JSON
// history/selectors/history.py put in the page; the table under it holds the same figures, for
// keyboards, screen readers and browsers without JavaScript. Held tokens are solid lines,
// production dashed; colours come from map.css. Its words come from the page, in the
// reader's language (data-turn-text, data-axis-text; the series' labels are in the JSON).
(function () {
  "use strict";
  if (typeof window.Chart !== "function") return;
  const root = getComputedStyle(document.documentElement);
  const colours = {
    money: root.getPropertyValue("--chart-money").trim() || "#198754",
    people: root.getPropertyValue("--chart-people").trim() || "#0d6efd",
    authority: root.getPropertyValue("--chart-authority").trim() || "#6f42c1",
  };

  const WIDER = 1.5;
  const SHAPES = { money: "circle", people: "rect", authority: "triangle" };

  document.querySelectorAll("[data-history-chart]").forEach((box) => {
    const source = document.getElementById(box.dataset.chartData);
    const canvas = box.querySelector("canvas");
    if (!source || !canvas) return;
    const data = JSON.parse(source.textContent);
    box.classList.add("chart-on");
    const many = data.labels.length > 30;
    const turnText = box.dataset.turnText || "Turn %(n)s";
    const axisText = box.dataset.axisText || "tokens";
    const chart = new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.labels.map((n) => turnText.replace("%(n)s", n)),
        datasets: data.series.map((series, i) => ({
          label: series.label,
          data: series.data,
          borderColor: colours[series.kind],
          backgroundColor: colours[series.kind],
          borderDash: series.measure === "produced" ? [6, 4] : [],
          // Series with equal values (no Money and no People, say) would draw one line
          // over the other: each is wider than the one drawn on top of it (Chart.js draws
          // the first series last), so equal lines show as stripes of their colours, and
          // each kind has its own point shape.
          order: i,
          borderWidth: 2 + WIDER * i,
          pointStyle: SHAPES[series.kind] || "circle",
          pointRadius: many ? 0 : 3 + i / 2,
          tension: 0,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: "index", intersect: false },
        scales: {
          y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: axisText } },
        },
        plugins: { legend: { position: "bottom" } },
      },
    });
    window.historyCharts = window.historyCharts || [];
    window.historyCharts.push(chart);
    box.dataset.chartReady = "true";
  });
})();

// The board map: draws each [data-board-map] from the JSON that
// selectors/board_map.py put in the page (a json_script: data, never run) or, on a big
// board, from the page's data-map-url (history/web/history.py board_map_data), with Cytoscape.js
// and its dagre (layered) layout. The JSON holds only what the viewer may see at that turn;
// the cards and the list of links beside the map are the same content for keyboards, screen
// readers and browsers without JavaScript, so this script only adds the picture, and a row
// of the map's departments as buttons, which the keyboard reaches (bindNodeList).
//
// Layout: dagre runs once, on the layout graph the page's data-layout-url gives (every
// department and link the viewer has seen on this board, at any turn, as opaque ids), and
// each turn's map places its departments where that layout put them: a department stays
// where it was from turn to turn. All styling goes through Cytoscape's style API (the site's
// Content-Security-Policy allows no inline style), with colours read from map.css.
//
// A classic board's map (classic/selectors/map.py, RULES R90-R99) is drawn by the same code:
// its nodes carry a `detail` line (the card's figures), may be small (`size`), left out of
// the list of buttons (`unlisted`) or drawn inside another (`parent`: a box, laid out by dagre
// as a compound node); its edges carry a `kind` (control, open) and a `hint`, the sentence
// that describes them, written by the server in the reader's language; its `layout` edges
// shape the layout only (a pile's groups chained into rows) and are never drawn.
//
// Words: every word the map writes comes from the page, in the reader's language: the JSON
// of #map-words (campaigns/_map_scripts.html, words/scripts.py), English if a page lacks it.
(function () {
  "use strict";
  if (typeof window.cytoscape !== "function") return;

  const root = getComputedStyle(document.documentElement);
  const css = (name, fallback) => root.getPropertyValue(name).trim() || fallback;
  const PALETTE = Array.from({ length: 8 }, (_, i) => css(`--map-colour-${i}`, "#888888"));
  const COLOUR = {
    uncontrolled: css("--map-uncontrolled", "#ced4da"),
    mine: css("--map-mine", "#0d6efd"),
    changed: css("--map-changed", "#fd7e14"),
    added: css("--map-new", "#198754"),
    broken: css("--map-broken", "#dc3545"),
    attempt: css("--map-attempt", "#6f42c1"),
    ink: css("--map-ink", "#212529"),
    muted: css("--map-muted", "#6c757d"),
  };
  const NODE = { width: 150, height: 56 };
  const SMALL = { width: 100, height: 30 };
  // A department chosen from the list of buttons is shown at least this large (its name
  // readable); the map itself opens whole (frame), however small that draws it.
  const READABLE = 0.8;
  const LARGEST = 1.25;
  // The zoom a reader may go down to, unless the whole map needs less (frame); and the
  // least any map may need, far below what a board of thousands would.
  const FLOOR = 0.1;
  const SMALLEST = 0.001;
  const PADDING = 24;
  const ENGLISH = {
    types: ["Money", "People", "Authority"], initials: ["M", "P", "A"],
    statuses: { funded: "funded", unfunded: "unfunded", self_sufficient: "self-sufficient" },
    outcomes: { failed: "failed", rejected: "rejected", queued: "queued" },
    only_rumours: "only rumours", yours: "yours", uncontrolled: "uncontrolled",
    home: "home department", changed_hands: "changed hands this turn",
    attempt: "attempt %(status)s", tried: "%(attacker)s tried to link %(target)s: %(status)s",
    priority: "priority %(n)s", funded: "consumer funded", unfunded: "consumer unfunded",
    new: "new this turn", broken: "broken this turn", undone: "made and broken again this turn",
  };
  const WORDS = Object.assign({}, ENGLISH, pageWords());
  const TYPES = WORDS.types;

  function pageWords() {
    const source = document.getElementById("map-words");
    try {
      return source ? JSON.parse(source.textContent) : {};
    } catch (error) {
      return {};
    }
  }

  // "%(name)s" in a sentence of WORDS, filled in (the same placeholders as gettext's).
  function say(key, values) {
    return WORDS[key].replace(/%\((\w+)\)s/g, (whole, name) => String(values[name]));
  }

  function outcome(status) {
    return WORDS.outcomes[status] || status;
  }

  function fill(node) {
    if (node.level === "rumoured") return "#ffffff";
    if (node.colour === null || node.colour === undefined || node.colour < 0) {
      return COLOUR.uncontrolled;
    }
    return PALETTE[node.colour % PALETTE.length];
  }

  // R80: a star on the holder of an office, a hollow one on its deputy.
  const OFFICE_MARKS = { holder: " ★", deputy: " ☆" };

  function nodeText(node) {
    const pyramid = node.illuminati ? "▲ " : "";
    const lines = [pyramid + node.label + (node.home ? " ⌂" : "") + (OFFICE_MARKS[node.office] || "")];
    if (node.detail) lines.push(node.detail);
    if (node.stash) lines.push(node.stash.map((n, i) => `${WORDS.initials[i]} ${n}`).join(" · "));
    return lines.join("\n");
  }

  function nodeClasses(node) {
    const classes = [node.level];
    if (node.level !== "rumoured" && !(node.colour >= 0)) classes.push("uncontrolled");
    if (node.mine) classes.push("mine");
    if (node.home) classes.push("home");
    if (node.changed_hands) classes.push("changed");
    if (node.office) classes.push("office");
    if (node.illuminati) classes.push("illuminati");
    if (node.size === "small") classes.push("small");
    return classes.join(" ");
  }

  function edgeText(edge) {
    if (edge.change === "attempt") return say("attempt", { status: outcome(edge.status) });
    const priority = edge.priority === null || edge.priority === undefined ? "" : ` · ${edge.priority}`;
    return (edge.type || "") + priority;
  }

  function edgeClasses(edge) {
    const classes = [];
    if (edge.kind) classes.push(edge.kind);
    if (edge.change) classes.push(edge.change);
    if (edge.change === "attempt" && edge.status !== "succeeded") classes.push("missed");
    if (edge.funded === false) classes.push("unfunded");
    return classes.join(" ");
  }

  function elements(data) {
    const nodes = data.nodes.map((node) => ({
      group: "nodes",
      data: Object.assign({}, node, { fill: fill(node), text: nodeText(node) }),
      classes: nodeClasses(node),
    }));
    const edges = data.edges.map((edge) => ({
      group: "edges",
      data: Object.assign({}, edge, { text: edgeText(edge) }),
      classes: edgeClasses(edge),
    }));
    return nodes.concat(edges);
  }

  function style() {
    return [
      // A tint of the structure's colour behind dark text: readable whatever the colour.
      { selector: "node", style: {
        shape: "round-rectangle", width: NODE.width, height: NODE.height,
        "background-color": "data(fill)", "background-opacity": 0.4,
        "border-width": 2, "border-color": "data(fill)",
        label: "data(text)", "text-wrap": "wrap", "text-max-width": NODE.width - 14,
        "text-valign": "center", "text-halign": "center", "font-size": 12, color: COLOUR.ink,
      } },
      { selector: "node.uncontrolled", style: { "background-opacity": 1, "border-color": "#adb5bd" } },
      { selector: "node.rumoured", style: {
        "border-style": "dashed", "border-width": 2, "border-color": COLOUR.muted,
        color: COLOUR.muted, "font-style": "italic",
      } },
      { selector: "node.mine", style: { "border-width": 5, "border-color": COLOUR.mine } },
      { selector: "node.home", style: { "border-style": "double", "border-width": 7 } },
      { selector: "node.changed", style: {
        "underlay-color": COLOUR.changed, "underlay-padding": 9, "underlay-opacity": 0.6,
        "underlay-shape": "round-rectangle",
      } },
      { selector: "node.office", style: { "font-weight": "bold" } },
      // A classic board: the Illuminati, the marks of free arrows, the piles and the
      // destroyed groups.
      { selector: "node.illuminati", style: { "font-weight": "bold" } },
      { selector: "node.small", style: {
        width: SMALL.width, height: SMALL.height, "text-max-width": SMALL.width - 8, "font-size": 10,
      } },
      { selector: "node.free", style: {
        "background-color": "#ffffff", "border-style": "dashed", "border-color": COLOUR.muted,
        color: COLOUR.muted,
      } },
      { selector: "node.pile", style: {
        "background-color": "#f8f9fa", "background-opacity": 1, "border-color": COLOUR.muted,
        "font-weight": "bold", "font-style": "italic",
      } },
      { selector: "node:parent", style: {
        "background-color": "#f8f9fa", "background-opacity": 1, "border-style": "dashed",
        "border-width": 2, "border-color": COLOUR.muted, "text-valign": "top",
        "text-halign": "center", "text-margin-y": -4, padding: 14,
      } },
      { selector: "node.destroyed", style: {
        "background-color": "#ffffff", "border-style": "dashed", "border-color": COLOUR.broken,
        color: COLOUR.muted,
      } },
      { selector: "node:selected", style: { "overlay-color": COLOUR.mine, "overlay-opacity": 0.2 } },
      { selector: "edge", style: {
        // Links between the same two departments (one each way, a failed attempt beside a
        // link) bow apart far enough that their labels, drawn at the middle, do not touch.
        width: 2, "curve-style": "bezier", "control-point-step-size": 64, "line-color": COLOUR.ink,
        "target-arrow-shape": "triangle", "target-arrow-color": COLOUR.ink,
        label: "data(text)", "font-size": 10, "text-rotation": "autorotate",
        "text-background-color": "#ffffff", "text-background-opacity": 0.9,
        "text-background-padding": 2,
      } },
      { selector: "edge.unfunded", style: {
        "line-style": "dotted", "line-color": COLOUR.broken, "target-arrow-color": COLOUR.broken,
      } },
      { selector: "edge.new", style: {
        width: 4, "line-color": COLOUR.added, "target-arrow-color": COLOUR.added,
      } },
      { selector: "edge.broken, edge.undone", style: {
        "line-style": "dashed", "line-color": COLOUR.broken, "target-arrow-color": COLOUR.broken,
      } },
      { selector: "edge.attempt", style: {
        "line-style": "dashed", "line-color": COLOUR.attempt, "target-arrow-color": COLOUR.attempt,
        "target-arrow-shape": "vee", color: COLOUR.attempt,
      } },
      // A failed attempt changed nothing, and several of them between near departments
      // write their labels over each other and over the links': its label shows only while
      // it is pointed at, tapped or picked from the list (the line already says "attempt").
      { selector: "edge.missed", style: { label: "" } },
      { selector: "edge.missed.hover, edge.missed.active, edge.missed:selected", style: {
        label: "data(text)", "z-index": 20,
      } },
      { selector: "edge.open", style: {
        "line-style": "dashed", "line-color": COLOUR.muted, "target-arrow-color": COLOUR.muted,
      } },
      { selector: "edge.active, edge:selected", style: { width: 6, "z-index": 10 } },
    ];
  }

  // dagre on a graph of ids, without drawing it: where each department goes.
  function layOut(graph, rankDir) {
    const known = new Set(graph.nodes);
    const small = new Set(graph.small || []);
    const parents = graph.parents || {};
    const els = graph.nodes.map((id) => ({
      data: known.has(parents[id]) ? { id, parent: parents[id] } : { id },
      classes: small.has(id) ? "small" : "",
    }));
    graph.edges.forEach(([source, target], i) => {
      if (known.has(source) && known.has(target) && source !== target) {
        els.push({ data: { id: `layout-${i}`, source, target } });
      }
    });
    const cy = window.cytoscape({
      headless: true,
      styleEnabled: true,
      elements: els,
      style: [
        { selector: "node", style: { width: NODE.width, height: NODE.height } },
        { selector: "node.small", style: { width: SMALL.width, height: SMALL.height } },
      ],
    });
    cy.layout({
      name: "dagre", rankDir, nodeSep: 40, rankSep: 90, edgeSep: 12, fit: false, animate: false,
    }).run();
    const positions = {};
    cy.nodes().forEach((node) => { positions[node.id()] = Object.assign({}, node.position()); });
    cy.destroy();
    return positions;
  }

  // The layout graph of the whole history; this turn's own graph if it cannot be had (or
  // lacks one of this turn's departments: the page is newer than the graph).
  async function positionsFor(container, data) {
    let graph = null;
    if (container.dataset.layoutUrl) {
      try {
        const response = await fetch(container.dataset.layoutUrl, { credentials: "same-origin" });
        if (response.ok) graph = await response.json();
      } catch (error) {
        graph = null;
      }
    }
    const ids = data.nodes.map((node) => node.id);
    if (!graph || !ids.every((id) => graph.nodes.includes(id))) {
      const drawn = data.edges.filter((edge) => edge.change !== "attempt");
      const edges = drawn.map((edge) => [edge.source, edge.target]).concat(data.layout || []);
      graph = { nodes: ids, edges };
      graph.small = data.nodes.filter((node) => node.size === "small").map((node) => node.id);
      graph.parents = {};
      data.nodes.forEach((node) => { if (node.parent) graph.parents[node.id] = node.parent; });
    }
    // A classic board (its data has a `layout` list, even empty) takes the direction that
    // fits best at every width: its trees are short and its table a block, so on a desktop
    // top to bottom (the tree as the card game lays it out) usually wins.
    if (container.clientWidth >= 700 && !data.layout) return layOut(graph, "LR");
    // A phone: the direction in which the board comes out largest in its frame (a board of
    // many unlinked departments is one long rank: across a phone it would be specks). Chosen
    // on the whole layout graph, so every turn of the board's history is drawn the same way.
    const fitted = (positions) => {
      const xs = graph.nodes.map((id) => positions[id].x);
      const ys = graph.nodes.map((id) => positions[id].y);
      const width = Math.max(...xs) - Math.min(...xs) + NODE.width;
      const height = Math.max(...ys) - Math.min(...ys) + NODE.height;
      return Math.min(container.clientWidth / width, container.clientHeight / height);
    };
    const across = layOut(graph, "TB");
    const down = layOut(graph, "LR");
    return fitted(down) > fitted(across) ? down : across;
  }

  function nodeSummary(data) {
    const parts = [data.label];
    if (data.level === "rumoured") parts.push(WORDS.only_rumours);
    else if (data.mine) parts.push(WORDS.yours);
    else if (data.controller !== undefined) parts.push(data.controller || WORDS.uncontrolled);
    if (data.detail) parts.push(data.detail);
    if (data.home) parts.push(WORDS.home);
    if (data.status) parts.push(WORDS.statuses[data.status] || data.status.replace("_", "-"));
    if (data.stash) parts.push(data.stash.map((n, i) => `${TYPES[i]} ${n}`).join(", "));
    if (data.changed_hands) parts.push(WORDS.changed_hands);
    if (data.posts) parts.push(...data.posts);
    return parts.join(" · ");
  }

  function edgeSummary(cy, data) {
    const name = (id) => cy.getElementById(id).data("label");
    if (data.hint) return data.hint;
    if (data.change === "attempt") {
      const status = outcome(data.status);
      return say("tried", { attacker: name(data.source), target: name(data.target), status });
    }
    const parts = [`${name(data.source)} → ${name(data.target)}`];
    if (data.type) parts.push(data.type);
    if (data.priority !== null && data.priority !== undefined) {
      parts.push(say("priority", { n: data.priority }));
    }
    if (data.funded === true) parts.push(WORDS.funded);
    if (data.funded === false) parts.push(WORDS.unfunded);
    const change = { new: WORDS.new, broken: WORDS.broken, undone: WORDS.undone }[data.change];
    if (change) parts.push(change);
    return parts.join(" · ");
  }

  function show(panel, content) {
    if (!panel) return;
    panel.replaceChildren(content);
  }

  // A department's card from the page (cards carry data-node), else its summary.
  function cardOf(scope, node) {
    const card = scope.querySelector(`[data-node="${CSS.escape(node.id())}"]`);
    if (!card) return document.createTextNode(nodeSummary(node.data()));
    const copy = card.cloneNode(true);
    copy.removeAttribute("id");
    copy.querySelectorAll("[id]").forEach((el) => el.removeAttribute("id"));
    return copy;
  }

  // The list of links beside the map: focusing or pointing at one shows it on the map.
  function bindLinkList(scope, cy, panel) {
    scope.querySelectorAll("[data-edge]").forEach((item) => {
      const edge = cy.getElementById(item.dataset.edge);
      if (edge.empty()) return;
      const on = () => {
        cy.edges().removeClass("active");
        edge.addClass("active");
        show(panel, document.createTextNode(edgeSummary(cy, edge.data())));
      };
      const off = () => edge.removeClass("active");
      item.addEventListener("focus", on);
      item.addEventListener("mouseenter", on);
      item.addEventListener("blur", off);
      item.addEventListener("mouseleave", off);
    });
  }

  // Every department of the map as a button above it, for keyboards (a canvas's nodes take
  // no focus): focusing one selects its node and shows its card, pressing it also brings
  // the node into view. Alphabetical, as a reader looks a name up; folded away on a big
  // board, where a row of hundreds of names would push the map off the screen.
  const UNFOLDED = 30;
  function bindNodeList(section, scope, cy, panel) {
    const list = section.querySelector("[data-map-nodes]");
    const box = section.querySelector("[data-map-nodes-box]");
    if (!list || !box) return;
    const nodes = cy.nodes().filter((node) => !node.data("unlisted")).sort((a, b) => a.data("label").localeCompare(b.data("label")));
    nodes.forEach((node) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-sm btn-outline-secondary";
      button.textContent = node.data("label");
      button.dataset.mapNode = node.id();
      const choose = () => {
        cy.nodes().unselect();
        node.select();
        show(panel, cardOf(scope, node));
      };
      button.addEventListener("focus", choose);
      button.addEventListener("click", () => {
        choose();
        if (cy.zoom() < READABLE) cy.zoom(READABLE);
        cy.center(node);
      });
      list.append(button);
    });
    // A node tapped on the map: its button says so (aria-pressed) for screen readers too.
    cy.on("select unselect", "node", (event) => {
      const button = list.querySelector(`[data-map-node="${CSS.escape(event.target.id())}"]`);
      if (button) button.setAttribute("aria-pressed", String(event.target.selected()));
    });
    box.open = nodes.length <= UNFOLDED;
    box.hidden = false;
  }

  // Every department in the frame, whatever the width: the whole map, as large
  // as fits, never larger than LARGEST. Cytoscape's fit stops at minZoom, so a map too big
  // for the container at the usual floor lowers the floor to the zoom that shows it whole
  // (the reader can zoom out as far as the whole map, no further). A container without a
  // size (in a hidden part of the page) is left alone: it is framed once it has one.
  function frame(cy) {
    if (cy.width() <= 2 * PADDING || cy.height() <= 2 * PADDING) return;
    cy.minZoom(SMALLEST);
    cy.fit(undefined, PADDING);
    if (cy.zoom() > LARGEST) {
      cy.zoom(LARGEST);  // a board of two departments is not a poster
      cy.center();
    }
    cy.minZoom(Math.min(FLOOR, cy.zoom()));
  }

  // Zoom and "whole map" as buttons, for keyboards and for phones without a pinch.
  function bindControls(section, cy) {
    const controls = section.querySelector("[data-map-controls]");
    if (!controls) return;
    controls.hidden = false;
    const zoomBy = (factor) => {
      const level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), cy.zoom() * factor));
      cy.zoom({ level, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    };
    controls.querySelector("[data-map-zoom=in]").addEventListener("click", () => zoomBy(1.25));
    controls.querySelector("[data-map-zoom=out]").addEventListener("click", () => zoomBy(0.8));
    controls.querySelector("[data-map-fit]").addEventListener("click", () => frame(cy));
  }

  // Maps of one group (the two turns of the compare page) show the same part of the board:
  // the last one's framing (it marks the changes) to start with, then every pan and zoom.
  const groups = {};
  function joinGroup(container, cy) {
    const name = container.dataset.mapGroup;
    if (!name) return;
    const members = (groups[name] = groups[name] || []);
    members.push(cy);
    if (members.length < document.querySelectorAll(`[data-map-group="${name}"]`).length) return;
    const lead = members[members.length - 1];
    let syncing = false;
    const follow = (source) => {
      if (syncing) return;
      syncing = true;
      members.forEach((other) => {
        if (other !== source) other.viewport({ zoom: source.zoom(), pan: Object.assign({}, source.pan()) });
      });
      syncing = false;
    };
    follow(lead);
    members.forEach((cy) => cy.on("viewport", () => follow(cy)));
  }

  // The map's data: in the page (a json_script), or, for a big board, from its own URL
  // (the page would be 400 KB bigger with it).
  async function mapData(container) {
    if (container.dataset.mapUrl) {
      try {
        const response = await fetch(container.dataset.mapUrl, { credentials: "same-origin" });
        return response.ok ? await response.json() : null;
      } catch (error) {
        return null;
      }
    }
    const source = document.getElementById(container.dataset.mapData);
    return source ? JSON.parse(source.textContent) : null;
  }

  async function draw(container) {
    const data = await mapData(container);
    if (!data) return;
    const section = container.closest("[data-map-section]") || document;
    const scope = container.closest("[data-map-scope]") || document;
    const panel = section.querySelector("[data-map-detail]");
    if (!data.nodes.length) return;
    section.querySelectorAll("[data-map-nojs]").forEach((el) => { el.hidden = true; });
    section.querySelectorAll("[data-map-hint]").forEach((el) => { el.hidden = false; });
    container.classList.add("map-on");
    const positions = await positionsFor(container, data);
    const cy = window.cytoscape({
      container,
      elements: elements(data),
      style: style(),
      layout: { name: "preset", positions: (node) => positions[node.id()], fit: false },
      minZoom: FLOOR,
      maxZoom: 2.5,
      autoungrabify: true,
      boxSelectionEnabled: false,
    });
    frame(cy);
    bindControls(section, cy);
    // A phone turned sideways, a window narrowed, a map in a part of the page shown only
    // now: draw at the new size, and frame the whole map again.
    if (window.ResizeObserver) {
      let size = [container.clientWidth, container.clientHeight];
      new ResizeObserver(() => {
        const now = [container.clientWidth, container.clientHeight];
        if (now[0] === size[0] && now[1] === size[1]) return;
        size = now;
        cy.resize();
        frame(cy);
        // For what zoomed in on a part of the map (map_orders.js: an order's departments).
        container.dispatchEvent(new CustomEvent("boardmap:framed", { detail: { cy } }));
      }).observe(container);
    }
    cy.on("tap", "node", (event) => show(panel, cardOf(scope, event.target)));
    bindNodeList(section, scope, cy, panel);
    cy.on("mouseover tap", "edge", (event) => {
      show(panel, document.createTextNode(edgeSummary(cy, event.target.data())));
    });
    cy.on("mouseover", "edge.missed", (event) => event.target.addClass("hover"));
    cy.on("mouseout", "edge.missed", (event) => event.target.removeClass("hover"));
    bindLinkList(scope, cy, panel);
    joinGroup(container, cy);
    window.boardMaps = window.boardMaps || [];
    window.boardMaps.push(cy);
    container.dataset.mapReady = "true";
    // For what builds on a drawn map (map_orders.js: the orders menu of the board page).
    container.dispatchEvent(new CustomEvent("boardmap:ready", { bubbles: true, detail: { cy } }));
  }

  document.querySelectorAll("[data-board-map]").forEach((container) => { draw(container); });
})();

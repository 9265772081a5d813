// Orders from the map, on the board page of a player while a turn is open: tap
// one of your departments (or choose it in the row of the map's departments) for the orders
// it can give now, each a link to its form, prefilled. An order that needs another
// department (a consumer to link, a department to try to link or to give to, the other end
// of a link to break, the departments a move passes) then asks for it: only the departments
// the forms offer are highlighted on the map, a tap on one opens the form with both ends
// filled in, and the same choices are listed as links for the keyboard.
//
// The menu is web/order_menu.py's JSON, fetched from the box's data-orders-url: the forms'
// own choices (the engine's legal ones, as R50 lets the player see them), with the words in
// the reader's language. board_map.js draws the map and says when (boardmap:ready). Without
// this script, the orders page and its forms are the way; the box stays hidden.
(function () {
  "use strict";
  const root = getComputedStyle(document.documentElement);
  const css = (name, fallback) => root.getPropertyValue(name).trim() || fallback;
  const ARROW = " → ";
  // Below this zoom (a whole board on a phone) a department is too small to tap: choosing an
  // order brings its departments into view, at most at TAPPABLE.
  const READABLE = 0.8;
  const TAPPABLE = 1;

  async function fetchMenu(url) {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      return response.ok ? await response.json() : null;
    } catch (error) {
      return null;
    }
  }

  // "%(name)s" in a sentence of the menu's words, filled in (gettext's placeholders).
  function say(text, values) {
    return text.replace(/%\((\w+)\)s/g, (whole, name) => String(values[name]));
  }

  function element(tag, attributes, ...children) {
    const el = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([key, value]) => {
      if (key === "className") el.className = value;
      else if (key === "text") el.textContent = value;
      else el.setAttribute(key, value);
    });
    el.append(...children);
    return el;
  }

  function highlight(cy) {
    cy.style()
      .selector("node.order-faded").style({ opacity: 0.35 })
      .selector("node.order-source, node.order-path").style({
        "underlay-color": css("--map-mine", "#0d6efd"), "underlay-padding": 8,
        "underlay-opacity": 0.35, "underlay-shape": "round-rectangle",
      })
      // A ring around the department, whatever its own fill and border.
      .selector("node.order-target").style({
        "outline-color": css("--map-new", "#198754"), "outline-width": 6, "outline-offset": 3,
        "outline-opacity": 1, "font-weight": "bold",
      })
      .update();
  }

  function bind(section, box, cy, menu) {
    const words = menu.words;
    const name = (id) => {
      const node = cy.getElementById(id);
      return node.empty() ? "" : node.data("label");
    };
    let chosen = null; // { id, action, path }: an order waiting for its other department
    let inView = null; // { ids, next }: the departments bringIntoView last brought into view
    // A new width frames the whole map again (board_map.js): the page changed under the map
    // (the box's new text brought a scroll bar) while an order waits for its tap. Bring its
    // departments back, or the phone shows them too small to tap.
    cy.container().addEventListener("boardmap:framed", () => {
      if (chosen && inView) bringIntoView(inView.ids, inView.next);
    });

    function show(...children) {
      box.replaceChildren(...children);
      box.hidden = false;
    }

    function mark(source, path, targets) {
      cy.batch(() => {
        cy.nodes().removeClass("order-source order-path order-target order-faded");
        if (!source) return;
        cy.nodes().forEach((node) => {
          const id = node.id();
          if (id === source) node.addClass("order-source");
          else if (path.includes(id)) node.addClass("order-path");
          else if (targets.has(id)) node.addClass("order-target");
          else node.addClass("order-faded");
        });
      });
    }

    // Fits the order's departments (`ids`, the source first) in the frame. When they lie too far
    // apart to be tapped at that zoom (a phone, a long row of unlinked departments), the map
    // zooms to READABLE on the choice nearest the source instead: the next tap is what matters,
    // and the box beside the map lists every choice by name.
    function bringIntoView(ids, next) {
      inView = { ids, next };
      if (cy.zoom() >= READABLE) return;
      const nodes = cy.nodes().filter((node) => ids.has(node.id()));
      cy.fit(nodes, 30);
      if (cy.zoom() > TAPPABLE) {
        cy.zoom(TAPPABLE);
        cy.center(nodes);
      } else if (cy.zoom() < READABLE) {
        cy.zoom(READABLE);
        cy.center(nearest(cy.getElementById(chosen.path.at(-1) || chosen.id), next) || nodes);
      }
    }

    function nearest(from, ids) {
      const here = from.position();
      const distance = (node) => Math.hypot(node.position("x") - here.x, node.position("y") - here.y);
      const choices = cy.nodes().filter((node) => ids.has(node.id())).sort((a, b) => distance(a) - distance(b));
      return choices.length ? choices[0] : null;
    }

    function focusFirst(selector) {
      const first = box.querySelector(selector);
      if (first) first.focus({ preventScroll: true });
    }

    function idle() {
      chosen = null;
      mark(null);
      show(element("p", { className: "mb-0 text-body-secondary", text: words.hint }));
    }

    function all() {
      return element("a", { href: menu.orders, text: words.all });
    }

    // The orders department `id` can give now: a link to each form, or for an order that
    // needs another department, a button that asks for it.
    function open(id, focus) {
      chosen = null;
      mark(null);
      const department = menu.departments[id];
      const title = say(words.title, { department: department.name });
      const buttons = element("div", { className: "d-flex flex-wrap gap-1 my-1" });
      department.actions.forEach((action) => {
        if (action.targets || action.routes) {
          const button = element("button", {
            type: "button", className: "btn btn-sm btn-primary", "data-order": action.kind,
            text: `${action.label}…`,
          });
          button.addEventListener("click", () => ask(id, action, []));
          buttons.append(button);
        } else {
          buttons.append(element("a", {
            className: "btn btn-sm btn-outline-primary", href: action.href,
            "data-order": action.kind, text: action.label,
          }));
        }
      });
      const none = department.actions.length
        ? [] : [element("p", { className: "mb-1", text: say(words.none, { department: department.name }) })];
      show(element("h2", { className: "h6 mb-1", text: title }), ...none, buttons, all());
      if (focus) focusFirst("[data-order]");
    }

    // The choices that complete `action` from department `id` (a move: those that go on
    // along `path`), highlighted on the map and listed as links.
    function ask(id, action, path, status) {
      chosen = { id, action, path };
      const choices = options(chosen);
      const next = action.routes
        ? new Set(choices.filter((r) => r.path.length > path.length).map((r) => r.path[path.length]))
        : new Set(choices.map((t) => t.node));
      mark(id, path, next);
      bringIntoView(new Set([id, ...path, ...next]), next);
      // A move whose way so far is a whole route: it may stop here.
      const here = action.routes && path.length
        ? choices.find((route) => route.path.length === path.length) : null;
      const list = element("ul", { className: "mb-1" });
      choices.filter((choice) => choice !== here).forEach((choice) => {
        list.append(element("li", {}, element("a", { href: choice.href, "data-choice": "", text: choice.label })));
      });
      const cancel = element("button", { type: "button", className: "btn btn-sm btn-outline-secondary", text: words.cancel });
      cancel.addEventListener("click", () => open(id, true));
      const lines = [element("h2", { className: "h6 mb-1", text: `${name(id)}: ${action.label}` })];
      if (status) lines.push(element("p", { className: "mb-1 text-danger", text: status }));
      lines.push(element("p", { className: "mb-1", "data-order-prompt": "", text: action.prompt }));
      if (here) {
        lines.push(element("p", { className: "mb-1" }, element("a", {
          className: "btn btn-sm btn-primary", href: here.href, "data-choice": "",
          text: say(words.stop, { path: here.label }),
        })));
      } else if (path.length) {
        const so = [id, ...path].map(name).join(ARROW);
        lines.push(element("p", { className: "mb-1", text: say(words.path, { path: so }) }));
      }
      if (list.children.length) lines.push(element("p", { className: "mb-0", text: words.choices }), list);
      const form = element("a", { className: "me-3", href: action.href, text: words.form });
      lines.push(element("div", { className: "d-flex flex-wrap align-items-center" }, form, cancel));
      show(...lines);
      focusFirst("[data-choice]");
    }

    // A move's routes that go along `path` (all of them to start with); another order's
    // targets.
    function options({ action, path }) {
      if (!action.routes) return action.targets;
      return action.routes.filter((route) => path.every((id, i) => route.path[i] === id));
    }

    // A department tapped on the map or chosen in the row of departments.
    function tapped(id, focus) {
      if (!chosen) {
        if (menu.departments[id]) open(id, focus);
        else idle();
        return;
      }
      const { action, path } = chosen;
      if (id === chosen.id && !path.length) return open(id, focus);
      if (action.routes) return step(id);
      const matches = action.targets.filter((target) => target.node === id);
      if (matches.length === 1) return window.location.assign(matches[0].href);
      if (matches.length > 1) return ask(chosen.id, { ...action, targets: matches }, path);
      if (menu.departments[id]) return open(id, focus);
      ask(chosen.id, action, path, say(words.not_target, { department: name(id) }));
    }

    // A move: the tapped department is the next on the way, or (tapped again) its end.
    function step(id) {
      const { action, path } = chosen;
      const last = path[path.length - 1];
      const going = id === last ? path : [...path, id];
      const routes = action.routes.filter((route) => going.every((node, i) => route.path[i] === node));
      const whole = routes.find((route) => route.path.length === going.length);
      if (!routes.length) {
        if (menu.departments[id]) return open(id, false);
        return ask(chosen.id, action, path, say(words.not_target, { department: name(id) }));
      }
      if (whole && (routes.length === 1 || id === last)) return window.location.assign(whole.href);
      ask(chosen.id, action, going);
    }

    highlight(cy);
    cy.on("tap", "node", (event) => tapped(event.target.id(), false));
    const row = section.querySelector("[data-map-nodes]");
    if (row) {
      row.addEventListener("click", (event) => {
        const button = event.target.closest("[data-map-node]");
        if (button) tapped(button.dataset.mapNode, true);
      });
    }
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && chosen) open(chosen.id, true);
    });
    idle();
  }

  document.querySelectorAll("[data-map-orders][data-orders-url]").forEach((box) => {
    const section = box.closest("[data-map-section]");
    const container = section && section.querySelector("[data-board-map]");
    if (!container) return;
    const menu = fetchMenu(box.dataset.ordersUrl);
    const start = (cy) => menu.then((data) => {
      if (cy && data && Object.keys(data.departments || {}).length) bind(section, box, cy, data);
    });
    if (container.dataset.mapReady) {
      start((window.boardMaps || []).find((cy) => cy.container() === container));
    } else {
      container.addEventListener("boardmap:ready", (event) => start(event.detail.cy), { once: true });
    }
  });
})();

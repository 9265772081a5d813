// The move and reinforcement forms (RULES R42): a move drops one token at each department
// its path passes before the last, so only the drop fields of the chosen path are shown.
// A route's value is "start,passed...,last". Without this script every drop field stays,
// and the server ignores the drops a path does not pass (web/order_forms.py MoveForm).
(function () {
  "use strict";
  const form = document.getElementById("order-form");
  const route = form && form.querySelector("select[name=route]");
  if (!route) return;
  const drops = Array.from(form.querySelectorAll("select[name^=drop_]"));
  const box = (field) => document.getElementById(`div_${field.id}`) || field.parentElement;
  const show = () => {
    const passed = route.value ? route.value.split(",").length - 2 : 0;
    for (const field of drops) {
      box(field).hidden = Number(field.name.slice("drop_".length)) > passed;
    }
  };
  route.addEventListener("change", show);
  show();
})();

// A new campaign's time zone: when the GM's profile names none, the form would say UTC; the
// browser's own zone is the likelier answer (setup/new.html, web/setup.py marks the field).
(function () {
  "use strict";
  var input = document.querySelector("input[data-browser-zone]");
  if (!input || input.value !== "UTC") return;
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  if (zone) input.value = zone;
})();
